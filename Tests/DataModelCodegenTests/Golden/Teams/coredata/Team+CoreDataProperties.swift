//
//  Team+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Team {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Team> {
        return NSFetchRequest<Team>(entityName: "Team")
    }

    @NSManaged public var averageHours: Double
    @NSManaged public var longestHours: Int32
    @NSManaged public var memberCount: Int64
    @NSManaged public var name: String?
    @NSManaged public var shortestHours: Int32
    @NSManaged public var totalHours: Int64
    @NSManaged public var updatedAt: Date?
    @NSManaged public var upperName: String?
    @NSManaged public var members: NSSet?

    /// The fetched property `busyMembers`: the `Member` objects matching `team == $FETCH_SOURCE AND hours >= 40`.
    public var busyMembers: [Member] {
        value(forKey: "busyMembers") as? [Member] ?? []
    }

    /// The model's fetch request template `allTeams`: every `Team` object.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestAllTeams() -> NSFetchRequest<Team> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "allTeams", substitutionVariables: [:]) as? NSFetchRequest<Team>
        else {
            fatalError("the managed object model has no fetch request template " + "allTeams")
        }
        return request
    }

}

// MARK: Generated accessors for members
extension Team {

    @objc(addMembersObject:)
    @NSManaged public func addToMembers(_ value: Member)

    @objc(removeMembersObject:)
    @NSManaged public func removeFromMembers(_ value: Member)

    @objc(addMembers:)
    @NSManaged public func addToMembers(_ values: NSSet)

    @objc(removeMembers:)
    @NSManaged public func removeFromMembers(_ values: NSSet)

}

extension Team : Identifiable {

}
