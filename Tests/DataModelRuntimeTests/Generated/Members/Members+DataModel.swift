// Members+DataModel.swift — generated from Members.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Members` data model (Members): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum MembersModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Members",
        entities: [
            describeMemberEntity(),
        ])

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "Members")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { MembersModel.model }
    }

    /// The `MemberEntity` entity.
    private static func describeMemberEntity() -> EntityDescription {
        EntityDescription(
            name: "MemberEntity",
            parentName: nil,
            isAbstract: false,
            objectType: MemberEntity.self,
            attributes: [
                AttributeDescription(name: "age", type: .integer16, isOptional: false, defaultValue: .integer(0)),
                AttributeDescription(name: "name", type: .string, isOptional: false),
                AttributeDescription(name: "rating", type: .integer32, isOptional: false, defaultValue: .integer(5)),
                AttributeDescription(name: "score", type: .double, isOptional: false, defaultValue: .double(2.5)),
            ],
            relationships: [
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \MemberEntity.age: "age"
                case \MemberEntity.name: "name"
                case \MemberEntity.rating: "rating"
                case \MemberEntity.score: "score"
                default: nil
                }
            })
    }
}
