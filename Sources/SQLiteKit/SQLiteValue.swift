#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value SQLite can store: one of its five storage classes.
///
/// Use it where convenience matters more than speed (tests, ad-hoc queries, bound predicate
/// arguments). Hot loops should use the typed `bind(_:at:)` overloads and column accessors of
/// ``Statement`` instead, which avoid building enums.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO T (A, B) VALUES (?, ?)", arguments: [.integer(1), .text("x")])
/// ```
public enum SQLiteValue: Hashable, Sendable {
    /// `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// The storage class of the value.
    public var storageClass: SQLiteStorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    /// The integer, when the value is `.integer`.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, when the value is `.real` or `.integer`.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The text, when the value is `.text`.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes, when the value is `.blob`.
    public var blobValue: Data? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

/// SQLite's storage classes, as `sqlite3_column_type` reports them.
public enum SQLiteStorageClass: Int32, Hashable, Sendable {
    /// `SQLITE_INTEGER`.
    case integer = 1
    /// `SQLITE_FLOAT`.
    case real = 2
    /// `SQLITE_TEXT`.
    case text = 3
    /// `SQLITE_BLOB`.
    case blob = 4
    /// `SQLITE_NULL`.
    case null = 5
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// An integer literal is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal is `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A string literal is `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
}
