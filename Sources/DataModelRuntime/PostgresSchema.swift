import DataModelStore
import DataModelStoreLayout
import Foundation
import PostgresKit
import SQLiteKit

/// A PostgreSQL store's schema: created in an empty schema, recognised as one of a model's versions, and migrated to
/// another. The one place for both users: the runtime when it opens a store (``StoreDescription/postgres(url:)``),
/// and `datamodelgen migrate` on a `postgresql://` URL (``PostgresStoreMigration``). Everything runs inside the
/// caller's transaction, which holds ``advisoryLock``: a second opener waits, then finds the work done.
struct PostgresSchema {
    /// The key of the advisory lock (`pg_advisory_xact_lock`) every opener and migrator takes first.
    static let advisoryLock: Int64 = 7_405_339_914_114_122_063

    /// What ``recognize(target:)`` found.
    struct Recognized {
        /// The version that wrote the store.
        var source: Int
        /// `Z_METADATA`'s property list (empty when it has no row).
        var metadata: [String: PropertyListValue]
        /// Whether `Z_METADATA` has a row (tables created from the schema command's DDL have none).
        var hasMetadataRow: Bool
    }

    let database: StoreConnection
    /// The model's versions, oldest first.
    let versions: [LayoutModel]
    /// The model's name, recorded in the metadata.
    let modelName: String
    private var layouts: LayoutCache

    init(database: StoreConnection, versions: [LayoutModel], modelName: String, known: [Int: StoreLayout] = [:]) {
        self.database = database
        self.versions = versions
        self.modelName = modelName
        layouts = LayoutCache(versions: versions, known: known)
    }

    /// The names of the tables in the connection's current schema.
    func tableNames() throws -> Set<String> {
        Set(
            try database.fetchAll(
                sql: "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
            ).compactMap { $0.first?.textValue })
    }

    /// Creates version `target`'s tables, indexes, `Z_PRIMARYKEY` rows and `Z_METADATA` row in the empty schema.
    mutating func create(target: Int) throws {
        let writer = DDLWriter(dialect: .postgres)
        let layout = try layouts.layout(target)
        for sql in writer.statements(for: layout) { try database.execute(sql: sql) }
        for sql in writer.primaryKeyRowStatements(for: layout) { try database.execute(sql: sql) }
        try writeMetadata([:], hashes: layouts.hashes(target), insert: true)
    }

    /// Which version wrote the store: the one whose entity version hashes `Z_METADATA` records; for tables without
    /// a `Z_METADATA` row (created from `datamodelgen schema --dialect postgres`), the newest version whose layout
    /// they have, as an SQLite store Core Data wrote is recognised.
    ///
    /// - Throws: ``StoreFile/MigrationFailure/unknownVersion(differences:)`` for tables that are not a store of any
    ///   version (`tables` names them), ``StoreFile/MigrationFailure/newerVersion(sourceIndex:)`` for a store of a
    ///   version after `target`; a database error as ``StoreError``.
    mutating func recognize(tables: Set<String>, target: Int) throws -> Recognized {
        guard tables.contains("Z_METADATA") else {
            let found = tables.sorted()
            throw StoreFile.MigrationFailure.unknownVersion(differences: [
                "the database holds tables that are not a store of this model ("
                    + found.prefix(8).joined(separator: ", ") + (found.count > 8 ? ", …" : "")
                    + "); use an empty database or schema"
            ])
        }
        var metadata: [String: PropertyListValue] = [:]
        var recorded: [String: String]?
        let row = try database.fetchOne(sql: #"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)
        if let blob = row?.first?.blobValue, case .dictionary(let entries)? = BinaryPropertyList.decode(blob) {
            metadata = entries
            if case .dictionary(let hashes)? = entries[StoreFile.versionHashesKey] {
                recorded = hashes.compactMapValues {
                    if case .string(let text) = $0 { return text }
                    return nil
                }
            }
        }
        let source: Int
        if let recorded {
            // The target when its hashes are the recorded ones (versions that differ only in attribute indexes
            // have the same hashes), else the newest version with them.
            let found =
                layouts.hashes(target) == recorded ? target : versions.indices.last { layouts.hashes($0) == recorded }
            guard let found else {
                throw StoreFile.MigrationFailure.unknownVersion(
                    differences: StoreSnapshot.versionHashDifferences(
                        recorded: recorded, expected: layouts.hashes(target)))
            }
            let missing = try layouts.layout(found).tables.map(\.name).filter { !tables.contains($0) }
            guard missing.isEmpty else {
                throw StoreFile.MigrationFailure.unknownVersion(differences: [
                    "missing tables: " + missing.joined(separator: ", ")
                ])
            }
            source = found
        } else if row == nil {
            let columns = try self.columns()
            var matching: Int?
            for index in versions.indices.reversed() where try layoutDifferences(index, columns: columns).isEmpty {
                matching = index
                break
            }
            guard let matching else {
                throw StoreFile.MigrationFailure.unknownVersion(
                    differences: ["Z_METADATA records no entity version hashes of this runtime"]
                        + (try layoutDifferences(target, columns: columns)))
            }
            source = matching
        } else {
            throw StoreFile.MigrationFailure.unknownVersion(differences: [
                "Z_METADATA records no entity version hashes of this runtime"
            ])
        }
        guard source <= target else { throw StoreFile.MigrationFailure.newerVersion(sourceIndex: source) }
        return Recognized(source: source, metadata: metadata, hasMetadataRow: row != nil)
    }

    /// Migrates the store ``recognize(tables:target:)`` found to version `target`: the migration plan's PostgreSQL
    /// statements, the rewritten values of Binary attributes whose external-storage flag changed, the target's
    /// version hashes in `Z_METADATA` (its other keys kept; the row written when there was none), and the attribute
    /// indexes (``StoreLayout/attributeIndexRepair(existing:droppingStale:dialect:)``: created when missing; dropped
    /// when stale only by a migration between versions). With `dryRun`, nothing is written (the index repair is
    /// reported when the plan is empty: otherwise it depends on what the plan does).
    ///
    /// - Throws: ``StoreFile/MigrationFailure/notInferable(sourceIndex:reasons:)`` (nothing written),
    ///   ``StoreFile/MigrationFailure/layout(_:)``; a database error as ``StoreError``.
    mutating func migrate(
        _ recognized: Recognized, to target: Int, dryRun: Bool = false, mergingHierarchies: Bool = false,
        repairsIndexes: Bool = true
    ) throws -> StoreFile.Migration {
        let source = recognized.source
        let plan: MigrationPlan
        do {
            plan = try MigrationPlan(
                from: versions[source], to: versions[target], oldLayout: try layouts.layout(source),
                newLayout: try layouts.layout(target), mergingHierarchies: mergingHierarchies, dialect: .postgres)
        } catch {
            throw StoreFile.MigrationFailure.layout(error)
        }
        guard plan.isInferable else {
            throw StoreFile.MigrationFailure.notInferable(sourceIndex: source, reasons: plan.blockers)
        }
        var migration = StoreFile.Migration(sourceIndex: source, targetIndex: target, plan: plan, migrated: false)
        let layout = try layouts.layout(target)
        guard !dryRun else {
            if plan.isEmpty && repairsIndexes {
                migration.indexRepair = layout.attributeIndexRepair(
                    existing: try indexNames(), droppingStale: false, dialect: .postgres)
            }
            return migration
        }
        for sql in plan.statements { try database.execute(sql: sql) }
        try rewriteExternalStorage(plan.externalStorageChanges)
        let hashes = layouts.hashes(target)
        if !recognized.hasMetadataRow || source != target {
            try writeMetadata(recognized.metadata, hashes: hashes, insert: !recognized.hasMetadataRow)
        }
        if repairsIndexes {
            migration.indexRepair = layout.attributeIndexRepair(
                existing: try indexNames(), droppingStale: source != target, dialect: .postgres)
            for sql in migration.indexRepair.statements { try database.execute(sql: sql) }
        }
        migration.migrated = !plan.isEmpty || !migration.indexRepair.isEmpty
        return migration
    }

    // MARK: Parts

    /// `Z_METADATA`'s property list with `hashes` and the model's name (other keys kept; a new store's keys and
    /// UUID when `insert`).
    private func writeMetadata(_ metadata: [String: PropertyListValue], hashes: [String: String], insert: Bool) throws {
        var updated = metadata
        updated[StoreFile.versionHashesKey] = .dictionary(hashes.mapValues { .string($0) })
        updated["DataModelRuntimeModelName"] = .string(modelName)
        guard insert else {
            try database.execute(
                sql: #"UPDATE "Z_METADATA" SET "Z_PLIST" = ?"#, arguments: [.blob(StoreFile.propertyList(updated))])
            return
        }
        let uuid = UUID().uuidString
        updated["NSStoreType"] = .string("PostgreSQL")
        updated["NSStoreUUID"] = .string(uuid)
        updated["NSPersistenceFrameworkVersion"] = .string("DataModelRuntime")
        try database.execute(
            sql: #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, ?, ?)"#,
            arguments: [.text(uuid), .blob(StoreFile.propertyList(updated))])
    }

    /// Rewrites the values of Binary attributes whose external-storage flag changed. No folder beside a server:
    /// every value is in its column, in Core Data's marked form or bare.
    private func rewriteExternalStorage(_ changes: [ExternalStorageChange]) throws {
        for change in changes {
            for row in try database.fetchAll(sql: change.selectSQL) {
                guard row.count == 2, let key = row[0].integerValue,
                    let rewritten = StoreFile.rewrittenValue(row[1], for: change, directory: nil)
                else { continue }
                try database.execute(sql: change.updateSQL, arguments: [rewritten.value, .integer(key)])
            }
        }
    }

    /// The names of the indexes in the current schema.
    private func indexNames() throws -> Set<String> {
        Set(
            try database.fetchAll(sql: "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()")
                .compactMap { $0.first?.textValue })
    }

    /// Every column of the current schema's tables and its type as PostgreSQL spells it: table → column → type.
    private func columns() throws -> [String: [String: String]] {
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

    /// How `columns` and `Z_PRIMARYKEY` differ from version `index`'s layout: every column by name with the
    /// PostgreSQL type the version's DDL gives it (both spelled by PostgreSQL: `TIMESTAMPTZ` is `timestamp with
    /// time zone`), and the entity rows. Extra columns, tables and indexes do not matter.
    private mutating func layoutDifferences(_ index: Int, columns: [String: [String: String]]) throws -> [String] {
        let layout = try layouts.layout(index)
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
}

/// `datamodelgen migrate <model> postgresql://…`: the migration the runtime runs when it opens a PostgreSQL store,
/// run offline by a tool that has the model's versions as parsed models, not as generated code.
public enum PostgresStoreMigration {
    /// Connects to `url` and, in one transaction under the runtime's advisory lock, recognises the store's version
    /// among `versions` (oldest first) and migrates it to `versions[target]` (with `dryRun`, rolls back after
    /// planning). Attribute indexes are repaired as the runtime's open repairs them.
    ///
    /// - Throws: ``StoreFile/MigrationFailure`` when the store is of no version, of a newer one, or the change is
    ///   not inferable (nothing written); ``StoreError`` for a URL that is not `postgresql://`, a server that cannot
    ///   be reached, or a statement that fails (rolled back: the store is as it was). An empty schema is
    ///   ``StoreFile/MigrationFailure/unknownVersion(differences:)`` (the runtime creates a store when it opens one).
    public static func migrate(
        url: URL, versions: [LayoutModel], to target: Int, modelName: String, dryRun: Bool = false,
        mergingHierarchies: Bool = false
    ) throws -> StoreFile.Migration {
        struct DryRun: Error {}
        let database = try StoreCoordinator.connect(to: url, shownAs: StoreCoordinator.displayedURL(url))
        var schema = PostgresSchema(database: database, versions: versions, modelName: modelName)
        var result: StoreFile.Migration?
        do {
            try database.transaction {
                try database.execute(sql: "SELECT pg_advisory_xact_lock(\(PostgresSchema.advisoryLock))")
                let tables = try schema.tableNames()
                guard !tables.isEmpty else {
                    throw StoreFile.MigrationFailure.unknownVersion(differences: [
                        "the database schema is empty: the runtime creates the store when it first opens it"
                    ])
                }
                let recognized = try schema.recognize(tables: tables, target: target)
                result = try schema.migrate(
                    recognized, to: target, dryRun: dryRun, mergingHierarchies: mergingHierarchies)
                // A dry run ends by rolling back, as a failure does.
                if dryRun { throw DryRun() }
            }
        } catch is DryRun {}
        guard let result else { throw StoreError.unsupportedStore("the migration returned no result") }
        return result
    }
}
