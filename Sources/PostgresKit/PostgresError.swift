import Foundation

/// An error reported by PostgreSQL or by its client library: what failed, the server's `SQLSTATE` code when it
/// sent one, and the SQL that failed.
///
/// ```swift
/// do { try connection.execute(#"INSERT INTO "T" VALUES (1)"#) } catch where error.sqlState == .uniqueViolation { … }
/// ```
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable {
        /// The connection could not be made, or was lost: the statement may not have run.
        case connection
        /// The server refused or failed the statement (`sqlState` says why).
        case statement
        /// A value could not be converted (a parameter or a column of an unexpected type).
        case conversion
    }

    /// What kind of failure.
    public var kind: Kind
    /// The server's five-character `SQLSTATE`, e.g. `23505` (unique violation); `nil` when it sent none.
    public var sqlState: SQLState?
    /// The message, as the server or the client library wrote it (one line, trailing newline removed).
    public var message: String
    /// The SQL that failed, when a statement failed.
    public var sql: String?

    /// Creates an error.
    public init(kind: Kind, sqlState: SQLState? = nil, message: String, sql: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        var text = message
        while let last = text.last, last.isNewline || last == " " { text.removeLast() }
        self.message = text
        self.sql = sql
    }

    public var description: String {
        var text = "PostgreSQL"
        switch kind {
        case .connection: text += " connection error"
        case .statement: text += " error"
        case .conversion: text += " conversion error"
        }
        if let sqlState { text += " \(sqlState.rawValue)" }
        text += ": " + message
        if let sql { text += " (in: \(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql))" }
        return text
    }

    public var errorDescription: String? { description }
}

/// A five-character `SQLSTATE` code. The ones a store reacts to are named.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code, e.g. `"23505"`.
    public let rawValue: String

    /// Wraps a code.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `23505`: a unique constraint was violated.
    public static let uniqueViolation = SQLState(rawValue: "23505")
    /// `23503`: a foreign key constraint was violated.
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    /// `40001`: a serializable transaction could not be serialized; retry it.
    public static let serializationFailure = SQLState(rawValue: "40001")
    /// `40P01`: the transaction was chosen as a deadlock victim; retry it.
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    /// `42P01`: the table does not exist.
    public static let undefinedTable = SQLState(rawValue: "42P01")
    /// `3F000`: the schema does not exist (or no schema is selected to create in: the `search_path` names none that
    /// exists).
    public static let invalidSchemaName = SQLState(rawValue: "3F000")
    /// `42601`: a syntax error.
    public static let syntaxError = SQLState(rawValue: "42601")
    /// `57P01`: the server is shutting down or an administrator ended the session.
    public static let adminShutdown = SQLState(rawValue: "57P01")

    /// The class: the first two characters (`23` integrity constraint violation, `08` connection exception …).
    public var errorClass: String { String(rawValue.prefix(2)) }

    public var description: String { rawValue }
}
