import Foundation
import SQLiteKit
import Testing

/// A fresh path in the temporary directory, removed (with its journal files) by `cleanUp`.
struct TemporaryDatabaseFile {
    let path: String

    init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("sqlitekit-\(UUID().uuidString).sqlite").path
    }

    func cleanUp() {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

@Suite("Database: opening, scripts, changes")
struct DatabaseTests {
    @Test func opensInMemory() throws {
        let db = try Database()
        #expect(db.location == .inMemory)
        try db.execute(sql: "CREATE TABLE T (A INTEGER)")
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM T") == [.integer(0)])
    }

    @Test func inMemoryDatabasesAreSeparate() throws {
        let first = try Database(location: .inMemory)
        let second = try Database(location: .inMemory)
        try first.execute(sql: "CREATE TABLE T (A INTEGER)")
        #expect(throws: SQLiteError.self) { try second.execute(sql: "SELECT * FROM T") }
    }

    @Test func opensTemporaryDatabase() throws {
        let db = try Database(location: .temporary)
        try db.execute(sql: "CREATE TABLE T (A INTEGER); INSERT INTO T VALUES (1)")
        #expect(try db.fetchAll(sql: "SELECT A FROM T") == [[.integer(1)]])
    }

    @Test func createsAndReopensFile() throws {
        let file = TemporaryDatabaseFile()
        defer { file.cleanUp() }
        do {
            let db = try Database(path: file.path)
            try db.execute(sql: "CREATE TABLE T (A VARCHAR); INSERT INTO T VALUES ('kept')")
        }
        let reopened = try Database(path: file.path, flags: [.readOnly])
        #expect(try reopened.fetchAll(sql: "SELECT A FROM T") == [[.text("kept")]])
        #expect(throws: SQLiteError.self) { try reopened.execute(sql: "INSERT INTO T VALUES ('no')") }
    }

    @Test func openingAMissingFileReadOnlyFails() {
        let file = TemporaryDatabaseFile()
        #expect {
            _ = try Database(path: file.path, flags: [.readOnly])
        } throws: { error in
            (error as? SQLiteError)?.resultCode == .cannotOpen
        }
    }

    @Test func executesMultiStatementScripts() throws {
        let db = try Database()
        try db.execute(
            sql: """
                -- a comment first
                CREATE TABLE "order" ("select" INTEGER, "group" VARCHAR);
                INSERT INTO "order" VALUES (1, 'a');

                INSERT INTO "order" VALUES (2, 'b');  /* trailing comment */
                ;;
                SELECT * FROM "order";
                """)
        #expect(
            try db.fetchAll(sql: #"SELECT "select", "group" FROM "order" ORDER BY 1"#) == [
                [.integer(1), .text("a")], [.integer(2), .text("b")],
            ])
    }

    @Test func emptyScriptDoesNothing() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE T (A INTEGER)")
        let before = db.totalChanges
        try db.execute(sql: "")
        try db.execute(sql: "  -- nothing here\n ; ")
        #expect(db.totalChanges == before)
        #expect(try db.fetchAll(sql: "SELECT name FROM sqlite_master") == [[.text("T")]])
        #expect(db.isInTransaction == false)
    }

    @Test func syntaxErrorCarriesSQLAndCode() throws {
        let db = try Database()
        let error = #expect(throws: SQLiteError.self) { try db.execute(sql: "SELEC 1") }
        #expect(error?.resultCode == .error)
        #expect(error?.extendedResultCode == 1)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.description.contains("SELEC 1") == true)
    }

    @Test func scriptErrorNamesTheFailingStatementAndKeepsEarlierOnes() throws {
        let db = try Database()
        let error = #expect(throws: SQLiteError.self) {
            try db.execute(sql: "CREATE TABLE T (A INTEGER);\nINSERT INTO Missing VALUES (1);\nCREATE TABLE U (B)")
        }
        #expect(error?.sql == "INSERT INTO Missing VALUES (1)")
        #expect(error?.message.contains("no such table: Missing") == true)
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM sqlite_master WHERE name = 'T'") == [.integer(1)])
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM sqlite_master WHERE name = 'U'") == [.integer(0)])
    }

    @Test func runtimeErrorInScriptCarriesItsStatement() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE T (A INTEGER UNIQUE); INSERT INTO T VALUES (1)")
        let error = #expect(throws: SQLiteError.self) {
            try db.execute(sql: "INSERT INTO T VALUES (2); INSERT INTO T VALUES (1); INSERT INTO T VALUES (3)")
        }
        #expect(error?.resultCode == .constraint)
        #expect(error?.sql == "INSERT INTO T VALUES (1)")
    }

    @Test func lastInsertRowIDAndChanges() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE T (ID INTEGER PRIMARY KEY, A INTEGER)")
        try db.execute(sql: "INSERT INTO T (A) VALUES (?)", arguments: [10])
        #expect(db.lastInsertRowID == 1)
        try db.execute(sql: "INSERT INTO T (ID, A) VALUES (?, ?)", arguments: [42, 20])
        #expect(db.lastInsertRowID == 42)
        #expect(db.changes == 1)
        try db.execute(sql: "UPDATE T SET A = A + 1")
        #expect(db.changes == 2)
        #expect(db.totalChanges == 4)
        try db.execute(sql: "DELETE FROM T WHERE ID = ?", arguments: [1])
        #expect(db.changes == 1)
    }

    @Test func fetchOneReturnsNilWithoutRows() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE T (A)")
        #expect(try db.fetchOne(sql: "SELECT A FROM T") == nil)
    }

    @Test func busyWhenAnotherConnectionHoldsTheWriteLock() throws {
        let file = TemporaryDatabaseFile()
        defer { file.cleanUp() }
        let writer = try Database(path: file.path)
        let other = try Database(path: file.path)
        try writer.execute(sql: "CREATE TABLE T (A INTEGER)")
        try writer.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
        let error = #expect(throws: SQLiteError.self) {
            try other.transaction { try other.execute(sql: "INSERT INTO T VALUES (1)") }
        }
        #expect(error?.resultCode == .busy)
        #expect(error?.sql == "BEGIN IMMEDIATE TRANSACTION")
        #expect(other.isInTransaction == false)
        try writer.execute(sql: "COMMIT")
        try other.transaction { try other.execute(sql: "INSERT INTO T VALUES (1)") }
        #expect(try writer.fetchOne(sql: "SELECT count(*) FROM T") == [.integer(1)])
    }

    @Test func busyTimeoutIsSettable() throws {
        let db = try Database()
        db.setBusyTimeout(milliseconds: 10)
        #expect(try db.fetchOne(sql: "PRAGMA busy_timeout") == [.integer(10)])
        db.setBusyTimeout(milliseconds: 2500)
        #expect(try db.fetchOne(sql: "PRAGMA busy_timeout") == [.integer(2500)])
    }

    /// A writer waits up to its busy timeout for another connection's write lock, then fails with `SQLITE_BUSY`.
    @Test func busyTimeoutMakesAWriterWaitThenFail() throws {
        let file = TemporaryDatabaseFile()
        defer { file.cleanUp() }
        let holder = try Database(path: file.path)
        let waiter = try Database(path: file.path)
        try holder.execute(sql: "CREATE TABLE T (A INTEGER)")
        try holder.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
        defer { try? holder.execute(sql: "ROLLBACK") }
        waiter.setBusyTimeout(milliseconds: 200)
        let start = ContinuousClock.now
        let error = #expect(throws: SQLiteError.self) { try waiter.execute(sql: "BEGIN IMMEDIATE TRANSACTION") }
        let waited = ContinuousClock.now - start
        #expect(error?.resultCode == .busy)
        #expect(waited >= .milliseconds(150), "the waiter gave up after \(waited), before its timeout")
    }
}
