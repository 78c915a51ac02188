// Teams+DataModel.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Teams` data model (Teams): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum TeamsModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Teams",
        entities: [
            describeMember(),
            describeTeam(),
        ],
        fetchRequestTemplates: fetchRequestTemplates)

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "Teams")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { TeamsModel.model }
    }

    /// The model's fetch request templates (each entity class has a typed function per template of its entity).
    private static let fetchRequestTemplates: [FetchRequestTemplateDescription] = [
        FetchRequestTemplateDescription(name: "allTeams", entityName: "Team"),
        FetchRequestTemplateDescription(name: "membersNamed", entityName: "Member", predicateFormat: "name BEGINSWITH[cd] $PREFIX"),
        FetchRequestTemplateDescription(name: "membersOfTeam", entityName: "Member", predicateFormat: "team.name == $TEAM_NAME AND hours >= $MINIMUM_HOURS", fetchLimit: 100),
    ]

    /// The `Member` entity.
    private static func describeMember() -> EntityDescription {
        EntityDescription(
            name: "Member",
            parentName: nil,
            isAbstract: false,
            objectType: Member.self,
            attributes: [
                AttributeDescription(name: "hours", type: .integer32, isOptional: false, defaultValue: .integer(0)),
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "searchName", type: .string, isDerived: true, derivationExpression: "canonical:(name)"),
                AttributeDescription(name: "teamName", type: .string, isDerived: true, derivationExpression: "team.name"),
            ],
            relationships: [
                RelationshipDescription(name: "team", destinationEntityName: "Team", inverseName: "members", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Member.hours: "hours"
                case \Member.name: "name"
                case \Member.searchName: "searchName"
                case \Member.teamName: "teamName"
                case \Member.team: "team"
                default: nil
                }
            })
    }

    /// The `Team` entity.
    private static func describeTeam() -> EntityDescription {
        EntityDescription(
            name: "Team",
            parentName: nil,
            isAbstract: false,
            objectType: Team.self,
            attributes: [
                AttributeDescription(name: "averageHours", type: .double, isDerived: true, derivationExpression: "members.@avg.hours"),
                AttributeDescription(name: "longestHours", type: .integer32, isDerived: true, derivationExpression: "members.@max.hours"),
                AttributeDescription(name: "memberCount", type: .integer64, isDerived: true, derivationExpression: "members.@count"),
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "shortestHours", type: .integer32, isDerived: true, derivationExpression: "members.@min.hours"),
                AttributeDescription(name: "totalHours", type: .integer64, isDerived: true, derivationExpression: "members.@sum.hours"),
                AttributeDescription(name: "updatedAt", type: .date, isDerived: true, derivationExpression: "now()"),
                AttributeDescription(name: "upperName", type: .string, isDerived: true, derivationExpression: "uppercase:(name)"),
            ],
            relationships: [
                RelationshipDescription(name: "members", destinationEntityName: "Member", inverseName: "team", isToMany: true, deleteRule: .cascade),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            fetchedProperties: [
                FetchedPropertyDescription(name: "busyMembers", destinationEntityName: "Member", predicateFormat: "team == $FETCH_SOURCE AND hours >= 40"),
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Team.averageHours: "averageHours"
                case \Team.longestHours: "longestHours"
                case \Team.memberCount: "memberCount"
                case \Team.name: "name"
                case \Team.shortestHours: "shortestHours"
                case \Team.totalHours: "totalHours"
                case \Team.updatedAt: "updatedAt"
                case \Team.upperName: "upperName"
                case \Team.members: "members"
                default: nil
                }
            })
    }
}
