import CSQLite

/// A connection to an SQLite database: run scripts, prepare statements, keep a cache of them.
///
/// `Database` is a class used from one queue at a time (one managed object context's queue);
/// it is deliberately **not** `Sendable`. The connection is opened with `SQLITE_OPEN_NOMUTEX`
/// by default, so SQLite does no locking of its own on it, and closed when the object goes away.
///
/// ```swift
/// let db = try Database(location: .inMemory)
/// try db.execute(sql: """
///     CREATE TABLE "ZITEM" ("Z_PK" INTEGER PRIMARY KEY, "ZNAME" VARCHAR);
///     CREATE INDEX "ZITEM_ZNAME_INDEX" ON "ZITEM" ("ZNAME");
///     """)
/// try db.transaction {
///     let insert = try db.cachedStatement("INSERT INTO ZITEM (ZNAME) VALUES (?)")
///     try insert.bind("Acme", at: 1)
///     try insert.step()
/// }
/// ```
public final class Database {
    /// Where a database lives.
    public enum Location: Sendable, Hashable {
        /// A private in-memory database (`:memory:`), gone when the connection closes.
        case inMemory
        /// A private temporary on-disk database (the empty file name).
        case temporary
        /// A database file at `path`.
        case file(path: String)

        /// The file name handed to `sqlite3_open_v2`.
        var fileName: String {
            switch self {
            case .inMemory: ":memory:"
            case .temporary: ""
            case .file(let path): path
            }
        }
    }

    /// The flags `sqlite3_open_v2` takes.
    public struct OpenFlags: OptionSet, Sendable, Hashable {
        /// The C flags.
        public let rawValue: Int32

        /// Wraps C `SQLITE_OPEN_*` flags.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `SQLITE_OPEN_READONLY`.
        public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// `SQLITE_OPEN_READWRITE`.
        public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// `SQLITE_OPEN_CREATE`.
        public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// `SQLITE_OPEN_URI`: the file name is a `file:` URI.
        public static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
        /// `SQLITE_OPEN_MEMORY`.
        public static let memory = OpenFlags(rawValue: SQLITE_OPEN_MEMORY)
        /// `SQLITE_OPEN_NOMUTEX`: the connection is used from one thread at a time.
        public static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
        /// `SQLITE_OPEN_FULLMUTEX`.
        public static let fullMutex = OpenFlags(rawValue: SQLITE_OPEN_FULLMUTEX)
        /// `SQLITE_OPEN_SHAREDCACHE`.
        public static let sharedCache = OpenFlags(rawValue: SQLITE_OPEN_SHAREDCACHE)
        /// `SQLITE_OPEN_PRIVATECACHE`.
        public static let privateCache = OpenFlags(rawValue: SQLITE_OPEN_PRIVATECACHE)

        /// Read-write, created when missing, no SQLite mutex: the defaults.
        public static let `default`: OpenFlags = [.readWrite, .create, .noMutex]
    }

    /// The `sqlite3 *` connection, for calls SQLiteKit does not wrap.
    public let sqliteConnection: OpaquePointer

    /// Where the database lives.
    public let location: Location

    /// Prepared statements by SQL; see ``cachedStatement(_:)``.
    private var statementCache: [String: Statement] = [:]

    /// Opens (and by default creates) a database.
    ///
    /// Extended result codes are turned on, so errors carry them.
    ///
    /// - Throws: ``SQLiteError`` when SQLite cannot open the database (e.g. ``ResultCode/cannotOpen``).
    public init(location: Location = .inMemory, flags: OpenFlags = .default) throws(SQLiteError) {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(location.fileName, &connection, flags.rawValue, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError.from(code: code, connection: connection, sql: nil)
            if let connection { sqlite3_close_v2(connection) }
            throw error
        }
        sqlite3_extended_result_codes(connection, 1)
        self.sqliteConnection = connection
        self.location = location
    }

    /// Opens (and by default creates) the database file at `path`.
    public convenience init(path: String, flags: OpenFlags = .default) throws(SQLiteError) {
        try self.init(location: .file(path: path), flags: flags)
    }

    deinit {
        // Cached statements are finalized as the cache goes away; sqlite3_close_v2 then keeps the
        // connection alive until any statement still held elsewhere is finalized too.
        statementCache.removeAll()
        sqlite3_close_v2(sqliteConnection)
    }

    /// The rowid of the most recent successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(sqliteConnection)
    }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int {
        Int(sqlite3_changes(sqliteConnection))
    }

    /// The number of rows changed since the connection opened.
    public var totalChanges: Int {
        Int(sqlite3_total_changes(sqliteConnection))
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(sqliteConnection) == 0
    }

    /// Makes SQLite retry for up to `milliseconds` when another connection holds a lock, before
    /// failing with ``ResultCode/busy``. `0` (the default) fails at once.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(sqliteConnection, milliseconds)
    }
}

@available(*, unavailable, message: "A Database belongs to one queue; it is not Sendable.")
extension Database: Sendable {}

// MARK: - Preparing

extension Database {
    /// Prepares one SQL statement, without caching it.
    ///
    /// - Throws: ``SQLiteError`` carrying `sql` when it does not compile, is empty, or holds
    ///   more than one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try makeStatement(sql, persistent: false)
    }

    /// The prepared statement for `sql`, prepared on first use and reused afterwards.
    ///
    /// The same ``Statement`` object comes back for the same SQL; it is rewound
    /// (`sqlite3_reset`) and its bindings cleared each time, so it is ready to bind.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] {
            statement.resetIgnoringErrors()
            statement.clearBindings()
            return statement
        }
        let statement = try makeStatement(sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Drops every cached statement.
    public func clearStatementCache() {
        statementCache.removeAll()
    }

    /// The number of cached statements.
    public var cachedStatementCount: Int {
        statementCache.count
    }

    private func makeStatement(_ sql: String, persistent: Bool) throws(SQLiteError) -> Statement {
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let outcome: Result<Statement, SQLiteError> = sql.withCString { text in
            var handle: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(sqliteConnection, text, -1, flags, &handle, &tail)
            guard code == SQLITE_OK else {
                if let handle { sqlite3_finalize(handle) }
                return .failure(SQLiteError.from(code: code, connection: sqliteConnection, sql: sql))
            }
            guard let handle else {
                return .failure(SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql))
            }
            if let tail, Self.containsStatement(tail, connection: sqliteConnection) {
                sqlite3_finalize(handle)
                return .failure(
                    SQLiteError(
                        extendedResultCode: SQLITE_MISUSE,
                        message: "more than one statement; use execute(sql:) for scripts", sql: sql))
            }
            return .success(Statement(handle: handle, connection: sqliteConnection, sql: sql))
        }
        return try outcome.get()
    }

    /// Whether the SQL at `text` holds a statement (not just spaces, semicolons and comments).
    private static func containsStatement(_ text: UnsafePointer<CChar>, connection: OpaquePointer) -> Bool {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, text, -1, &handle, nil)
        if let handle { sqlite3_finalize(handle) }
        // A syntax error in the remainder still means the caller passed more than one statement.
        return code != SQLITE_OK || handle != nil
    }
}

// MARK: - Executing

extension Database {
    /// Runs an SQL script: every statement in `sql`, in order, ignoring result rows.
    ///
    /// - Throws: ``SQLiteError`` carrying the text of the statement that failed; statements
    ///   before it have run.
    public func execute(sql: String) throws(SQLiteError) {
        let failure: SQLiteError? = sql.withCString { script in
            var next: UnsafePointer<CChar>? = script
            while let current = next, current.pointee != 0 {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(sqliteConnection, current, -1, &handle, &tail)
                guard code == SQLITE_OK else {
                    if let handle { sqlite3_finalize(handle) }
                    let text = Self.firstStatementText(from: current)
                    return SQLiteError.from(code: code, connection: sqliteConnection, sql: text)
                }
                let text = Self.statementText(from: current, to: tail)
                next = tail
                guard let handle else { continue }  // only whitespace or a comment
                var stepCode = sqlite3_step(handle)
                while stepCode == SQLITE_ROW { stepCode = sqlite3_step(handle) }
                let error =
                    stepCode == SQLITE_DONE
                    ? nil : SQLiteError.from(code: stepCode, connection: sqliteConnection, sql: text)
                sqlite3_finalize(handle)
                if let error { return error }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Runs one statement with `arguments` bound to its parameters, through the statement cache.
    public func execute(sql: String, arguments: [SQLiteValue]) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Every row `sql` returns, with `arguments` bound, as arrays of values.
    public func fetchAll(sql: String, arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        var rows: [[SQLiteValue]] = []
        while try statement.step() == .row {
            rows.append(statement.row())
        }
        return rows
    }

    /// The first row `sql` returns, or `nil`.
    public func fetchOne(sql: String, arguments: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteValue]? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        let row = try statement.step() == .row ? statement.row() : nil
        statement.resetIgnoringErrors()
        return row
    }

    /// The text of the first complete statement at `start` (up to the first `;` at which
    /// `sqlite3_complete` agrees a statement ends), or the rest of the script. Only used to
    /// describe a statement that failed to compile, whose end SQLite does not report.
    private static func firstStatementText(from start: UnsafePointer<CChar>) -> String {
        let rest = statementText(from: start, to: nil, trimming: false)
        var bytes = Array(rest.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: ";") {
            let prefix = Array(bytes[...index]) + [0]
            let complete = prefix.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sqlite3_complete($0.baseAddress) }
            }
            if complete != 0 {
                bytes = Array(bytes[...index])
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingSQLWhitespace()
    }

    /// The text of the statement running from `start` up to `end` (or the end of the string).
    private static func statementText(
        from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?, trimming: Bool = true
    ) -> String {
        var stop = start
        if let end {
            stop = end
        } else {
            while stop.pointee != 0 { stop += 1 }
        }
        let count = stop - start
        let bytes = UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self)
        let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        return trimming ? text.trimmingSQLWhitespace() : text
    }
}

extension String {
    /// The string without leading and trailing spaces, newlines and semicolons.
    fileprivate func trimmingSQLWhitespace() -> String {
        let isTrimmed: (Character) -> Bool = { $0.isWhitespace || $0 == ";" }
        guard let first = firstIndex(where: { !isTrimmed($0) }),
            let last = lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first...last])
    }
}
