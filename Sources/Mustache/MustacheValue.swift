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
    /// An object that answers lookups itself; sections push it like a dictionary.
    ///
    /// Use it for large typed contexts: only the keys a template uses are ever computed, and no
    /// dictionary is built. Two object values are equal when they are the same instance.
    case object(any MustacheObject)
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
    /// A function the template calls (see ``MustacheLambda``); truthy, and never a context.
    case lambda(MustacheLambda)

    /// Whether a section over this value renders, following Mustache's truthiness rules.
    public var isTruthy: Bool {
        switch self {
        case .bool(let value): value
        case .null: false
        case .array(let elements): !elements.isEmpty
        case .string, .int, .double, .dictionary, .object, .lambda: true
        }
    }

    /// The text an interpolation tag renders for this value, before any HTML escaping.
    ///
    /// Lists, dictionaries and lambdas have no textual form here and render as the empty string (a
    /// template renders a lambda by calling it).
    public var interpolatedText: String {
        switch self {
        case .string(let value): value
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): Self.format(value)
        case .array, .dictionary, .object, .null, .lambda: ""
        }
    }

    /// The value stored under `key` when this value is a dictionary.
    public subscript(key: String) -> MustacheValue? {
        switch self {
        case .dictionary(let entries): entries[key]
        case .object(let object): object.mustacheValue(forKey: key)
        default: nil
        }
    }

    /// The value stored under `key` when this value is a dictionary or an object.
    public subscript(key: MustacheKey) -> MustacheValue? {
        switch self {
        case .dictionary(let entries): entries[key.name]
        case .object(let object): object.mustacheValue(for: key)
        default: nil
        }
    }

    public static func == (lhs: MustacheValue, rhs: MustacheValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a == b
        case (.object(let a), .object(let b)): a === b
        case (.lambda(let a), .lambda(let b)): a === b
        case (.null, .null): true
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(0); hasher.combine(value)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .int(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value): hasher.combine(3); hasher.combine(value)
        case .array(let value): hasher.combine(4); hasher.combine(value)
        case .dictionary(let value): hasher.combine(5); hasher.combine(value)
        case .object(let value): hasher.combine(6); hasher.combine(ObjectIdentifier(value))
        case .null: hasher.combine(7)
        case .lambda(let value): hasher.combine(8); hasher.combine(value)
        }
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

/// A context object that answers a template's lookups itself, computing only what is asked for.
///
/// ```swift
/// final class EntityObject: MustacheObject {
///     let name: String
///     init(name: String) { self.name = name }
///     func mustacheValue(forKey key: String) -> MustacheValue? {
///         key == "name" ? .string(name) : nil
///     }
/// }
/// ```
public protocol MustacheObject: AnyObject, Sendable {
    /// The value for `key`, or nil when this object has no such key (lookup then continues outward).
    func mustacheValue(forKey key: String) -> MustacheValue?

    /// The value for a key resolved when the template compiled; the renderer calls this one.
    ///
    /// The default calls ``mustacheValue(forKey:)``. Implement it with a static ``MustacheKeyTable``
    /// to answer without hashing the name.
    func mustacheValue(for key: MustacheKey) -> MustacheValue?

    /// The table of every key this object can answer, or nil when it does not say.
    ///
    /// The renderer reads it once when it pushes the object onto the context stack: a key missing
    /// from the table then moves on to the next context without a call, and a key in it is answered
    /// by ``mustacheValue(atKeyPosition:)``. The default is nil; ``KeyedMustacheObject`` returns
    /// its ``KeyedMustacheObject/keys``.
    var mustacheKeyTable: MustacheKeyTable? { get }

    /// The value for the key at `position` in ``mustacheKeyTable``, or nil for none.
    ///
    /// Called only with positions of that table. The default returns nil.
    func mustacheValue(atKeyPosition position: Int) -> MustacheValue?

    /// Appends the text of the key at `position` in ``mustacheKeyTable`` to `output`, exactly as an
    /// unescaped interpolation of ``mustacheValue(atKeyPosition:)`` would, without making the value.
    ///
    /// The renderer calls it for `{{name}}` tags with a single name when nothing is escaped, before asking
    /// for the value: text written straight into the output needs no string of its own. Return
    /// ``MustacheTextWrite/notText`` (the default) to be asked for the value instead, and
    /// ``MustacheTextWrite/absent`` when the value is nil.
    func writeMustacheText(atKeyPosition position: Int, to output: inout MustacheOutputBuffer) -> MustacheTextWrite
}

/// What ``MustacheObject/writeMustacheText(atKeyPosition:to:)`` did.
public enum MustacheTextWrite: Sendable {
    /// The text is written.
    case written
    /// The object has no value for the key: the lookup goes on outward, as for a nil value.
    case absent
    /// Nothing is written: ask for the value.
    case notText
}

extension MustacheObject {
    /// Looks the key's name up with ``mustacheValue(forKey:)``.
    public func mustacheValue(for key: MustacheKey) -> MustacheValue? {
        mustacheValue(forKey: key.name)
    }

    /// No table: every lookup asks ``mustacheValue(for:)``.
    public var mustacheKeyTable: MustacheKeyTable? { nil }

    /// No value: objects without a key table are never asked by position.
    public func mustacheValue(atKeyPosition position: Int) -> MustacheValue? { nil }

    /// Nothing written: the renderer asks for the value.
    public func writeMustacheText(atKeyPosition position: Int, to output: inout MustacheOutputBuffer)
        -> MustacheTextWrite
    {
        .notText
    }
}
