//
//  Member+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Member {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Member> {
        return NSFetchRequest<Member>(entityName: "Member")
    }

    @NSManaged public var hours: Int32
    @NSManaged public var name: String?
    @NSManaged public var searchName: String?
    @NSManaged public var teamName: String?
    @NSManaged public var team: Team?

    /// The model's fetch request template `membersNamed`: the `Member` objects matching `name BEGINSWITH[cd] $PREFIX`.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestMembersNamed(prefix: String) -> NSFetchRequest<Member> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "membersNamed", substitutionVariables: ["PREFIX": prefix as Any]) as? NSFetchRequest<Member>
        else {
            fatalError("the managed object model has no fetch request template " + "membersNamed")
        }
        return request
    }

    /// The model's fetch request template `membersOfTeam`: the `Member` objects matching `team.name == $TEAM_NAME AND hours >= $MINIMUM_HOURS`.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestMembersOfTeam(minimumHours: Int32, teamName: String?) -> NSFetchRequest<Member> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "membersOfTeam", substitutionVariables: ["MINIMUM_HOURS": minimumHours as Any, "TEAM_NAME": teamName as Any]) as? NSFetchRequest<Member>
        else {
            fatalError("the managed object model has no fetch request template " + "membersOfTeam")
        }
        return request
    }

}

extension Member : Identifiable {

}
