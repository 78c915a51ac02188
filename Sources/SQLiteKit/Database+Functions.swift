import CSQLite

/// UTF-8 text as SQLite hands it to a function or collation: valid only during the call.
public typealias SQLiteText = UnsafeBufferPointer<UInt8>

extension Database {
    /// Registers a deterministic SQL function of two text arguments answering true or false:
    /// `name(a, b)` is `NULL` when either argument is `NULL`, else 1 or 0. Non-text arguments
    /// are read as their text form.
    ///
    /// ```swift
    /// try db.createTextPredicate("ends_with") { text, suffix in text.elementsEqual(suffix.reversed()) }
    /// ```
    public func createTextPredicate(
        _ name: String, _ body: @escaping @Sendable (SQLiteText, SQLiteText) -> Bool
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(TextPredicateBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            sqliteConnection, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
            { context, count, arguments in
                guard count == 2, let arguments, let first = arguments[0], let second = arguments[1],
                    let pointer = sqlite3_user_data(context)
                else { return }
                guard let a = text(first), let b = text(second) else {
                    sqlite3_result_null(context)
                    return
                }
                // The box lives as long as the function is registered: no retain per call.
                let result = Unmanaged<TextPredicateBox>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.body(a, b) }
                sqlite3_result_int(context, result ? 1 : 0)
            }, nil, nil,
            { pointer in
                if let pointer { Unmanaged<TextPredicateBox>.fromOpaque(pointer).release() }
            })
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: sqliteConnection, sql: nil) }
    }

    /// Registers a deterministic SQL function of one text argument returning an integer: `name(a)` is `NULL` when
    /// `a` is `NULL`. Non-text arguments are read as their text form.
    ///
    /// ```swift
    /// try db.createTextIntegerFunction("utf16_length") { text in Int64(String(decoding: text, as: UTF8.self).utf16.count) }
    /// ```
    public func createTextIntegerFunction(
        _ name: String, _ body: @escaping @Sendable (SQLiteText) -> Int64
    ) throws(SQLiteError) {
        try createUnaryTextFunction(name) { input, context in sqlite3_result_int64(context, body(input)) }
    }

    /// Registers a deterministic SQL function of one text argument returning text: `name(a)` is
    /// `NULL` when `a` is `NULL`. `body` gets `a`'s UTF-8 bytes and returns the result's, or
    /// `nil` for `a` unchanged (no bytes built). Non-text arguments are read as their text form.
    ///
    /// ```swift
    /// try db.createTextFunction("trimmed") { text in text.last == 0x20 ? Array(text.dropLast()) : nil }
    /// ```
    public func createTextFunction(
        _ name: String, _ body: @escaping @Sendable (SQLiteText) -> [UInt8]?
    ) throws(SQLiteError) {
        try createUnaryTextFunction(name) { input, context in
            if let result = body(input) {
                result.withUnsafeBufferPointer { resultText(context, $0) }
            } else {
                resultText(context, input)
            }
        }
    }

    /// Registers a deterministic SQL function of one text argument returning text that is the argument itself
    /// whenever the argument is ASCII: `name(a)` is a copy of `a`, without calling `body`, when every byte of `a` is
    /// below 0x80; otherwise `body` gets `a`'s UTF-8 bytes and returns the result's, or `nil` for `a` unchanged.
    /// `NULL` for `NULL`; non-text arguments are read as their text form.
    ///
    /// The ASCII test (8 bytes at a time) and the copy run in the function's C entry point: a key function called
    /// for every row of a sort (a normalized form, say, which ASCII text is already in) costs no Swift closure call
    /// for ASCII rows.
    ///
    /// ```swift
    /// try db.createASCIIPreservingTextFunction("nfc") { text in Array(String(decoding: text, as: UTF8.self).nfc.utf8) }
    /// ```
    public func createASCIIPreservingTextFunction(
        _ name: String, _ body: @escaping @Sendable (SQLiteText) -> [UInt8]?
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(TextFunctionBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
            { context, count, arguments in
                guard let context, count == 1, let arguments, let argument = arguments[0] else { return }
                guard let input = text(argument) else {
                    sqlite3_result_null(context)
                    return
                }
                if isASCII(input) {
                    resultText(context, input)
                    return
                }
                guard let pointer = sqlite3_user_data(context) else { return }
                // The box lives as long as the function is registered: no retain per call.
                let result = Unmanaged<TextFunctionBox>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.body(input) }
                if let result {
                    result.withUnsafeBufferPointer { resultText(context, $0) }
                } else {
                    resultText(context, input)
                }
            }, nil, nil,
            { pointer in
                if let pointer { Unmanaged<TextFunctionBox>.fromOpaque(pointer).release() }
            })
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: sqliteConnection, sql: nil) }
    }

    /// A deterministic function of one text argument, `NULL` for `NULL`; `body` sets the result on the context.
    private func createUnaryTextFunction(
        _ name: String, _ body: @escaping @Sendable (SQLiteText, OpaquePointer) -> Void
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(UnaryTextFunctionBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
            { context, count, arguments in
                guard let context, count == 1, let arguments, let argument = arguments[0],
                    let pointer = sqlite3_user_data(context)
                else { return }
                guard let input = text(argument) else {
                    sqlite3_result_null(context)
                    return
                }
                // The box lives as long as the function is registered: no retain per call.
                Unmanaged<UnaryTextFunctionBox>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.body(input, context) }
            }, nil, nil,
            { pointer in
                if let pointer { Unmanaged<UnaryTextFunctionBox>.fromOpaque(pointer).release() }
            })
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: sqliteConnection, sql: nil) }
    }

    /// Registers a collating sequence: `compare` orders two UTF-8 texts (negative, zero,
    /// positive). Use it as `… COLLATE name` in comparisons and `ORDER BY`.
    public func createCollation(
        _ name: String, _ compare: @escaping @Sendable (SQLiteText, SQLiteText) -> Int32
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(CollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(
            sqliteConnection, name, SQLITE_UTF8, box,
            { pointer, leftCount, left, rightCount, right in
                guard let pointer else { return 0 }
                let a = SQLiteText(start: left?.assumingMemoryBound(to: UInt8.self), count: Int(max(leftCount, 0)))
                let b = SQLiteText(start: right?.assumingMemoryBound(to: UInt8.self), count: Int(max(rightCount, 0)))
                // The box lives as long as the collation is registered: no retain per call.
                return Unmanaged<CollationBox>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.compare(a, b) }
            },
            { pointer in
                if let pointer { Unmanaged<CollationBox>.fromOpaque(pointer).release() }
            })
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: sqliteConnection, sql: nil) }
    }
}

/// Sets a function's result to a copy of `bytes` as text (empty text, not `NULL`, for no bytes).
private func resultText(_ context: OpaquePointer?, _ bytes: SQLiteText) {
    guard let start = bytes.baseAddress, !bytes.isEmpty else {
        sqlite3_result_text(context, "", 0, datamodelgen_sqlite_transient())
        return
    }
    start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        if bytes.count <= Int(Int32.max) {
            sqlite3_result_text(context, $0, Int32(bytes.count), datamodelgen_sqlite_transient())
        } else {
            sqlite3_result_text64(
                context, $0, UInt64(bytes.count), datamodelgen_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }
}

/// A function argument's UTF-8 bytes, `nil` for `NULL`. Asks for the text first and its length second (the text
/// form of a number is made by the first call), and for the type only when there is no text: `NULL`, or a value
/// SQLite could not convert, read as empty text as before.
@inline(__always)
private func text(_ value: OpaquePointer) -> SQLiteText? {
    guard let start = sqlite3_value_text(value) else {
        return sqlite3_value_type(value) == SQLITE_NULL ? nil : SQLiteText(start: nil, count: 0)
    }
    return SQLiteText(start: start, count: Int(sqlite3_value_bytes(value)))
}

/// Whether every byte of `text` is below 0x80, read 8 bytes at a time.
@inline(__always)
private func isASCII(_ text: SQLiteText) -> Bool {
    guard let start = text.baseAddress else { return true }
    let raw = UnsafeRawPointer(start)
    let count = text.count
    var bits: UInt64 = 0
    var index = 0
    while index &+ 8 <= count {
        bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index &+= 8
    }
    while index < count {
        bits |= UInt64(start[index])
        index &+= 1
    }
    return bits & 0x8080_8080_8080_8080 == 0
}

private final class TextFunctionBox {
    let body: @Sendable (SQLiteText) -> [UInt8]?
    init(_ body: @escaping @Sendable (SQLiteText) -> [UInt8]?) { self.body = body }
}

private final class UnaryTextFunctionBox {
    let body: @Sendable (SQLiteText, OpaquePointer) -> Void
    init(_ body: @escaping @Sendable (SQLiteText, OpaquePointer) -> Void) { self.body = body }
}

private final class TextPredicateBox {
    let body: @Sendable (SQLiteText, SQLiteText) -> Bool
    init(_ body: @escaping @Sendable (SQLiteText, SQLiteText) -> Bool) { self.body = body }
}

private final class CollationBox {
    let compare: @Sendable (SQLiteText, SQLiteText) -> Int32
    init(_ compare: @escaping @Sendable (SQLiteText, SQLiteText) -> Int32) { self.compare = compare }
}
