//
//  PortedItem+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension PortedItem {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<PortedItem> {
        return NSFetchRequest<PortedItem>(entityName: "PortedItem")
    }

    @NSManaged public var count: Int16
    @NSManaged public var isDone: Bool
    @NSManaged public var price: Double
    @NSManaged public var rating: NSNumber?
    @NSManaged public var serial: Int64
    @NSManaged public var timestamp: Date?
    @NSManaged public var title: String?
    @NSManaged public var list: PortedList?
    @NSManaged public var tags: NSSet?

}

// MARK: Generated accessors for tags
extension PortedItem {

    @objc(addTagsObject:)
    @NSManaged public func addToTags(_ value: PortedTag)

    @objc(removeTagsObject:)
    @NSManaged public func removeFromTags(_ value: PortedTag)

    @objc(addTags:)
    @NSManaged public func addToTags(_ values: NSSet)

    @objc(removeTags:)
    @NSManaged public func removeFromTags(_ values: NSSet)

}

extension PortedItem : Identifiable {

}
