//
//  Set+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Set {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Set> {
        return NSFetchRequest<Set>(entityName: "Set")
    }

    @NSManaged public var count: Int64
    @NSManaged public var name: String?
    @NSManaged public var members: NSSet?
    @NSManaged public var orders: NSSet?

}

// MARK: Generated accessors for members
extension Set {

    @objc(addMembersObject:)
    @NSManaged public func addToMembers(_ value: Data)

    @objc(removeMembersObject:)
    @NSManaged public func removeFromMembers(_ value: Data)

    @objc(addMembers:)
    @NSManaged public func addToMembers(_ values: NSSet)

    @objc(removeMembers:)
    @NSManaged public func removeFromMembers(_ values: NSSet)

}

// MARK: Generated accessors for orders
extension Set {

    @objc(addOrdersObject:)
    @NSManaged public func addToOrders(_ value: Order)

    @objc(removeOrdersObject:)
    @NSManaged public func removeFromOrders(_ value: Order)

    @objc(addOrders:)
    @NSManaged public func addToOrders(_ values: NSSet)

    @objc(removeOrders:)
    @NSManaged public func removeFromOrders(_ values: NSSet)

}

extension Set : Identifiable {

}
