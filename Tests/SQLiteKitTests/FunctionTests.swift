import Foundation
import SQLiteKit
import Testing

@Suite("Database: SQL functions written in Swift")
struct FunctionTests {
    /// The bytes of `expression` (a text result read as a blob), or `nil` for `NULL`.
    private func bytes(_ db: Database, _ expression: String) throws -> [UInt8]? {
        guard let value = try db.fetchOne(sql: "SELECT CAST(\(expression) AS BLOB)")?.first else { return nil }
        if case .null = value { return nil }
        return value.blobValue.map { Array($0) } ?? []
    }

    /// SQL text with exactly `bytes` (a blob cast to text keeps invalid UTF-8 as it is).
    private func text(_ bytes: [UInt8]) -> String {
        "CAST(X'" + bytes.map { String(format: "%02X", $0) }.joined() + "' AS TEXT)"
    }

    @Test("an ASCII-preserving function returns ASCII text itself and gives Swift every other text")
    func asciiPreservingFunction() throws {
        let db = try Database()
        // The body marks what it saw: a trailing `!`, so a result tells whether the body ran.
        try db.createASCIIPreservingTextFunction("marked") { text in Array(text) + [UInt8(ascii: "!")] }
        try db.createASCIIPreservingTextFunction("unchanged") { _ in nil }
        // ASCII of every length around the 8-byte words the test reads, NUL and DEL included: itself.
        for length in 0...20 {
            let ascii = (0..<length).map { UInt8(($0 * 37 + 1) % 128) }
            #expect(try bytes(db, "marked(\(text(ascii)))") == ascii, "ASCII of \(length) bytes")
        }
        // One byte of 0x80 or more anywhere (in a full word, in the tail, first or last) reaches the body.
        for length in 1...20 {
            for position in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var input = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    input[position] = high
                    #expect(
                        try bytes(db, "marked(\(text(input)))") == input + [UInt8(ascii: "!")],
                        "byte \(high) at \(position) of \(length)")
                }
            }
        }
        // A lone UTF-8 lead byte followed by ASCII is not ASCII (SQLite's `length` counts it as one character).
        #expect(try bytes(db, "marked(\(text([0xC3, 0x41])))") == [0xC3, 0x41, UInt8(ascii: "!")])
        // `nil` from the body: the argument unchanged.
        #expect(try bytes(db, "unchanged(\(text([0x65, 0xCC, 0x81])))") == [0x65, 0xCC, 0x81])
        // NULL gives NULL; a number is read as its text; the result is text.
        #expect(try bytes(db, "marked(NULL)") == nil)
        #expect(try bytes(db, "marked(42)") == Array("42".utf8))
        #expect(
            try db.fetchOne(sql: "SELECT typeof(marked(42)), typeof(marked('é'))")?.map(\.textValue) == [
                "text", "text",
            ])
    }

    @Test("a text predicate is NULL when either side is NULL and reads numbers as text")
    func textPredicate() throws {
        let db = try Database()
        try db.createTextPredicate("begins") { text, prefix in text.starts(with: prefix) }
        let row = try db.fetchOne(
            sql: "SELECT begins('abc', 'ab'), begins('abc', 'b'), begins(NULL, 'a'), begins('a', NULL), begins(123, 12)"
        )
        #expect(row == [.integer(1), .integer(0), .null, .null, .integer(1)])
        #expect(try db.fetchOne(sql: "SELECT begins('', ''), begins(X'', '')") == [.integer(1), .integer(1)])
    }

    @Test("a text function and an integer function are NULL for NULL")
    func unaryFunctions() throws {
        let db = try Database()
        try db.createTextFunction("reversed") { text in Array(text.reversed()) }
        try db.createTextIntegerFunction("width") { text in Int64(text.count) }
        #expect(
            try db.fetchOne(sql: "SELECT reversed('abc'), reversed(NULL), width('abcd'), width(NULL), width(12345)")
                == [.text("cba"), .null, .integer(4), .null, .integer(5)])
    }
}
