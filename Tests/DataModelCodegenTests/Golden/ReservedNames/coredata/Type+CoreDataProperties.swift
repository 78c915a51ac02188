//
//  Type+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension `Type` {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<`Type`> {
        return NSFetchRequest<`Type`>(entityName: "Type")
    }

    @NSManaged public var binary: Foundation.Data?
    @NSManaged public var boolean: Bool
    @NSManaged public var booleanObject: NSNumber?
    @NSManaged public var date: Foundation.Date?
    @NSManaged public var decimal: NSDecimalNumber?
    @NSManaged public var double: Double
    @NSManaged public var float: Float
    @NSManaged public var int16: Int16
    @NSManaged public var int32: NSNumber?
    @NSManaged public var int64: Int64
    @NSManaged public var objectRef: NSManagedObjectID?
    @NSManaged public var string: String?
    @NSManaged public var undefined: NSObject?
    @NSManaged public var uri: Foundation.URL?
    @NSManaged public var uuid: UUID?
    @NSManaged public var classes: NSSet?

    /// The model's fetch request template `DistinctTypes`: the `Type` objects matching `string BEGINSWITH[cd] $PREFIX`.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestDistinctTypes(prefix: String) -> NSFetchRequest<`Type`> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "DistinctTypes", substitutionVariables: ["PREFIX": prefix as Any]) as? NSFetchRequest<`Type`>
        else {
            fatalError("the managed object model has no fetch request template " + "DistinctTypes")
        }
        return request
    }

    /// The model's fetch request template `TypeIDs`: the `Type` objects matching `int16 BETWEEN {1, 10}`.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestTypeIDs() -> NSFetchRequest<`Type`> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "TypeIDs", substitutionVariables: [:]) as? NSFetchRequest<`Type`>
        else {
            fatalError("the managed object model has no fetch request template " + "TypeIDs")
        }
        return request
    }

}

// MARK: Generated accessors for classes
extension `Type` {

    @objc(addClassesObject:)
    @NSManaged public func addToClasses(_ value: Class)

    @objc(removeClassesObject:)
    @NSManaged public func removeFromClasses(_ value: Class)

    @objc(addClasses:)
    @NSManaged public func addToClasses(_ values: NSSet)

    @objc(removeClasses:)
    @NSManaged public func removeFromClasses(_ values: NSSet)

}

extension `Type` : Identifiable {

}
