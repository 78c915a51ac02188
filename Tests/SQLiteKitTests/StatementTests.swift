import Foundation
import SQLiteKit
import Testing

@Suite("Statement: binding, stepping, reading")
struct StatementTests {
    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE T (I INTEGER, R FLOAT, S VARCHAR, B BLOB)")
        return db
    }

    @Test func typedBindAndReadRoundTrip() throws {
        let db = try makeDatabase()
        let insert = try db.prepare("INSERT INTO T (I, R, S, B) VALUES (?, ?, ?, ?)")
        #expect(insert.parameterCount == 4)
        try insert.bind(Int64.max, at: 1)
        try insert.bind(2.5, at: 2)
        try insert.bind("héllo ✓", at: 3)
        try insert.bind(Data([0, 1, 2, 255]), at: 4)
        #expect(try insert.step() == .done)

        let select = try db.prepare("SELECT I, R, S, B FROM T")
        #expect(select.columnCount == 4)
        #expect(select.columnName(at: 2) == "S")
        #expect(try select.step() == .row)
        #expect(select.int64(at: 0) == Int64.max)
        #expect(select.double(at: 1) == 2.5)
        #expect(select.string(at: 2) == "héllo ✓")
        #expect(select.data(at: 3) == Data([0, 1, 2, 255]))
        #expect(select.storageClass(at: 0) == .integer)
        #expect(select.storageClass(at: 1) == .real)
        #expect(select.storageClass(at: 2) == .text)
        #expect(select.storageClass(at: 3) == .blob)
        #expect(try select.step() == .done)
    }

    @Test func intAndBoolBinding() throws {
        let db = try makeDatabase()
        let insert = try db.prepare("INSERT INTO T (I, R) VALUES (?, ?)")
        try insert.bind(-7, at: 1)
        try insert.bind(true, at: 2)
        try insert.run()
        let select = try db.prepare("SELECT I, R FROM T")
        try select.step()
        #expect(select.int(at: 0) == -7)
        #expect(select.bool(at: 1))
        #expect(select.int64(at: 1) == 1)
    }

    @Test func nullsReadAsNilOrZero() throws {
        let db = try makeDatabase()
        let insert = try db.prepare("INSERT INTO T (I, R, S, B) VALUES (?, ?, ?, ?)")
        for index in Int32(1)...4 { try insert.bindNull(at: index) }
        try insert.run()
        let select = try db.prepare("SELECT I, R, S, B FROM T")
        try select.step()
        #expect(select.isNull(at: 0))
        #expect(select.int64(at: 0) == 0)
        #expect(select.double(at: 1) == 0)
        #expect(select.string(at: 2) == nil)
        #expect(select.data(at: 3) == nil)
        #expect(select.storageClass(at: 3) == .null)
        #expect(select.withUnsafeBytes(at: 3) { $0 == nil })
        #expect(select.row() == [.null, .null, .null, .null])
    }

    @Test func emptyTextAndEmptyBlobAreNotNull() throws {
        let db = try makeDatabase()
        let insert = try db.prepare("INSERT INTO T (S, B) VALUES (?, ?)")
        try insert.bind("", at: 1)
        try insert.bind(Data(), at: 2)
        try insert.run()
        let select = try db.prepare("SELECT S, B, S IS NULL, B IS NULL, length(B) FROM T")
        try select.step()
        #expect(select.string(at: 0) == "")
        #expect(select.data(at: 1) == Data())
        #expect(select.int64(at: 2) == 0)
        #expect(select.int64(at: 3) == 0)
        #expect(select.int64(at: 4) == 0)
    }

    @Test func bindsRawBytesAndReadsThemWithoutCopy() throws {
        let db = try makeDatabase()
        let insert = try db.prepare("INSERT INTO T (B) VALUES (?)")
        let bytes: [UInt8] = [9, 8, 7]
        try bytes.withUnsafeBytes { buffer in try insert.bind(bytes: buffer, at: 1) }
        try insert.run()
        let select = try db.prepare("SELECT B FROM T")
        try select.step()
        let read = select.withUnsafeBytes(at: 0) { $0.map { Array($0) } }
        #expect(read == [9, 8, 7])
    }

    @Test func textWithEmbeddedNulAndNonASCII() throws {
        let db = try makeDatabase()
        let text = "a\u{0}b — 日本語 🚗"
        try db.execute(sql: "INSERT INTO T (S) VALUES (?)", arguments: [.text(text)])
        let select = try db.prepare("SELECT S, length(CAST(S AS BLOB)) FROM T")
        try select.step()
        #expect(select.string(at: 0) == text)
        #expect(select.int(at: 1) == text.utf8.count)
    }

    @Test func sqliteValueRoundTrip() throws {
        let db = try makeDatabase()
        let values: [SQLiteValue] = [.integer(3), .real(1.25), .text("x"), .blob(Data([1, 2]))]
        try db.execute(sql: "INSERT INTO T (I, R, S, B) VALUES (?, ?, ?, ?)", arguments: values)
        #expect(try db.fetchAll(sql: "SELECT I, R, S, B FROM T") == [values])
        #expect(values.map(\.storageClass) == [.integer, .real, .text, .blob])
        #expect(SQLiteValue.integer(2).doubleValue == 2)
        #expect(SQLiteValue.text("a").textValue == "a")
        #expect(SQLiteValue.blob(Data([1])).blobValue == Data([1]))
        #expect(SQLiteValue.null.integerValue == nil)
        let literals: [SQLiteValue] = [nil, 1, 1.5, "s"]
        #expect(literals == [.null, .integer(1), .real(1.5), .text("s")])
    }

    @Test func bindingOutOfRangeThrowsRange() throws {
        let db = try makeDatabase()
        let statement = try db.prepare("SELECT ?")
        let error = #expect(throws: SQLiteError.self) { try statement.bind(1, at: 2) }
        #expect(error?.resultCode == .range)
        #expect(error?.sql == "SELECT ?")
        #expect(throws: SQLiteError.self) { try statement.bind([1, 2]) }
    }

    @Test func resetRerunsWithKeptBindingsAndClearBindingsNullsThem() throws {
        let db = try makeDatabase()
        let insert = try db.prepare("INSERT INTO T (I) VALUES (?)")
        try insert.bind(5, at: 1)
        try insert.run()
        try insert.reset()
        try insert.run()
        try insert.reset()
        insert.clearBindings()
        try insert.run()
        #expect(try db.fetchAll(sql: "SELECT I FROM T ORDER BY rowid") == [[5], [5], [nil]])
    }

    /// Short text is bound from the statement's own slot per parameter (no copy by SQLite): every row must keep
    /// its own text while the slots are rewritten row after row, beside long text that SQLite copies, and with
    /// the same text bound to two parameters.
    @Test func shortTextBoundFromSlotsKeepsEachRowsValue() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE N (A TEXT, B TEXT, C TEXT)")
        let insert = try db.prepare("INSERT INTO N (A, B, C) VALUES (?, ?, ?)")
        let slot = String(repeating: "s", count: 64)  // the longest text bound from a slot
        let long = String(repeating: "l", count: 65)  // copied by SQLite
        var expected: [[SQLiteValue]] = []
        for row in 0..<50 {
            let a = "name \(row) é"
            let b = row.isMultiple(of: 2) ? slot + "" : long + "\(row)"
            let c = row.isMultiple(of: 3) ? a : "x"
            try insert.reset()
            try insert.bind(a, at: 1)
            try insert.bind(b, at: 2)
            try insert.bind(c, at: 3)
            try insert.run()
            expected.append([.text(a), .text(b), .text(c)])
        }
        // Rebinding one parameter of a run statement changes only that column of the next row.
        try insert.reset()
        try insert.bind("changed", at: 2)
        try insert.run()
        expected.append([.text("name 49 é"), .text("changed"), .text("x")])
        #expect(try db.fetchAll(sql: "SELECT A, B, C FROM N ORDER BY rowid") == expected)
    }

    /// A text bind while the statement runs is refused (SQLite's misuse) and leaves the running statement's
    /// argument alone: the rows it returns still match the text bound before it ran.
    @Test func textBindWhileRunningIsRefusedAndChangesNothing() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE N (A TEXT)")
        try db.execute(sql: "INSERT INTO N (A) VALUES ('a'), ('a'), ('b')")
        let select = try db.prepare("SELECT A, ? FROM N WHERE A = ?")
        try select.bind("echo", at: 1)
        try select.bind("a", at: 2)
        #expect(try select.step() == .row)
        let error = #expect(throws: SQLiteError.self) { try select.bind("b", at: 2) }
        #expect(error?.resultCode == .misuse)
        #expect(try select.step() == .row)
        #expect(select.string(at: 0) == "a")
        #expect(select.string(at: 1) == "echo")
        #expect(try select.step() == .done)
    }

    @Test func steppingYieldsEveryRowThenDone() throws {
        let db = try makeDatabase()
        try db.execute(sql: "INSERT INTO T (I) VALUES (1), (2), (3)")
        let select = try db.prepare("SELECT I FROM T ORDER BY I")
        var seen: [Int64] = []
        while try select.step() == .row { seen.append(select.int64(at: 0)) }
        #expect(seen == [1, 2, 3])
        #expect(try select.step() == .row, "stepping after done starts over (SQLite auto-resets)")
        #expect(select.isReadOnly)
    }

    @Test func uniqueConstraintViolation() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE U (A INTEGER UNIQUE)")
        let insert = try db.prepare("INSERT INTO U (A) VALUES (?)")
        try insert.bind(1, at: 1)
        try insert.run()
        try insert.reset()
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.resultCode == .constraint)
        #expect(error?.extendedResultCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error?.message == "UNIQUE constraint failed: U.A")
        #expect(error?.sql == "INSERT INTO U (A) VALUES (?)")
    }

    @Test func notNullConstraintViolation() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE N (A INTEGER NOT NULL)")
        let error = #expect(throws: SQLiteError.self) {
            try db.execute(sql: "INSERT INTO N (A) VALUES (?)", arguments: [nil])
        }
        #expect(error?.resultCode == .constraint)
        #expect(error?.extendedResultCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
    }

    @Test func errorsNeverIncludeArguments() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE U (A VARCHAR UNIQUE)")
        try db.execute(sql: "INSERT INTO U VALUES (?)", arguments: ["secret-value"])
        let error = #expect(throws: SQLiteError.self) {
            try db.execute(sql: "INSERT INTO U VALUES (?)", arguments: ["secret-value"])
        }
        #expect(error?.description.contains("secret-value") == false)
    }

    @Test func prepareRejectsEmptyAndMultipleStatements() throws {
        let db = try Database()
        let empty = #expect(throws: SQLiteError.self) { try db.prepare("  -- nothing") }
        #expect(empty?.resultCode == .misuse)
        let multiple = #expect(throws: SQLiteError.self) { try db.prepare("SELECT 1; SELECT 2") }
        #expect(multiple?.resultCode == .misuse)
        #expect(multiple?.sql == "SELECT 1; SELECT 2")
        _ = try db.prepare("SELECT 1;  -- trailing comment is fine\n")
    }

    @Test func prepareSyntaxErrorCarriesSQL() throws {
        let db = try Database()
        let error = #expect(throws: SQLiteError.self) { try db.prepare("SELECT * FROM") }
        #expect(error?.resultCode == .error)
        #expect(error?.sql == "SELECT * FROM")
    }

    @Test func statementOutlivingItsDatabaseStillWorks() throws {
        var db: Database? = try Database()
        try db?.execute(sql: "CREATE TABLE T (A); INSERT INTO T VALUES (7)")
        let statement = try #require(try db?.prepare("SELECT A FROM T"))
        db = nil
        #expect(try statement.step() == .row)
        #expect(statement.int64(at: 0) == 7)
    }
}

@Suite("Statement cache")
struct StatementCacheTests {
    @Test func returnsTheSameStatementForTheSameSQL() throws {
        let db = try Database()
        let first = try db.cachedStatement("SELECT 1")
        let second = try db.cachedStatement("SELECT 1")
        let other = try db.cachedStatement("SELECT 2")
        #expect(first === second)
        #expect(first !== other)
        #expect(db.cachedStatementCount == 2)
    }

    @Test func prepareDoesNotCache() throws {
        let db = try Database()
        let first = try db.prepare("SELECT 1")
        let second = try db.prepare("SELECT 1")
        #expect(first !== second)
        #expect(db.cachedStatementCount == 0)
    }

    @Test func reuseRewindsAndClearsBindings() throws {
        let db = try Database()
        let statement = try db.cachedStatement("SELECT ?")
        try statement.bind(5, at: 1)
        #expect(try statement.step() == .row)  // left mid-way, bound
        let again = try db.cachedStatement("SELECT ?")
        #expect(try again.step() == .row)
        #expect(again.isNull(at: 0))
    }

    @Test func clearingTheCacheForgetsStatements() throws {
        let db = try Database()
        let first = try db.cachedStatement("SELECT 1")
        db.clearStatementCache()
        #expect(db.cachedStatementCount == 0)
        let second = try db.cachedStatement("SELECT 1")
        #expect(first !== second)
    }

    @Test func failedPrepareIsNotCached() throws {
        let db = try Database()
        #expect(throws: SQLiteError.self) { try db.cachedStatement("SELEC") }
        #expect(db.cachedStatementCount == 0)
    }
}
