//
//  Class+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Class {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Class> {
        return NSFetchRequest<Class>(entityName: "Class")
    }

    @NSManaged public var `default`: String?
    @NSManaged public var `extension`: String?
    @NSManaged public var `func`: Int32
    @NSManaged public var `import`: Bool
    @NSManaged public var `protocol`: String?
    @NSManaged public var `return`: Double
    @NSManaged public var assets: NSSet?
    @NSManaged public var type: `Type`?

    /// The fetched property `untitledAssets`: the `Asset` objects matching `title == nil`.
    public var untitledAssets: [Asset] {
        value(forKey: "untitledAssets") as? [Asset] ?? []
    }

}

// MARK: Generated accessors for assets
extension Class {

    @objc(addAssetsObject:)
    @NSManaged public func addToAssets(_ value: Asset)

    @objc(removeAssetsObject:)
    @NSManaged public func removeFromAssets(_ value: Asset)

    @objc(addAssets:)
    @NSManaged public func addToAssets(_ values: NSSet)

    @objc(removeAssets:)
    @NSManaged public func removeFromAssets(_ values: NSSet)

}

extension Class : Identifiable {

}
