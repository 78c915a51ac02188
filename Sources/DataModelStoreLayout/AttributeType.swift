/// The type of an attribute (`attributeType`), spelled as the model file spells it.
///
/// The one attribute-type vocabulary of the package: the parsed model (`DataModel`), the store
/// layout, the code generator and the runtime (`DataModelRuntime.AttributeType`) all use this enum.
public enum AttributeType: String, Hashable, Sendable, Codable, CaseIterable {
    /// `Integer 16`.
    case integer16 = "Integer 16"
    /// `Integer 32`.
    case integer32 = "Integer 32"
    /// `Integer 64`.
    case integer64 = "Integer 64"
    /// `Decimal`.
    case decimal = "Decimal"
    /// `Double`.
    case double = "Double"
    /// `Float`.
    case float = "Float"
    /// `String`.
    case string = "String"
    /// `Boolean`.
    case boolean = "Boolean"
    /// `Date`: seconds since 2001-01-01 00:00:00 UTC.
    case date = "Date"
    /// `Binary`.
    case binary = "Binary"
    /// `UUID`: 16 bytes.
    case uuid = "UUID"
    /// `URI`: its absolute string.
    case uri = "URI"
    /// `Transformable`: the transformer's bytes.
    case transformable = "Transformable"
    /// `Object ID`: only meaningful in fetch results; never stored.
    case objectID = "Object ID"
    /// `Composite`: stored as one blob by this layout.
    case composite = "Composite"
    /// `Undefined`: transient only; never stored.
    case undefined = "Undefined"

    /// Whether the type is an integer type.
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether the type is numeric (integers, Decimal, Double, Float).
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The type's range for integer types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }

    /// The case's name in Swift (`integer16`, `objectID`): how generated code spells it.
    public var caseName: String {
        switch self {
        case .integer16: "integer16"
        case .integer32: "integer32"
        case .integer64: "integer64"
        case .decimal: "decimal"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .boolean: "boolean"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .transformable: "transformable"
        case .objectID: "objectID"
        case .composite: "composite"
        case .undefined: "undefined"
        }
    }
}

/// What happens to a relationship's destinations when its source object is deleted
/// (`deletionRule`), spelled as the model file spells it.
///
/// The one delete-rule vocabulary of the package: the parsed model, the code generator and the
/// runtime (`DataModelRuntime.DeleteRule`) all use this enum.
public enum DeleteRule: String, Hashable, Sendable, Codable, CaseIterable {
    /// The destinations stay; the deleted object is removed from their inverse.
    case nullify = "Nullify"
    /// The destinations are deleted too.
    case cascade = "Cascade"
    /// Saving fails while the relationship has destinations.
    case deny = "Deny"
    /// Nothing is done: the destinations' inverses keep pointing at the deleted object.
    case noAction = "No Action"

    /// The case's name in Swift (`nullify`, `noAction`): how generated code spells it.
    public var caseName: String {
        switch self {
        case .nullify: "nullify"
        case .cascade: "cascade"
        case .deny: "deny"
        case .noAction: "noAction"
        }
    }
}
