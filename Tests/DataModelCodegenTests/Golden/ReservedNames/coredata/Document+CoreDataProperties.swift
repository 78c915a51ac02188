//
//  Document+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Document {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Document> {
        return NSFetchRequest<Document>(entityName: "Document")
    }

    @NSManaged public var mimeType: String?
    @NSManaged public var pageCount: Int16
    @NSManaged public var attachments: NSOrderedSet?

    /// The model's fetch request template `AllDocuments`: every `Document` object.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestAllDocuments() -> NSFetchRequest<Document> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "AllDocuments", substitutionVariables: [:]) as? NSFetchRequest<Document>
        else {
            fatalError("the managed object model has no fetch request template " + "AllDocuments")
        }
        return request
    }

}

// MARK: Generated accessors for attachments
extension Document {

    @objc(insertObject:inAttachmentsAtIndex:)
    @NSManaged public func insertIntoAttachments(_ value: Photo, at idx: Int)

    @objc(removeObjectFromAttachmentsAtIndex:)
    @NSManaged public func removeFromAttachments(at idx: Int)

    @objc(insertAttachments:atIndexes:)
    @NSManaged public func insertIntoAttachments(_ values: [Photo], at indexes: NSIndexSet)

    @objc(removeAttachmentsAtIndexes:)
    @NSManaged public func removeFromAttachments(at indexes: NSIndexSet)

    @objc(replaceObjectInAttachmentsAtIndex:withObject:)
    @NSManaged public func replaceAttachments(at idx: Int, with value: Photo)

    @objc(replaceAttachmentsAtIndexes:withAttachments:)
    @NSManaged public func replaceAttachments(at indexes: NSIndexSet, with values: [Photo])

    @objc(addAttachmentsObject:)
    @NSManaged public func addToAttachments(_ value: Photo)

    @objc(removeAttachmentsObject:)
    @NSManaged public func removeFromAttachments(_ value: Photo)

    @objc(addAttachments:)
    @NSManaged public func addToAttachments(_ values: NSOrderedSet)

    @objc(removeAttachments:)
    @NSManaged public func removeFromAttachments(_ values: NSOrderedSet)

}
