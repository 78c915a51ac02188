//
//  PortedTag+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension PortedTag {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<PortedTag> {
        return NSFetchRequest<PortedTag>(entityName: "PortedTag")
    }

    @NSManaged public var name: String?
    @NSManaged public var items: NSSet?

}

// MARK: Generated accessors for items
extension PortedTag {

    @objc(addItemsObject:)
    @NSManaged public func addToItems(_ value: PortedItem)

    @objc(removeItemsObject:)
    @NSManaged public func removeFromItems(_ value: PortedItem)

    @objc(addItems:)
    @NSManaged public func addToItems(_ values: NSSet)

    @objc(removeItems:)
    @NSManaged public func removeFromItems(_ values: NSSet)

}

extension PortedTag : Identifiable {

}
