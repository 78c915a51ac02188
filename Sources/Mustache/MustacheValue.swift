/// A value that a Mustache template renders: the context of a template and everything reachable
/// from it.
///
/// Mustache truthiness follows the specification: `false`, `null` and the empty array are falsey;
/// every other value, including the empty string and zero, is truthy.
///
/// ```swift
/// let context: MustacheValue = ["name": "Person", "attributes": [["name": "age"]]]
/// ```
public enum MustacheValue: Sendable, Hashable {
    /// A string; interpolated as is (HTML-escaped when escaping is on).
    case string(String)
    /// A Boolean; `false` is falsey.
    case bool(Bool)
    /// An integer; interpolated without a decimal point.
    case int(Int)
    /// A floating-point number; interpolated in its shortest form (`1.5`, or `2` for `2.0`).
    case double(Double)
    /// A list; a section renders once per element, and the empty list is falsey.
    case array([MustacheValue])
    /// A set of named values; sections push it onto the context stack so names resolve in it.
    case dictionary([String: MustacheValue])
    /// The absence of a value; falsey, and interpolated as the empty string.
    case null

    /// Whether a section over this value renders, following Mustache's truthiness rules.
    public var isTruthy: Bool {
        switch self {
        case .bool(let value): value
        case .null: false
        case .array(let elements): !elements.isEmpty
        case .string, .int, .double, .dictionary: true
        }
    }

    /// The text an interpolation tag renders for this value, before any HTML escaping.
    ///
    /// Lists and dictionaries have no textual form and render as the empty string.
    public var interpolatedText: String {
        switch self {
        case .string(let value): value
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): Self.format(value)
        case .array, .dictionary, .null: ""
        }
    }

    /// The value stored under `key` when this value is a dictionary.
    public subscript(key: String) -> MustacheValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries[key]
    }

    /// Formats a number the way the specification expects: integral values without a decimal
    /// point, others in Swift's shortest round-tripping form.
    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int(value))
        }
        return String(value)
    }
}

extension MustacheValue: ExpressibleByStringLiteral {
    /// Creates a string value from a literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension MustacheValue: ExpressibleByStringInterpolation {}

extension MustacheValue: ExpressibleByBooleanLiteral {
    /// Creates a Boolean value from a literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    /// Creates an integer value from a literal.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    /// Creates a floating-point value from a literal.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    /// Creates a list value from a literal.
    public init(arrayLiteral elements: MustacheValue...) {
        self = .array(elements)
    }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary value from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    /// Creates the null value from `nil`.
    public init(nilLiteral: ()) {
        self = .null
    }
}
