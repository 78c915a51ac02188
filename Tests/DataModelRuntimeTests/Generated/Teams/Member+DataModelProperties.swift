// Member+DataModelProperties.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Member {
    /// A request for every `Member` object.
    public static func fetchRequest() -> FetchRequest<Member> {
        FetchRequest<Member>(entityName: "Member")
    }

    public var hours: Int32 {
        get { readsFields(attribute: 0) ? fieldValue(_hoursField, nullBit: 0) ?? .emptyValue : value(for: "hours") }
        set { setValue(newValue, for: "hours") }
    }

    public var name: String? {
        get { readsFields(attribute: 1) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    /// Derived: computed when the context saves (read-only).
    public var searchName: String? {
        readsFields(attribute: 2) ? fieldValue(_searchNameField) : value(for: "searchName")
    }

    /// Derived: computed when the context saves (read-only).
    public var teamName: String? {
        readsFields(attribute: 3) ? fieldValue(_teamNameField) : value(for: "teamName")
    }

    public var team: Team? {
        get {
            readsFields(relationship: 0)
                ? fieldObject(relationship: 0, _teamField, nullBit: 1) : toOne(for: "team")
        }
        set { setToOne(newValue, for: "team") }
    }

    /// The model's fetch request template `membersNamed`: the `Member` objects matching `name BEGINSWITH[cd] $PREFIX`.
    public static func fetchRequestMembersNamed(prefix: String) -> FetchRequest<Member> {
        TeamsModel.model.fetchRequest(fromTemplate: "membersNamed", substitutionVariables: ["PREFIX": prefix])
    }

    /// The model's fetch request template `membersOfTeam`: the `Member` objects matching `team.name == $TEAM_NAME AND hours >= $MINIMUM_HOURS`.
    public static func fetchRequestMembersOfTeam(minimumHours: Int32, teamName: String?) -> FetchRequest<Member> {
        TeamsModel.model.fetchRequest(fromTemplate: "membersOfTeam", substitutionVariables: ["MINIMUM_HOURS": minimumHours, "TEAM_NAME": teamName])
    }
}
