import DataModelStore
import DataModelStoreLayout
import Foundation
import PostgresKit
import SQLiteKit

/// The one connection of a container (SQLite, or PostgreSQL: ``StoreConnection``), the prepared model, primary key allocation, and
/// the change notifications between contexts.
///
/// Shared by contexts in any isolation domain: every use of ``database``, the key counters and
/// the list of merging contexts happens while ``lock`` is held (see ``locked(_:)``). The
/// prepared model is immutable once the initializer returns.
final class StoreCoordinator: @unchecked Sendable {  // safe: mutable state is only touched under `lock`
    let runtime: ModelRuntime
    let database: StoreConnection
    private(set) var storeNumber = 0
    let path: String
    /// Binary attributes with external storage: the store's folder and threshold.
    let externalData: ExternalDataFiles
    /// Recursive: a fetch holding it may fire faults, which take it again.
    private let lock = NSRecursiveLock()
    /// Contexts that merge other contexts' saves, by their inbox: shared by a PostgreSQL store's pooled
    /// coordinators, so a save on any connection reaches the contexts of all.
    private let hub: ChangeHub
    /// A PostgreSQL store's connections for background contexts (`nil` on SQLite and in memory, and in a pooled
    /// coordinator itself).
    private let pool: BackgroundPool?
    /// The last primary key handed out, by root entity number (slot 0 unused).
    @exclusivity(unchecked) var lastPrimaryKey: [Int64]
    /// `Z_MAX` as the store holds it, by root entity number.
    var storedMaximum: [Int64]
    /// The keys up to which this coordinator reserved in `Z_MAX` (file stores), by root entity:
    /// other connections on the file allocate above them.
    // Unchecked like `lastPrimaryKey`: read for every inserted object, always under the coordinator's lock.
    @exclusivity(unchecked) private var reservedMaximum: [Int64]
    /// The size of the next reservation, by root entity: doubles up to 65,536.
    private var reservationSize: [Int64]

    private static let registry = StoreRegistry()

    /// Whether a store written by an earlier version of the model is migrated when it is opened.
    let migratesAutomatically: Bool

    init(
        model: ManagedObjectModel, store: StoreDescription, migratesAutomatically: Bool = true,
        externalBinaryDataThreshold: Int = PersistentContainer.defaultExternalBinaryDataThreshold,
        connectionPoolMaxSize: Int = PersistentStoreDescription.defaultConnectionPoolMaxSize
    ) throws(StoreError) {
        self.migratesAutomatically = migratesAutomatically
        self.runtime = try ModelRuntime(model: model, storeNumber: 0)
        let location: Database.Location
        switch store {
        case .inMemory:
            location = .inMemory
            path = ":memory:"
        case .sqlite(let url):
            location = .file(path: url.path)
            path = url.path
        case .postgres(let url):
            hub = ChangeHub()
            pool = BackgroundPool(url: url, limit: connectionPoolMaxSize)
            // Binary values with external storage stay in their column: there is no folder beside a server.
            path = Self.displayedURL(url)
            externalData = ExternalDataFiles(storePath: path, threshold: externalBinaryDataThreshold, needed: false)
            database = try Self.connect(to: url, shownAs: path)
            let count = runtime.entities.count + 1
            lastPrimaryKey = [Int64](repeating: 0, count: count)
            storedMaximum = [Int64](repeating: 0, count: count)
            reservedMaximum = [Int64](repeating: 0, count: count)
            reservationSize = [Int64](repeating: 64, count: count)
            let uuid = try openPostgresSchema()
            storeNumber = Self.registry.number(for: uuid)
            for entity in runtime.entities { entity.storeNumber = storeNumber }
            EntityNames.register(runtime.entities.map(\.name), store: storeNumber)
            return
        }
        hub = ChangeHub()
        pool = nil
        externalData = ExternalDataFiles(
            storePath: path, threshold: externalBinaryDataThreshold, needed: runtime.hasExternalAttributes)
        var journalMode = "memory"
        let sqlite: Database
        do {
            sqlite = try Database(location: location)
            database = .sqlite(sqlite)
            sqlite.setBusyTimeout(milliseconds: 5000)
            if case .file = location {
                // Core Data's defaults for SQLite stores: a write-ahead log (readers never wait for
                // the writer, commits append) synced at checkpoints. A killed process loses nothing
                // committed; a power cut may lose the last commits, never consistency.
                journalMode = try sqlite.fetchOne(sql: "PRAGMA journal_mode=WAL")?.first?.textValue ?? ""
                try sqlite.execute(sql: "PRAGMA synchronous=NORMAL")
            }
            try SwiftStringFunctions.register(on: sqlite)
        } catch {
            throw StoreError(error)
        }
        // SQLite answers with the mode it runs in: a file system without shared memory keeps the old one.
        if case .file = location, journalMode.lowercased() != "wal" {
            throw .journalModeRefused(path: path, mode: journalMode)
        }
        let count = runtime.entities.count + 1
        lastPrimaryKey = [Int64](repeating: 0, count: count)
        storedMaximum = [Int64](repeating: 0, count: count)
        reservedMaximum = [Int64](repeating: 0, count: count)
        reservationSize = [Int64](repeating: 64, count: count)
        let uuid = try openSchema(sqlite)
        storeNumber = Self.registry.number(for: uuid)
        for entity in runtime.entities { entity.storeNumber = storeNumber }
        EntityNames.register(runtime.entities.map(\.name), store: storeNumber)
    }

    /// A pooled coordinator of a PostgreSQL store: a connection of its own (its lock, its statements, its blocks of
    /// primary keys, reserved in `Z_PRIMARYKEY` as another process's would be), the main coordinator's model,
    /// store number and change notifications.
    private init(pooledFrom main: StoreCoordinator, url: URL) throws(StoreError) {
        migratesAutomatically = main.migratesAutomatically
        runtime = main.runtime
        path = main.path
        externalData = main.externalData
        hub = main.hub
        pool = nil
        storeNumber = main.storeNumber
        let count = runtime.entities.count + 1
        lastPrimaryKey = [Int64](repeating: 0, count: count)
        storedMaximum = [Int64](repeating: 0, count: count)
        reservedMaximum = [Int64](repeating: 0, count: count)
        reservationSize = [Int64](repeating: 64, count: count)
        database = try Self.connect(to: url, shownAs: path)
    }

    /// The coordinator a new background context uses: on PostgreSQL one of a small pool
    /// (``PersistentStoreDescription/connectionPoolMaxSize`` connections besides the view context's, opened as needed and handed out in turn),
    /// so background work does not queue behind the view context or behind each other; on SQLite and in memory
    /// this one (one connection; SQLite has one writer at a time anyway). A pool connection that cannot be opened
    /// leaves the context on this coordinator's connection.
    func backgroundCoordinator() -> StoreCoordinator {
        guard let pool else { return self }
        return pool.next { () throws(StoreError) in try StoreCoordinator(pooledFrom: self, url: pool.url) } ?? self
    }

    /// How many pooled connections are open (PostgreSQL), for tests.
    var pooledConnectionCount: Int { pool?.count ?? 0 }

    deinit {
        // Hand back the unused part of each reservation when nobody reserved after it, so the
        // next open continues right after the last key used.
        guard path != ":memory:" else { return }
        for root in reservedMaximum.indices
        where reservedMaximum[root] > lastPrimaryKey[root]
            && reservedMaximum[root] != .max
        {
            try? database.execute(
                sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = ? WHERE "Z_ENT" = ? AND "Z_MAX" = ?"#,
                arguments: [
                    .integer(lastPrimaryKey[root]), .integer(Int64(root)), .integer(reservedMaximum[root]),
                ])
        }
    }

    /// Runs `body` with the connection to itself: one context at a time uses the store.
    @inline(__always)
    func locked<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Change notifications

    /// Starts or stops posting other contexts' saves to `inbox`.
    func setMerging(_ enabled: Bool, inbox: ChangeInbox) {
        hub.setMerging(enabled, inbox: inbox)
    }

    /// Whether any context but `sender`'s merges other contexts' saves: when none does, a save
    /// need not collect its changes at all.
    func hasMergingContexts(besides sender: ChangeInbox?) -> Bool {
        hub.hasMergingContexts(besides: sender)
    }

    /// Posts what a save or batch request changed to every merging context but `sender`'s.
    func post(_ changes: StoreChanges, from sender: ChangeInbox?) {
        guard !changes.isEmpty else { return }
        hub.post(changes, from: sender)
    }

    // MARK: Schema

    /// Creates or checks the schema and reads the primary key counters; returns the store's UUID
    /// (`Z_METADATA.Z_UUID`), which identifies it in object IDs.
    private func openSchema(_ sqlite: Database) throws(StoreError) -> String {
        do {
            // One read of what the store holds: it tells an empty file (created) from a store to check.
            let state = try StoreFile.state(of: sqlite)
            if state.snapshot.tables.isEmpty {
                try createSchema()
            } else {
                try checkSchema(state, sqlite)
            }
            // One statement: `Z_MAX` per entity (rows `Z_ENT`, `Z_MAX`), each root table's largest key (rows
            // `-number`, `MAX("Z_PK")`: rows written without `Z_MAX` being updated, by other tools, must not be
            // reused), and the store's UUID (row 0).
            let roots = runtime.entities.filter(\.layout.isRoot)
            let sql =
                #"SELECT "Z_ENT", "Z_MAX" FROM "Z_PRIMARYKEY" UNION ALL SELECT 0, (SELECT "Z_UUID" FROM "Z_METADATA" "#
                + #"ORDER BY "Z_VERSION" LIMIT 1)"#
                + roots.map {
                    " UNION ALL SELECT -\($0.number), MAX(\"Z_PK\") FROM " + SQLQuoting.identifier($0.tableName)
                }.joined()
            var uuid: String?
            var largestKeys: [(index: Int, key: Int64)] = []
            for row in try database.fetchAll(sql: sql) {
                guard row.count == 2, let number = row[0].integerValue else { continue }
                if number == 0 {
                    uuid = row[1].textValue
                } else if number < 0 {
                    largestKeys.append((Int(-number), row[1].integerValue ?? 0))
                } else if lastPrimaryKey.indices.contains(Int(number)) {
                    lastPrimaryKey[Int(number)] = row[1].integerValue ?? 0
                    storedMaximum[Int(number)] = lastPrimaryKey[Int(number)]
                }
            }
            for (index, key) in largestKeys where lastPrimaryKey.indices.contains(index) {
                lastPrimaryKey[index] = max(lastPrimaryKey[index], key)
            }
            return uuid ?? path
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error)
        }
    }

    private func createSchema() throws {
        let layout = runtime.layout
        try database.transaction {
            for sql in layout.ddlStatements() { try database.execute(sql: sql) }
            for sql in layout.primaryKeyRowStatements() { try database.execute(sql: sql) }
            let uuid = UUID().uuidString
            let metadata: [String: PropertyListValue] = [
                "NSStoreType": .string("SQLite"), "NSStoreUUID": .string(uuid),
                "NSPersistenceFrameworkVersion": .string("DataModelRuntime"),
                "DataModelRuntimeModelName": .string(runtime.model.name),
                StoreFile.versionHashesKey: .dictionary(
                    runtime.model.layoutModel.versionHashes.mapValues { .string($0) }),
            ]
            try database.execute(
                sql: #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, ?, ?)"#,
                arguments: [.text(uuid), .blob(StoreFile.propertyList(metadata))])
        }
    }

    /// The name of version `index` of the model (its earlier versions, then the current one) in messages.
    func versionName(_ index: Int) -> String {
        let versions = runtime.model.earlierVersions
        guard index < versions.count else { return runtime.model.versionName ?? "current" }
        return versions[index].versionName ?? "version \(index + 1)"
    }

    /// Checks that the store was written by the model; when an earlier version of it wrote the store, migrates the
    /// store in place (one transaction, so a killed process leaves it whole in either version).
    private func checkSchema(_ state: StoreFile.State, _ sqlite: Database) throws {
        let current = runtime.model.layoutModel
        let snapshot = state.snapshot
        let differences = snapshot.differences(from: runtime.layout)
        let hashes = current.versionHashes
        if differences.isEmpty && (snapshot.versionHashes == nil || snapshot.versionHashes == hashes) {
            // The store is of this version; it may still lack an attribute index the model has (the flag is not
            // part of a version): `migrate` creates it, under the write lock.
            let repair = runtime.layout.attributeIndexRepair(existing: snapshot.indexNames ?? [], droppingStale: false)
            if repair.isEmpty || !migratesAutomatically { return }
        }
        let layouts = runtime.model.earlierVersions.map(\.layoutModel) + [current]
        let name = versionName
        if !migratesAutomatically {
            // Only look: a store of an earlier version is an error to report, not to fix.
            if let source = try snapshot.recognizedVersion(among: layouts), source < layouts.count - 1 {
                throw StoreError.migrationRequired(path: path, from: name(source), to: name(layouts.count - 1))
            }
        }
        do {
            _ = try StoreFile.migrate(
                sqlite, versions: layouts, to: layouts.count - 1, known: state,
                layouts: [layouts.count - 1: runtime.layout], hashes: [layouts.count - 1: hashes])
        } catch {
            throw StoreError(error, path: path, versionName: name)
        }
    }

    // MARK: External binary data

    /// References to missing files of the external-data folder, in entity and key order.
    func missingExternalDataFiles() throws(StoreError) -> [MissingExternalData] {
        try locked { () throws(StoreError) -> [MissingExternalData] in
            var missing: [MissingExternalData] = []
            for entity in runtime.entities where !entity.externalAttributes.isEmpty {
                let own = entity.externalAttributes
                let sql =
                    #"SELECT "Z_PK", "# + own.map { SQLQuoting.identifier($0.column) }.joined(separator: ", ")
                    + " FROM " + SQLQuoting.identifier(entity.tableName) + #" WHERE "Z_ENT" = "#
                    + String(entity.number) + #" ORDER BY "Z_PK""#
                do {
                    for row in try database.fetchAll(sql: sql) {
                        guard let key = row.first?.integerValue else { continue }
                        for (offset, attribute) in own.enumerated() {
                            guard case .blob(let stored) = row[offset + 1],
                                case .external(let name) = ExternalBinaryData.parse(stored)
                            else { continue }
                            let file = ExternalBinaryData.file(named: name, in: externalData.directory)
                            if let file, FileManager.default.isReadableFile(atPath: file.path) { continue }
                            missing.append(
                                MissingExternalData(
                                    objectID: ObjectID(
                                        storeNumber: storeNumber, entityNumber: entity.number, primaryKey: key),
                                    attribute: entity.attributes[attribute.index].name, fileName: name))
                        }
                    }
                } catch {
                    throw StoreError(error)
                }
            }
            return missing
        }
    }

    // MARK: Primary keys

    /// A new primary key for an object of `entity` (keys are unique per root table).
    func allocatePrimaryKey(for entity: EntityRuntime) -> Int64 {
        let root = entity.layout.rootEntityNumber
        return locked {
            if lastPrimaryKey[root] >= reservedMaximum[root] { reserveKeys(root: root, table: entity.tableName) }
            lastPrimaryKey[root] += 1
            return lastPrimaryKey[root]
        }
    }

    /// Reserves the next block of keys of a root entity in the store, in a short transaction of
    /// its own: `Z_MAX` moves past the block, so other containers and processes on the same file
    /// never hand out the same keys. An in-memory store has no other connection: no reservation.
    private func reserveKeys(root: Int, table: String) {
        guard path != ":memory:" else {
            reservedMaximum[root] = .max
            return
        }
        let size = reservationSize[root]
        reservationSize[root] = min(size * 2, 65_536)
        let quotedTable = SQLQuoting.identifier(table)
        let reserve = { [self] () throws -> Int64 in
            let stored =
                try database.fetchOne(
                    // PostgreSQL: the row stays locked until the reservation commits, so another process's
                    // reservation waits and then reads the moved `Z_MAX`.
                    sql: #"SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" = ?"#
                        + (database.isPostgres ? " FOR UPDATE" : ""), arguments: [.integer(Int64(root))])?
                .first?.integerValue ?? 0
            let used = try database.fetchOne(sql: #"SELECT MAX("Z_PK") FROM "# + quotedTable)?.first?.integerValue ?? 0
            let start = max(stored, used, lastPrimaryKey[root])
            try database.execute(
                sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = ? WHERE "Z_ENT" = ?"#,
                arguments: [.integer(start + size), .integer(Int64(root))])
            return start
        }
        do {
            let start = database.isInTransaction ? try reserve() : try database.transaction { try reserve() }
            lastPrimaryKey[root] = start
            reservedMaximum[root] = start + size
            storedMaximum[root] = start + size
        } catch {
            // The store cannot be written now (busy, read-only): count on in memory; the save
            // reports any clash.
            reservedMaximum[root] = lastPrimaryKey[root] + 1
        }
    }

    /// Writes `Z_MAX` for roots that handed out keys since the last write (inside a save).
    func writePrimaryKeyMaxima() throws(StoreError) {
        for index in lastPrimaryKey.indices where lastPrimaryKey[index] > storedMaximum[index] {
            let statement = try database.cachedStatement(
                database.isPostgres
                    ? #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = GREATEST("Z_MAX", ?) WHERE "Z_ENT" = ?"#
                    : #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = MAX("Z_MAX", ?) WHERE "Z_ENT" = ?"#)
            try statement.bind(lastPrimaryKey[index], at: 1)
            try statement.bind(index, at: 2)
            try statement.run()
        }
    }

    /// Records that the maxima written by ``writePrimaryKeyMaxima()`` were committed.
    func primaryKeyMaximaCommitted() {
        for index in storedMaximum.indices { storedMaximum[index] = max(storedMaximum[index], lastPrimaryKey[index]) }
    }
}

/// A context's inbox, held weakly: a context that is gone receives nothing.
private struct WeakInbox {
    weak var inbox: ChangeInbox?
}

/// The inboxes of the contexts that merge other contexts' saves, for every coordinator of one container.
private final class ChangeHub: @unchecked Sendable {  // safe: `inboxes` is only touched under `lock`
    private let lock = NSLock()
    private var inboxes: [WeakInbox] = []

    func setMerging(_ enabled: Bool, inbox: ChangeInbox) {
        lock.lock()
        defer { lock.unlock() }
        inboxes.removeAll { $0.inbox == nil || $0.inbox === inbox }
        if enabled { inboxes.append(WeakInbox(inbox: inbox)) }
    }

    func hasMergingContexts(besides sender: ChangeInbox?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return inboxes.contains { $0.inbox != nil && $0.inbox !== sender }
    }

    func post(_ changes: StoreChanges, from sender: ChangeInbox?) {
        lock.lock()
        defer { lock.unlock() }
        inboxes.removeAll { $0.inbox == nil }
        for entry in inboxes where entry.inbox !== sender { entry.inbox?.post(changes) }
    }
}

/// A PostgreSQL store's coordinators for background contexts: at most ``limit``, opened when a background context
/// first needs one, then handed out in turn (a context keeps its coordinator, and so its connection, for life).
private final class BackgroundPool: @unchecked Sendable {  // safe: `members` and `turn` are only touched under `lock`
    /// The most connections a container opens for background contexts, besides the view context's
    /// (``PersistentStoreDescription/connectionPoolMaxSize``; 0: none, background contexts share the view context's).
    let limit: Int
    let url: URL
    private let lock = NSLock()
    private var members: [StoreCoordinator] = []
    private var turn = 0

    init(url: URL, limit: Int) {
        self.url = url
        self.limit = max(0, limit)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return members.count
    }

    /// The next coordinator in turn, opening one with `open` while there are fewer than ``limit``; `nil` when
    /// none is open and opening fails.
    func next(_ open: () throws(StoreError) -> StoreCoordinator) -> StoreCoordinator? {
        lock.lock()
        defer { lock.unlock() }
        guard limit > 0 else { return nil }
        if members.count < limit, turn >= members.count, let opened = try? open() {
            members.append(opened)
        }
        guard !members.isEmpty else { return nil }
        let member = members[turn % members.count]
        turn = (turn + 1) % limit
        return member
    }
}

/// Numbers stores by their UUID, so object IDs from containers on the same file are equal and
/// those of different stores never are.
private final class StoreRegistry: @unchecked Sendable {  // safe: `numbers` is only touched under `lock`
    private let lock = NSLock()
    private var numbers: [String: Int] = [:]

    func number(for uuid: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let number = numbers[uuid] { return number }
        let number = numbers.count + 1
        numbers[uuid] = number
        return number
    }
}

extension StoreError {
    /// Wraps an SQLite error.
    init(_ error: SQLiteError) {
        self = .sqlite(error)
    }

    /// A store error as it is.
    init(_ error: StoreError) {
        self = error
    }

    /// The store error for an error thrown through an untyped closure (a transaction's body): SQLite's and the
    /// store's own as they are, anything else as ``StoreError/unexpected(_:)`` — never with a made-up SQLite code.
    init(_ error: any Error) {
        switch error {
        case let error as StoreError: self = error
        case let error as SQLiteError: self = .sqlite(error)
        case let error as PostgresError: self = .postgres(error)
        default: self = .unexpected(String(describing: error))
        }
    }
}

extension StoreError {
    /// The error a store's open reports for a migration that failed: `versionName` names version indices.
    init(_ failure: StoreFile.MigrationFailure, path: String, versionName name: (Int) -> String) {
        switch failure {
        case .unknownVersion(let differences): self = .modelMismatch(path: path, differences: differences)
        case .newerVersion(let source):
            self = .modelMismatch(
                path: path, differences: ["the store was written by the newer version \(name(source))"])
        case .notInferable(let source, let reasons):
            self = .migrationNotInferable(path: path, from: name(source), reasons: reasons)
        case .layout(let failure): self = .invalidModel(failure.description)
        case .sqlite(let failure): self = .sqlite(failure)
        }
    }
}
