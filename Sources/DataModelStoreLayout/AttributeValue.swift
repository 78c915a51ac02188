/// An attribute's default value or bound, typed: what ``AttributeValueParser`` makes of the
/// model's text.
///
/// The validator checks the model's texts with the parser, the generator writes the parsed values
/// into generated code as typed literals (`.integer(5)`, `.double(2.5)`), and the runtime takes
/// them as they are: no consumer parses a model string a second time, so all agree on `" 5"`.
public enum AttributeValue: Sendable, Hashable {
    /// An integer (Integer 16/32/64 defaults; lengths, the bounds of String, URI and Binary).
    case integer(Int64)
    /// A finite number (Double and Float defaults; numeric bounds).
    case double(Double)
    /// A Decimal: its text, checked to be a finite number and trimmed (Decimal needs Foundation,
    /// which this target does not import: the runtime makes it a `Decimal`).
    case decimal(String)
    /// A Boolean.
    case boolean(Bool)
    /// Text, exactly as the model holds it (String and URI defaults).
    case string(String)
    /// A date: seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// A UUID: its canonical text (upper-case, `8-4-4-4-12` hexadecimal digits).
    case uuid(String)

    /// The value as a number, for range checks and the runtime's bounds: integers, numbers,
    /// decimals and dates; `nil` for the others.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value), .date(let value): value
        case .decimal(let text): Double(text)
        case .boolean, .string, .uuid: nil
        }
    }
}

/// What a value text of the model is: the default value, or a bound (minimum, maximum).
public enum AttributeValueRole: String, Sendable, Hashable, CustomStringConvertible {
    /// `defaultValueString` or `defaultDateTimeInterval`.
    case defaultValue = "default"
    /// `minValueString` or `minDateTimeInterval`.
    case minimum
    /// `maxValueString` or `maxDateTimeInterval`.
    case maximum

    /// `default`, `minimum` or `maximum`, as diagnostics name it.
    public var description: String { rawValue }

    /// Whether the text is a bound.
    public var isBound: Bool { self != .defaultValue }
}

/// The one parser of the model's default, minimum and maximum texts.
///
/// The rules, the same for the validator, the generator and (through generated code) the runtime:
/// - Spaces and tabs around a value are ignored, except for String and URI defaults, which are
///   taken verbatim: `" 5"` is the `Integer 32` default 5, `" 2.5 "` the `Double` default 2.5.
/// - Integers: a whole number within the type's range (`3.0` is 3). Double, Float, Decimal: a
///   finite number. Boolean: `YES`, `NO`, `true`, `false`, `1` or `0`, in any case. Date: a
///   finite number of seconds since 2001. UUID: `8-4-4-4-12` hexadecimal digits.
/// - Bounds of numbers and dates are numbers; bounds of String, URI, Binary and Transformable are
///   lengths (whole numbers ≥ 0); other types have no bounds and no defaults.
///
/// ```swift
/// AttributeValueParser.parse(" 5", as: .integer32, role: .defaultValue)   // .valid(.integer(5))
/// AttributeValueParser.parse("5.5", as: .integer32, role: .defaultValue)  // .invalid("is not an integer")
/// ```
public enum AttributeValueParser {
    /// The outcome of parsing a value text.
    public enum Outcome: Hashable, Sendable {
        /// The text is valid; the value is `nil` when the type has no such value (a Binary
        /// default, a Boolean bound), which Core Data ignores.
        case valid(AttributeValue?)
        /// The text is invalid, with the reason as a sentence fragment (`is not an integer`).
        case invalid(String)

        /// The parsed value, or `nil` when invalid or absent.
        public var value: AttributeValue? {
            if case .valid(let value) = self { return value }
            return nil
        }
    }

    /// Parses `text`, a `role` value of an attribute of `type`.
    public static func parse(_ text: String, as type: AttributeType, role: AttributeValueRole) -> Outcome {
        switch type {
        case .integer16, .integer32, .integer64:
            let trimmed = trimmed(text)
            guard let value = Int64(trimmed) ?? wholeNumber(trimmed) else { return .invalid("is not an integer") }
            guard let range = type.integerRange, range.contains(value) else {
                return .invalid("is out of range for \(type.rawValue)")
            }
            return .valid(.integer(value))
        case .double, .float, .decimal:
            let trimmed = trimmed(text)
            guard let value = Double(trimmed), value.isFinite else { return .invalid("is not a number") }
            return .valid(type == .decimal && !role.isBound ? .decimal(String(trimmed)) : .double(value))
        case .date:
            guard let seconds = seconds(text) else { return .invalid("is not a number of seconds") }
            return .valid(.date(seconds))
        case .string, .binary, .uri, .transformable:
            if role.isBound {
                guard let length = Int64(trimmed(text)), length >= 0 else { return .invalid("is not a length") }
                return .valid(.integer(length))
            }
            switch type {
            case .string: return .valid(.string(text))
            case .uri: return isURI(text) ? .valid(.string(text)) : .invalid("is not a URL")
            default: return .valid(nil)
            }
        case .boolean:
            if role.isBound { return .valid(nil) }
            switch trimmed(text).lowercased() {
            case "yes", "true", "1": return .valid(.boolean(true))
            case "no", "false", "0": return .valid(.boolean(false))
            default: return .invalid("is not a Boolean (YES or NO)")
            }
        case .uuid:
            if role.isBound { return .valid(nil) }
            guard let uuid = canonicalUUID(trimmed(text)) else { return .invalid("is not a UUID") }
            return .valid(.uuid(uuid))
        case .objectID, .composite, .undefined:
            return .valid(nil)
        }
    }

    /// A `…DateTimeInterval` text: finite seconds since 2001, spaces and tabs around ignored.
    public static func seconds(_ text: String) -> Double? {
        guard let value = Double(trimmed(text)), value.isFinite else { return nil }
        return value
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmed(_ text: String) -> Substring {
        var slice = text[...]
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }

    /// A number with no fraction (`3.0`, `1e3`) as an integer.
    private static func wholeNumber(_ text: Substring) -> Int64? {
        guard let value = Double(text), value.isFinite, value.rounded() == value, abs(value) < 9.2e18 else {
            return nil
        }
        return Int64(value)
    }

    /// `text` upper-cased when it is `8-4-4-4-12` hexadecimal digits.
    private static func canonicalUUID(_ text: Substring) -> String? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.utf8.count) == [8, 4, 4, 4, 12],
            groups.allSatisfy({ $0.utf8.allSatisfy(isHexDigit) })
        else { return nil }
        return text.uppercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// Whether `text` can be a URL: not empty, with no spaces, control characters or characters
    /// a URL never holds unescaped (`"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`).
    private static func isURI(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.value > 0x20 && scalar.value != 0x7F && !"\"<>\\^`{|}".unicodeScalars.contains(scalar)
            }
    }
}
