import CSQLite
import DataModelRuntime
import DataModelStore
import Foundation

/// Store migration on opening, against the same SQL written by hand on the SQLite C API: a column added
/// (`ALTER TABLE … ADD COLUMN` plus the metadata update) and a column removed (a table rebuild:
/// `INSERT INTO new SELECT … FROM old`). Each repetition starts from a fresh copy of the same store.
enum MigrationBenchmarks {
    static func entry(_ attributes: [String]) -> EntityDescription {
        EntityDescription(
            name: "Entry", objectType: ManagedObject.self,
            attributes: attributes.map { name in
                AttributeDescription(name: name, type: name == "amount" ? .double : name == "day" ? .date : .string)
            })
    }

    static let version1 = ManagedObjectModel(
        name: "Ledger", entities: [entry(["name", "amount", "day", "note"])], versionName: "Ledger")
    static let added = ManagedObjectModel(
        name: "Ledger", entities: [entry(["name", "amount", "day", "note", "category"])], versionName: "Ledger 2",
        earlierVersions: [version1])
    static let removed = ManagedObjectModel(
        name: "Ledger", entities: [entry(["name", "amount", "day"])], versionName: "Ledger 2",
        earlierVersions: [version1])

    static func run(_ suite: inout BenchmarkSuite) throws {
        guard suite.wants("migrate") else { return }
        let rows = suite.quick ? 100_000 : 1_000_000
        let work = suite.workRoot().appendingPathComponent("datamodelgen-migrate-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let template = work.appendingPathComponent("template.sqlite")
        let store = work.appendingPathComponent("store.sqlite")
        try makeTemplate(template, rows: rows)
        let prepare = {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            try FileManager.default.copyItem(at: template, to: store)
        }
        let metadata = Data(repeating: 0x42, count: 600)
        // What a migration written by hand knows: the hashes the old version recorded and the new version's.
        let oldHashes = version1.layoutModel.versionHashes
        let newHashes = added.layoutModel.versionHashes

        // Like for like: a hand-written migration opens the file, checks that it holds the old version (the
        // metadata's recorded hashes, the table's columns), adds the column, writes the metadata back with the new
        // version's hashes (every other key kept), commits and closes.
        let addition = try suite.compare(
            prepare: prepare,
            baseline: { try addColumnByHand(store.path, oldHashes: oldHashes, newHashes: newHashes) },
            ours: { _ = try PersistentContainer(model: added, store: .sqlite(at: store)) })
        try check(store, rows: rows, column: "ZCATEGORY", present: true, suite: &suite)
        suite.record(
            BenchmarkResult(
                name: "migrate: add a column", ours: addition.ours, baseline: addition.baseline,
                target: "<= 1.5x ALTER TABLE + metadata", note: "\(rows) rows, opening the store migrates it"))

        let rebuild = try suite.compare(
            prepare: prepare,
            baseline: {
                try raw(store.path) { db in
                    try exec(
                        db,
                        #"CREATE TABLE "ZENTRY_NEW" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZAMOUNT" FLOAT, "ZDAY" TIMESTAMP, "ZNAME" VARCHAR)"#
                    )
                    try exec(
                        db,
                        #"INSERT INTO "ZENTRY_NEW" ("Z_PK", "Z_ENT", "Z_OPT", "ZAMOUNT", "ZDAY", "ZNAME") SELECT "Z_PK", "Z_ENT", "Z_OPT", "ZAMOUNT", "ZDAY", "ZNAME" FROM "ZENTRY""#
                    )
                    try exec(db, #"DROP TABLE "ZENTRY""#)
                    try exec(db, #"ALTER TABLE "ZENTRY_NEW" RENAME TO "ZENTRY""#)
                    try updateMetadata(db, metadata)
                }
            },
            ours: { _ = try PersistentContainer(model: removed, store: .sqlite(at: store)) })
        try check(store, rows: rows, column: "ZNOTE", present: false, suite: &suite)
        suite.record(
            BenchmarkResult(
                name: "migrate: rebuild (column removed)", ours: rebuild.ours, baseline: rebuild.baseline,
                target: "<= 1.5x INSERT … SELECT by hand", note: "\(rows) rows"))

        // Opening a store that is up to date: no migration, the recognition is the only extra work.
        try prepare()
        _ = try PersistentContainer(model: version1, store: .sqlite(at: store))
        let open = try suite.compare(
            baseline: { try raw(store.path) { db in try exec(db, #"SELECT COUNT(*) FROM "Z_PRIMARYKEY""#) } },
            ours: { _ = try PersistentContainer(model: version1, store: .sqlite(at: store)) })
        suite.record(
            BenchmarkResult(
                name: "open an up-to-date store", ours: open.ours, baseline: open.baseline,
                target: "no more than before migrations", note: "schema and version check"))
    }

    /// A store of `version1` with `rows` entries, written through the C API and checkpointed into one file.
    static func makeTemplate(_ url: URL, rows: Int) throws {
        _ = try PersistentContainer(model: version1, store: .sqlite(at: url))
        try raw(url.path) { db in
            var statement: OpaquePointer?
            let sql =
                #"INSERT INTO "ZENTRY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZAMOUNT", "ZDAY", "ZNOTE") VALUES (?, 1, 1, ?, ?, ?, ?)"#
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                throw BenchmarkError("prepare failed: \(sql)")
            }
            defer { sqlite3_finalize(statement) }
            for row in 1...rows {
                sqlite3_bind_int64(statement, 1, Int64(row))
                sqlite3_bind_text(statement, 2, "entry \(row)", -1, datamodelgen_sqlite_transient())
                sqlite3_bind_double(statement, 3, Double(row) * 0.25)
                sqlite3_bind_double(statement, 4, 700_000_000 + Double(row))
                sqlite3_bind_text(statement, 5, row % 3 == 0 ? "paid" : "open", -1, datamodelgen_sqlite_transient())
                guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
                sqlite3_reset(statement)
            }
            try exec(db, #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = \#(rows) WHERE "Z_ENT" = 1"#)
        }
        try raw(url.path, transaction: false) { db in try exec(db, "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Opens `path` as the runtime does (WAL, `synchronous=NORMAL`), runs `body` in one write transaction, closes.
    static func raw(_ path: String, transaction: Bool = true, _ body: (OpaquePointer) throws -> Void) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw BenchmarkError("cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        try exec(db, "PRAGMA journal_mode=WAL")
        try exec(db, "PRAGMA synchronous=NORMAL")
        if transaction { try exec(db, "BEGIN IMMEDIATE") }
        try body(db)
        if transaction { try exec(db, "COMMIT") }
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError("SQL failed: \(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    static func updateMetadata(_ db: OpaquePointer, _ plist: Data) throws {
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(db, #"UPDATE "Z_METADATA" SET "Z_PLIST" = ? WHERE "Z_VERSION" = 1"#, -1, &statement, nil)
                == SQLITE_OK, let statement
        else { throw BenchmarkError("prepare failed") }
        defer { sqlite3_finalize(statement) }
        _ = plist.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), nil) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError("metadata update failed") }
    }

    /// The add-column migration written by hand on the C API (the baseline).
    static func addColumnByHand(_ path: String, oldHashes: [String: String], newHashes: [String: String]) throws {
        try raw(path) { db in
            guard var plist = try readMetadata(db),
                plist[versionHashesKey] as? [String: String] == oldHashes,
                try !columns(db, table: "ZENTRY").contains("ZCATEGORY")
            else { throw BenchmarkError("the store is not of the first version") }
            try exec(db, #"ALTER TABLE "ZENTRY" ADD COLUMN "ZCATEGORY" VARCHAR"#)
            plist[versionHashesKey] = newHashes
            // The cheapest encoding at hand (`PropertyListSerialization` takes several times longer): the same
            // property-list value and `Codable` encoder the runtime uses.
            guard case .dictionary(let entries)? = PropertyListValue(propertyListObject: plist) else {
                throw BenchmarkError("metadata cannot be written back")
            }
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            try updateMetadata(db, try encoder.encode(PropertyListValue.dictionary(entries)))
        }
    }

    /// `--profile migrate-add|raw-migrate-add [ROWS] [--repeat N]`: one side of the add-column case on a fresh
    /// copy of a store of `rows` entries; only `profiledMigration` is the case itself.
    static func profile(raw: Bool, rows: Int, repeats: Int?) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("datamodelgen-profile-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let template = work.appendingPathComponent("template.sqlite")
        let store = work.appendingPathComponent("store.sqlite")
        try makeTemplate(template, rows: rows)
        let oldHashes = version1.layoutModel.versionHashes
        let newHashes = added.layoutModel.versionHashes
        var times: [Double] = []
        for _ in 0..<(1 + max(repeats ?? 0, 0)) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            try FileManager.default.copyItem(at: template, to: store)
            times.append(
                try time { try profiledMigration(raw: raw, store: store, oldHashes: oldHashes, newHashes: newHashes) })
        }
        let sorted = times.sorted()
        print(
            String(
                format: "%@: median %.3f ms over %d runs", raw ? "raw" : "ours", sorted[sorted.count / 2] * 1e3,
                times.count))
    }

    @inline(never)
    static func profiledMigration(raw: Bool, store: URL, oldHashes: [String: String], newHashes: [String: String])
        throws
    {
        if raw {
            try addColumnByHand(store.path, oldHashes: oldHashes, newHashes: newHashes)
        } else {
            _ = try PersistentContainer(model: added, store: .sqlite(at: store))
        }
    }

    /// The metadata key under which the runtime records the version hashes.
    static let versionHashesKey = "DataModelRuntimeVersionHashes"

    /// `Z_METADATA`'s property list, decoded.
    static func readMetadata(_ db: OpaquePointer) throws -> [String: Any]? {
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(db, #"SELECT "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#, -1, &statement, nil)
                == SQLITE_OK, let statement
        else { throw BenchmarkError("prepare failed") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) else { return nil }
        let data = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    }

    /// The column names of `table`.
    static func columns(_ db: OpaquePointer, table: String) throws -> [String] {
        var info: OpaquePointer?
        guard sqlite3_prepare_v2(db, "PRAGMA table_info(\"\(table)\")", -1, &info, nil) == SQLITE_OK, let info else {
            throw BenchmarkError("table_info failed")
        }
        defer { sqlite3_finalize(info) }
        var names: [String] = []
        while sqlite3_step(info) == SQLITE_ROW {
            if let name = sqlite3_column_text(info, 1) { names.append(String(cString: name)) }
        }
        return names
    }

    /// The store after the last run of either side: every row there, the column added or gone.
    static func check(_ store: URL, rows: Int, column: String, present: Bool, suite: inout BenchmarkSuite) throws {
        var count = 0
        var hasColumn = false
        try raw(store.path, transaction: false) { db in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, #"SELECT COUNT(*) FROM "ZENTRY""#, -1, &statement, nil) == SQLITE_OK,
                let statement
            else { throw BenchmarkError("count failed") }
            if sqlite3_step(statement) == SQLITE_ROW { count = Int(sqlite3_column_int64(statement, 0)) }
            sqlite3_finalize(statement)
            var info: OpaquePointer?
            guard sqlite3_prepare_v2(db, #"PRAGMA table_info("ZENTRY")"#, -1, &info, nil) == SQLITE_OK, let info else {
                throw BenchmarkError("table_info failed")
            }
            while sqlite3_step(info) == SQLITE_ROW {
                if let name = sqlite3_column_text(info, 1), String(cString: name) == column { hasColumn = true }
            }
            sqlite3_finalize(info)
        }
        if count != rows || hasColumn != present {
            suite.fail("migrate: \(count) of \(rows) rows; column \(column) present: \(hasColumn), expected \(present)")
        }
    }
}
