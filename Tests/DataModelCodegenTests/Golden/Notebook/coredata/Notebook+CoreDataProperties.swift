//
//  Notebook+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Notebook {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Notebook> {
        return NSFetchRequest<Notebook>(entityName: "Notebook")
    }

    @NSManaged public var title: String?
    @NSManaged public var notes: NSSet?
    @NSManaged public var owner: NSManagedObject?

}

// MARK: Generated accessors for notes
extension Notebook {

    @objc(addNotesObject:)
    @NSManaged public func addToNotes(_ value: NSManagedObject)

    @objc(removeNotesObject:)
    @NSManaged public func removeFromNotes(_ value: NSManagedObject)

    @objc(addNotes:)
    @NSManaged public func addToNotes(_ values: NSSet)

    @objc(removeNotes:)
    @NSManaged public func removeFromNotes(_ values: NSSet)

}

extension Notebook : Identifiable {

}
