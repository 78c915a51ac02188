//
//  PortedList+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension PortedList {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<PortedList> {
        return NSFetchRequest<PortedList>(entityName: "PortedList")
    }

    @NSManaged public var name: String?
    @NSManaged public var items: NSOrderedSet?

}

// MARK: Generated accessors for items
extension PortedList {

    @objc(insertObject:inItemsAtIndex:)
    @NSManaged public func insertIntoItems(_ value: PortedItem, at idx: Int)

    @objc(removeObjectFromItemsAtIndex:)
    @NSManaged public func removeFromItems(at idx: Int)

    @objc(insertItems:atIndexes:)
    @NSManaged public func insertIntoItems(_ values: [PortedItem], at indexes: NSIndexSet)

    @objc(removeItemsAtIndexes:)
    @NSManaged public func removeFromItems(at indexes: NSIndexSet)

    @objc(replaceObjectInItemsAtIndex:withObject:)
    @NSManaged public func replaceItems(at idx: Int, with value: PortedItem)

    @objc(replaceItemsAtIndexes:withItems:)
    @NSManaged public func replaceItems(at indexes: NSIndexSet, with values: [PortedItem])

    @objc(addItemsObject:)
    @NSManaged public func addToItems(_ value: PortedItem)

    @objc(removeItemsObject:)
    @NSManaged public func removeFromItems(_ value: PortedItem)

    @objc(addItems:)
    @NSManaged public func addToItems(_ values: NSOrderedSet)

    @objc(removeItems:)
    @NSManaged public func removeFromItems(_ values: NSOrderedSet)

}

extension PortedList : Identifiable {

}
