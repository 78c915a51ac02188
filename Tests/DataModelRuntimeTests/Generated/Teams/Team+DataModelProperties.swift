// Team+DataModelProperties.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Team {
    /// A request for every `Team` object.
    public static func fetchRequest() -> FetchRequest<Team> {
        FetchRequest<Team>(entityName: "Team")
    }

    /// Derived: computed when the context saves (read-only).
    public var averageHours: Double? {
        readsFields(attribute: 0) ? fieldValue(_averageHoursField, nullBit: 0) : value(for: "averageHours")
    }

    /// Derived: computed when the context saves (read-only).
    public var longestHours: Int32? {
        readsFields(attribute: 1) ? fieldValue(_longestHoursField, nullBit: 1) : value(for: "longestHours")
    }

    /// Derived: computed when the context saves (read-only).
    public var memberCount: Int64? {
        readsFields(attribute: 2) ? fieldValue(_memberCountField, nullBit: 2) : value(for: "memberCount")
    }

    public var name: String? {
        get { readsFields(attribute: 3) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    /// Derived: computed when the context saves (read-only).
    public var shortestHours: Int32? {
        readsFields(attribute: 4) ? fieldValue(_shortestHoursField, nullBit: 3) : value(for: "shortestHours")
    }

    /// Derived: computed when the context saves (read-only).
    public var totalHours: Int64? {
        readsFields(attribute: 5) ? fieldValue(_totalHoursField, nullBit: 4) : value(for: "totalHours")
    }

    /// Derived: computed when the context saves (read-only).
    public var updatedAt: Date? {
        readsFields(attribute: 6) ? fieldValue(_updatedAtField, nullBit: 5) : value(for: "updatedAt")
    }

    /// Derived: computed when the context saves (read-only).
    public var upperName: String? {
        readsFields(attribute: 7) ? fieldValue(_upperNameField) : value(for: "upperName")
    }

    public var members: Set<Member> {
        get { toManySet(for: "members") }
        set { setToManySet(newValue, for: "members") }
    }

    /// The fetched property `busyMembers`: the `Member` objects matching `team == $FETCH_SOURCE AND hours >= 40`.
    /// Fetched on first access, kept until the object is refreshed (`refresh(_:mergeChanges:)`).
    public var busyMembers: [Member] {
        fetchedObjects(for: "busyMembers")
    }

    /// The model's fetch request template `allTeams`: every `Team` object.
    public static func fetchRequestAllTeams() -> FetchRequest<Team> {
        TeamsModel.model.fetchRequest(fromTemplate: "allTeams", substitutionVariables: [:])
    }
}

// MARK: Generated accessors for members
extension Team {
    public func addToMembers(_ value: Member) {
        addObject(value, to: "members")
    }

    public func removeFromMembers(_ value: Member) {
        removeObject(value, from: "members")
    }

    public func addToMembers(_ values: some Sequence<Member>) {
        addObjects(values, to: "members")
    }

    public func removeFromMembers(_ values: some Sequence<Member>) {
        removeObjects(values, from: "members")
    }
}
