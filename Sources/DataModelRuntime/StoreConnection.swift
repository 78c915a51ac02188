import DataModelStoreLayout
import Foundation
import PostgresKit
import SQLiteKit

/// The database a store runs on, as the runtime uses it: statements prepared once and cached, values bound by
/// position, rows read by column, transactions, and the number of rows the last statement changed.
///
/// Two cases, not a protocol: the runtime's per-row loops (``StoreStatement``'s column reads) switch on the case —
/// a branch the processor predicts — and call SQLiteKit's inlined accessors directly, so the SQLite store runs the
/// same code it ran before there was a second backend (no witness-table call per column).
///
/// Values are SQLite's storage classes on both: a PostgreSQL statement converts each bound value to the type the
/// server inferred for its parameter (`BOOLEAN`, `TIMESTAMPTZ`, `UUID`, `JSONB` …) and each column it reads back to
/// the storage class the SQLite layout keeps (``PostgresStatement``), so the runtime above this seam encodes and
/// decodes attribute values one way.
enum StoreConnection {
    case sqlite(Database)
    case postgres(PostgresStore)

    /// The dialect the runtime writes its SQL in for this connection.
    var dialect: SQLDialect {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The statement for `sql` (with `?` parameters), prepared once per connection.
    @inline(__always)
    func cachedStatement(_ sql: String) throws(StoreError) -> StoreStatement {
        switch self {
        case .sqlite(let database):
            do {
                return .sqlite(try database.cachedStatement(sql))
            } catch {
                throw .sqlite(error)
            }
        case .postgres(let store):
            return .postgres(try store.statement(sql))
        }
    }

    /// Runs `sql` (statements without parameters).
    func execute(sql: String) throws(StoreError) {
        switch self {
        case .sqlite(let database):
            do { try database.execute(sql: sql) } catch { throw .sqlite(error) }
        case .postgres(let store):
            try store.execute(sql)
        }
    }

    /// Runs one statement with `arguments` bound to its `?` parameters.
    func execute(sql: String, arguments: [SQLiteValue]) throws(StoreError) {
        _ = try fetchAll(sql: sql, arguments: arguments)
    }

    /// Every row of one statement.
    func fetchAll(sql: String, arguments: [SQLiteValue] = []) throws(StoreError) -> [[SQLiteValue]] {
        switch self {
        case .sqlite(let database):
            do { return try database.fetchAll(sql: sql, arguments: arguments) } catch { throw .sqlite(error) }
        case .postgres(let store):
            let statement = try store.statement(sql)
            defer { statement.reset() }
            for (offset, argument) in arguments.enumerated() { statement.bind(argument, at: Int32(offset + 1)) }
            var rows: [[SQLiteValue]] = []
            while try statement.step() == .row { rows.append(statement.row) }
            return rows
        }
    }

    /// The first row of one statement, or `nil`.
    func fetchOne(sql: String, arguments: [SQLiteValue] = []) throws(StoreError) -> [SQLiteValue]? {
        try fetchAll(sql: sql, arguments: arguments).first
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (and rethrown).
    func transaction<Value>(_ body: () throws -> Value) throws -> Value {
        switch self {
        case .sqlite(let database):
            return try database.transaction(.immediate, body)
        case .postgres(let store):
            return try store.transaction(body)
        }
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool {
        switch self {
        case .sqlite(let database): database.isInTransaction
        case .postgres(let store): store.isTransactionOpen || store.connection.isInTransaction
        }
    }

    /// The rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int {
        switch self {
        case .sqlite(let database): database.changes
        case .postgres(let store): store.changes
        }
    }

    /// How many statements ``StoreStatement/runQueued()`` sent since the last ``finishQueued()``: the index the
    /// next one's row count will have in its result. Always `0` on SQLite, which runs each at once.
    var queuedCount: Int {
        switch self {
        case .sqlite: 0
        case .postgres(let store): store.queuedCount
        }
    }

    /// Waits for every statement ``StoreStatement/runQueued()`` sent and returns the rows each changed, in the
    /// order sent (empty on SQLite). Throws the first statement's failure.
    func finishQueued() throws(StoreError) -> [Int] {
        switch self {
        case .sqlite: []
        case .postgres(let store): try store.finishQueued()
        }
    }

    /// The statement inserting `rows` rows at once: `sql` (one row's `INSERT … VALUES (?, …)`) with its row of
    /// parameters repeated; the row's parameters come one row after another (row `r`'s first is `r * width + 1`).
    func multiRowInsert(_ sql: String, rows: Int) throws(StoreError) -> StoreStatement {
        guard rows > 1, case .postgres(let store) = self else { return try cachedStatement(sql) }
        return .postgres(try store.statement(store.multiRowSQL(sql, rows: rows)))
    }
}

/// A prepared statement of a ``StoreConnection``: bind indexes start at 1, column indexes at 0 (as SQLite's).
///
/// Every accessor switches on the case and calls SQLiteKit's inlinable accessor for an SQLite statement.
enum StoreStatement {
    case sqlite(Statement)
    case postgres(PostgresStatement)

    @inline(__always) @discardableResult
    func step() throws(StoreError) -> StepResult {
        switch self {
        case .sqlite(let statement):
            do { return try statement.step() } catch { throw .sqlite(error) }
        case .postgres(let statement):
            return try statement.step()
        }
    }

    @inline(__always)
    func run() throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.run() } catch { throw .sqlite(error) }
        case .postgres(let statement):
            try statement.run()
        }
    }

    /// Runs a statement whose rows and row count are not needed at once: SQLite runs it now; PostgreSQL sends it
    /// in the connection's pipeline (libpq's pipeline mode, many statements a round trip) and its row count comes
    /// from ``StoreConnection/finishQueued()``. Anything else run on the connection waits for it first.
    @inline(__always)
    func runQueued() throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.run() } catch { throw .sqlite(error) }
        case .postgres(let statement):
            try statement.enqueue()
        }
    }

    @inline(__always)
    func reset() throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.reset() } catch { throw .sqlite(error) }
        case .postgres(let statement):
            statement.reset()
        }
    }

    @inline(__always)
    func resetIgnoringErrors() {
        switch self {
        case .sqlite(let statement): statement.resetIgnoringErrors()
        case .postgres(let statement): statement.reset()
        }
    }

    // MARK: Binding

    @inline(__always)
    func bind(_ value: Int64, at index: Int32) throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.bind(value, at: index) } catch { throw .sqlite(error) }
        case .postgres(let statement):
            statement.bind(.integer(value), at: index)
        }
    }

    @inline(__always)
    func bind(_ value: Int, at index: Int32) throws(StoreError) {
        try bind(Int64(value), at: index)
    }

    @inline(__always)
    func bind(_ value: Double, at index: Int32) throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.bind(value, at: index) } catch { throw .sqlite(error) }
        case .postgres(let statement):
            statement.bind(.real(value), at: index)
        }
    }

    @inline(__always)
    func bind(_ value: String, at index: Int32) throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.bind(value, at: index) } catch { throw .sqlite(error) }
        case .postgres(let statement):
            statement.bind(.text(value), at: index)
        }
    }

    @inline(__always)
    func bind(_ value: Data, at index: Int32) throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.bind(value, at: index) } catch { throw .sqlite(error) }
        case .postgres(let statement):
            statement.bind(.blob(value), at: index)
        }
    }

    @inline(__always)
    func bindNull(at index: Int32) throws(StoreError) {
        switch self {
        case .sqlite(let statement):
            do { try statement.bindNull(at: index) } catch { throw .sqlite(error) }
        case .postgres(let statement):
            statement.bind(.null, at: index)
        }
    }

    // MARK: Columns

    @inline(__always)
    func storageClass(at index: Int32) -> SQLiteStorageClass {
        switch self {
        case .sqlite(let statement): statement.storageClass(at: index)
        case .postgres(let statement): statement.storageClass(at: index)
        }
    }

    @inline(__always)
    func isNull(at index: Int32) -> Bool {
        switch self {
        case .sqlite(let statement): statement.isNull(at: index)
        case .postgres(let statement): statement.isNull(at: index)
        }
    }

    @inline(__always)
    func int64(at index: Int32) -> Int64 {
        switch self {
        case .sqlite(let statement): statement.int64(at: index)
        case .postgres(let statement): statement.int64(at: index)
        }
    }

    @inline(__always)
    func int(at index: Int32) -> Int {
        switch self {
        case .sqlite(let statement): statement.int(at: index)
        case .postgres(let statement): Int(truncatingIfNeeded: statement.int64(at: index))
        }
    }

    @inline(__always)
    func nullableInt64(at index: Int32) -> Int64? {
        switch self {
        case .sqlite(let statement): statement.nullableInt64(at: index)
        case .postgres(let statement): statement.isNull(at: index) ? nil : statement.int64(at: index)
        }
    }

    @inline(__always)
    func nullableDouble(at index: Int32) -> Double? {
        switch self {
        case .sqlite(let statement): statement.nullableDouble(at: index)
        case .postgres(let statement): statement.isNull(at: index) ? nil : statement.double(at: index)
        }
    }

    @inline(__always)
    func double(at index: Int32) -> Double {
        switch self {
        case .sqlite(let statement): statement.double(at: index)
        case .postgres(let statement): statement.double(at: index)
        }
    }

    @inline(__always)
    func string(at index: Int32) -> String? {
        switch self {
        case .sqlite(let statement): statement.string(at: index)
        case .postgres(let statement): statement.string(at: index)
        }
    }

    @inline(__always)
    func data(at index: Int32) -> Data? {
        switch self {
        case .sqlite(let statement): statement.data(at: index)
        case .postgres(let statement): statement.data(at: index)
        }
    }
}

/// The current row of a statement, read by column: what the per-row loops (fetch, faults, to-many loads,
/// prefetching) need. The loops are generic over it and called once per statement with the concrete type
/// (`switch statement { case .sqlite(let rows): loop(rows) … }`), so the compiler specialises them: SQLite's loop calls SQLiteKit's inlined
/// accessors directly, as it did before there was a second backend.
protocol StoreRow: AnyObject {
    /// Moves to the next row; `false` at the end.
    func nextRow() throws(StoreError) -> Bool
    func storageClass(at index: Int32) -> SQLiteStorageClass
    func int64(at index: Int32) -> Int64
    func int(at index: Int32) -> Int
    func nullableInt64(at index: Int32) -> Int64?
    func nullableDouble(at index: Int32) -> Double?
    func double(at index: Int32) -> Double
    func string(at index: Int32) -> String?
    func data(at index: Int32) -> Data?
    /// The statement as a ``FieldReader`` reads it.
    var fieldSource: FieldReader.Source { get }
}

extension Statement: StoreRow {
    @inline(__always)
    func nextRow() throws(StoreError) -> Bool {
        do { return try step() == .row } catch { throw .sqlite(error) }
    }
}

/// A statement's parameters, bound by position: what a save binds per column. Generic like ``StoreRow``, so
/// binding a row's columns is specialised per store type.
protocol StoreBinder: AnyObject {
    func bindValue(_ value: Int64, at index: Int32) throws(StoreError)
    func bindValue(_ value: Double, at index: Int32) throws(StoreError)
    func bindValue(_ value: String, at index: Int32) throws(StoreError)
    func bindValue(_ value: Data, at index: Int32) throws(StoreError)
    func bindNullValue(at index: Int32) throws(StoreError)
}

extension StoreBinder {
    /// Binds a stored value.
    @inline(__always)
    func bindValue(_ value: PrimitiveValue, at index: Int32) throws(StoreError) {
        switch value {
        case .null: try bindNullValue(at: index)
        case .integer(let integer): try bindValue(integer, at: index)
        case .real(let real): try bindValue(real, at: index)
        case .text(let text): try bindValue(text, at: index)
        case .blob(let data): try bindValue(data, at: index)
        }
    }
}

extension Statement: StoreBinder {
    @inline(__always)
    func bindValue(_ value: Int64, at index: Int32) throws(StoreError) {
        do { try bind(value, at: index) } catch { throw .sqlite(error) }
    }

    @inline(__always)
    func bindValue(_ value: Double, at index: Int32) throws(StoreError) {
        do { try bind(value, at: index) } catch { throw .sqlite(error) }
    }

    @inline(__always)
    func bindValue(_ value: String, at index: Int32) throws(StoreError) {
        do { try bind(value, at: index) } catch { throw .sqlite(error) }
    }

    @inline(__always)
    func bindValue(_ value: Data, at index: Int32) throws(StoreError) {
        do { try bind(value, at: index) } catch { throw .sqlite(error) }
    }

    @inline(__always)
    func bindNullValue(at index: Int32) throws(StoreError) {
        do { try bindNull(at: index) } catch { throw .sqlite(error) }
    }
}

extension PostgresStatement: StoreBinder {
    func bindValue(_ value: Int64, at index: Int32) { bind(.integer(value), at: index) }
    func bindValue(_ value: Double, at index: Int32) { bind(.real(value), at: index) }
    func bindValue(_ value: String, at index: Int32) { bind(.text(value), at: index) }
    func bindValue(_ value: Data, at index: Int32) { bind(.blob(value), at: index) }
    func bindNullValue(at index: Int32) { bind(.null, at: index) }
}

// MARK: - PostgreSQL

/// A store's PostgreSQL connection: its statements, prepared on the server once each (named `dm1`, `dm2` …), and
/// the rows the last statement changed.
///
/// Statements whose results are not needed at once (a save's inserts, updates and deletes) go out through a
/// pipeline (``StoreStatement/runQueued()``): libpq sends them without waiting for each reply, and reads the replies
/// a chunk at a time; their row counts come back, in order, from ``finishQueued()``. Anything run the ordinary way
/// (a query, a statement to prepare, `COMMIT`) first waits for what was queued, so statements run in the order they
/// were issued and a queued statement's failure is reported before the next.
///
/// Used under the coordinator's lock only, like the SQLite connection.
final class PostgresStore {
    let connection: PostgresConnection
    private var statements: [String: PostgresStatement] = [:]
    /// Statements prepared on this session so far (their names' numbers).
    private var statementCount = 0
    /// The rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes = 0
    /// The open pipeline of queued statements, if any.
    private var pipeline: PostgresPipeline?
    /// Row counts of queued statements whose pipeline was already finished (before a statement was prepared, say).
    private var finishedCounts: [Int] = []
    /// Multi-row `INSERT` texts made so far, by one-row text and row count.
    private var multiRowTexts: [String: [Int: String]] = [:]
    /// Whether ``transaction(_:)`` sent `BEGIN` and has not yet ended the transaction: a connection lost meanwhile
    /// is not opened again until it has (see ``reconnectIfLost()``).
    private(set) var isTransactionOpen = false

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Opens a lost connection again (the statements prepared on the old session are gone with it) — but never
    /// inside a transaction: the server rolled that one back when the connection went, so the rest of it must not
    /// run on a new session as if it were whole. The statement that found the connection lost failed with a
    /// connection error; the transaction fails, and the next statement after it reconnects.
    func reconnectIfLost() throws(StoreError) {
        guard !connection.isConnected else { return }
        guard !isTransactionOpen else {
            throw .postgres(
                PostgresError(
                    kind: .connection,
                    message: "the connection was lost in the middle of a transaction; the server rolled it back"))
        }
        do { try connection.reconnect() } catch { throw .postgres(error) }
        for statement in statements.values { statement.isStale = true }
        statements = [:]
        statementCount = 0
    }

    /// The prepared statement for `sql`, whose `?` parameters become `$1 … $n`.
    func statement(_ sql: String) throws(StoreError) -> PostgresStatement {
        try reconnectIfLost()
        if let statement = statements[sql] {
            guard !statement.isStale else {
                statements[sql] = nil
                return try self.statement(sql)
            }
            // As SQLite's cached statements: rewound, bindings cleared.
            statement.reset()
            statement.clearBindings()
            return statement
        }
        // Preparing is a round trip of its own: what is queued goes first.
        try flushQueued()
        let text = Self.numberingParameters(sql)
        statementCount += 1
        let name = "dm\(statementCount)"
        let types: [UInt32]
        do {
            types = try connection.prepare(text, name: name)
        } catch {
            throw .postgres(error)
        }
        let statement = PostgresStatement(store: self, name: name, sql: text, parameterTypes: types)
        statements[sql] = statement
        return statement
    }

    /// `sql`, a one-row `INSERT … VALUES (?, …)`, with its row of parameters repeated `rows` times.
    func multiRowSQL(_ sql: String, rows: Int) -> String {
        if let text = multiRowTexts[sql]?[rows] { return text }
        var text = sql
        if let values = sql.range(of: " VALUES ", options: .backwards) {
            let tuple = sql[values.upperBound...]
            text = String(sql[..<values.upperBound])
            text.reserveCapacity(sql.utf8.count + tuple.utf8.count * rows + 2 * rows)
            for row in 0..<rows {
                if row > 0 { text += ", " }
                text += tuple
            }
        }
        multiRowTexts[sql, default: [:]][rows] = text
        return text
    }

    /// Runs `sql` (statements without parameters).
    func execute(_ sql: String) throws(StoreError) {
        try flushQueued()
        try reconnectIfLost()
        do { try connection.execute(sql) } catch { throw .postgres(error) }
    }

    // MARK: Queued statements

    /// Statements queued since the last ``finishQueued()``.
    var queuedCount: Int { finishedCounts.count + (pipeline?.sentCount ?? 0) }

    /// Sends `statement` with `parameters` in the pipeline (opening one if needed).
    func enqueue(_ statement: PostgresStatement, _ parameters: [PostgresValue]) throws(StoreError) {
        do throws(PostgresError) {
            let pipeline: PostgresPipeline
            if let open = self.pipeline {
                pipeline = open
            } else {
                pipeline = try connection.beginPipeline()
                self.pipeline = pipeline
            }
            try pipeline.send(
                prepared: statement.name, sql: statement.sql, parameters, types: statement.parameterTypes)
        } catch {
            discardQueued()
            throw .postgres(error)
        }
    }

    /// Waits for every queued statement (their counts are kept for ``finishQueued()``).
    func flushQueued() throws(StoreError) {
        guard let pipeline else { return }
        self.pipeline = nil
        do {
            finishedCounts += try pipeline.finish()
        } catch {
            finishedCounts = []
            throw .postgres(error)
        }
    }

    /// Waits for every queued statement and returns the rows each changed, in the order queued.
    func finishQueued() throws(StoreError) -> [Int] {
        try flushQueued()
        defer { finishedCounts = [] }
        return finishedCounts
    }

    /// Drops the pipeline and its counts after a failure (the transaction fails; what was outstanding is read).
    func discardQueued() {
        if let pipeline { _ = try? pipeline.finish() }
        pipeline = nil
        finishedCounts = []
    }

    /// Runs `body` in a transaction: `COMMIT` when it returns, `ROLLBACK` when it throws.
    ///
    /// A connection lost on the way fails the transaction with a connection error (nothing of it is retried);
    /// one lost at `COMMIT` leaves the outcome unknown to the client: the error says so, and the next save finds
    /// out (a row it inserts again is a unique violation, a row it updates again a conflict).
    func transaction<Value>(_ body: () throws -> Value) throws -> Value {
        try execute("BEGIN")
        isTransactionOpen = true
        defer { isTransactionOpen = false }
        let value: Value
        do {
            value = try body()
            try flushQueued()
            finishedCounts = []
        } catch {
            discardQueued()
            if connection.isConnected { try? connection.execute("ROLLBACK") }
            throw error
        }
        do {
            try connection.execute("COMMIT")
        } catch {
            if connection.isConnected && connection.isInTransaction { try? connection.execute("ROLLBACK") }
            guard error.kind == .connection else { throw StoreError.postgres(error) }
            var unknown = error
            unknown.message += " (the connection was lost at COMMIT: whether the transaction committed is unknown)"
            throw StoreError.postgres(unknown)
        }
        return value
    }

    /// `sql` with each `?` outside quotes written `$1`, `$2` … in order.
    static func numberingParameters(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A statement prepared on a PostgreSQL server: binds values, runs once the first row is asked for, and reads the
/// rows back as SQLite's storage classes.
///
/// The conversions keep the SQLite layout's encodings (``PrimitiveValue``): a Boolean parameter takes `0`/`1`, a
/// `TIMESTAMPTZ` one seconds since 2001 (to the microsecond, PostgreSQL's precision), a `UUID` one its 16 bytes, a
/// `JSONB` one its JSON bytes, a `NUMERIC` one its decimal text; and back. Parameters go in binary where that is
/// exact (integers, floats, Booleans, timestamps, UUIDs, `bytea`), text otherwise; rows are read in place from
/// libpq's result (``PostgresRows``), each value decoded when the runtime asks for it.
final class PostgresStatement: StoreRow {
    /// How a column's text is read back.
    private enum ColumnKind {
        case integer, boolean, float4, float8, text, bytea, uuid, timestamp, json
    }

    private unowned let store: PostgresStore
    let name: String
    let sql: String
    let parameterTypes: [UInt32]
    // The row state is read for every column of every row: Swift's dynamic exclusivity checks on these properties
    // cost a tenth of a fetch. Unchecked is safe: a statement is used by one thread at a time (under the
    // coordinator's lock), and no method keeps an access to them open across a call that could touch them.
    @exclusivity(unchecked) private var parameters: [SQLiteValue]
    @exclusivity(unchecked) private var rows: PostgresRows?
    @exclusivity(unchecked) private var kinds: [ColumnKind] = []
    @exclusivity(unchecked) private var rowCount = 0
    @exclusivity(unchecked) private var rowIndex = -1
    @exclusivity(unchecked) private var hasRun = false
    /// Set when the connection was opened again: the server no longer has the statement.
    var isStale = false

    init(store: PostgresStore, name: String, sql: String, parameterTypes: [UInt32]) {
        self.store = store
        self.name = name
        self.sql = sql
        self.parameterTypes = parameterTypes
        parameters = [SQLiteValue](repeating: .null, count: parameterTypes.count)
    }

    @inline(__always)
    func bind(_ value: SQLiteValue, at index: Int32) {
        let slot = Int(index) - 1
        guard parameters.indices.contains(slot) else { return }
        parameters[slot] = value
    }

    func clearBindings() {
        for index in parameters.indices { parameters[index] = .null }
    }

    func reset() {
        rows = nil
        rowCount = 0
        rowIndex = -1
        hasRun = false
    }

    /// The bound values as the parameters' types take them.
    private func parameterValues() -> [PostgresValue] {
        var values: [PostgresValue] = []
        values.reserveCapacity(parameters.count)
        for (value, type) in zip(parameters, parameterTypes) { values.append(Self.parameter(value, type: type)) }
        return values
    }

    private func execute() throws(StoreError) {
        try store.flushQueued()
        let result: PostgresRows
        do {
            result = try store.connection.rows(prepared: name, sql: sql, parameterValues(), types: parameterTypes)
        } catch {
            throw .postgres(error)
        }
        hasRun = true
        store.changes = result.rowsAffected
        rows = result
        rowCount = result.count
        kinds = result.columnTypes.map(Self.kind)
        rowIndex = -1
    }

    /// Sends the statement with its bound values in the store's pipeline (see ``StoreStatement/runQueued()``).
    func enqueue() throws(StoreError) {
        try store.enqueue(self, parameterValues())
        hasRun = true
        rows = nil
        rowCount = 0
        rowIndex = 0
    }

    private static func kind(_ type: UInt32) -> ColumnKind {
        switch type {
        case PostgresType.bool: .boolean
        case PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.oid: .integer
        case PostgresType.float4: .float4
        case PostgresType.float8: .float8
        case PostgresType.bytea: .bytea
        case PostgresType.uuid: .uuid
        case PostgresType.timestamptz, PostgresType.timestamp: .timestamp
        case PostgresType.json, PostgresType.jsonb: .json
        // numeric (its exact decimal text), text, varchar and every other type: the text as printed.
        default: .text
        }
    }

    func nextRow() throws(StoreError) -> Bool {
        try step() == .row
    }

    func step() throws(StoreError) -> StepResult {
        if !hasRun { try execute() }
        rowIndex += 1
        return rowIndex < rowCount ? .row : .done
    }

    func run() throws(StoreError) {
        if !hasRun { try execute() }
        rowIndex = rowCount
    }

    /// The current row.
    var row: [SQLiteValue] {
        guard rowIndex >= 0, rowIndex < rowCount else { return [] }
        return (0..<kinds.count).map { value(at: Int32($0)) }
    }

    /// The current row's value in `column`, as the SQLite layout stores it.
    func value(at index: Int32) -> SQLiteValue {
        let column = Int(index)
        guard let rows, column >= 0, column < kinds.count, let bytes = rows.bytes(rowIndex, column) else {
            return .null
        }
        switch kinds[column] {
        case .integer: return rows.int64(rowIndex, column).map(SQLiteValue.integer) ?? .null
        case .boolean: return .integer(bytes.first == UInt8(ascii: "t") ? 1 : 0)
        case .text: return .text(String(decoding: bytes, as: UTF8.self))
        case .float8: return rows.double(rowIndex, column).map(SQLiteValue.real) ?? .null
        // A REAL column holds a Float: read back as the Float's double, as SQLite stores it.
        case .float4: return rows.double(rowIndex, column).map { .real(Double(Float($0))) } ?? .null
        case .timestamp:
            return PostgresText.timestamp(fromUTF8: bytes).map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        case .bytea, .uuid, .json:
            guard let decoded = rows.value(rowIndex, column) else { return .null }
            return Self.column(decoded, type: rows.columnTypes[column])
        }
    }

    func storageClass(at index: Int32) -> SQLiteStorageClass {
        let column = Int(index)
        guard let rows, column >= 0, column < kinds.count, !rows.isNull(rowIndex, column) else { return .null }
        switch kinds[column] {
        case .integer, .boolean: return .integer
        case .float4, .float8, .timestamp: return .real
        case .text: return .text
        case .bytea, .uuid, .json: return .blob
        }
    }

    func isNull(at index: Int32) -> Bool {
        guard let rows else { return true }
        return rows.isNull(rowIndex, Int(index))
    }

    func int(at index: Int32) -> Int { Int(truncatingIfNeeded: int64(at: index)) }

    func nullableInt64(at index: Int32) -> Int64? { isNull(at: index) ? nil : int64(at: index) }

    func nullableDouble(at index: Int32) -> Double? { isNull(at: index) ? nil : double(at: index) }

    func int64(at index: Int32) -> Int64 {
        let column = Int(index)
        if let rows, column >= 0, column < kinds.count, kinds[column] == .integer {
            return rows.int64(rowIndex, column) ?? 0
        }
        switch value(at: index) {
        case .integer(let value): return value
        case .real(let value): return value.isFinite ? Int64(exactly: value.rounded(.towardZero)) ?? 0 : 0
        case .text(let text):
            return Int64(text) ?? Double(text).flatMap { Int64(exactly: $0.rounded(.towardZero)) } ?? 0
        case .blob, .null: return 0
        }
    }

    func double(at index: Int32) -> Double {
        let column = Int(index)
        if let rows, column >= 0, column < kinds.count {
            switch kinds[column] {
            case .float8: return rows.double(rowIndex, column) ?? 0
            case .timestamp: return rows.timestamp(rowIndex, column)?.timeIntervalSinceReferenceDate ?? 0
            case .integer: return rows.int64(rowIndex, column).map(Double.init) ?? 0
            default: break
            }
        }
        switch value(at: index) {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        case .text(let text): return Double(text) ?? 0
        case .blob, .null: return 0
        }
    }

    func string(at index: Int32) -> String? {
        let column = Int(index)
        if let rows, column >= 0, column < kinds.count, kinds[column] == .text {
            return rows.string(rowIndex, column)
        }
        switch value(at: index) {
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        case .null: return nil
        }
    }

    func data(at index: Int32) -> Data? {
        switch value(at: index) {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        case .integer, .real: string(at: index).map { Data($0.utf8) }
        case .null: nil
        }
    }

    /// A bound value as the parameter's type takes it.
    static func parameter(_ value: SQLiteValue, type: UInt32) -> PostgresValue {
        switch value {
        case .null:
            return .null
        case .integer(let integer):
            switch type {
            case PostgresType.bool: return .bool(integer != 0)
            case PostgresType.float4, PostgresType.float8: return .double(Double(integer))
            case PostgresType.numeric: return .numeric(String(integer))
            case PostgresType.timestamptz, PostgresType.timestamp:
                return .timestamp(Date(timeIntervalSinceReferenceDate: Double(integer)))
            case PostgresType.text, PostgresType.varchar: return .text(String(integer))
            default: return .int(integer)
            }
        case .real(let real):
            switch type {
            case PostgresType.bool: return .bool(real != 0)
            case PostgresType.int2, PostgresType.int4, PostgresType.int8:
                // An integral double (a number attribute compared with `2.0`) binds as the integer.
                if let integer = Int64(exactly: real) { return .int(integer) }
                return .numeric(PostgresText.double(real))
            case PostgresType.numeric: return .numeric(PostgresText.double(real))
            case PostgresType.timestamptz, PostgresType.timestamp:
                return .timestamp(Date(timeIntervalSinceReferenceDate: real))
            case PostgresType.text, PostgresType.varchar: return .text(String(real))
            default: return .double(real)
            }
        case .text(let text):
            switch type {
            case PostgresType.bool: return .bool(text == "1" || text.lowercased() == "true" || text == "t")
            case PostgresType.numeric: return .numeric(text)
            case PostgresType.bytea: return .bytes(Array(text.utf8))
            case PostgresType.jsonb: return .json(text)
            default: return .text(text)
            }
        case .blob(let data):
            switch type {
            case PostgresType.uuid:
                if data.count == 16 {
                    let b = [UInt8](data)
                    return .uuid(
                        UUID(
                            uuid: (
                                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                                b[14], b[15]
                            )))
                }
                return .text(String(decoding: data, as: UTF8.self))
            case PostgresType.jsonb: return .json(String(decoding: data, as: UTF8.self))
            case PostgresType.json, PostgresType.numeric, PostgresType.text, PostgresType.varchar:
                return .text(String(decoding: data, as: UTF8.self))
            default: return .bytes([UInt8](data))
            }
        }
    }

    /// A column's value as the SQLite layout stores it.
    static func column(_ value: PostgresValue, type: UInt32) -> SQLiteValue {
        switch value {
        case .null: .null
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .int(let integer): .integer(integer)
        // A REAL column holds a Float: read back as the Float's double, as SQLite stores it.
        case .double(let real): .real(type == PostgresType.float4 ? Double(Float(real)) : real)
        case .numeric(let text): .text(text)
        case .text(let text): .text(text)
        case .bytes(let bytes): .blob(Data(bytes))
        case .uuid(let uuid): .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .timestamp(let date): .real(date.timeIntervalSinceReferenceDate)
        case .json(let text): .blob(Data(text.utf8))
        }
    }
}

/// The few places the runtime's SQL differs on PostgreSQL.
enum PostgresSQL {
    /// `expression` in Unicode normalization form C: compared byte for byte (`COLLATE "C"`, code-point order for
    /// UTF-8), the order and equality of Swift's `String` (canonical equivalence).
    ///
    /// A column reads as it is when it is ASCII (its bytes are its characters: `octet_length = char_length`, which
    /// PostgreSQL checks much faster than it normalizes, and ASCII is always NFC); `normalize` runs only on the
    /// other values. Any other expression (a parameter, a subquery) is normalized as it is, written once.
    static func normalized(_ expression: String) -> String {
        guard isColumnReference(expression) else { return "normalize(" + expression + ", NFC)" }
        return "CASE WHEN " + isASCII(expression) + " THEN " + expression + " ELSE normalize(" + expression
            + ", NFC) END"
    }

    /// The condition that the text `column` is ASCII (`NULL` for `NULL`).
    static func isASCII(_ column: String) -> String {
        "octet_length(" + column + ") = char_length(" + column + ")"
    }

    /// Whether `expression` is a column reference (`t0."ZNAME"`, `"ZNAME"`): cheap, and safe to write more than once.
    static func isColumnReference(_ expression: String) -> Bool {
        !expression.isEmpty
            && expression.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "\"")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            }
    }

    /// An `ORDER BY` term: strings normalized and in code-point order, `NULL` first ascending and last descending,
    /// as SQLite sorts (and the in-memory sort agrees). An empty `expression` gives the term's end only.
    static func orderTerm(_ expression: String, isString: Bool, ascending: Bool) -> String {
        let value = isString && !expression.isEmpty ? normalized(expression) : expression
        return value + (isString ? #" COLLATE "C""# : "") + (ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST")
    }
}
