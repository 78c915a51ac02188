// PortedList+CoreDataProperties.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension PortedList {
    /// A request for every `PortedList` object.
    public static func fetchRequest() -> FetchRequest<PortedList> {
        FetchRequest<PortedList>(entityName: "PortedList")
    }

    public var name: String? {
        get { readsFields(attribute: 0) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var items: NSOrderedSet? {
        get { toManyNSOrderedSet(for: "items") }
        set { setToManyNSOrderedSet(newValue, for: "items") }
    }
}

// MARK: Generated accessors for items
extension PortedList {
    public func insertIntoItems(_ value: PortedItem, at index: Int) {
        insertObject(value, at: index, into: "items")
    }

    public func removeFromItems(at index: Int) {
        removeObject(at: index, from: "items")
    }

    public func insertIntoItems(_ values: [PortedItem], at indexes: IndexSet) {
        insertObjects(values, at: indexes, into: "items")
    }

    public func removeFromItems(at indexes: IndexSet) {
        removeObjects(at: indexes, from: "items")
    }

    public func replaceItems(at index: Int, with value: PortedItem) {
        replaceObject(at: index, with: value, in: "items")
    }

    public func replaceItems(at indexes: IndexSet, with values: [PortedItem]) {
        replaceObjects(at: indexes, with: values, in: "items")
    }

    public func addToItems(_ value: PortedItem) {
        addObject(value, to: "items")
    }

    public func removeFromItems(_ value: PortedItem) {
        removeObject(value, from: "items")
    }

    public func addToItems(_ values: some Sequence<PortedItem>) {
        addObjects(values, to: "items")
    }

    public func removeFromItems(_ values: some Sequence<PortedItem>) {
        removeObjects(values, from: "items")
    }
}
