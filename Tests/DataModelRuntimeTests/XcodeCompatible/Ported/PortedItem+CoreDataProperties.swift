// PortedItem+CoreDataProperties.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension PortedItem {
    /// A request for every `PortedItem` object.
    public static func fetchRequest() -> FetchRequest<PortedItem> {
        FetchRequest<PortedItem>(entityName: "PortedItem")
    }

    public var count: Int16 {
        get { readsFields(attribute: 0) ? fieldValue(_countField, nullBit: 0) ?? .emptyValue : value(for: "count") }
        set { setValue(newValue, for: "count") }
    }

    public var isDone: Bool {
        get { readsFields(attribute: 1) ? fieldValue(_isDoneField, nullBit: 1) ?? .emptyValue : value(for: "isDone") }
        set { setValue(newValue, for: "isDone") }
    }

    public var price: Double {
        get { readsFields(attribute: 2) ? fieldValue(_priceField, nullBit: 2) ?? .emptyValue : value(for: "price") }
        set { setValue(newValue, for: "price") }
    }

    public var rating: Int32? {
        get { readsFields(attribute: 3) ? fieldValue(_ratingField, nullBit: 3) : value(for: "rating") }
        set { setValue(newValue, for: "rating") }
    }

    public var serial: Int64 {
        get { readsFields(attribute: 4) ? fieldValue(_serialField, nullBit: 4) ?? .emptyValue : value(for: "serial") }
        set { setValue(newValue, for: "serial") }
    }

    public var timestamp: Date? {
        get { readsFields(attribute: 5) ? fieldValue(_timestampField, nullBit: 5) : value(for: "timestamp") }
        set { setValue(newValue, for: "timestamp") }
    }

    public var title: String? {
        get { readsFields(attribute: 6) ? fieldValue(_titleField) : value(for: "title") }
        set { setValue(newValue, for: "title") }
    }

    public var list: PortedList? {
        get {
            readsFields(relationship: 0)
                ? fieldObject(relationship: 0, _listField, nullBit: 6) : toOne(for: "list")
        }
        set { setToOne(newValue, for: "list") }
    }

    public var tags: NSSet? {
        get { toManyNSSet(for: "tags") }
        set { setToManyNSSet(newValue, for: "tags") }
    }
}

// MARK: Generated accessors for tags
extension PortedItem {
    public func addToTags(_ value: PortedTag) {
        addObject(value, to: "tags")
    }

    public func removeFromTags(_ value: PortedTag) {
        removeObject(value, from: "tags")
    }

    public func addToTags(_ values: some Sequence<PortedTag>) {
        addObjects(values, to: "tags")
    }

    public func removeFromTags(_ values: some Sequence<PortedTag>) {
        removeObjects(values, from: "tags")
    }
}
