// PortedTag+CoreDataProperties.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension PortedTag {
    /// A request for every `PortedTag` object.
    public static func fetchRequest() -> FetchRequest<PortedTag> {
        FetchRequest<PortedTag>(entityName: "PortedTag")
    }

    public var name: String? {
        get { readsFields(attribute: 0) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var items: NSSet? {
        get { toManyNSSet(for: "items") }
        set { setToManyNSSet(newValue, for: "items") }
    }
}

// MARK: Generated accessors for items
extension PortedTag {
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
