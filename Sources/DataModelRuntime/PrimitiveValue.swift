import Foundation

/// An attribute value as the store holds it: one of SQLite's storage classes.
///
/// Core Data's encodings: integers and Booleans (0/1) are `integer`; Float, Double and Date
/// (seconds since 2001-01-01 00:00:00 UTC) are `real`; String and URI (absolute string) are
/// `text`; Binary, UUID (16 bytes) and Transformable (JSON of a `Codable` value) are `blob`.
/// Decimal with at most 15 significant digits is `text` holding its decimal digits (`"3.14"`):
/// bound to the `DECIMAL` column, whose numeric affinity makes SQLite store it as an INTEGER or
/// REAL (as Core Data's own stores hold decimals), exactly, since a double keeps 15 significant
/// digits. A Decimal with more digits is `blob` holding its decimal text, which SQLite never
/// converts, so no digit is lost (Core Data itself would round such a value to a double). Both
/// are read back as text.
public enum PrimitiveValue: Sendable, Hashable {
    /// No value.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A Swift type a generated attribute property can have: it converts to and from the
/// ``PrimitiveValue`` stored for it.
///
/// The runtime conforms `String`, `Int16`, `Int32`, `Int64`, `Bool`, `Double`, `Float`, `Date`,
/// `Data`, `Decimal`, `UUID` and `URL`. `Codable` transformables use
/// ``ManagedObject/transformableValue(for:)`` instead.
public protocol StorableValue {
    /// The value as stored.
    var primitiveValue: PrimitiveValue { get }
    /// The value read from the store, or `nil` when `primitiveValue` cannot represent one.
    init?(primitiveValue: PrimitiveValue)
    /// What a non-optional property reads before it has a value (`0`, `""`, …).
    static var emptyValue: Self { get }
    /// Attribute `key` of `object` as this type: `Self(primitiveValue: object.primitiveValue(for: key))`, which is
    /// the default. The standard types read the attribute in place instead (no ``PrimitiveValue`` in between).
    static func storedValue(of object: ManagedObject, for key: String) -> Self?
}

extension StorableValue {
    /// `Self(primitiveValue: object.primitiveValue(for: key))`.
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> Self? {
        Self(primitiveValue: object.primitiveValue(for: key))
    }
}

extension String: StorableValue {
    /// `text`.
    @inlinable
    public var primitiveValue: PrimitiveValue { .text(self) }
    /// From `text` (numbers are written out).
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        switch primitiveValue {
        case .text(let text): self = text
        case .integer(let value): self = String(value)
        case .real(let value): self = String(value)
        case .blob(let data): self = String(decoding: data, as: UTF8.self)
        case .null: return nil
        }
    }
    /// `""`.
    public static var emptyValue: String { "" }
    /// Read in place (``ManagedObject/textValue(for:)``).
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> String? {
        object.textValue(for: key)
    }
}

extension PrimitiveValue {
    /// The value as an integer, when it is a number or numeric text. An integer's own case inlined: the generated
    /// getters of integer fields read through it.
    @inlinable
    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return convertedInteger
    }

    /// ``integer`` for the cases other than `.integer`.
    @usableFromInline
    var convertedInteger: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): value.isFinite ? Int64(exactly: value.rounded(.towardZero)) : nil
        case .text(let text): Int64(text) ?? Double(text).flatMap { PrimitiveValue.real($0).integer }
        case .blob, .null: nil
        }
    }

    /// The value as a double, when it is a number or numeric text. A real's own case inlined (see ``integer``).
    @inlinable
    var real: Double? {
        if case .real(let value) = self { return value }
        return convertedReal
    }

    /// ``real`` for the cases other than `.real`.
    @usableFromInline
    var convertedReal: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .text(let text): Double(text)
        case .blob, .null: nil
        }
    }
}

/// Integers are stored as SQLite integers; reading clamps to the type's range.
extension StorableValue where Self: FixedWidthInteger {
    /// `integer`.
    @inlinable
    public var primitiveValue: PrimitiveValue { .integer(Int64(clamping: self)) }
    /// From a number, clamped to the type's range.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        guard let value = primitiveValue.integer else { return nil }
        self.init(clamping: value)
    }
    /// `0`.
    @inlinable
    public static var emptyValue: Self { 0 }
    /// Read in place (``ManagedObject/integerValue(for:)``), clamped to the type's range.
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> Self? {
        object.integerValue(for: key).map { Self(clamping: $0) }
    }
}

extension Int16: StorableValue {}
extension Int32: StorableValue {}
extension Int64: StorableValue {}
extension Int: StorableValue {}

extension Bool: StorableValue {
    /// `integer` 0 or 1.
    @inlinable
    public var primitiveValue: PrimitiveValue { .integer(self ? 1 : 0) }
    /// Non-zero is `true`.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        guard let value = primitiveValue.integer else { return nil }
        self = value != 0
    }
    /// `false`.
    public static var emptyValue: Bool { false }
    /// Read in place (``ManagedObject/integerValue(for:)``).
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> Bool? {
        object.integerValue(for: key).map { $0 != 0 }
    }
}

extension Double: StorableValue {
    /// `real`.
    @inlinable
    public var primitiveValue: PrimitiveValue { .real(self) }
    /// From a number.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        guard let value = primitiveValue.real else { return nil }
        self = value
    }
    /// `0`.
    public static var emptyValue: Double { 0 }
    /// Read in place (``ManagedObject/realValue(for:)``).
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> Double? {
        object.realValue(for: key)
    }
}

extension Float: StorableValue {
    /// `real`.
    @inlinable
    public var primitiveValue: PrimitiveValue { .real(Double(self)) }
    /// From a number.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        guard let value = primitiveValue.real else { return nil }
        self = Float(value)
    }
    /// `0`.
    public static var emptyValue: Float { 0 }
    /// Read in place (``ManagedObject/realValue(for:)``).
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> Float? {
        object.realValue(for: key).map { Float($0) }
    }
}

extension Date: StorableValue {
    /// `real`: seconds since 2001-01-01 00:00:00 UTC.
    @inlinable
    public var primitiveValue: PrimitiveValue { .real(timeIntervalSinceReferenceDate) }
    /// From seconds since 2001-01-01.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        guard let value = primitiveValue.real else { return nil }
        self.init(timeIntervalSinceReferenceDate: value)
    }
    /// 2001-01-01 00:00:00 UTC.
    public static var emptyValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
    /// Read in place (``ManagedObject/realValue(for:)``).
    @inlinable
    public static func storedValue(of object: ManagedObject, for key: String) -> Date? {
        object.realValue(for: key).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}

extension Data: StorableValue {
    /// `blob`.
    @inlinable
    public var primitiveValue: PrimitiveValue { .blob(self) }
    /// From `blob` (text as its UTF-8 bytes).
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        switch primitiveValue {
        case .blob(let data): self = data
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
    /// Empty data.
    public static var emptyValue: Data { Data() }
}

extension Decimal: StorableValue {
    /// `text` with the decimal digits, or `blob` with them beyond 15 significant digits (see
    /// ``PrimitiveValue``).
    @inlinable
    public var primitiveValue: PrimitiveValue {
        let text = description
        var significant = 0
        var leading = true
        for character in text where character.isNumber {
            if leading && character == "0" { continue }
            leading = false
            significant += 1
        }
        return significant <= 15 ? .text(text) : .blob(Data(text.utf8))
    }
    /// From decimal text (or its bytes) or a number.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        let text: String
        switch primitiveValue {
        case .text(let value): text = value
        case .blob(let data): text = String(decoding: data, as: UTF8.self)
        case .integer(let value):
            self = Decimal(value)
            return
        case .real(let value):
            self = Decimal(value)
            return
        case .null: return nil
        }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        self = value
    }
    /// `0`.
    public static var emptyValue: Decimal { 0 }
}

extension UUID: StorableValue {
    /// `blob`: the 16 bytes.
    @inlinable
    public var primitiveValue: PrimitiveValue {
        withUnsafeBytes(of: uuid) { .blob(Data($0)) }
    }
    /// From 16 bytes (or the textual form).
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        switch primitiveValue {
        case .blob(let data):
            guard data.count == 16 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
            self.init(uuid: bytes)
        case .text(let text):
            guard let value = UUID(uuidString: text) else { return nil }
            self = value
        default: return nil
        }
    }
    /// The all-zero UUID.
    public static var emptyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: StorableValue {
    /// `text`: the absolute string.
    @inlinable
    public var primitiveValue: PrimitiveValue { .text(absoluteString) }
    /// From its absolute string.
    @inlinable
    public init?(primitiveValue: PrimitiveValue) {
        guard case .text(let text) = primitiveValue, let url = URL(string: text) else { return nil }
        self = url
    }
    /// `file:///`.
    public static var emptyValue: URL { URL(fileURLWithPath: "/") }
}

extension AttributeType {
    /// The stored form of a typed default value, or `.null` when there is none.
    func primitiveDefault(_ value: AttributeValue?) -> PrimitiveValue {
        switch value {
        case nil: return .null
        case .integer(let number):
            return self == .double || self == .float || self == .date ? .real(Double(number)) : .integer(number)
        case .double(let number), .date(let number):
            return isInteger ? PrimitiveValue.real(number).integer.map { .integer($0) } ?? .null : .real(number)
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .string(let text): return .text(text)
        case .decimal(let text):
            // Checked and trimmed by the generator's parser: the exact conversion, not a parse of model text.
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))?.primitiveValue ?? .null
        case .uuid(let text):
            return UUID(uuidString: text)?.primitiveValue ?? .null
        }
    }
}
