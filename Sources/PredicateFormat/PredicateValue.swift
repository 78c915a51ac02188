#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A constant in a parsed predicate: a literal of the format string or a substituted argument.
///
/// Format arguments (`%@`, `%d`, …) and substitution variables (`$NAME`) are given as values of this
/// type. Objects the library does not know (a managed object, an object ID) are passed as
/// ``object(_:)`` with an ``ObjectReference`` whose identity the caller chooses and maps back.
///
/// ```swift
/// let predicate = try FormatPredicate(format: "name == %@ AND age > %d", "Ada", 36)
/// ```
public enum PredicateValue: Hashable, Sendable {
    /// `nil` / `NULL`.
    case null
    /// `YES` / `TRUE` or `NO` / `FALSE`.
    case bool(Bool)
    /// An integer literal or an integer argument.
    case integer(Int64)
    /// A floating-point literal or argument. Decimal literals too large for `Int64` are doubles.
    case double(Double)
    /// A decimal number; printed as `CAST("1.25", "NSDecimalNumber")`.
    case decimal(Decimal)
    /// A quoted string.
    case string(String)
    /// A date; printed as `CAST(<seconds since 2001-01-01>, "NSDate")`, as Foundation does.
    case date(Date)
    /// A UUID; printed as `CAST("E621E1F8-…", "NSUUID")`.
    case uuid(UUID)
    /// Binary data; printed as `CAST("<base64>", "NSData")`.
    case data(Data)
    /// A collection: an aggregate literal of constants (`{1, 2, 3}`) or an array or set argument.
    case array([PredicateValue])
    /// An object the library treats as opaque (a managed object or object ID); the runtime maps its identity.
    case object(ObjectReference)
}

/// An opaque object in a predicate, such as a managed object or an object ID, known by an identity.
///
/// The library never looks inside: it compares references by ``identity`` and prints them as
/// `CAST("<identity>", "NSManagedObjectID")`, which parses back to the same reference. A runtime
/// typically uses an object ID's URI form (`x-datamodel://<store>/<Entity>/p1`, Core Data's shape) as the identity.
public struct ObjectReference: Hashable, Sendable, CustomStringConvertible {
    /// The identity the runtime gave the object.
    public var identity: String

    /// Creates a reference with the given identity.
    public init(_ identity: String) {
        self.identity = identity
    }

    /// The identity.
    public var description: String { identity }
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
    /// Creates ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// Creates ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Creates ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates ``array(_:)``.
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
}

extension PredicateValue {
    /// A short name of the value's kind, used in error messages (`"string"`, `"integer"`, …).
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "boolean"
        case .integer: "integer"
        case .double: "floating-point number"
        case .decimal: "decimal number"
        case .string: "string"
        case .date: "date"
        case .uuid: "UUID"
        case .data: "data"
        case .array: "collection"
        case .object: "object"
        }
    }

    /// ``kindName`` with its indefinite article (`"a string"`, `"an integer"`).
    var kindNameWithArticle: String {
        let name = kindName
        return ("aeiou".contains(name.prefix(1)) ? "an " : "a ") + name
    }

    /// Converts a Swift value of unknown type: `nil`, ``PredicateValue``, any
    /// ``PredicateValueConvertible`` (strings, numbers, booleans, dates, UUIDs, data, decimals), and arrays
    /// and sets of those. Returns nil for anything else, such as a runtime's managed object, which the
    /// caller maps to ``object(_:)`` itself.
    public init?(bridging value: Any) {
        if let convertible = value as? any PredicateValueConvertible {
            self = convertible.predicateValue
            return
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else {
                self = .null
                return
            }
            self.init(bridging: wrapped)
            return
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .set {
            var elements: [PredicateValue] = []
            for child in mirror.children {
                guard let element = PredicateValue(bridging: child.value) else { return nil }
                elements.append(element)
            }
            self = .array(elements)
            return
        }
        return nil
    }
}

/// A Swift type that converts to a ``PredicateValue``, for format arguments and substitution variables.
public protocol PredicateValueConvertible {
    /// The value as a predicate constant.
    var predicateValue: PredicateValue { get }
}

extension PredicateValue: PredicateValueConvertible {
    /// The value itself.
    public var predicateValue: PredicateValue { self }
}

extension ObjectReference: PredicateValueConvertible {
    /// ``PredicateValue/object(_:)``.
    public var predicateValue: PredicateValue { .object(self) }
}

extension String: PredicateValueConvertible {
    /// ``PredicateValue/string(_:)``.
    public var predicateValue: PredicateValue { .string(self) }
}

extension Substring: PredicateValueConvertible {
    /// ``PredicateValue/string(_:)``.
    public var predicateValue: PredicateValue { .string(String(self)) }
}

extension Bool: PredicateValueConvertible {
    /// ``PredicateValue/bool(_:)``.
    public var predicateValue: PredicateValue { .bool(self) }
}

extension Int: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int8: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int16: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int32: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int64: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(self) }
}

extension UInt: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``, or ``PredicateValue/double(_:)`` above `Int64.max`.
    public var predicateValue: PredicateValue { UInt64(self).predicateValue }
}

extension UInt8: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension UInt16: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension UInt32: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``.
    public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension UInt64: PredicateValueConvertible {
    /// ``PredicateValue/integer(_:)``, or ``PredicateValue/double(_:)`` above `Int64.max`.
    public var predicateValue: PredicateValue {
        if let exact = Int64(exactly: self) { return .integer(exact) }
        return .double(Double(self))
    }
}

extension Double: PredicateValueConvertible {
    /// ``PredicateValue/double(_:)``.
    public var predicateValue: PredicateValue { .double(self) }
}

extension Float: PredicateValueConvertible {
    /// ``PredicateValue/double(_:)``.
    public var predicateValue: PredicateValue { .double(Double(self)) }
}

extension Decimal: PredicateValueConvertible {
    /// ``PredicateValue/decimal(_:)``.
    public var predicateValue: PredicateValue { .decimal(self) }
}

extension Date: PredicateValueConvertible {
    /// ``PredicateValue/date(_:)``.
    public var predicateValue: PredicateValue { .date(self) }
}

extension UUID: PredicateValueConvertible {
    /// ``PredicateValue/uuid(_:)``.
    public var predicateValue: PredicateValue { .uuid(self) }
}

extension Data: PredicateValueConvertible {
    /// ``PredicateValue/data(_:)``.
    public var predicateValue: PredicateValue { .data(self) }
}

extension Optional: PredicateValueConvertible where Wrapped: PredicateValueConvertible {
    /// The wrapped value's, or ``PredicateValue/null``.
    public var predicateValue: PredicateValue { self?.predicateValue ?? .null }
}

extension Array: PredicateValueConvertible where Element: PredicateValueConvertible {
    /// ``PredicateValue/array(_:)`` of the elements.
    public var predicateValue: PredicateValue { .array(map(\.predicateValue)) }
}

extension Set: PredicateValueConvertible where Element: PredicateValueConvertible {
    /// ``PredicateValue/array(_:)`` of the elements, in ascending order of their printed form so the
    /// result is deterministic.
    public var predicateValue: PredicateValue {
        .array(map(\.predicateValue).sorted { $0.description < $1.description })
    }
}
