import CLibPQ
import Foundation

/// One connection to a PostgreSQL server, through libpq.
///
/// ```swift
/// let connection = try PostgresConnection(url: "postgresql://app@127.0.0.1:5432/app")
/// try connection.execute(#"CREATE TABLE "T" ("ID" BIGINT PRIMARY KEY, "NAME" TEXT)"#)
/// try connection.query(#"INSERT INTO "T" VALUES ($1, $2)"#, [.int(1), .text("Ada")])
/// let rows = try connection.query(#"SELECT "NAME" FROM "T" WHERE "ID" = $1"#, [.int(1)])
/// rows[0, 0]   // .text("Ada")
/// try connection.transaction { try connection.query(…) }
/// ```
///
/// A connection is used by one thread at a time (it is not `Sendable`). Every session starts in UTC with ISO dates,
/// so timestamps read back exactly. A lost connection fails the statement with ``PostgresError/Kind/connection``;
/// ``reconnect()`` opens it again — nothing is retried behind the caller's back.
public final class PostgresConnection {
    private var handle: OpaquePointer?
    /// The URL or key-value connection string it was opened with.
    public let url: String

    /// Connects to the server `url` names: a `postgresql://` URL (host or socket directory, port, database, user,
    /// `sslmode` … as libpq takes them) or a `key=value` connection string.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/connection`` when the server cannot be reached or
    ///   refuses the session.
    public init(url: String) throws(PostgresError) {
        self.url = url
        try connect()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    private func connect() throws(PostgresError) {
        if let handle { PQfinish(handle) }
        handle = nil
        guard let connection = PQconnectdb(url) else {
            throw PostgresError(kind: .connection, message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(kind: .connection, message: message)
        }
        handle = connection
        try execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3")
    }

    /// Whether the connection is open and the server reachable as far as libpq knows (after a failed statement
    /// on a lost connection, `false`).
    public var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Closes the connection and opens a new one to the same server.
    public func reconnect() throws(PostgresError) {
        try connect()
    }

    /// The server's version number, e.g. `150018` for 15.18.
    public var serverVersion: Int {
        guard let handle else { return 0 }
        return Int(PQserverVersion(handle))
    }

    /// Whether a transaction is open (including one that failed and awaits `ROLLBACK`).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Runs `sql`, which may hold several statements separated by `;` and takes no parameters (DDL scripts,
    /// `BEGIN`/`COMMIT`).
    public func execute(_ sql: String) throws(PostgresError) {
        let handle = try openHandle(for: sql)
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement with `$1 … $n` bound to `parameters` and returns its rows (none for a statement that
    /// returns none; ``PostgresResult/rowsAffected`` counts what an `UPDATE`/`DELETE`/`INSERT` changed).
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        let handle = try openHandle(for: sql)
        var types = parameters.map(\.typeOID)
        let result = Self.withParameterBuffers(parameters, types: types) { values, lengths, formats in
            PQexecParams(handle, sql, Int32(truncatingIfNeeded: parameters.count), &types, values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        return try PostgresResult(result, sql: sql)
    }

    /// Prepares `sql` (one statement with `$1 … $n`) on the server under `name`, the parameters' types left to the
    /// server to infer from where they stand (`"ZAGE" > $1` makes `$1` the column's type); returns those types
    /// (OIDs, in parameter order). A prepared statement lives as long as the session: after ``reconnect()``,
    /// prepare it again.
    public func prepare(_ sql: String, name: String) throws(PostgresError) -> [UInt32] {
        let handle = try openHandle(for: sql)
        let prepared = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(prepared) }
        try check(prepared, sql: sql)
        let described = PQdescribePrepared(handle, name)
        defer { PQclear(described) }
        try check(described, sql: sql)
        return (0..<PQnparams(described)).map { PQparamtype(described, $0) }
    }

    /// Runs the statement ``prepare(_:name:)`` prepared as `name` with `parameters` (each sent as the type the
    /// server inferred for it: a `.bool` is `t`/`f`, an `.int` its digits …) and returns its rows.
    @discardableResult
    public func execute(
        prepared name: String, sql: String, _ parameters: [PostgresValue], types: [UInt32]? = nil
    ) throws(PostgresError) -> PostgresResult {
        let handle = try openHandle(for: sql)
        let result = Self.withParameterBuffers(parameters, types: types) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(truncatingIfNeeded: parameters.count), values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        return try PostgresResult(result, sql: sql)
    }

    /// Runs a prepared statement and returns libpq's result, checked (the caller clears it).
    func executeRaw(prepared name: String, sql: String, _ parameters: [PostgresValue], types: [UInt32]?)
        throws(PostgresError) -> OpaquePointer
    {
        let handle = try openHandle(for: sql)
        let result = Self.withParameterBuffers(parameters, types: types) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(truncatingIfNeeded: parameters.count), values, lengths, formats, 0)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else { throw PostgresError(kind: .connection, message: "no result", sql: sql) }
        return result
    }

    /// Calls `body` with libpq's parameter arrays for `parameters` (values, lengths, formats: binary or text), every
    /// value in one buffer that stays alive, text NUL-terminated, for the duration of the call (libpq reads the
    /// values during it). `types`, when given, are the statement's parameter types: a value is then sent in the
    /// type's binary format where that is exact (integers of the parameter's width, floats, Booleans, timestamps,
    /// UUIDs), so the server parses no text for it.
    static func withParameterBuffers(
        _ parameters: [PostgresValue], types: [UInt32]? = nil,
        _ body: (
            UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
        ) -> OpaquePointer?
    ) -> OpaquePointer? {
        let (storage, offsets, lengths, formats) = encode(parameters, types: types)
        return withEncoded(storage, offsets, lengths, formats, body)
    }

    /// As ``withParameterBuffers(_:types:_:)`` for a call that returns a status code.
    static func withParameterBuffers(
        _ parameters: [PostgresValue], types: [UInt32]?,
        _ body: (
            UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
        ) -> Int32
    ) -> Int32 {
        let (storage, offsets, lengths, formats) = encode(parameters, types: types)
        var status: Int32 = 0
        _ = withEncoded(storage, offsets, lengths, formats) { values, lengths, formats in
            status = body(values, lengths, formats)
            return nil
        }
        return status
    }

    private static func encode(_ parameters: [PostgresValue], types: [UInt32]?)
        -> (storage: [UInt8], offsets: [Int], lengths: [Int32], formats: [Int32])
    {
        var storage: [UInt8] = []
        storage.reserveCapacity(parameters.count * 16)
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        offsets.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        formats.reserveCapacity(parameters.count)
        for (index, parameter) in parameters.enumerated() {
            let type = types.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? 0
            let start = storage.count
            guard let binary = parameter.encode(into: &storage, as: type) else {
                offsets.append(-1)
                lengths.append(0)
                formats.append(0)
                continue
            }
            offsets.append(start)
            lengths.append(Int32(truncatingIfNeeded: storage.count - start))
            formats.append(binary ? 1 : 0)
            storage.append(0)  // text is read up to a NUL
        }
        if storage.isEmpty { storage.append(0) }
        return (storage, offsets, lengths, formats)
    }

    private static func withEncoded(
        _ storage: [UInt8], _ offsets: [Int], _ lengths: [Int32], _ formats: [Int32],
        _ body: (
            UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
        ) -> OpaquePointer?
    ) -> OpaquePointer? {
        var lengths = lengths
        var formats = formats
        // An empty array's storage is never read (the count is 0); a one-element array keeps the pointers valid.
        if lengths.isEmpty { lengths = [0] }
        if formats.isEmpty { formats = [0] }
        return storage.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                guard let base = characters.baseAddress else { return nil }
                var values: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : base + $0 }
                if values.isEmpty { values = [nil] }
                return values.withUnsafeMutableBufferPointer { values in
                    lengths.withUnsafeMutableBufferPointer { lengths in
                        formats.withUnsafeMutableBufferPointer { formats in
                            guard let values = values.baseAddress, let lengths = lengths.baseAddress,
                                let formats = formats.baseAddress
                            else { return nil }
                            return body(values, lengths, formats)
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` in a transaction: `COMMIT` when it returns, `ROLLBACK` when it throws (and rethrows).
    public func transaction<Value>(_ body: () throws -> Value) throws -> Value {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
    }

    // MARK: Results

    private func openHandle(for sql: String) throws(PostgresError) -> OpaquePointer {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connection, message: "the connection is closed; reconnect first", sql: sql)
        }
        return handle
    }

    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        guard let result else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "no connection"
            throw PostgresError(kind: isConnected ? .statement : .connection, message: message, sql: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let failure = error(from: result, sql: sql)
            // The server ended the session (its process was terminated, it shuts down): closed here too, so
            // `isConnected` is `false` at once, even before libpq has read the end of the stream.
            if failure.kind == .connection, let handle {
                PQfinish(handle)
                self.handle = nil
            }
            throw failure
        }
    }

    /// The error a failed result reports: its `SQLSTATE`, its message, and whether the connection was lost.
    func error(from result: OpaquePointer, sql: String) -> PostgresError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message = String(cString: PQresultErrorMessage(result))
        let lost = !isConnected || state?.hasPrefix("08") == true || state == SQLState.adminShutdown.rawValue
        return PostgresError(
            kind: lost ? .connection : .statement, sqlState: state.map(SQLState.init(rawValue:)),
            message: message.hasPrefix("ERROR:  ") ? String(message.dropFirst(8)) : message, sql: sql)
    }

    // MARK: Pipelines

    /// Enters pipeline mode: statements sent through the returned ``PostgresPipeline`` go out without waiting for
    /// each reply, `chunkSize` at a time before their results are read. Finish it before running anything else on
    /// the connection.
    public func beginPipeline(chunkSize: Int = 1_000) throws(PostgresError) -> PostgresPipeline {
        let handle = try openHandle(for: "")
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(kind: .statement, message: String(cString: PQerrorMessage(handle)))
        }
        return PostgresPipeline(connection: self, handle: handle, chunkSize: chunkSize)
    }
}

/// The rows of a statement, decoded by column type: integers, floats, Booleans, `numeric`, text, `bytea`, `uuid`,
/// timestamps and JSON become ``PostgresValue`` cases.
public struct PostgresResult: Sendable, Hashable {
    /// The column names, in select order.
    public let columns: [String]
    /// The rows; each holds one value per column.
    public let rows: [[PostgresValue]]
    /// What an `INSERT`, `UPDATE` or `DELETE` changed (or a `SELECT` returned); `0` for other statements.
    public let rowsAffected: Int
    /// The columns' type OIDs (``PostgresType``), in select order.
    public let columnTypes: [UInt32]

    /// The value at `row`, `column`.
    public subscript(row: Int, column: Int) -> PostgresValue { rows[row][column] }

    init(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        guard let result else {
            columns = []
            rows = []
            rowsAffected = 0
            columnTypes = []
            return
        }
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        var columns: [String] = []
        var types: [UInt32] = []
        for column in 0..<columnCount {
            columns.append(PQfname(result, Int32(column)).map { String(cString: $0) } ?? "")
            types.append(PQftype(result, Int32(column)))
        }
        var rows: [[PostgresValue]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [PostgresValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) != 0 {
                    values.append(.null)
                    continue
                }
                guard let pointer = PQgetvalue(result, Int32(row), Int32(column)) else {
                    values.append(.null)
                    continue
                }
                let text = String(cString: pointer)
                guard let value = Self.decode(text, type: types[column]) else {
                    throw PostgresError(
                        kind: .conversion, message: "cannot read '\(text.prefix(40))' of column \(columns[column])",
                        sql: sql)
                }
                values.append(value)
            }
            rows.append(values)
        }
        self.columns = columns
        self.rows = rows
        columnTypes = types
        let affected = PQcmdTuples(result).map { String(cString: $0) } ?? ""
        rowsAffected = Int(affected) ?? 0
    }

    /// A column's text output decoded by its type OID.
    static func decode(_ text: String, type: UInt32) -> PostgresValue? {
        switch type {
        case PostgresType.bool: return text == "t" ? .bool(true) : text == "f" ? .bool(false) : nil
        case PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.oid:
            return Int64(text).map(PostgresValue.int)
        case PostgresType.float4, PostgresType.float8: return PostgresText.double(from: text).map(PostgresValue.double)
        case PostgresType.numeric: return .numeric(text)
        case PostgresType.bytea: return PostgresText.bytes(fromHex: text).map(PostgresValue.bytes)
        case PostgresType.uuid: return UUID(uuidString: text).map(PostgresValue.uuid)
        case PostgresType.timestamptz, PostgresType.timestamp:
            return PostgresText.timestamp(from: text).map(PostgresValue.timestamp)
        case PostgresType.json, PostgresType.jsonb: return .json(text)
        default: return .text(text)
        }
    }
}
