import Foundation
import PostgresKit
import Testing

/// Pipelines (libpq's pipeline mode), binary parameters of prepared statements, and rows read in place.
@Suite(
    "PostgresKit: pipelines and binary parameters",
    .enabled(if: PostgresServer.url != nil, "no PostgreSQL server: run under Scripts/with-postgres.sh (CI does)"))
struct PostgresPipelineTests {
    func connect() throws -> PostgresConnection {
        try PostgresConnection(url: PostgresServer.url ?? "")
    }

    @Test("each pipelined statement's row count comes back in order, across chunks")
    func countsInOrderAcrossChunks() throws {
        let connection = try connect()
        let schema = try PostgresServer.freshSchema(connection)
        defer { try? connection.execute("DROP SCHEMA \(schema) CASCADE") }
        try connection.execute(#"CREATE TABLE "K" ("ID" BIGINT PRIMARY KEY, "OPT" INTEGER)"#)
        let insert = #"INSERT INTO "K" VALUES ($1, 1), ($2, 1)"#
        let insertTypes = try connection.prepare(insert, name: "ins")
        let update = #"UPDATE "K" SET "OPT" = "OPT" + 1 WHERE "ID" = $1 AND "OPT" = $2"#
        let updateTypes = try connection.prepare(update, name: "upd")
        try connection.execute("BEGIN")
        // Chunks of 3: ten statements cross three sync points, inside one transaction.
        let pipeline = try connection.beginPipeline(chunkSize: 3)
        for pair in 0..<10 {
            try pipeline.send(
                prepared: "ins", sql: insert, [.int(Int64(pair * 2)), .int(Int64(pair * 2 + 1))], types: insertTypes)
        }
        #expect(pipeline.sentCount == 10)
        // Rows 0…19 exist with OPT 1: even IDs match version 1, odd ones are asked for version 2 (no match).
        for id in 0..<20 {
            try pipeline.send(
                prepared: "upd", sql: update, [.int(Int64(id)), .int(id % 2 == 0 ? 1 : 2)], types: updateTypes)
        }
        let counts = try pipeline.finish()
        #expect(counts == Array(repeating: 2, count: 10) + (0..<20).map { $0 % 2 == 0 ? 1 : 0 })
        #expect(connection.isInTransaction)
        try connection.execute("ROLLBACK")
        // Rolled back: the sync points inside the transaction committed nothing.
        #expect(try connection.query(#"SELECT count(*) FROM "K""#)[0, 0] == .int(0))
    }

    @Test("a failing statement fails the pipeline with its SQLSTATE, and the connection is usable after")
    func failureReported() throws {
        let connection = try connect()
        let schema = try PostgresServer.freshSchema(connection)
        defer { try? connection.execute("DROP SCHEMA \(schema) CASCADE") }
        try connection.execute(#"CREATE TABLE "K" ("ID" BIGINT PRIMARY KEY)"#)
        let insert = #"INSERT INTO "K" VALUES ($1)"#
        let types = try connection.prepare(insert, name: "ins")
        try connection.execute("BEGIN")
        let pipeline = try connection.beginPipeline(chunkSize: 4)
        var failure: PostgresError?
        do {
            for id in [1, 2, 3, 2, 5, 6, 7, 8, 9] {
                try pipeline.send(prepared: "ins", sql: insert, [.int(Int64(id))], types: types)
            }
            _ = try pipeline.finish()
        } catch {
            failure = error
        }
        #expect(failure?.sqlState == .uniqueViolation, "\(String(describing: failure))")
        try connection.execute("ROLLBACK")
        #expect(try connection.query(#"SELECT count(*) FROM "K""#)[0, 0] == .int(0))
        // Out of pipeline mode: ordinary statements run.
        try connection.query(insert, [.int(1)])
        #expect(try connection.query(#"SELECT count(*) FROM "K""#)[0, 0] == .int(1))
    }

    @Test("values sent in binary as the parameter's type read back equal, and rows read in place decode")
    func binaryParametersRoundTrip() throws {
        let connection = try connect()
        let schema = try PostgresServer.freshSchema(connection)
        defer { try? connection.execute("DROP SCHEMA \(schema) CASCADE") }
        try connection.execute(
            #"CREATE TABLE "V" ("S" SMALLINT, "I" INTEGER, "L" BIGINT, "D" DOUBLE PRECISION, "B" BOOLEAN, "#
                + #""W" TIMESTAMPTZ, "U" UUID, "T" TEXT, "N" NUMERIC)"#)
        let insert = #"INSERT INTO "V" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"#
        let types = try connection.prepare(insert, name: "ins")
        var generator = SplitMix64(seed: 0xB1A5)
        var written: [[PostgresValue]] = []
        for row in 0..<200 {
            let micros = Int64.random(in: -62_000_000_000_000_000...250_000_000_000_000_000, using: &generator)
            let values: [PostgresValue] = [
                .int(Int64(Int16.random(in: .min ... .max, using: &generator))),
                .int(Int64(Int32.random(in: .min ... .max, using: &generator))),
                .int(row == 0 ? .min : row == 1 ? .max : Int64.random(in: .min ... .max, using: &generator)),
                .double(row == 2 ? -.infinity : Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)),
                .bool(row % 2 == 0), .timestamp(Date(timeIntervalSince1970: Double(micros) / 1_000_000)),
                .uuid(UUID()), .text("row \(row) ü"), .numeric("\(row).25"),
            ]
            written.append(values)
            try connection.execute(prepared: "ins", sql: insert, values, types: types)
        }
        let select = #"SELECT * FROM "V" ORDER BY "T""#
        _ = try connection.prepare(select, name: "sel")
        let rows = try connection.rows(prepared: "sel", sql: select, [])
        #expect(rows.count == 200)
        let expected = written.sorted { "\($0[7])" < "\($1[7])" }
        for (index, values) in expected.enumerated() {
            for column in [0, 1, 2] {
                guard case .int(let value) = values[column] else { continue }
                #expect(rows.int64(index, column) == value)
            }
            #expect(rows.value(index, 3) == values[3])
            #expect(rows.value(index, 4) == values[4])
            if case .timestamp(let date) = values[5], case .timestamp(let back)? = rows.value(index, 5) {
                #expect(abs(back.timeIntervalSince(date)) < 0.000_001 * max(1, abs(date.timeIntervalSince1970) / 1e9))
            } else {
                Issue.record("timestamp \(String(describing: rows.value(index, 5)))")
            }
            #expect(rows.value(index, 6) == values[6])
            #expect(rows.string(index, 7).map(PostgresValue.text) == values[7])
            #expect(rows.value(index, 8) == values[8])
            #expect(!rows.isNull(index, 0))
        }
        #expect(rows.isNull(0, 99) && rows.isNull(999, 0))
    }
}
