import DataModelGenCLI
import DataModelStore
import DataModelStoreLayout
import FoundationEssentials
import PostgresKit

/// `datamodelgen-postgres migrate <bundle> postgresql://…` (which `datamodelgen migrate` runs for a PostgreSQL URL):
/// the migration the runtime runs when it opens a PostgreSQL store (`StoreDescription.postgres(url:)`), run offline.
/// One transaction under the runtime's advisory lock, so an app instance opening the store meanwhile waits and then
/// finds it migrated; the store's version is recognised by the entity version hashes its `Z_METADATA` row records; the
/// plan is the runtime's (PostgreSQL statements, Binary values rewritten when their external-storage flag changed, the
/// new hashes recorded). A dry run rolls back.
struct PostgresMigration: PostgresStoreMigrator {
    /// The key of the advisory lock the runtime takes while it creates, checks or migrates a schema.
    static let advisoryLock: Int64 = 7_405_339_914_114_122_063

    /// Connects to `url` and migrates (or, with `dryRun`, plans) in one transaction.
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached, refuses the session or fails a statement (the
    ///   transaction is rolled back: the store is as it was); ``StoreFile/MigrationFailure`` for a store of no known
    ///   version, a newer version, or a change that is not inferable (nothing written).
    func migrate(
        url: String, versions: [LayoutModel], to target: Int, dryRun: Bool, mergingHierarchies: Bool
    ) throws -> StoreFile.Migration {
        let connection = try PostgresConnection(url: url)
        do {
            try connection.execute("BEGIN")
            let migration = try Self.migrateInTransaction(
                connection, versions: versions, to: target, dryRun: dryRun, mergingHierarchies: mergingHierarchies)
            try connection.execute(dryRun ? "ROLLBACK" : "COMMIT")
            return migration
        } catch {
            if connection.isConnected, connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private static func migrateInTransaction(
        _ connection: PostgresConnection, versions: [LayoutModel], to target: Int, dryRun: Bool,
        mergingHierarchies: Bool
    ) throws -> StoreFile.Migration {
        _ = try connection.query("SELECT pg_advisory_xact_lock(\(advisoryLock))")
        let tables = Set(
            try connection.query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
            ).rows.compactMap { row -> String? in
                if case .text(let name)? = row.first { return name }
                return nil
            })
        guard tables.contains("Z_METADATA") else {
            let found = tables.sorted()
            throw StoreFile.MigrationFailure.unknownVersion(differences: [
                found.isEmpty
                    ? "the database schema is empty: the runtime creates the store when it first opens it"
                    : "the database holds tables that are not a store (no Z_METADATA): "
                        + found.prefix(8).joined(separator: ", ") + (found.count > 8 ? ", …" : "")
            ])
        }
        var metadata: [String: PropertyListValue] = [:]
        var recorded: [String: String]?
        let plist = try connection.query(#"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)
        if case .bytes(let bytes)? = plist.rows.first?.first,
            case .dictionary(let entries)? = BinaryPropertyList.decode(Data(bytes))
        {
            metadata = entries
            if case .dictionary(let hashes)? = entries[StoreFile.versionHashesKey] {
                recorded = hashes.compactMapValues {
                    if case .string(let text) = $0 { return text }
                    return nil
                }
            }
        }
        let hashes = versions.map(\.versionHashes)
        let source: Int
        // Whether the store has no Z_METADATA row yet: its tables came from `schema --dialect postgres`.
        var unrecorded = false
        if let recorded {
            guard let found = hashes[target] == recorded ? target : hashes.lastIndex(of: recorded) else {
                throw StoreFile.MigrationFailure.unknownVersion(
                    differences: StoreSnapshot.versionHashDifferences(recorded: recorded, expected: hashes[target]))
            }
            source = found
        } else {
            // Tables created with `schema --dialect postgres` are recognised by their layout, as the runtime does when
            // it opens them: the newest version whose columns (with the types that DDL gives them) and Z_PRIMARYKEY
            // rows the tables have; the row is written with the target's hashes.
            let noHashes = "Z_METADATA records no entity version hashes of this runtime"
            let rows = try connection.query(#"SELECT COUNT(*)::text FROM "Z_METADATA""#).rows
            guard case .text("0")? = rows.first?.first else {
                throw StoreFile.MigrationFailure.unknownVersion(differences: [noHashes])
            }
            let columns = try Self.columns(connection)
            var found: Int?
            var targetDifferences: [String] = []
            for index in versions.indices.reversed() {
                let differences = try Self.layoutDifferences(
                    try Self.layout(of: versions[index]), columns: columns, connection)
                if index == target { targetDifferences = differences }
                if differences.isEmpty {
                    found = index
                    break
                }
            }
            guard let found else {
                throw StoreFile.MigrationFailure.unknownVersion(differences: [noHashes] + targetDifferences)
            }
            source = found
            unrecorded = true
        }
        guard source <= target else { throw StoreFile.MigrationFailure.newerVersion(sourceIndex: source) }
        let plan = try self.plan(
            from: versions[source], to: versions[target], mergingHierarchies: mergingHierarchies)
        guard plan.isInferable else {
            throw StoreFile.MigrationFailure.notInferable(sourceIndex: source, reasons: plan.blockers)
        }
        // Attribute indexes are not part of a version: the store may lack one the model has, or (after a migration)
        // keep one the model dropped; they are repaired after the plan, as the runtime does when it opens the store.
        let targetLayout: StoreLayout
        do {
            targetLayout = try StoreLayout(model: versions[target])
        } catch {
            throw StoreFile.MigrationFailure.layout(error)
        }
        let dropping = !plan.isEmpty || source != target
        guard !dryRun else {
            // The repair depends on what the plan does, so a dry run reports it only when there is no plan.
            let repair =
                plan.isEmpty
                ? targetLayout.attributeIndexRepair(
                    existing: try Self.indexNames(connection), droppingStale: dropping, dialect: .postgres)
                : AttributeIndexRepair()
            return StoreFile.Migration(
                sourceIndex: source, targetIndex: target, plan: plan, migrated: false, indexRepair: repair)
        }
        if source != target { try Self.run(plan, on: connection) }
        if source != target || unrecorded {
            try Self.record(hashes[target], metadata: metadata, insertingRow: unrecorded, on: connection)
        }
        let repair = targetLayout.attributeIndexRepair(
            existing: try Self.indexNames(connection), droppingStale: dropping, dialect: .postgres)
        for sql in repair.statements { try connection.execute(sql) }
        return StoreFile.Migration(
            sourceIndex: source, targetIndex: target, plan: plan,
            migrated: !plan.isEmpty || !repair.isEmpty || unrecorded, indexRepair: repair)
    }

    private static func layout(of version: LayoutModel) throws(StoreFile.MigrationFailure) -> StoreLayout {
        do {
            return try StoreLayout(model: version)
        } catch {
            throw .layout(error)
        }
    }

    /// Every column of the current schema's tables and its type as PostgreSQL spells it: table → column → type.
    private static func columns(_ connection: PostgresConnection) throws -> [String: [String: String]] {
        var columns: [String: [String: String]] = [:]
        for row in try connection.query(
            "SELECT c.relname::text, a.attname::text, format_type(a.atttypid, NULL) FROM pg_attribute a "
                + "JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = current_schema()::regnamespace "
                + "AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped"
        ).rows where row.count == 3 {
            guard case .text(let table) = row[0], case .text(let column) = row[1] else { continue }
            if case .text(let type) = row[2] { columns[table, default: [:]][column] = type }
        }
        return columns
    }

    /// How the current schema's tables differ from `layout` (as the runtime compares them when it opens tables without
    /// a Z_METADATA row): every column by name with the type the schema command's DDL gives it (both spelled by
    /// PostgreSQL), and `Z_PRIMARYKEY`'s entity rows. Extra columns, tables and indexes do not matter.
    private static func layoutDifferences(
        _ layout: StoreLayout, columns: [String: [String: String]], _ connection: PostgresConnection
    ) throws -> [String] {
        let dialect = SQLDialect.postgres
        var spelled: [String: String] = [:]  // the DDL's type name → PostgreSQL's
        for column in layout.tables.flatMap(\.columns) {
            let name = dialect.typeName(of: column)
            guard spelled[name] == nil else { continue }
            let row = try connection.query("SELECT format_type(CAST($1::text AS regtype), NULL)", [.text(name)]).rows
            if case .text(let type)? = row.first?.first { spelled[name] = type } else { spelled[name] = name }
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
        let rows = try connection.query(#"SELECT "Z_ENT", "Z_NAME", "Z_SUPER" FROM "Z_PRIMARYKEY""#).rows.map { row in
            let number = { (value: PostgresValue?) -> Int in
                if case .int(let number)? = value { return Int(number) }
                return 0
            }
            let name: String
            if row.count > 1, case .text(let text) = row[1] { name = text } else { name = "" }
            return StoreSnapshot.EntityRow(
                number: number(row.first), name: name, superentityNumber: number(row.count > 2 ? row[2] : nil))
        }
        return StoreSnapshot(tables: [:], entityRows: rows, versionHashes: nil).entityRowDifferences(from: layout)
    }

    /// The names of the indexes in the connection's schema.
    private static func indexNames(_ connection: PostgresConnection) throws -> Set<String> {
        Set(
            try connection.query("SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()").rows
                .compactMap { row -> String? in
                    if case .text(let name)? = row.first { return name }
                    return nil
                })
    }

    /// Runs `plan`'s statements and Binary rewrites.
    private static func run(_ plan: MigrationPlan, on connection: PostgresConnection) throws {
        for sql in plan.statements { try connection.execute(sql) }
        for change in plan.externalStorageChanges {
            // No folder beside a server: every value is in its column, in Core Data's marked form or bare.
            let update =
                "UPDATE " + SQLQuoting.identifier(change.table) + " SET " + SQLQuoting.identifier(change.column)
                + #" = $1 WHERE "Z_PK" = $2"#
            for row in try connection.query(change.selectSQL).rows {
                guard row.count == 2, case .int(let key) = row[0] else { continue }
                let stored: Data
                switch row[1] {
                case .bytes(let bytes): stored = Data(bytes)
                case .text(let text): stored = Data(text.utf8)
                default: continue
                }
                let value: PostgresValue =
                    change.toExternalFormat
                    ? .bytes(Array(ExternalBinaryData.inline(stored)))
                    : ExternalBinaryData.value(of: stored, directory: nil).map { .bytes(Array($0)) } ?? .null
                _ = try connection.query(update, [value, .int(key)])
            }
        }
    }

    /// Records `hashes` in `Z_METADATA`, keeping `metadata`'s other keys; with `insertingRow`, writes the row the
    /// runtime writes for a new store (a new store UUID) into the empty table.
    private static func record(
        _ hashes: [String: String], metadata: [String: PropertyListValue], insertingRow: Bool,
        on connection: PostgresConnection
    ) throws {
        var metadata = metadata
        metadata[StoreFile.versionHashesKey] = .dictionary(hashes.mapValues { .string($0) })
        guard insertingRow else {
            _ = try connection.query(
                #"UPDATE "Z_METADATA" SET "Z_PLIST" = $1"#, [.bytes(Array(StoreFile.propertyList(metadata)))])
            return
        }
        let uuid = UUID().uuidString
        metadata["NSStoreType"] = .string("PostgreSQL")
        metadata["NSStoreUUID"] = .string(uuid)
        metadata["NSPersistenceFrameworkVersion"] = .string("DataModelRuntime")
        _ = try connection.query(
            #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, $1, $2)"#,
            [.text(uuid), .bytes(Array(StoreFile.propertyList(metadata)))])
    }

    /// The PostgreSQL migration plan from `old` to `new`.
    private static func plan(from old: LayoutModel, to new: LayoutModel, mergingHierarchies: Bool)
        throws(StoreFile.MigrationFailure) -> MigrationPlan
    {
        do {
            return try MigrationPlan(
                from: old, to: new, oldLayout: try StoreLayout(model: old), newLayout: try StoreLayout(model: new),
                mergingHierarchies: mergingHierarchies, dialect: .postgres)
        } catch {
            throw .layout(error)
        }
    }
}
