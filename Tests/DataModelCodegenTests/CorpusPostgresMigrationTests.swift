import DataModel
import DataModelStoreLayout
import Foundation
import PostgresKit
import Testing

/// ``CorpusMigrationTests`` on PostgreSQL: every inferable pair of consecutive versions of every multi-version
/// bundle, a store of the old version (the PostgreSQL DDL, in a schema of its own on a real server) filled with
/// rows holding a value of its column's PostgreSQL type in every column, migrated by the plan's PostgreSQL
/// statements in one transaction; every value, to-one key and join pair is compared before and after, with the
/// mapping worked out again by the same helpers.
@Suite struct CorpusPostgresMigrationTests {
    static let server = ProcessInfo.processInfo.environment["DATAMODELGEN_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    typealias Row = [String: PostgresValue]

    @Test(
        .enabled(if: TestPaths.corpus != nil, "../shared/corpus/models is absent"),
        .enabled(if: server != nil, "no PostgreSQL server: run under Scripts/with-postgres.sh (CI does)"))
    func consecutiveVersionsMigrateOnPostgreSQL() throws {
        guard let server = Self.server else { return }
        let admin = try PostgresConnection(url: server)
        var migrated = 0
        for bundle in CorpusMigrationTests.bundles {
            let versions = try ModelLoader.loadAllVersions(path: bundle.path)
            for (old, new) in zip(versions, versions.dropFirst()) {
                let oldModel = LayoutModel(old.model)
                let newModel = LayoutModel(new.model)
                let plan = try MigrationPlan(from: oldModel, to: newModel, dialect: .postgres)
                guard plan.isInferable else { continue }
                let schema = "m" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                try admin.execute("CREATE SCHEMA \(schema)")
                defer { try? admin.execute("SET client_min_messages = warning; DROP SCHEMA \(schema) CASCADE") }
                let separator = server.contains("?") ? "&" : "?"
                let db = try PostgresConnection(url: server + separator + "options=-c%20search_path%3D" + schema)
                try Self.check(db, from: oldModel, to: newModel, plan: plan, name: new.contentsPath)
                migrated += 1
            }
        }
        #expect(migrated > 0)
        print("corpus migration on PostgreSQL: \(migrated) version pairs migrated with every value")
    }

    static func check(
        _ db: PostgresConnection, from oldModel: LayoutModel, to newModel: LayoutModel, plan: MigrationPlan,
        name: String
    ) throws {
        let old = try StoreLayout(model: oldModel)
        let new = try StoreLayout(model: newModel)
        let writer = DDLWriter(dialect: .postgres)
        for sql in writer.statements(for: old) + writer.primaryKeyRowStatements(for: old) { try db.execute(sql) }
        try fill(db, old)
        var before: [String: [Int64: Row]] = [:]
        for table in old.entityTables { before[table.name] = try rows(db, table.name) }
        var joinsBefore: [String: [Row]] = [:]
        for join in old.joinTables { joinsBefore[join.name] = Array(try rows(db, join.name, keyed: false).values) }
        do {
            try db.transaction { for sql in plan.statements { try db.execute(sql) } }
        } catch {
            Issue.record("\(name): \(error)")
            return
        }
        // Every table of the new layout is there, and nothing of the old tables moved aside is left.
        let tables = Set(
            try db.query("SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()")
                .rows.compactMap { row -> String? in
                    if case .text(let name) = row[0] { return name }
                    return nil
                })
        #expect(tables == Set(new.tables.map(\.name)), "\(name)")

        try CorpusMigrationTests.expectMigrated(
            from: old, to: new, oldModel: oldModel, newModel: newModel, name: name, before: before,
            joinsBefore: joinsBefore, integer: { .int($0) }, null: .null, rows: { try rows(db, $0) },
            pairs: { table, source, destination in
                let q = CorpusMigrationTests.quote
                return Set(try db.query("SELECT \(q(source)), \(q(destination)) FROM \(q(table))").rows)
            })
    }

    /// A value of the column's PostgreSQL type, different per row and column.
    static func value(for column: ColumnLayout, key: Int64, index: Int, entity: String) -> PostgresValue {
        switch DDLWriter(dialect: .postgres).dialect.typeName(of: column) {
        case "SMALLINT": .int(key * 11 + Int64(index % 100))
        case "INTEGER", "BIGINT": .int(key * 101 + Int64(index))
        case "REAL", "DOUBLE PRECISION": .double(Double(key) * 1.5 + Double(index))
        case "NUMERIC": .numeric("\(key).\(index)5")
        case "BOOLEAN": .bool((key + Int64(index)) % 2 == 0)
        case "TIMESTAMPTZ": .timestamp(Date(timeIntervalSince1970: 1_000_000_000 + Double(key) * 1.5 + Double(index)))
        case "UUID": .uuid(UUID())
        case "JSONB": .json(#"{"row": \#(key), "column": \#(index)}"#)
        case "BYTEA": .bytes([UInt8(key & 0xFF), UInt8(index & 0xFF), 7])
        default: .text("\(entity)-\(key)-\(column.name)")
        }
    }

    /// ``CorpusMigrationTests/fillRows(_:)`` written into a PostgreSQL store, each attribute a value of its
    /// column's PostgreSQL type.
    static func fill(_ db: PostgresConnection, _ layout: StoreLayout) throws {
        let q = CorpusMigrationTests.quote
        for row in CorpusMigrationTests.fillRows(layout) {
            let values = row.values.map { value -> PostgresValue in
                switch value {
                case .integer(let number): .int(number)
                case .null: .null
                case .attribute(let column, let key, let index, let entity):
                    Self.value(for: column, key: key, index: index, entity: entity)
                }
            }
            let names = row.columns.map(q).joined(separator: ", ")
            let marks = (1...row.columns.count).map { "$\($0)" }.joined(separator: ", ")
            try db.query(
                "INSERT INTO \(q(row.table)) (\(names)) VALUES (\(marks))"
                    + (row.isJoin ? " ON CONFLICT DO NOTHING" : ""),
                values)
        }
    }

    /// The rows of `table` by `Z_PK` (or by position, for a join table), each as column name → value.
    static func rows(_ db: PostgresConnection, _ table: String, keyed: Bool = true) throws -> [Int64: Row] {
        let result = try db.query("SELECT * FROM \(CorpusMigrationTests.quote(table))")
        var rows: [Int64: Row] = [:]
        for (position, values) in result.rows.enumerated() {
            let row = Row(zip(result.columns, values), uniquingKeysWith: { first, _ in first })
            if !keyed {
                rows[Int64(position + 1)] = row
            } else if case .int(let key)? = row["Z_PK"] {
                rows[key] = row
            }
        }
        return rows
    }
}
