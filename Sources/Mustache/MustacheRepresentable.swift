/// A type that can provide a Mustache context, so typed Swift values can be rendered directly.
///
/// ```swift
/// struct Entity: MustacheRepresentable {
///     var name: String
///     var attributes: [Attribute]
///     var mustacheValue: MustacheValue {
///         ["name": name.mustacheValue, "attributes": attributes.mustacheValue]
///     }
/// }
/// ```
public protocol MustacheRepresentable {
    /// The value templates see for this instance.
    var mustacheValue: MustacheValue { get }
}

extension MustacheValue: MustacheRepresentable {
    /// The value itself.
    public var mustacheValue: MustacheValue { self }
}

extension String: MustacheRepresentable {
    /// The string as a string value.
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Substring: MustacheRepresentable {
    /// The substring as a string value.
    public var mustacheValue: MustacheValue { .string(String(self)) }
}

extension Bool: MustacheRepresentable {
    /// The Boolean as a Boolean value.
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Int: MustacheRepresentable {
    /// The integer as an integer value.
    public var mustacheValue: MustacheValue { .int(self) }
}

extension Int64: MustacheRepresentable {
    /// The integer as an integer value, or a double when it does not fit an `Int`.
    public var mustacheValue: MustacheValue {
        Int(exactly: self).map(MustacheValue.int) ?? .double(Double(self))
    }
}

extension Int32: MustacheRepresentable {
    /// The integer as an integer value.
    public var mustacheValue: MustacheValue { .int(Int(self)) }
}

extension Double: MustacheRepresentable {
    /// The number as a floating-point value.
    public var mustacheValue: MustacheValue { .double(self) }
}

extension Optional: MustacheRepresentable where Wrapped: MustacheRepresentable {
    /// The wrapped value's Mustache value, or null for `nil`.
    public var mustacheValue: MustacheValue {
        switch self {
        case .some(let wrapped): wrapped.mustacheValue
        case .none: .null
        }
    }
}

extension Array: MustacheRepresentable where Element: MustacheRepresentable {
    /// A list of the elements' Mustache values.
    public var mustacheValue: MustacheValue { .array(map(\.mustacheValue)) }
}

extension Dictionary: MustacheRepresentable where Key == String, Value: MustacheRepresentable {
    /// A dictionary of the values' Mustache values.
    public var mustacheValue: MustacheValue { .dictionary(mapValues(\.mustacheValue)) }
}
