import CSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A prepared SQL statement: bind arguments, step through rows, read columns.
///
/// Indexes follow the C API: **bind indexes start at 1, column indexes start at 0**.
///
/// The typed `bind(_:at:)` overloads and column accessors (`int64(at:)`, `double(at:)`, …) call
/// SQLite directly and allocate nothing beyond the value they return, so a statement can be
/// reused in a hot loop:
///
/// ```swift
/// let insert = try db.cachedStatement("INSERT INTO ZITEM (Z_PK, ZNAME) VALUES (?, ?)")
/// for (pk, name) in items {
///     try insert.reset()
///     try insert.bind(pk, at: 1)
///     try insert.bind(name, at: 2)
///     try insert.step()
/// }
/// ```
///
/// A statement belongs to the ``Database`` that prepared it and must be used on the same
/// queue. It is finalized when released; it keeps its connection's memory valid until then,
/// even if the `Database` goes away first.
public final class Statement {
    /// The `sqlite3_stmt *`.
    @usableFromInline
    let handle: OpaquePointer

    /// The `sqlite3 *` the statement belongs to.
    @usableFromInline
    let connection: OpaquePointer

    /// The SQL the statement was prepared from.
    public let sql: String

    /// Where short text arguments are copied before they are bound without a copy by SQLite (see
    /// ``bind(_:at:)-(String,_)``): ``textSlotSize`` bytes per parameter, made on the first such bind.
    // Unchecked: read on every text bind (a dynamic exclusivity check cost more than the bind's copy), and a
    // statement is used on one queue only.
    @exclusivity(unchecked) @usableFromInline
    var textSlots: UnsafeMutableRawPointer?

    /// How many parameters ``textSlots`` has room for.
    @exclusivity(unchecked) @usableFromInline
    var textSlotCount: Int32 = 0

    /// The bytes each parameter has in ``textSlots``: text up to this long is bound from there.
    @usableFromInline
    static let textSlotSize = 64

    init(handle: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        // Finalized first: SQLite may hold pointers into the slots until then.
        sqlite3_finalize(handle)
        textSlots?.deallocate()
    }

    /// The slot of parameter `index` (1-based), made on first use; `nil` when there is no such parameter.
    @usableFromInline
    func textSlot(_ index: Int32) -> UnsafeMutableRawPointer? {
        if textSlots == nil {
            textSlotCount = sqlite3_bind_parameter_count(handle)
            guard textSlotCount > 0 else { return nil }
            textSlots = UnsafeMutableRawPointer.allocate(
                byteCount: Int(textSlotCount) * Self.textSlotSize, alignment: MemoryLayout<UInt64>.alignment)
        }
        guard index >= 1, index <= textSlotCount, let slots = textSlots else { return nil }
        return slots + Int(index - 1) * Self.textSlotSize
    }

    /// The number of `?` parameters.
    public var parameterCount: Int32 {
        sqlite3_bind_parameter_count(handle)
    }

    /// The number of result columns.
    public var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// The name of result column `index` (0-based).
    public func columnName(at index: Int32) -> String? {
        guard let name = sqlite3_column_name(handle, index) else { return nil }
        return String(cString: name)
    }

    /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    /// The error for a failed call that returned `code`, carrying this statement's SQL.
    @usableFromInline
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError.from(code: code, connection: connection, sql: sql)
    }

    /// Throws unless `code` is `SQLITE_OK`.
    @inlinable @inline(__always)
    func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw error(code) }
    }
}

@available(*, unavailable, message: "A Statement belongs to one queue; it is not Sendable.")
extension Statement: Sendable {}

// MARK: - Stepping

/// What one `sqlite3_step` produced.
public enum StepResult: Sendable, Hashable {
    /// A row is available through the column accessors.
    case row
    /// The statement has finished.
    case done
}

extension Statement {
    /// Runs the statement until the next row or the end.
    ///
    /// - Returns: ``StepResult/row`` when a row is available, ``StepResult/done`` at the end.
    /// - Throws: ``SQLiteError`` carrying the statement's SQL (e.g. a constraint violation).
    @inlinable @discardableResult
    public func step() throws(SQLiteError) -> StepResult {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return .row }
        if code == SQLITE_DONE { return .done }
        throw error(code)
    }

    /// Steps until the statement is done, ignoring any rows.
    @inlinable
    public func run() throws(SQLiteError) {
        while try step() == .row {}
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    ///
    /// Throws the error of the previous step, if that step failed.
    @inlinable
    public func reset() throws(SQLiteError) {
        try check(sqlite3_reset(handle))
    }

    /// Rewinds the statement and ignores the outcome of its previous run.
    @inlinable
    public func resetIgnoringErrors() {
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to `NULL`.
    @inlinable
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }
}

// MARK: - Binding

extension Statement {
    /// Binds a 64-bit integer to parameter `index` (1-based).
    @inlinable
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds an integer to parameter `index` (1-based).
    @inlinable
    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds a Boolean as `0` or `1` to parameter `index` (1-based).
    @inlinable
    public func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    /// Binds a double to parameter `index` (1-based).
    @inlinable
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds UTF-8 text to parameter `index` (1-based).
    ///
    /// Text of up to 64 bytes is copied into a slot the statement keeps per parameter and bound from there
    /// without a copy by SQLite (`SQLITE_STATIC`: the slot lives as long as the statement, and is written again
    /// only by the next bind of the same parameter, never while the statement runs); SQLite copies longer text
    /// itself. Binding short text then costs a copy of its bytes instead of an allocation and a free inside
    /// SQLite per bind (a save binds every text column of every row).
    @inlinable
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var value = value
        let code = value.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, datamodelgen_sqlite_transient())
            }
            // Not while the statement runs: its registers may still point into the slot (and SQLite refuses
            // such a bind anyway); the copying bind below then reports the misuse.
            if bytes.count <= Self.textSlotSize, sqlite3_stmt_busy(handle) == 0, let slot = textSlot(index) {
                slot.copyMemory(from: base, byteCount: bytes.count)
                return sqlite3_bind_text64(
                    handle, index, slot.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil,
                    UInt8(SQLITE_UTF8))
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                sqlite3_bind_text64(
                    handle, index, text, UInt64(bytes.count), datamodelgen_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code)
    }

    /// Binds bytes to parameter `index` (1-based). SQLite copies them; empty data binds an
    /// empty blob, not `NULL`.
    @inlinable
    public func bind(_ value: Data, at index: Int32) throws(SQLiteError) {
        let code = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), datamodelgen_sqlite_transient())
        }
        try check(code)
    }

    /// Binds bytes to parameter `index` (1-based). SQLite copies them.
    @inlinable
    public func bind(bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            try check(sqlite3_bind_zeroblob(handle, index, 0))
            return
        }
        try check(sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), datamodelgen_sqlite_transient()))
    }

    /// Binds `NULL` to parameter `index` (1-based).
    @inlinable
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds any ``SQLiteValue`` to parameter `index` (1-based).
    @inlinable
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let data): try bind(data, at: index)
        }
    }

    /// Binds `values` to parameters 1, 2, … in order.
    ///
    /// - Throws: ``SQLiteError`` with ``ResultCode/range`` when there are more values than
    ///   parameters.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }
}

// MARK: - Reading columns

extension Statement {
    /// The storage class of column `index` (0-based) in the current row.
    @inlinable
    public func storageClass(at index: Int32) -> SQLiteStorageClass {
        SQLiteStorageClass(rawValue: sqlite3_column_type(handle, index)) ?? .null
    }

    /// Whether column `index` (0-based) is `NULL` in the current row.
    @inlinable
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` (0-based) as a 64-bit integer; `NULL` reads as 0.
    @inlinable
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` (0-based) as an integer; `NULL` reads as 0.
    @inlinable
    public func int(at index: Int32) -> Int {
        Int(truncatingIfNeeded: sqlite3_column_int64(handle, index))
    }

    /// Column `index` (0-based) as a 64-bit integer, or `nil` when it is `NULL`.
    ///
    /// The storage class is asked only when the value reads as 0 (as `NULL` does), which saves
    /// a call per column on the common path.
    @inlinable
    public func nullableInt64(at index: Int32) -> Int64? {
        let value = sqlite3_column_int64(handle, index)
        if value == 0 && sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        return value
    }

    /// Column `index` (0-based) as a double, or `nil` when it is `NULL`.
    ///
    /// The storage class is asked only when the value reads as 0 (as `NULL` does).
    @inlinable
    public func nullableDouble(at index: Int32) -> Double? {
        let value = sqlite3_column_double(handle, index)
        if value == 0 && sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        return value
    }

    /// Column `index` (0-based) as a double; `NULL` reads as 0.
    @inlinable
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` (0-based) as a Boolean (non-zero is `true`); `NULL` reads as `false`.
    @inlinable
    public func bool(at index: Int32) -> Bool {
        sqlite3_column_int64(handle, index) != 0
    }

    /// Column `index` (0-based) as text, or `nil` when it is `NULL`.
    @inlinable
    public func string(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` (0-based) as bytes, or `nil` when it is `NULL`.
    @inlinable
    public func data(at index: Int32) -> Data? {
        // A zero-length blob reads as a null pointer too: only then is the storage class asked.
        guard let bytes = sqlite3_column_blob(handle, index) else {
            return sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : Data()
        }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// Calls `body` with the bytes of column `index` (0-based) without copying them, or with
    /// `nil` when the column is `NULL`. The buffer is valid only during the call.
    @inlinable
    public func withUnsafeBytes<Result>(
        at index: Int32, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        if sqlite3_column_type(handle, index) == SQLITE_NULL { return try body(nil) }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let bytes = sqlite3_column_blob(handle, index) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Column `index` (0-based) as an ``SQLiteValue`` of its storage class.
    public func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(int64(at: index))
        case SQLITE_FLOAT: .real(double(at: index))
        case SQLITE_TEXT: .text(string(at: index) ?? "")
        case SQLITE_BLOB: .blob(data(at: index) ?? Data())
        default: .null
        }
    }

    /// Every column of the current row.
    public func row() -> [SQLiteValue] {
        (0..<columnCount).map { value(at: $0) }
    }
}
