import SQLiteKit
import Testing

private struct Abort: Error {}

@Suite("Transactions and savepoints")
struct TransactionTests {
    private func makeDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE T (A INTEGER)")
        return db
    }

    private func count(_ db: Database) throws -> SQLiteValue? {
        try db.fetchOne(sql: "SELECT count(*) FROM T")?.first
    }

    @Test func commitsWhenTheBodyReturns() throws {
        let db = try makeDatabase()
        let value = try db.transaction {
            #expect(db.isInTransaction)
            try db.execute(sql: "INSERT INTO T VALUES (1)")
            return 42
        }
        #expect(value == 42)
        #expect(db.isInTransaction == false)
        #expect(try count(db) == .integer(1))
    }

    @Test func rollsBackWhenTheBodyThrows() throws {
        let db = try makeDatabase()
        #expect(throws: Abort.self) {
            try db.transaction {
                try db.execute(sql: "INSERT INTO T VALUES (1)")
                throw Abort()
            }
        }
        #expect(db.isInTransaction == false)
        #expect(try count(db) == .integer(0))
    }

    @Test func rollsBackWhenAStatementFails() throws {
        let db = try makeDatabase()
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute(sql: "INSERT INTO T VALUES (1)")
                try db.execute(sql: "INSERT INTO Missing VALUES (1)")
            }
        }
        #expect(error?.sql == "INSERT INTO Missing VALUES (1)")
        #expect(try count(db) == .integer(0))
    }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func everyKindCommits(kind: TransactionKind) throws {
        let db = try makeDatabase()
        try db.transaction(kind) { try db.execute(sql: "INSERT INTO T VALUES (1)") }
        #expect(try count(db) == .integer(1))
    }

    @Test func nestedTransactionIsAnErrorAndTheOuterOneRollsBack() throws {
        let db = try makeDatabase()
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute(sql: "INSERT INTO T VALUES (1)")
                try db.transaction {}
            }
        }
        #expect(error?.message.contains("within a transaction") == true)
        #expect(try count(db) == .integer(0))
    }

    @Test func savepointRollsBackOnlyItsOwnWork() throws {
        let db = try makeDatabase()
        try db.transaction {
            try db.execute(sql: "INSERT INTO T VALUES (1)")
            try? db.savepoint {
                try db.execute(sql: "INSERT INTO T VALUES (2)")
                throw Abort()
            }
            try db.savepoint("kept") { try db.execute(sql: "INSERT INTO T VALUES (3)") }
        }
        #expect(try db.fetchAll(sql: "SELECT A FROM T ORDER BY A") == [[1], [3]])
    }

    @Test func savepointWorksOutsideATransaction() throws {
        let db = try makeDatabase()
        try db.savepoint("odd \"name\"") { try db.execute(sql: "INSERT INTO T VALUES (1)") }
        #expect(db.isInTransaction == false)
        #expect(try count(db) == .integer(1))
    }

    @Test func rollbackIgnoringErrorsOutsideATransactionIsHarmless() throws {
        let db = try makeDatabase()
        db.rollbackIgnoringErrors()
        #expect(db.isInTransaction == false)
    }
}
