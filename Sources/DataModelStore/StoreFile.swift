import DataModelStoreLayout
import Foundation
import SQLiteKit

/// An SQLite store in Core Data's layout, as the runtime and `datamodelgen migrate` see it on disk: its
/// metadata, what it holds, and the migration of it from the model version that wrote it to another.
public enum StoreFile {
    /// The metadata key under which the version hashes (``LayoutModel/versionHashes``) of the model that
    /// created or last migrated the store are recorded. Core Data's own keys are left as they are.
    public static let versionHashesKey = "DataModelRuntimeVersionHashes"

    // MARK: Metadata

    /// `Z_METADATA`'s property list as a dictionary: empty when the store has none, nil when it has one this
    /// reader cannot decode (then it must not be rewritten).
    public static func metadata(of database: Database) throws(SQLiteError) -> [String: PropertyListValue]? {
        guard
            let blob = try database.fetchOne(
                sql: #"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)?.first?.blobValue,
            !blob.isEmpty
        else { return [:] }
        // Read on every open: the binary reader first (several times faster than Foundation's), Foundation for
        // anything it does not handle (an XML property list, sets, UIDs).
        if case .dictionary(let entries)? = BinaryPropertyList.decode(blob) { return entries }
        guard let object = try? PropertyListSerialization.propertyList(from: blob, format: nil),
            case .dictionary(let entries)? = PropertyListValue(propertyListObject: object)
        else { return nil }
        return entries
    }

    /// A new binary property list of `metadata`.
    public static func propertyList(_ metadata: [String: PropertyListValue]) -> Data {
        BinaryPropertyList.encode(.dictionary(metadata))
    }

    /// Records `hashes` in the store's metadata, keeping every other key; a property list this reader cannot
    /// decode is left alone (the store is then told apart by its structure).
    public static func recordVersionHashes(
        _ hashes: [String: String], in database: Database, metadata known: [String: PropertyListValue]?? = nil
    ) throws(SQLiteError) {
        let current: [String: PropertyListValue]?
        if let known {
            current = known
        } else {
            current = try metadata(of: database)
        }
        guard var metadata = current else { return }
        metadata[versionHashesKey] = .dictionary(hashes.mapValues { .string($0) })
        try database.execute(
            sql:
                #"UPDATE "Z_METADATA" SET "Z_PLIST" = ? WHERE "Z_VERSION" = (SELECT MIN("Z_VERSION") FROM "Z_METADATA")"#,
            arguments: [.blob(propertyList(metadata))])
    }

    // MARK: What the store holds

    /// What the store holds, with what a migration needs besides: SQLite's schema cookie (it changes with every
    /// change of the schema) and the decoded metadata.
    public struct State: Sendable {
        /// Tables, columns, entity rows and recorded version hashes.
        public var snapshot: StoreSnapshot
        /// `PRAGMA schema_version` when the state was read.
        public var schemaVersion: Int64
        /// `Z_METADATA`'s property list (nil when it cannot be decoded).
        public var metadata: [String: PropertyListValue]?
    }

    /// Reads the store's ``State``.
    public static func state(of database: Database) throws(SQLiteError) -> State {
        // One read transaction for all the reads (outside one, every statement takes and releases the file's locks).
        if !database.isInTransaction {
            try database.execute(sql: "BEGIN DEFERRED TRANSACTION")
            do {
                let state = try state(of: database)
                try database.execute(sql: "COMMIT TRANSACTION")
                return state
            } catch {
                database.rollbackIgnoringErrors()
                throw error
            }
        }
        let schemaVersion = try database.fetchOne(sql: "PRAGMA schema_version")?.first?.integerValue ?? -1
        let (snapshot, metadata) = try read(database)
        return State(snapshot: snapshot, schemaVersion: schemaVersion, metadata: metadata)
    }

    /// The store's tables and columns, entity rows and recorded version hashes.
    public static func snapshot(of database: Database) throws(SQLiteError) -> StoreSnapshot {
        try read(database).snapshot
    }

    private static func read(_ database: Database) throws(SQLiteError) -> (
        snapshot: StoreSnapshot, metadata: [String: PropertyListValue]?
    ) {
        var tables: [String: [StoreSnapshot.Column]] = [:]
        let names = try database.fetchAll(
            sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for name in names.compactMap({ $0.first?.textValue }) {
            tables[name] = try database.fetchAll(sql: "PRAGMA table_info(" + SQLQuoting.identifier(name) + ")")
                .compactMap { row in
                    guard row.count > 2, let column = row[1].textValue else { return nil }
                    return StoreSnapshot.Column(name: column, declaredType: row[2].textValue ?? "")
                }
        }
        var rows: [StoreSnapshot.EntityRow] = []
        if tables["Z_PRIMARYKEY"] != nil {
            rows = try database.fetchAll(sql: #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER" FROM "Z_PRIMARYKEY""#).map { row in
                StoreSnapshot.EntityRow(
                    number: Int(row.first?.integerValue ?? 0), name: row.count > 1 ? row[1].textValue ?? "" : "",
                    superentityNumber: Int(row.count > 2 ? row[2].integerValue ?? 0 : 0))
            }
        }
        var hashes: [String: String]?
        let metadata = tables["Z_METADATA"] == nil ? [:] : try metadata(of: database)
        if case .dictionary(let recorded)? = metadata?[versionHashesKey] {
            hashes = recorded.compactMapValues { value in
                if case .string(let text) = value { return text }
                return nil
            }
        }
        return (
            StoreSnapshot(
                tables: tables, entityRows: rows, versionHashes: hashes, indexNames: try indexNames(of: database)),
            metadata
        )
    }

    /// The names of the store's indexes (SQLite's own, for `UNIQUE` and `PRIMARY KEY` columns, left out).
    public static func indexNames(of database: Database) throws(SQLiteError) -> Set<String> {
        Set(
            try database.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                .compactMap { $0.first?.textValue })
    }

    // MARK: Migration

    /// What ``migrate(_:versions:to:dryRun:)`` found and did.
    public struct Migration: Sendable {
        /// The index in the versions of the one that wrote the store.
        public var sourceIndex: Int
        /// The index of the version migrated to.
        public var targetIndex: Int
        /// The plan (empty when the store was already at the target).
        public var plan: MigrationPlan
        /// Whether the statements ran (false for a dry run or an empty plan).
        public var migrated: Bool
        /// The attribute indexes created or dropped after the plan (``StoreLayout/attributeIndexRepair(existing:droppingStale:dialect:)``):
        /// an index is not part of a version, so a store can be at the target version and still lack one. A dry run
        /// reports them only when the plan is empty (otherwise they depend on what the plan does).
        public var indexRepair = AttributeIndexRepair()

        /// A migration's outcome (for a store elsewhere than an SQLite file: `datamodelgen-postgres`).
        public init(
            sourceIndex: Int, targetIndex: Int, plan: MigrationPlan, migrated: Bool,
            indexRepair: AttributeIndexRepair = AttributeIndexRepair()
        ) {
            (self.sourceIndex, self.targetIndex, self.plan, self.migrated) = (sourceIndex, targetIndex, plan, migrated)
            self.indexRepair = indexRepair
        }
    }

    /// Why a store cannot be migrated.
    public enum MigrationFailure: Error, Sendable {
        /// No version wrote the store: how it differs from the target version.
        case unknownVersion(differences: [String])
        /// The store's version is newer than the target.
        case newerVersion(sourceIndex: Int)
        /// Core Data would not infer the mapping: one reason per blocking change.
        case notInferable(sourceIndex: Int, reasons: [String])
        /// A version cannot be laid out.
        case layout(StoreLayoutError)
        /// SQLite failed (the transaction was rolled back: the store is as it was).
        case sqlite(SQLiteError)
    }

    /// Recognises which of `versions` (oldest first) wrote the store and migrates it in place to
    /// `versions[target]`, all in one write transaction taken before looking, so two processes opening one store
    /// never both migrate it. Killed at any moment, the store is whole in the old version or in the new one.
    /// With `dryRun`, nothing is written. `mergingHierarchies`: also what Core Data's inferred mapping refuses
    /// (``MigrationPlan/init(from:to:mergingHierarchies:)``).
    ///
    /// `known`: the state read before the transaction began; reused when the schema has not changed since.
    /// `layouts`: the versions' layouts the caller has already computed (by version index), so none is computed twice.
    public static func migrate(
        _ database: Database, versions: [LayoutModel], to target: Int, dryRun: Bool = false, known: State? = nil,
        layouts: [Int: StoreLayout] = [:], hashes: [Int: [String: String]] = [:], mergingHierarchies: Bool = false
    ) throws(MigrationFailure) -> Migration {
        do {
            try database.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
        } catch {
            throw .sqlite(error)
        }
        do throws(MigrationFailure) {
            var obsoleteFiles: [String] = []
            var cache = LayoutCache(versions: versions, known: layouts, knownHashes: hashes)
            let migration = try migrateInTransaction(
                database, versions: versions, to: target, dryRun: dryRun, known: known, layouts: &cache,
                obsoleteFiles: &obsoleteFiles, mergingHierarchies: mergingHierarchies)
            do {
                try database.execute(sql: dryRun ? "ROLLBACK TRANSACTION" : "COMMIT TRANSACTION")
            } catch {
                throw .sqlite(error)
            }
            // Files whose bytes moved back into their column: removed only once that is committed.
            if !obsoleteFiles.isEmpty {
                ExternalBinaryData.removeFiles(obsoleteFiles, in: externalDataDirectory(of: database))
            }
            return migration
        } catch {
            database.rollbackIgnoringErrors()
            throw error
        }
    }

    private static func migrateInTransaction(
        _ database: Database, versions: [LayoutModel], to target: Int, dryRun: Bool, known: State?,
        layouts: inout LayoutCache, obsoleteFiles: inout [String], mergingHierarchies: Bool
    ) throws(MigrationFailure) -> Migration {
        do {
            // Another process may have migrated between `known` and the write lock: its schema cookie tells.
            var state = known
            if let known,
                try database.fetchOne(sql: "PRAGMA schema_version")?.first?.integerValue != known.schemaVersion
            {
                state = nil
            }
            let current = try state ?? self.state(of: database)
            let snapshot = current.snapshot
            guard let source = try snapshot.recognizedVersion(among: versions, layouts: &layouts) else {
                throw MigrationFailure.unknownVersion(
                    differences: snapshot.mismatch(with: try layouts.layout(target), hashes: layouts.hashes(target)))
            }
            guard source <= target else { throw MigrationFailure.newerVersion(sourceIndex: source) }
            let plan = try MigrationPlan(
                from: versions[source], to: versions[target], oldLayout: try layouts.layout(source),
                newLayout: try layouts.layout(target), mergingHierarchies: mergingHierarchies)
            guard plan.isInferable else {
                throw MigrationFailure.notInferable(sourceIndex: source, reasons: plan.blockers)
            }
            // Indexes no longer in the model go only in a migration between versions (see `attributeIndexRepair`).
            let targetHashes = layouts.hashes(target)
            let dropping = !plan.isEmpty || (snapshot.versionHashes != nil && snapshot.versionHashes != targetHashes)
            guard !dryRun else {
                var migration = Migration(sourceIndex: source, targetIndex: target, plan: plan, migrated: false)
                if plan.isEmpty {
                    migration.indexRepair = try layouts.layout(target).attributeIndexRepair(
                        existing: try indexNames(of: database), droppingStale: dropping)
                }
                return migration
            }
            // The files of removed values are found before the statements remove the values, and removed only after
            // the commit (by `migrate`): a migration that does not commit leaves every file in place.
            var removedFiles = try referencedFiles(plan.externalFileCleanup?.removedValuesSQL ?? [], in: database)
            for sql in plan.statements { try database.execute(sql: sql) }
            for change in plan.externalStorageChanges {
                obsoleteFiles += try convert(change, in: database)
            }
            if !removedFiles.isEmpty {
                removedFiles.subtract(try referencedFiles(plan.externalFileCleanup?.keptValuesSQL ?? [], in: database))
                obsoleteFiles += removedFiles.sorted()
            }
            let repair = try layouts.layout(target).attributeIndexRepair(
                existing: try indexNames(of: database), droppingStale: dropping)
            for sql in repair.statements { try database.execute(sql: sql) }
            if snapshot.versionHashes != targetHashes {
                // `current` was read under the write lock, or before it with the schema unchanged since.
                try recordVersionHashes(targetHashes, in: database, metadata: .some(current.metadata))
            }
            var migration = Migration(
                sourceIndex: source, targetIndex: target, plan: plan, migrated: !plan.isEmpty || !repair.isEmpty)
            migration.indexRepair = repair
            return migration
        } catch let error as MigrationFailure {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch let error as StoreLayoutError {
            throw .layout(error)
        } catch {
            throw .unknownVersion(differences: ["\(error)"])
        }
    }

    // MARK: External storage

    /// The external-data folder of the store `database` is connected to (`nil` in memory).
    static func externalDataDirectory(of database: Database) -> URL? {
        guard case .file(let path) = database.location else { return nil }
        return ExternalBinaryData.directory(forStoreAt: path)
    }

    /// The files named by the stored values the queries return (one column each; values that are not file
    /// references are skipped); none for a store without an external-data folder (in memory).
    static func referencedFiles(_ queries: [String], in database: Database) throws(SQLiteError) -> Set<String> {
        guard !queries.isEmpty, externalDataDirectory(of: database) != nil else { return [] }
        var names: Set<String> = []
        for sql in queries {
            for row in try database.fetchAll(sql: sql) {
                guard case .blob(let stored)? = row.first, let name = ExternalBinaryData.referencedFile(in: stored)
                else { continue }
                names.insert(name)
            }
        }
        return names
    }

    /// Rewrites the values of one attribute whose external-storage flag changes; returns the files whose bytes
    /// moved back into the column (to remove after the commit). A value whose file is missing becomes `NULL`
    /// (its bytes are gone either way).
    static func convert(_ change: ExternalStorageChange, in database: Database) throws(SQLiteError) -> [String] {
        let directory = externalDataDirectory(of: database)
        var moved: [String] = []
        let rows = try database.fetchAll(sql: change.selectSQL)
        for row in rows {
            guard row.count == 2, let key = row[0].integerValue,
                let rewritten = rewrittenValue(row[1], for: change, directory: directory)
            else { continue }
            if let name = rewritten.movedFile { moved.append(name) }
            try database.execute(sql: change.updateSQL, arguments: [rewritten.value, .integer(key)])
        }
        return moved
    }

    /// A Binary value as `change` rewrites it: into Core Data's marked external-storage form, or out of it (the
    /// bytes of a file in `directory`, `NULL` when the file is missing), with the file whose bytes moved into the
    /// column; `nil` for a value that is not bytes or text (left as it is). Text reads as its UTF-8 bytes.
    ///
    /// The one decoding of such values for both stores: ``convert(_:in:)`` for SQLite and the PostgreSQL schema
    /// migration (no folder beside a server: `directory` is `nil` there).
    public static func rewrittenValue(_ stored: SQLiteValue, for change: ExternalStorageChange, directory: URL?)
        -> (value: SQLiteValue, movedFile: String?)?
    {
        let bytes: Data
        switch stored {
        case .blob(let data): bytes = data
        case .text(let text): bytes = Data(text.utf8)
        default: return nil
        }
        if change.toExternalFormat { return (.blob(ExternalBinaryData.inline(bytes)), nil) }
        let value = ExternalBinaryData.value(of: bytes, directory: directory).map { SQLiteValue.blob($0) } ?? .null
        return (value, ExternalBinaryData.referencedFile(in: bytes))
    }
}
