// Type+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension `Type` {
    /// A request for every `Type` object.
    public static func fetchRequest() -> FetchRequest<`Type`> {
        FetchRequest<`Type`>(entityName: "Type")
    }

    public var binary: Foundation.Data? {
        get { readsFields(attribute: 0) ? fieldValue(_binaryField) : value(for: "binary") }
        set { setValue(newValue, for: "binary") }
    }

    public var boolean: Bool {
        get { readsFields(attribute: 1) ? fieldValue(_booleanField, nullBit: 0) ?? .emptyValue : value(for: "boolean") }
        set { setValue(newValue, for: "boolean") }
    }

    public var booleanObject: Bool? {
        get { readsFields(attribute: 2) ? fieldValue(_booleanObjectField, nullBit: 1) : value(for: "booleanObject") }
        set { setValue(newValue, for: "booleanObject") }
    }

    public var date: Foundation.Date? {
        get { readsFields(attribute: 3) ? fieldValue(_dateField, nullBit: 2) : value(for: "date") }
        set { setValue(newValue, for: "date") }
    }

    public var decimal: Decimal? {
        get { readsFields(attribute: 4) ? fieldValue(_decimalField) : value(for: "decimal") }
        set { setValue(newValue, for: "decimal") }
    }

    public var double: Double? {
        get { readsFields(attribute: 5) ? fieldValue(_doubleField, nullBit: 3) : value(for: "double") }
        set { setValue(newValue, for: "double") }
    }

    public var float: Float {
        get { readsFields(attribute: 6) ? fieldValue(_floatField, nullBit: 4) ?? .emptyValue : value(for: "float") }
        set { setValue(newValue, for: "float") }
    }

    public var int16: Int16 {
        get { readsFields(attribute: 7) ? fieldValue(_int16Field, nullBit: 5) ?? .emptyValue : value(for: "int16") }
        set { setValue(newValue, for: "int16") }
    }

    public var int32: Int32? {
        get { readsFields(attribute: 8) ? fieldValue(_int32Field, nullBit: 6) : value(for: "int32") }
        set { setValue(newValue, for: "int32") }
    }

    public var int64: Int64 {
        get { readsFields(attribute: 9) ? fieldValue(_int64Field, nullBit: 7) ?? .emptyValue : value(for: "int64") }
        set { setValue(newValue, for: "int64") }
    }

    public var objectRef: ObjectID? {
        get { transformableValue(for: "objectRef") }
        set { setTransformableValue(newValue, for: "objectRef") }
    }

    public var string: String {
        get { readsFields(attribute: 11) ? fieldValue(_stringField) ?? .emptyValue : value(for: "string") }
        set { setValue(newValue, for: "string") }
    }

    public var undefined: Foundation.Data? {
        get { value(for: "undefined") }
        set { setValue(newValue, for: "undefined") }
    }

    public var uri: Foundation.URL? {
        get { readsFields(attribute: 13) ? fieldValue(_uriField) : value(for: "uri") }
        set { setValue(newValue, for: "uri") }
    }

    public var uuid: UUID {
        get { readsFields(attribute: 14) ? fieldValue(_uuidField) ?? .emptyValue : value(for: "uuid") }
        set { setValue(newValue, for: "uuid") }
    }

    public var classes: Swift.Set<Class> {
        get { toManySet(for: "classes") }
        set { setToManySet(newValue, for: "classes") }
    }

    /// The model's fetch request template `DistinctTypes`: the `Type` objects matching `string BEGINSWITH[cd] $PREFIX`.
    public static func fetchRequestDistinctTypes(prefix: String) -> FetchRequest<`Type`> {
        ReservedNamesModel.model.fetchRequest(fromTemplate: "DistinctTypes", substitutionVariables: ["PREFIX": prefix])
    }

    /// The model's fetch request template `TypeIDs`: the `Type` objects matching `int16 BETWEEN {1, 10}`.
    public static func fetchRequestTypeIDs() -> FetchRequest<`Type`> {
        ReservedNamesModel.model.fetchRequest(fromTemplate: "TypeIDs", substitutionVariables: [:])
    }
}

// MARK: Generated accessors for classes
extension `Type` {
    public func addToClasses(_ value: Class) {
        addObject(value, to: "classes")
    }

    public func removeFromClasses(_ value: Class) {
        removeObject(value, from: "classes")
    }

    public func addToClasses(_ values: some Sequence<Class>) {
        addObjects(values, to: "classes")
    }

    public func removeFromClasses(_ values: some Sequence<Class>) {
        removeObjects(values, from: "classes")
    }
}
