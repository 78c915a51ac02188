// Notebook+DataModelProperties.swift — generated from Notebook.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Notebook {
    /// A request for every `Notebook` object.
    public static func fetchRequest() -> FetchRequest<Notebook> {
        FetchRequest<Notebook>(entityName: "Notebook")
    }

    public var title: String {
        get { readsFields(attribute: 0) ? fieldValue(_titleField) ?? .emptyValue : value(for: "title") }
        set { setValue(newValue, for: "title") }
    }

    public var notes: Set<ManagedObject> {
        get { toManySet(for: "notes") }
        set { setToManySet(newValue, for: "notes") }
    }

    public var owner: ManagedObject? {
        get {
            readsFields(relationship: 1)
                ? fieldObject(relationship: 1, _ownerField, nullBit: 0) : toOne(for: "owner")
        }
        set { setToOne(newValue, for: "owner") }
    }
}

// MARK: Generated accessors for notes
extension Notebook {
    public func addToNotes(_ value: ManagedObject) {
        addObject(value, to: "notes")
    }

    public func removeFromNotes(_ value: ManagedObject) {
        removeObject(value, from: "notes")
    }

    public func addToNotes(_ values: some Sequence<ManagedObject>) {
        addObjects(values, to: "notes")
    }

    public func removeFromNotes(_ values: some Sequence<ManagedObject>) {
        removeObjects(values, from: "notes")
    }
}
