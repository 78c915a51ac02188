// Set+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Set {
    /// A request for every `Set` object.
    public static func fetchRequest() -> FetchRequest<Set> {
        FetchRequest<Set>(entityName: "Set")
    }

    public var count: Int64 {
        get { readsFields(attribute: 0) ? fieldValue(_countField, nullBit: 0) ?? .emptyValue : value(for: "count") }
        set { setValue(newValue, for: "count") }
    }

    public var name: String {
        get { readsFields(attribute: 1) ? fieldValue(_nameField) ?? .emptyValue : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var members: Swift.Set<Data> {
        get { toManySet(for: "members") }
        set { setToManySet(newValue, for: "members") }
    }

    public var orders: Swift.Set<Order> {
        get { toManySet(for: "orders") }
        set { setToManySet(newValue, for: "orders") }
    }
}

// MARK: Generated accessors for members
extension Set {
    public func addToMembers(_ value: Data) {
        addObject(value, to: "members")
    }

    public func removeFromMembers(_ value: Data) {
        removeObject(value, from: "members")
    }

    public func addToMembers(_ values: some Sequence<Data>) {
        addObjects(values, to: "members")
    }

    public func removeFromMembers(_ values: some Sequence<Data>) {
        removeObjects(values, from: "members")
    }
}

// MARK: Generated accessors for orders
extension Set {
    public func addToOrders(_ value: Order) {
        addObject(value, to: "orders")
    }

    public func removeFromOrders(_ value: Order) {
        removeObject(value, from: "orders")
    }

    public func addToOrders(_ values: some Sequence<Order>) {
        addObjects(values, to: "orders")
    }

    public func removeFromOrders(_ values: some Sequence<Order>) {
        removeObjects(values, from: "orders")
    }
}
