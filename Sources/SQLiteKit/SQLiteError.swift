import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A primary SQLite result code, such as `SQLITE_CONSTRAINT`.
///
/// SQLite reports a *primary* code in the low 8 bits of every result and, when extended result
/// codes are on (SQLiteKit always turns them on), a more specific *extended* code in the full value.
///
/// ```swift
/// if error.resultCode == .constraint { … }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C value, e.g. `19` for `SQLITE_CONSTRAINT`.
    public let rawValue: Int32

    /// Wraps a C result code; extended codes are reduced to their primary code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue & 0xFF
    }

    /// `SQLITE_OK`.
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: generic error, e.g. a syntax error or a missing table.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`.
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: another connection holds a conflicting lock.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`.
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`.
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`.
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_SCHEMA`.
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`.
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: a UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint failed.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE`: a bind index out of range.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_ROW`: `sqlite3_step` produced a row.
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE`: `sqlite3_step` finished.
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    /// SQLite's English description of the code, e.g. `"database is locked"`.
    public var description: String {
        guard let text = sqlite3_errstr(rawValue) else { return "SQLite result code \(rawValue)" }
        return String(cString: text)
    }
}

/// An error reported by SQLite: its result codes, its message and the SQL that failed.
///
/// Bound arguments are deliberately not part of the error, so that logging an error never leaks
/// user data.
///
/// ```swift
/// do { try db.execute(sql: "SELEC 1") }
/// catch let error as SQLiteError {
///     print(error.resultCode, error.sql ?? "")   // error, SELEC 1
/// }
/// ```
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code, e.g. ``ResultCode/constraint``.
    public let resultCode: ResultCode
    /// The extended result code, e.g. `2067` (`SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedResultCode: Int32
    /// SQLite's message, e.g. `UNIQUE constraint failed: T.A`.
    public let message: String
    /// The SQL being prepared or run, when there was one.
    public let sql: String?

    /// Creates an error from its parts; `resultCode` is derived from `extendedResultCode`.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = ResultCode(rawValue: extendedResultCode)
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// A one-line description: code, message and SQL.
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if extendedResultCode != resultCode.rawValue {
            text += " (extended \(extendedResultCode))"
        }
        text += ": \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        return text
    }

    /// The error a connection reports for `code`, with the connection's current message.
    @usableFromInline
    static func from(code: Int32, connection: OpaquePointer?, sql: String?) -> SQLiteError {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        // With extended result codes on, `code` is already extended; the connection's own
        // extended code is only more precise when it agrees on the primary code.
        var extended = code
        if let connection {
            let connectionCode = sqlite3_extended_errcode(connection)
            if connectionCode & 0xFF == code & 0xFF {
                extended = connectionCode
            }
        }
        return SQLiteError(extendedResultCode: extended, message: message, sql: sql)
    }
}

/// `localizedDescription` is ``SQLiteError/description``: code, message and SQL.
extension SQLiteError: LocalizedError {
    public var errorDescription: String? { description }
}
