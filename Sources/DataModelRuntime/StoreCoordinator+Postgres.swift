import DataModelStore
import DataModelStoreLayout
import Foundation
import PostgresKit
import SQLiteKit

/// Opening a PostgreSQL store: the connection, the schema created when the database is empty or recognised as this
/// model's, and the primary key counters.
extension StoreCoordinator {
    /// `url` as messages show it: without its password.
    static func displayedURL(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.password = "***"
        return components.string ?? url.absoluteString
    }

    /// A connection to the server `url` names.
    ///
    /// - Throws: ``StoreError/unsupportedStore(_:)`` for a URL that is not `postgresql://` (or `postgres://`),
    ///   ``StoreError/postgres(_:)`` of kind `connection` when the server cannot be reached or refuses the session.
    static func connect(to url: URL, shownAs shown: String) throws(StoreError) -> StoreConnection {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" else {
            throw .unsupportedStore("'\(shown)' is not a postgresql:// URL")
        }
        do {
            return .postgres(PostgresStore(connection: try PostgresConnection(url: url.absoluteString)))
        } catch {
            throw .postgres(error)
        }
    }

    /// Creates the schema in an empty database or checks that the tables there are this model's, then reads the
    /// primary key counters; returns the store's UUID. Nothing is written to a database that holds other tables.
    func openPostgresSchema() throws(StoreError) -> String {
        do {
            try database.transaction {
                // One opener at a time creates the schema: a second process waits here, then finds the tables.
                try database.execute(sql: "SELECT pg_advisory_xact_lock(7405339914114122063)")
                let tables = Set(
                    try database.fetchAll(
                        sql:
                            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
                    ).compactMap { $0.first?.textValue })
                if tables.isEmpty {
                    try createPostgresSchema()
                } else {
                    try checkPostgresSchema(tables: tables)
                }
            }
            let roots = runtime.entities.filter(\.layout.isRoot)
            for row in try database.fetchAll(sql: #"SELECT "Z_ENT", "Z_MAX" FROM "Z_PRIMARYKEY""#) {
                guard row.count == 2, let number = row[0].integerValue, lastPrimaryKey.indices.contains(Int(number))
                else { continue }
                lastPrimaryKey[Int(number)] = row[1].integerValue ?? 0
                storedMaximum[Int(number)] = lastPrimaryKey[Int(number)]
            }
            // Rows written without `Z_MAX` being updated (by other tools) must not have their keys handed out again.
            for root in roots {
                let largest =
                    try database.fetchOne(sql: #"SELECT MAX("Z_PK") FROM "# + SQLQuoting.identifier(root.tableName))?
                    .first?.integerValue ?? 0
                lastPrimaryKey[root.number] = max(lastPrimaryKey[root.number], largest)
            }
            let uuid = try database.fetchOne(
                sql: #"SELECT "Z_UUID" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)?.first?.textValue
            return uuid ?? path
        } catch {
            throw StoreError(error)
        }
    }

    /// The model's tables, indexes, `Z_PRIMARYKEY` rows and `Z_METADATA` row, in the open transaction.
    private func createPostgresSchema() throws {
        let writer = DDLWriter(dialect: .postgres)
        for sql in writer.statements(for: runtime.layout) { try database.execute(sql: sql) }
        for sql in writer.primaryKeyRowStatements(for: runtime.layout) { try database.execute(sql: sql) }
        try insertPostgresMetadata()
    }

    /// The store's `Z_METADATA` row: a new UUID and the model's version hashes.
    private func insertPostgresMetadata() throws {
        let uuid = UUID().uuidString
        let metadata: [String: PropertyListValue] = [
            "NSStoreType": .string("PostgreSQL"), "NSStoreUUID": .string(uuid),
            "NSPersistenceFrameworkVersion": .string("DataModelRuntime"),
            "DataModelRuntimeModelName": .string(runtime.model.name),
            StoreFile.versionHashesKey: .dictionary(runtime.model.layoutModel.versionHashes.mapValues { .string($0) }),
        ]
        try database.execute(
            sql: #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, ?, ?)"#,
            arguments: [.text(uuid), .blob(StoreFile.propertyList(metadata))])
    }

    /// Checks that the database's tables are a store of this model (its `Z_METADATA` records the model's entity
    /// version hashes, and every table of the layout exists). A store an earlier version of the model wrote (its
    /// hashes are that version's) is migrated in place, in the open transaction (PostgreSQL's DDL is
    /// transactional, and the opener holds the advisory lock: a second process opening meanwhile waits, then finds
    /// the store migrated). Anything else is ``StoreError/modelMismatch(path:differences:)``; a change Core Data's
    /// inferred mapping refuses is ``StoreError/migrationNotInferable(path:from:reasons:)``, and with automatic
    /// migration turned off a store of an earlier version is ``StoreError/migrationRequired(path:from:to:)`` —
    /// nothing written in any of these cases.
    private func checkPostgresSchema(tables: Set<String>) throws {
        guard tables.contains("Z_METADATA") else {
            let found = tables.sorted()
            throw StoreError.modelMismatch(
                path: path,
                differences: [
                    "the database holds tables that are not a store of this model ("
                        + found.prefix(8).joined(separator: ", ") + (found.count > 8 ? ", …" : "")
                        + "); use an empty database or schema"
                ])
        }
        var metadata: [String: PropertyListValue] = [:]
        var recorded: [String: String]?
        if let blob = try database.fetchOne(
            sql: #"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)?.first?.blobValue,
            case .dictionary(let entries)? = BinaryPropertyList.decode(blob)
        {
            metadata = entries
            if case .dictionary(let hashes)? = entries[StoreFile.versionHashesKey] {
                recorded = hashes.compactMapValues {
                    if case .string(let text) = $0 { return text }
                    return nil
                }
            }
        }
        let hashes = runtime.model.layoutModel.versionHashes
        var differences: [String] = []
        var tables = tables
        if let recorded, recorded != hashes {
            let versions = runtime.model.earlierVersions
            if let source = versions.lastIndex(where: { $0.layoutModel.versionHashes == recorded }) {
                try migratePostgresStore(from: source, metadata: metadata)
                tables = Set(
                    try database.fetchAll(
                        sql:
                            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
                    ).compactMap { $0.first?.textValue })
            } else {
                differences += StoreSnapshot.versionHashDifferences(recorded: recorded, expected: hashes)
            }
        } else if recorded == nil {
            // Tables created from `datamodelgen schema --dialect postgres` (no `Z_METADATA` row) are recognised by
            // their layout, as an SQLite store Core Data wrote is: the model's (the row is written then), or an
            // earlier version's (migrated first).
            let columns = try postgresColumns()
            let found = try postgresLayoutDifferences(runtime.layout, columns: columns)
            let unrecorded =
                try database.fetchOne(sql: #"SELECT COUNT(*) FROM "Z_METADATA""#)?.first == .integer(0)
            if found.isEmpty && unrecorded {
                try insertPostgresMetadata()
            } else if unrecorded, let source = try earlierVersionByLayout(columns: columns) {
                try migratePostgresStore(from: source, metadata: [:])
                try insertPostgresMetadata()
                tables = Set(columns.keys).union(runtime.layout.tables.map(\.name))
            } else {
                differences.append("Z_METADATA records no entity version hashes of this runtime")
                differences += found
            }
        }
        let missing = runtime.layout.tables.map(\.name).filter { !tables.contains($0) }
        if !missing.isEmpty { differences.append("missing tables: " + missing.joined(separator: ", ")) }
        if !differences.isEmpty { throw StoreError.modelMismatch(path: path, differences: differences) }
        // Attribute indexes are not part of a version: the store may lack one the model has, or (after a migration)
        // keep one the model dropped.
        guard migratesAutomatically else { return }
        let indexes = Set(
            try database.fetchAll(sql: "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()")
                .compactMap { $0.first?.textValue })
        let repair = runtime.layout.attributeIndexRepair(
            existing: indexes, droppingStale: recorded != nil && recorded != hashes, dialect: .postgres)
        for sql in repair.statements { try database.execute(sql: sql) }
    }

    /// How the tables of the current schema differ from the model's layout: every column by name with the
    /// PostgreSQL type the schema's DDL gives it (both spelled by PostgreSQL: `TIMESTAMPTZ` is `timestamp with time
    /// zone`), and `Z_PRIMARYKEY`'s entity rows. Extra columns, tables and indexes do not matter.
    private func postgresLayoutDifferences(_ layout: StoreLayout, columns: [String: [String: String]]) throws
        -> [String]
    {
        let dialect = SQLDialect.postgres
        var spelled: [String: String] = [:]  // the DDL's type name → PostgreSQL's
        for column in layout.tables.flatMap(\.columns) {
            let name = dialect.typeName(of: column)
            guard spelled[name] == nil else { continue }
            spelled[name] =
                try database.fetchOne(
                    sql: "SELECT format_type(CAST(CAST(? AS TEXT) AS regtype), NULL)", arguments: [.text(name)])?
                .first?.textValue ?? name
        }
        var differences: [String] = []
        for table in layout.tables {
            guard let found = columns[table.name] else {
                differences.append("table \(table.name) is missing")
                continue
            }
            for column in table.columns {
                let expected = spelled[dialect.typeName(of: column)] ?? ""
                guard let type = found[column.name] else {
                    differences.append("table \(table.name) has no column \(column.name) (\(expected))")
                    continue
                }
                if type != expected {
                    differences.append("column \(table.name).\(column.name) is \(type), the model expects \(expected)")
                }
            }
        }
        guard differences.isEmpty else { return differences }
        let rows = try database.fetchAll(sql: #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER" FROM "Z_PRIMARYKEY""#).map { row in
            StoreSnapshot.EntityRow(
                number: Int(row.first?.integerValue ?? 0), name: row.count > 1 ? row[1].textValue ?? "" : "",
                superentityNumber: Int(row.count > 2 ? row[2].integerValue ?? 0 : 0))
        }
        return StoreSnapshot(tables: [:], entityRows: rows, versionHashes: nil).entityRowDifferences(from: layout)
    }

    /// The newest earlier version whose layout the tables have (``postgresLayoutDifferences(_:columns:)``), if any.
    private func earlierVersionByLayout(columns: [String: [String: String]]) throws -> Int? {
        let versions = runtime.model.earlierVersions
        for index in versions.indices.reversed() {
            let layout: StoreLayout
            do {
                layout = try StoreLayout(model: versions[index].layoutModel)
            } catch {
                throw StoreError.invalidModel(error.description)
            }
            if try postgresLayoutDifferences(layout, columns: columns).isEmpty { return index }
        }
        return nil
    }

    /// Every column of the current schema's tables and its type as PostgreSQL spells it: table → column → type.
    private func postgresColumns() throws -> [String: [String: String]] {
        var columns: [String: [String: String]] = [:]
        for row in try database.fetchAll(
            sql: "SELECT c.relname::text, a.attname::text, format_type(a.atttypid, NULL) FROM pg_attribute a "
                + "JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = current_schema()::regnamespace "
                + "AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped")
        where row.count == 3 {
            guard let table = row[0].textValue, let column = row[1].textValue else { continue }
            columns[table, default: [:]][column] = row[2].textValue ?? ""
        }
        return columns
    }

    /// Migrates the store, written by `earlierVersions[source]`, to the model, in the open transaction: the
    /// migration plan's PostgreSQL statements, the rewritten values of Binary attributes whose external-storage
    /// flag changed, and the new version hashes in `Z_METADATA` (its other keys kept).
    private func migratePostgresStore(from source: Int, metadata: [String: PropertyListValue]) throws {
        let versions = runtime.model.earlierVersions
        let name = versions[source].versionName ?? "version \(source + 1)"
        let target = runtime.model.versionName ?? "current"
        guard migratesAutomatically else {
            throw StoreError.migrationRequired(path: path, from: name, to: target)
        }
        let plan: MigrationPlan
        do {
            let old = versions[source].layoutModel
            plan = try MigrationPlan(
                from: old, to: runtime.model.layoutModel, oldLayout: try StoreLayout(model: old),
                newLayout: runtime.layout, dialect: .postgres)
        } catch {
            throw StoreError.invalidModel(error.description)
        }
        guard plan.isInferable else {
            throw StoreError.migrationNotInferable(path: path, from: name, reasons: plan.blockers)
        }
        for sql in plan.statements { try database.execute(sql: sql) }
        for change in plan.externalStorageChanges {
            // No folder beside a server: every value is in its column, in Core Data's marked form or bare.
            for row in try database.fetchAll(sql: change.selectSQL) {
                guard row.count == 2, let key = row[0].integerValue else { continue }
                let stored: Data
                switch row[1] {
                case .blob(let data): stored = data
                case .text(let text): stored = Data(text.utf8)
                default: continue
                }
                let value: SQLiteValue =
                    change.toExternalFormat
                    ? .blob(ExternalBinaryData.inline(stored))
                    : ExternalBinaryData.value(of: stored, directory: nil).map { .blob($0) } ?? .null
                try database.execute(sql: change.updateSQL, arguments: [value, .integer(key)])
            }
        }
        var updated = metadata
        updated[StoreFile.versionHashesKey] = .dictionary(
            runtime.model.layoutModel.versionHashes.mapValues { .string($0) })
        updated["DataModelRuntimeModelName"] = .string(runtime.model.name)
        try database.execute(
            sql: #"UPDATE "Z_METADATA" SET "Z_PLIST" = ?"#, arguments: [.blob(StoreFile.propertyList(updated))])
    }
}
