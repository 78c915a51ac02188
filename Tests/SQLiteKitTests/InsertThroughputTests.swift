import CSQLite
import Foundation
import SQLiteKit
import Testing

/// Compares 100,000 inserts in one transaction through a cached ``Statement`` with the same work
/// done through the raw C API. Timing is noisy on shared machines, so this only runs when
/// `SQLITEKIT_BENCHMARK=1` is set, and is meant for release builds:
/// `SQLITEKIT_BENCHMARK=1 swift test -c release --filter InsertThroughput`.
@Suite("Insert throughput", .enabled(if: ProcessInfo.processInfo.environment["SQLITEKIT_BENCHMARK"] != nil))
struct InsertThroughputTests {
    static let rowCount = 100_000
    static let createSQL =
        "CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZSCORE FLOAT)"
    static let insertSQL = "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZSCORE) VALUES (?, ?, ?, ?, ?)"
    static let names = (0..<64).map { "name-\($0)" }

    private func wrapperSeconds() throws -> Double {
        let db = try Database()
        try db.execute(sql: Self.createSQL)
        let start = ContinuousClock.now
        try db.transaction {
            let insert = try db.cachedStatement(Self.insertSQL)
            for row in 0..<Self.rowCount {
                try insert.reset()
                try insert.bind(Int64(row + 1), at: 1)
                try insert.bind(Int64(1), at: 2)
                try insert.bind(Int64(1), at: 3)
                try insert.bind(Self.names[row & 63], at: 4)
                try insert.bind(Double(row) * 0.5, at: 5)
                try insert.step()
            }
        }
        return (ContinuousClock.now - start).seconds
    }

    private func rawSeconds() throws -> Double {
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: SQLITE_CANTOPEN, message: "open")
        }
        defer { sqlite3_close_v2(db) }
        sqlite3_exec(db, Self.createSQL, nil, nil, nil)
        let start = ContinuousClock.now
        sqlite3_exec(db, "BEGIN IMMEDIATE TRANSACTION", nil, nil, nil)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, Self.insertSQL, -1, &statement, nil)
        for row in 0..<Self.rowCount {
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, Int64(row + 1))
            sqlite3_bind_int64(statement, 2, 1)
            sqlite3_bind_int64(statement, 3, 1)
            var name = Self.names[row & 63]
            name.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    _ = sqlite3_bind_text64(
                        statement, 4, text.baseAddress, UInt64(text.count), datamodelgen_sqlite_transient(),
                        UInt8(SQLITE_UTF8))
                }
            }
            sqlite3_bind_double(statement, 5, Double(row) * 0.5)
            guard sqlite3_step(statement) == SQLITE_DONE else { break }
        }
        sqlite3_finalize(statement)
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return (ContinuousClock.now - start).seconds
    }

    @Test func wrapperIsWithinOneAndAHalfTimesTheCAPI() throws {
        // Warm up, then keep the best of three runs of each.
        _ = try wrapperSeconds()
        _ = try rawSeconds()
        let wrapper = try (0..<3).map { _ in try wrapperSeconds() }.min() ?? 0
        let raw = try (0..<3).map { _ in try rawSeconds() }.min() ?? 0
        let ratio = wrapper / raw
        print("100,000 inserts: SQLiteKit \(wrapper)s, C API \(raw)s, ratio \(ratio)")
        #expect(ratio < 1.5)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
