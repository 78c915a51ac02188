import CLibPQ
import Foundation

/// Prepared statements sent one after another without waiting for each reply (libpq's pipeline mode): many rows
/// in a few round trips, each statement's result still its own.
///
/// ```swift
/// try connection.execute("BEGIN")
/// let pipeline = try connection.beginPipeline()
/// for row in rows { try pipeline.send(prepared: "insert", sql: insertSQL, row) }
/// let changed = try pipeline.finish()   // rows each statement changed, in the order sent
/// try connection.execute("COMMIT")
/// ```
///
/// Statements are sent in chunks of ``chunkSize``: after each chunk a sync point is sent and the chunk's results
/// are read, so neither side's buffers fill with unread results. A sync point inside an explicit transaction
/// (`BEGIN`) does not commit: it only marks where the replies end. Outside one, each chunk is a transaction of its
/// own — run a pipeline inside `BEGIN … COMMIT` when the statements belong together.
///
/// When a statement fails, the server skips the rest of its chunk; ``send(prepared:sql:_:)`` or ``finish()`` throws
/// the first failure after leaving pipeline mode (the connection is usable again, its transaction failed). While a
/// pipeline is open, the connection runs nothing else: finish it first.
public final class PostgresPipeline {
    private let connection: PostgresConnection
    private let handle: OpaquePointer
    /// Statements sent since the last sync point, and the SQL of each (for error messages).
    private var unsynced: [String] = []
    /// Rows changed by each statement whose result was read, in the order sent.
    private var counts: [Int] = []
    private var isOpen = true
    /// How many statements are sent before a sync point and the reading of their results.
    public let chunkSize: Int

    init(connection: PostgresConnection, handle: OpaquePointer, chunkSize: Int) {
        self.connection = connection
        self.handle = handle
        self.chunkSize = max(1, chunkSize)
    }

    deinit {
        // Abandoned without finish(): what is outstanding is read so the connection can leave pipeline mode.
        abandon()
    }

    /// How many statements were sent so far (the index the next one's count will have in ``finish()``'s result).
    public var sentCount: Int { counts.count + unsynced.count }

    /// Sends the statement prepared as `name` with `parameters`, without waiting for its result.
    /// `types`, the statement's parameter types as ``PostgresConnection/prepare(_:name:)`` returned them, lets
    /// values go in binary where that is exact.
    public func send(
        prepared name: String, sql: String, _ parameters: [PostgresValue], types: [UInt32]? = nil
    ) throws(PostgresError) {
        guard isOpen else {
            throw PostgresError(kind: .statement, message: "the pipeline is finished", sql: sql)
        }
        let sent = PostgresConnection.withParameterBuffers(parameters, types: types) { values, lengths, formats in
            PQsendQueryPrepared(
                handle, name, Int32(truncatingIfNeeded: parameters.count), values, lengths, formats, 0)
        }
        guard sent == 1 else {
            let message = String(cString: PQerrorMessage(handle))
            abandon()
            throw PostgresError(kind: connection.isConnected ? .statement : .connection, message: message, sql: sql)
        }
        unsynced.append(sql)
        if unsynced.count >= chunkSize {
            do { try sync() } catch {
                abandon()
                throw error
            }
        }
    }

    /// Sends the last sync point, reads every outstanding result and leaves pipeline mode; returns the rows each
    /// statement changed (an `INSERT`'s rows, an `UPDATE`'s or `DELETE`'s matches), in the order they were sent.
    public func finish() throws(PostgresError) -> [Int] {
        guard isOpen else { return counts }
        do { try sync() } catch {
            abandon()
            throw error
        }
        isOpen = false
        PQexitPipelineMode(handle)
        return counts
    }

    /// Leaves pipeline mode after a failure (results still outstanding are read and dropped).
    private func abandon() {
        guard isOpen else { return }
        isOpen = false
        if connection.isConnected, !unsynced.isEmpty {
            _ = PQpipelineSync(handle)
            drain()
        }
        unsynced = []
        PQexitPipelineMode(handle)
    }

    /// Reads and drops results until the sync point's (or until the connection fails).
    private func drain() {
        var nulls = 0
        while nulls < 2 {
            guard let result = PQgetResult(handle) else {
                // A NULL ends each statement's results; two in a row: nothing more is coming.
                if !connection.isConnected { return }
                nulls += 1
                continue
            }
            nulls = 0
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { return }
        }
    }

    /// Sends a sync point and reads the results of the statements sent since the last one.
    private func sync() throws(PostgresError) {
        guard !unsynced.isEmpty else { return }
        guard PQpipelineSync(handle) == 1 else {
            throw PostgresError(
                kind: connection.isConnected ? .statement : .connection,
                message: String(cString: PQerrorMessage(handle)), sql: unsynced.first)
        }
        var failure: PostgresError?
        for sql in unsynced {
            // Each statement's result, then a NULL.
            guard let result = PQgetResult(handle) else {
                throw PostgresError(
                    kind: .connection, message: String(cString: PQerrorMessage(handle)), sql: sql)
            }
            let status = PQresultStatus(result)
            switch status {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                let affected = PQcmdTuples(result).map { String(cString: $0) } ?? ""
                counts.append(Int(affected) ?? 0)
            case PGRES_PIPELINE_ABORTED:
                counts.append(0)
            default:
                counts.append(0)
                if failure == nil { failure = connection.error(from: result, sql: sql) }
            }
            PQclear(result)
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        unsynced = []
        // The sync point's own result.
        if let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status != PGRES_PIPELINE_SYNC, failure == nil {
                failure = PostgresError(kind: .statement, message: "unexpected result after a pipeline sync")
            }
        } else if failure == nil {
            failure = PostgresError(kind: .connection, message: String(cString: PQerrorMessage(handle)))
        }
        if let failure { throw failure }
    }
}
