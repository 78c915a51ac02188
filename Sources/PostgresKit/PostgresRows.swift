import CLibPQ
import Foundation

/// A statement's rows as libpq holds them, read in place: no copy of the result, each value decoded when it is
/// asked for (text format, as the server prints it). What a per-row loop reads a large result through;
/// ``PostgresResult`` is the convenient, copied form.
public final class PostgresRows {
    private let result: OpaquePointer
    /// The number of rows.
    public let count: Int
    /// The number of columns.
    public let columnCount: Int
    /// The columns' type OIDs (``PostgresType``), in select order.
    public let columnTypes: [UInt32]
    /// What an `INSERT`, `UPDATE` or `DELETE` changed (or a `SELECT` returned).
    public let rowsAffected: Int

    init(_ result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
        columnTypes = (0..<PQnfields(result)).map { PQftype(result, $0) }
        let affected = PQcmdTuples(result).map { String(cString: $0) } ?? ""
        rowsAffected = Int(affected) ?? 0
    }

    deinit { PQclear(result) }

    /// Whether the value at `row`, `column` is `NULL` (or out of range).
    @inline(__always)
    public func isNull(_ row: Int, _ column: Int) -> Bool {
        guard row >= 0, row < count, column >= 0, column < columnCount else { return true }
        return PQgetisnull(result, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column)) != 0
    }

    /// The value's text bytes (`nil` for `NULL`), valid while this object lives.
    @inline(__always)
    public func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
        guard !isNull(row, column),
            let pointer = PQgetvalue(result, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
        else { return nil }
        let length = Int(PQgetlength(result, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column)))
        return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// An integer column's value (`smallint`, `integer`, `bigint`, `oid`); `nil` for `NULL` or other text.
    @inline(__always)
    public func int64(_ row: Int, _ column: Int) -> Int64? {
        guard let bytes = bytes(row, column), !bytes.isEmpty else { return nil }
        var index = 0
        let negative = bytes[0] == 45
        if negative || bytes[0] == 43 { index = 1 }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) =
                negative
                ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return value
    }

    /// A `timestamptz` or `timestamp` column's value (read as UTC), parsed in place; `nil` for `NULL` or other text.
    @inline(__always)
    public func timestamp(_ row: Int, _ column: Int) -> Date? {
        guard let bytes = bytes(row, column) else { return nil }
        return PostgresText.timestamp(fromUTF8: bytes)
    }

    /// A `double precision` or `real` column's value (`NaN`, `Infinity`, `-Infinity` included), parsed in place;
    /// `nil` for `NULL` or other text.
    @inline(__always)
    public func double(_ row: Int, _ column: Int) -> Double? {
        guard !isNull(row, column),
            let pointer = PQgetvalue(result, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
        else { return nil }
        // The value is NUL-terminated; strtod reads PostgreSQL's float output (C locale: the process never sets one).
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(pointer, &end)
        guard let end, end != pointer, end.pointee == 0 else { return nil }
        return value
    }

    /// The value's text (`nil` for `NULL`).
    @inline(__always)
    public func string(_ row: Int, _ column: Int) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The value decoded by its column's type, as ``PostgresResult`` decodes it; `nil` for a value it cannot read.
    public func value(_ row: Int, _ column: Int) -> PostgresValue? {
        guard let text = string(row, column) else { return .null }
        return PostgresResult.decode(text, type: columnTypes[column])
    }
}

extension PostgresConnection {
    /// Runs the statement ``prepare(_:name:)`` prepared as `name` with `parameters` (sent in binary where exact,
    /// given the statement's parameter `types`) and returns its rows, read in place.
    public func rows(prepared name: String, sql: String, _ parameters: [PostgresValue], types: [UInt32]? = nil)
        throws(PostgresError) -> PostgresRows
    {
        let result = try executeRaw(prepared: name, sql: sql, parameters, types: types)
        return PostgresRows(result)
    }
}
