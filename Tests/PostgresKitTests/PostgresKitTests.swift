import Foundation
import PostgresKit
import Testing

/// The text formats PostgresKit writes and reads, without a server.
@Suite struct PostgresTextTests {
    @Test func timestampsRoundTripAtMicrosecondPrecision() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<20_000 {
            // Years 0001 … 9999 and a few before Christ, at whole microseconds.
            let micros = Int64.random(in: -62_167_219_200_000_000...253_402_300_799_999_999, using: &generator)
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let text = PostgresText.timestamp(date)
            let back = PostgresText.timestamp(from: text)
            #expect(back != nil, "\(text)")
            guard let back else { return }
            #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.000_001, "\(text)")
        }
    }

    @Test func timestampTextIsPostgresISO() {
        #expect(PostgresText.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00.000000+00")
        #expect(PostgresText.timestamp(Date(timeIntervalSinceReferenceDate: 0.5)) == "2001-01-01 00:00:00.500000+00")
        #expect(PostgresText.timestamp(Date(timeIntervalSince1970: -1)) == "1969-12-31 23:59:59.000000+00")
        #expect(
            PostgresText.timestamp(from: "2026-12-01 20:00:09.25+05:30")
                == Date(timeIntervalSince1970: 1_796_155_209.25 - 19_800))
        #expect(PostgresText.timestamp(from: "2026-12-01 20:00:09") == Date(timeIntervalSince1970: 1_796_155_209))
        #expect(PostgresText.timestamp(from: "0001-01-01 00:00:00+00 BC") != nil)
        #expect(PostgresText.timestamp(from: "infinity") == .distantFuture)
        for bad in ["", "2026", "2026-13-01 00:00:00", "2026-12-01 00:00:00.", "2026-12-01 00:00:00+0x", "x"] {
            #expect(PostgresText.timestamp(from: bad) == nil, "\(bad)")
        }
    }

    @Test func byteaHexDecodes() {
        #expect(PostgresText.bytes(fromHex: "\\x") == [])
        #expect(PostgresText.bytes(fromHex: "\\x00ff10Ab") == [0, 255, 16, 171])
        #expect(PostgresText.bytes(fromHex: "\\x0") == nil)
        #expect(PostgresText.bytes(fromHex: "00ff") == nil)
        #expect(PostgresText.bytes(fromHex: "\\xzz") == nil)
    }

    @Test func doublesRoundTripThroughText() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let value = Double(bitPattern: generator.next())
            let back = PostgresText.double(from: PostgresText.double(value))
            #expect(back.map { $0 == value || ($0.isNaN && value.isNaN) } == true, "\(value)")
        }
    }

    @Test func errorsDescribeThemselves() {
        let error = PostgresError(
            kind: .statement, sqlState: .uniqueViolation, message: "duplicate key value\n", sql: "INSERT …")
        #expect(error.description == "PostgreSQL error 23505: duplicate key value (in: INSERT …)")
        #expect(error.localizedDescription == error.description)
        #expect(error.sqlState?.errorClass == "23")
    }
}

/// PostgresKit against a real server (`Scripts/with-postgres.sh` starts one; CI always does).
@Suite(.enabled(if: PostgresServer.url != nil, "no PostgreSQL server: run under Scripts/with-postgres.sh (CI does)"))
struct PostgresConnectionTests {
    func connect() throws -> PostgresConnection {
        try PostgresConnection(url: PostgresServer.url ?? "")
    }

    @Test func everyValueTypeRoundTrips() throws {
        let connection = try connect()
        let schema = try PostgresServer.freshSchema(connection)
        try connection.execute(
            #"CREATE TABLE "V" ("B" BOOLEAN, "S" SMALLINT, "I" BIGINT, "R" REAL, "D" DOUBLE PRECISION, "N" NUMERIC, "#
                + #""T" TEXT, "Y" BYTEA, "U" UUID, "W" TIMESTAMPTZ, "J" JSONB)"#)
        let date = Date(timeIntervalSinceReferenceDate: 786_000_000.123456)
        let uuid = UUID()
        let bytes: [UInt8] = [0, 1, 2, 255, 0, 39, 92]
        let values: [PostgresValue] = [
            .bool(true), .int(-32768), .int(.max), .double(1.5), .double(-0.1), .numeric("12345678901234567890.0001"),
            .text("O'Neil \"quoted\" \\ ü 🎉"), .bytes(bytes), .uuid(uuid), .timestamp(date), .json(#"{"a": [1, 2]}"#),
        ]
        try connection.query(
            #"INSERT INTO "V" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"#, values)
        let result = try connection.query(#"SELECT * FROM "V""#)
        #expect(result.columns == ["B", "S", "I", "R", "D", "N", "T", "Y", "U", "W", "J"])
        #expect(result.rows.count == 1)
        #expect(result[0, 0] == .bool(true))
        #expect(result[0, 1] == .int(-32768))
        #expect(result[0, 2] == .int(.max))
        #expect(result[0, 3] == .double(1.5))
        #expect(result[0, 4] == .double(-0.1))
        #expect(result[0, 5] == .numeric("12345678901234567890.0001"))
        #expect(result[0, 6] == .text("O'Neil \"quoted\" \\ ü 🎉"))
        #expect(result[0, 7] == .bytes(bytes))
        #expect(result[0, 8] == .uuid(uuid))
        if case .timestamp(let back) = result[0, 9] {
            #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
        } else {
            Issue.record("timestamp read as \(result[0, 9])")
        }
        #expect(result[0, 10] == .json(#"{"a": [1, 2]}"#))
        try connection.query(#"INSERT INTO "V" ("B") VALUES ($1)"#, [.null])
        #expect(try connection.query(#"SELECT "T" FROM "V" WHERE "B" IS NULL"#)[0, 0] == .null)
        try connection.execute("DROP SCHEMA \(schema) CASCADE")
    }

    @Test func rowsAffectedAndSQLState() throws {
        let connection = try connect()
        let schema = try PostgresServer.freshSchema(connection)
        try connection.execute(#"CREATE TABLE "K" ("ID" BIGINT PRIMARY KEY, "OPT" INTEGER)"#)
        for id in 1...5 { try connection.query(#"INSERT INTO "K" VALUES ($1, 1)"#, [.int(Int64(id))]) }
        let updated = try connection.query(#"UPDATE "K" SET "OPT" = 2 WHERE "ID" > $1 AND "OPT" = 1"#, [.int(2)])
        #expect(updated.rowsAffected == 3)
        #expect(try connection.query(#"UPDATE "K" SET "OPT" = 3 WHERE "OPT" = 1 AND "ID" = 5"#).rowsAffected == 0)
        do {
            try connection.query(#"INSERT INTO "K" VALUES (1, 1)"#)
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.kind == .statement)
            #expect(error.sqlState == .uniqueViolation)
            #expect(error.message.contains("duplicate key"))
        }
        do {
            try connection.query(#"SELECT * FROM "Missing""#)
            Issue.record("a missing table was accepted")
        } catch {
            #expect(error.sqlState == .undefinedTable)
        }
        try connection.execute("DROP SCHEMA \(schema) CASCADE")
    }

    @Test func transactionsCommitOrRollBack() throws {
        let connection = try connect()
        let schema = try PostgresServer.freshSchema(connection)
        try connection.execute(#"CREATE TABLE "T" ("ID" BIGINT)"#)
        _ = try connection.transaction { try connection.query(#"INSERT INTO "T" VALUES (1)"#) }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.query(#"INSERT INTO "T" VALUES (2)"#)
                throw Stop()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.query(#"SELECT count(*) FROM "T""#)[0, 0] == .int(1))
        try connection.execute("DROP SCHEMA \(schema) CASCADE")
    }

    @Test func aLostConnectionIsReportedAndReconnects() throws {
        let connection = try connect()
        let killer = try connect()
        guard case .int(let pid) = try connection.query("SELECT pg_backend_pid()")[0, 0] else {
            Issue.record("no backend pid")
            return
        }
        try killer.query("SELECT pg_terminate_backend($1::integer)", [.int(pid)])
        do {
            try connection.query("SELECT 1")
            Issue.record("a statement on a terminated session succeeded")
        } catch {
            #expect(error.kind == .connection, "\(error)")
        }
        #expect(!connection.isConnected)
        try connection.reconnect()
        #expect(try connection.query("SELECT 1")[0, 0] == .int(1))
    }

    @Test func anUnreachableServerIsAConnectionError() {
        #expect {
            _ = try PostgresConnection(url: "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2")
        } throws: { error in
            (error as? PostgresError)?.kind == .connection
        }
        #expect(throws: PostgresError.self) { _ = try PostgresConnection(url: "not a url ===") }
    }
}

enum PostgresServer {
    /// The server `Scripts/with-postgres.sh` started.
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["DATAMODELGEN_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    /// A new schema, made the connection's search path, so tests running side by side do not meet.
    static func freshSchema(_ connection: PostgresConnection) throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try connection.execute("CREATE SCHEMA \(name); SET search_path TO \(name)")
        return name
    }
}

/// A small seeded generator, so the property tests are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
