// Document+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Document {

    public var mimeType: String? {
        get { readsFields(attribute: 2) ? fieldValue(_mimeTypeField) : value(for: "mimeType") }
        set { setValue(newValue, for: "mimeType") }
    }

    public var pageCount: Int16 {
        get { readsFields(attribute: 3) ? fieldValue(_pageCountField, nullBit: 2) ?? .emptyValue : value(for: "pageCount") }
        set { setValue(newValue, for: "pageCount") }
    }

    public var attachments: [Photo] {
        get { toManyArray(for: "attachments") }
        set { setToManyArray(newValue, for: "attachments") }
    }

    /// The model's fetch request template `AllDocuments`: every `Document` object.
    public static func fetchRequestAllDocuments() -> FetchRequest<Document> {
        ReservedNamesModel.model.fetchRequest(fromTemplate: "AllDocuments", substitutionVariables: [:])
    }
}

// MARK: Generated accessors for attachments
extension Document {
    public func insertIntoAttachments(_ value: Photo, at index: Int) {
        insertObject(value, at: index, into: "attachments")
    }

    public func removeFromAttachments(at index: Int) {
        removeObject(at: index, from: "attachments")
    }

    public func insertIntoAttachments(_ values: [Photo], at indexes: IndexSet) {
        insertObjects(values, at: indexes, into: "attachments")
    }

    public func removeFromAttachments(at indexes: IndexSet) {
        removeObjects(at: indexes, from: "attachments")
    }

    public func replaceAttachments(at index: Int, with value: Photo) {
        replaceObject(at: index, with: value, in: "attachments")
    }

    public func replaceAttachments(at indexes: IndexSet, with values: [Photo]) {
        replaceObjects(at: indexes, with: values, in: "attachments")
    }

    public func addToAttachments(_ value: Photo) {
        addObject(value, to: "attachments")
    }

    public func removeFromAttachments(_ value: Photo) {
        removeObject(value, from: "attachments")
    }

    public func addToAttachments(_ values: some Sequence<Photo>) {
        addObjects(values, to: "attachments")
    }

    public func removeFromAttachments(_ values: some Sequence<Photo>) {
        removeObjects(values, from: "attachments")
    }
}
