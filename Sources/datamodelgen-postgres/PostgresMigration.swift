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
        guard let recorded else {
            // Tables created with `schema --dialect postgres` have no Z_METADATA row until the runtime first opens them
            // (it checks their structure then and writes the row); this tool recognises a store by its hashes only.
            throw StoreFile.MigrationFailure.unknownVersion(differences: [
                "Z_METADATA records no entity version hashes of this runtime (tables created with the schema command "
                    + "get them when the runtime first opens the store)"
            ])
        }
        let hashes = versions.map(\.versionHashes)
        guard let source = hashes[target] == recorded ? target : hashes.lastIndex(of: recorded) else {
            throw StoreFile.MigrationFailure.unknownVersion(
                differences: StoreSnapshot.versionHashDifferences(recorded: recorded, expected: hashes[target]))
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
        if source != target {
            try Self.run(plan, metadata: metadata, hashes: hashes[target], on: connection)
        }
        let repair = targetLayout.attributeIndexRepair(
            existing: try Self.indexNames(connection), droppingStale: dropping, dialect: .postgres)
        for sql in repair.statements { try connection.execute(sql) }
        return StoreFile.Migration(
            sourceIndex: source, targetIndex: target, plan: plan, migrated: !plan.isEmpty || !repair.isEmpty,
            indexRepair: repair)
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

    /// Runs `plan`'s statements and Binary rewrites, and records `hashes` in `Z_METADATA` (keeping its other keys).
    private static func run(
        _ plan: MigrationPlan, metadata: [String: PropertyListValue], hashes: [String: String],
        on connection: PostgresConnection
    ) throws {
        var metadata = metadata
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
        metadata[StoreFile.versionHashesKey] = .dictionary(hashes.mapValues { .string($0) })
        _ = try connection.query(
            #"UPDATE "Z_METADATA" SET "Z_PLIST" = $1"#, [.bytes(Array(StoreFile.propertyList(metadata)))])
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
