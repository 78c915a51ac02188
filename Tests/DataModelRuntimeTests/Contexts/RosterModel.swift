import DataModelRuntime
import Foundation

// A hand-written model for child contexts, undo and object comparisons: an ordered to-many
// (Team.members), a sub-entity (Player ← Person), a to-one whose destination has sub-entities
// (Person.mentor, stored with an entity column), a cascade (Person.badges) and a deny rule
// (Team.trophies).

class RosterPerson: ManagedObject {
    var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }
    var team: RosterTeam? {
        get { toOne(for: "team") }
        set { setToOne(newValue, for: "team") }
    }
    var mentor: RosterPerson? {
        get { toOne(for: "mentor") }
        set { setToOne(newValue, for: "mentor") }
    }
    var mentees: Set<RosterPerson> {
        get { toManySet(for: "mentees") }
        set { setToManySet(newValue, for: "mentees") }
    }
    var badges: Set<RosterBadge> {
        get { toManySet(for: "badges") }
        set { setToManySet(newValue, for: "badges") }
    }
}

final class RosterPlayer: RosterPerson {
    var number: Int16? {
        get { value(for: "number") }
        set { setValue(newValue, for: "number") }
    }
}

final class RosterTeam: ManagedObject {
    var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }
    var members: [RosterPerson] {
        get { toManyArray(for: "members") }
        set { setToManyArray(newValue, for: "members") }
    }
    var trophies: Set<RosterTrophy> {
        get { toManySet(for: "trophies") }
        set { setToManySet(newValue, for: "trophies") }
    }
}

final class RosterBadge: ManagedObject {
    var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }
    var owner: RosterPerson? {
        get { toOne(for: "owner") }
        set { setToOne(newValue, for: "owner") }
    }
}

final class RosterTrophy: ManagedObject {
    var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }
    var team: RosterTeam? {
        get { toOne(for: "team") }
        set { setToOne(newValue, for: "team") }
    }
}

enum RosterModel {
    private static func personProperty(_ keyPath: AnyKeyPath) -> String? {
        switch keyPath {
        case \RosterPerson.name, \RosterPlayer.name: "name"
        case \RosterPerson.team, \RosterPlayer.team: "team"
        case \RosterPerson.mentor, \RosterPlayer.mentor: "mentor"
        case \RosterPerson.mentees, \RosterPlayer.mentees: "mentees"
        case \RosterPerson.badges, \RosterPlayer.badges: "badges"
        case \RosterPlayer.number: "number"
        default: nil
        }
    }

    static let model = ManagedObjectModel(
        name: "Roster",
        entities: [
            EntityDescription(
                name: "Person", objectType: RosterPerson.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(name: "team", destinationEntityName: "Team", inverseName: "members"),
                    RelationshipDescription(name: "mentor", destinationEntityName: "Person", inverseName: "mentees"),
                    RelationshipDescription(
                        name: "mentees", destinationEntityName: "Person", inverseName: "mentor", isToMany: true),
                    RelationshipDescription(
                        name: "badges", destinationEntityName: "Badge", inverseName: "owner", isToMany: true,
                        deleteRule: .cascade),
                ],
                propertyNameForKeyPath: personProperty),
            EntityDescription(
                name: "Player", parentName: "Person", objectType: RosterPlayer.self,
                attributes: [AttributeDescription(name: "number", type: .integer16)],
                propertyNameForKeyPath: personProperty),
            EntityDescription(
                name: "Team", objectType: RosterTeam.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "members", destinationEntityName: "Person", inverseName: "team", isToMany: true,
                        isOrdered: true),
                    RelationshipDescription(
                        name: "trophies", destinationEntityName: "Trophy", inverseName: "team", isToMany: true,
                        deleteRule: .deny),
                ],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \RosterTeam.name: "name"
                    case \RosterTeam.members: "members"
                    case \RosterTeam.trophies: "trophies"
                    default: nil
                    }
                }),
            EntityDescription(
                name: "Badge", objectType: RosterBadge.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [
                    RelationshipDescription(name: "owner", destinationEntityName: "Person", inverseName: "badges")
                ],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \RosterBadge.title: "title"
                    case \RosterBadge.owner: "owner"
                    default: nil
                    }
                }),
            EntityDescription(
                name: "Trophy", objectType: RosterTrophy.self,
                attributes: [AttributeDescription(name: "title", type: .string)],
                relationships: [
                    RelationshipDescription(name: "team", destinationEntityName: "Team", inverseName: "trophies")
                ],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \RosterTrophy.title: "title"
                    case \RosterTrophy.team: "team"
                    default: nil
                    }
                }),
        ])
}
