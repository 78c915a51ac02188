//
//  Data+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Data {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Data> {
        return NSFetchRequest<Data>(entityName: "Data")
    }

    @NSManaged public var archive: Foundation.Data?
    @NSManaged public var bytes: Foundation.Data?
    @NSManaged public var checksum: Int64
    @NSManaged public var remoteID: String?
    @NSManaged public var transformed: NSObject?
    @NSManaged public var values: NSArray?
    @NSManaged public var sets: NSSet?

}

// MARK: Generated accessors for sets
extension Data {

    @objc(addSetsObject:)
    @NSManaged public func addToSets(_ value: Set)

    @objc(removeSetsObject:)
    @NSManaged public func removeFromSets(_ value: Set)

    @objc(addSets:)
    @NSManaged public func addToSets(_ values: NSSet)

    @objc(removeSets:)
    @NSManaged public func removeFromSets(_ values: NSSet)

}

extension Data : Identifiable {

}
