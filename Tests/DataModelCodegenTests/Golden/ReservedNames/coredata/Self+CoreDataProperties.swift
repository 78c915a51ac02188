//
//  Self+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension `Self` {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<`Self`> {
        return NSFetchRequest<`Self`>(entityName: "Self")
    }

    @NSManaged public var childCount: Int64
    @NSManaged public var context: String?
    @NSManaged public var deleted: Bool
    @NSManaged public var entityName: String?
    @NSManaged public var identifier: UUID?
    @NSManaged public var isPinned: Bool
    @NSManaged public var children: NSSet?
    @NSManaged public var followers: NSSet?
    @NSManaged public var following: NSSet?
    @NSManaged public var parent: `Self`?
    @NSManaged public var twin: `Self`?

    /// The fetched property `namesakes`: the `Self` objects matching `entityName == $FETCH_SOURCE.entityName`.
    public var namesakes: [`Self`] {
        value(forKey: "namesakes") as? [`Self`] ?? []
    }

}

// MARK: Generated accessors for children
extension `Self` {

    @objc(addChildrenObject:)
    @NSManaged public func addToChildren(_ value: `Self`)

    @objc(removeChildrenObject:)
    @NSManaged public func removeFromChildren(_ value: `Self`)

    @objc(addChildren:)
    @NSManaged public func addToChildren(_ values: NSSet)

    @objc(removeChildren:)
    @NSManaged public func removeFromChildren(_ values: NSSet)

}

// MARK: Generated accessors for followers
extension `Self` {

    @objc(addFollowersObject:)
    @NSManaged public func addToFollowers(_ value: `Self`)

    @objc(removeFollowersObject:)
    @NSManaged public func removeFromFollowers(_ value: `Self`)

    @objc(addFollowers:)
    @NSManaged public func addToFollowers(_ values: NSSet)

    @objc(removeFollowers:)
    @NSManaged public func removeFromFollowers(_ values: NSSet)

}

// MARK: Generated accessors for following
extension `Self` {

    @objc(addFollowingObject:)
    @NSManaged public func addToFollowing(_ value: `Self`)

    @objc(removeFollowingObject:)
    @NSManaged public func removeFromFollowing(_ value: `Self`)

    @objc(addFollowing:)
    @NSManaged public func addToFollowing(_ values: NSSet)

    @objc(removeFollowing:)
    @NSManaged public func removeFromFollowing(_ values: NSSet)

}

extension `Self` : Identifiable {

}
