// Order+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Order {
    /// A request for every `Order` object.
    public static func fetchRequest() -> FetchRequest<Order> {
        FetchRequest<Order>(entityName: "Order")
    }

    public var group: String? {
        get { readsFields(attribute: 0) ? fieldValue(_groupField) : value(for: "group") }
        set { setValue(newValue, for: "group") }
    }

    public var order: Int32 {
        get { readsFields(attribute: 1) ? fieldValue(_orderField, nullBit: 0) ?? .emptyValue : value(for: "order") }
        set { setValue(newValue, for: "order") }
    }

    public var select: Bool? {
        get { readsFields(attribute: 2) ? fieldValue(_selectField, nullBit: 1) : value(for: "select") }
        set { setValue(newValue, for: "select") }
    }

    public var table: String? {
        get { readsFields(attribute: 3) ? fieldValue(_tableField) : value(for: "table") }
        set { setValue(newValue, for: "table") }
    }

    public var `where`: String? {
        get { readsFields(attribute: 4) ? fieldValue(_whereField) : value(for: "where") }
        set { setValue(newValue, for: "where") }
    }

    public var set: Set? {
        get {
            readsFields(relationship: 0)
                ? fieldObject(relationship: 0, _setField, nullBit: 2) : toOne(for: "set")
        }
        set { setToOne(newValue, for: "set") }
    }

    /// The model's fetch request template `OrdersBySelect`: the `Order` objects matching `select == $SELECTED`.
    public static func fetchRequestOrdersBySelect(selected: Bool?) -> FetchRequest<Order> {
        ReservedNamesModel.model.fetchRequest(fromTemplate: "OrdersBySelect", substitutionVariables: ["SELECTED": selected])
    }
}
