import DataModelRuntime
import Foundation
import PostgresKit
import SQLiteKit
import Testing

extension StoreKind {
    /// The stores a migration runs on: an SQLite file, and PostgreSQL when a server is there.
    static var persistent: [StoreKind] { allCases.filter { $0 != .inMemory } }
}

/// Where a migration test's store lives: a fresh SQLite file, or a fresh PostgreSQL schema; no container is open
/// on it until the test opens one.
struct MigrationStore {
    let kind: StoreKind
    /// The SQLite file, or the URL of the PostgreSQL schema.
    let url: URL
    private let schema: String?

    init(_ kind: StoreKind) throws {
        self.kind = kind
        if kind == .postgres {
            let fresh = try PostgresTestServer.freshSchema()
            url = fresh.url
            schema = fresh.name
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite")
            schema = nil
        }
    }

    var store: StoreDescription { kind == .postgres ? .postgres(url: url) : .sqlite(at: url) }

    /// The store as errors name it.
    var path: String { kind == .postgres ? url.absoluteString : url.path }

    /// The rows `sql` returns, each as its values joined by `|` (`nil` for NULL). Identifiers are quoted, so the
    /// SQL is the same on both stores.
    func rows(_ sql: String) throws -> [String] {
        if kind == .postgres {
            return try PostgresConnection(url: url.absoluteString).query(sql).rows.map { row in
                row.map { value in
                    switch value {
                    case .int(let number): String(number)
                    case .text(let text): text
                    case .null: "nil"
                    default: "\(value)"
                    }
                }.joined(separator: "|")
            }
        }
        return try Database(path: url.path).fetchAll(sql: sql).map { row in
            row.map { $0.integerValue.map(String.init) ?? $0.textValue ?? "nil" }.joined(separator: "|")
        }
    }

    /// The names of the store's indexes (those a statement created), sorted.
    func indexNames() throws -> [String] {
        try rows(
            kind == .postgres
                ? "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1"
                : "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1")
    }

    func cleanUp() {
        if let schema { PostgresTestServer.drop(schema: schema) }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// A store written with one version of a model opens with the next: migrated in place, every row kept.
@Suite("Stores migrate to the model's current version")
struct MigrationTests {
    static func person(_ attributes: [AttributeDescription]) -> EntityDescription {
        EntityDescription(
            name: "Person", objectType: ManagedObject.self, attributes: attributes,
            relationships: [
                RelationshipDescription(
                    name: "pets", destinationEntityName: "Pet", inverseName: "owner", isToMany: true, isOrdered: true)
            ])
    }

    static let pet = EntityDescription(
        name: "Pet", objectType: ManagedObject.self, attributes: [AttributeDescription(name: "name", type: .string)],
        relationships: [RelationshipDescription(name: "owner", destinationEntityName: "Person", inverseName: "pets")])

    static let version1 = ManagedObjectModel(
        name: "People", entities: [person([AttributeDescription(name: "name", type: .string)]), pet],
        versionName: "People")

    /// Adds `email` and an entity whose name sorts first (every entity number moves).
    static let version2 = ManagedObjectModel(
        name: "People",
        entities: [
            EntityDescription(
                name: "Address", objectType: ManagedObject.self,
                attributes: [AttributeDescription(name: "city", type: .string)]),
            person([
                AttributeDescription(name: "name", type: .string), AttributeDescription(name: "email", type: .string),
            ]),
            pet,
        ],
        versionName: "People 2", earlierVersions: [version1])

    static func fill(_ context: ManagedObjectContext) throws {
        for (index, name) in ["Ann", "Bob", "Cy"].enumerated() {
            let person = try context.insertNewObject(forEntityName: "Person")
            person.setValue(name, for: "name")
            for pet in 0..<index {
                let animal = try context.insertNewObject(forEntityName: "Pet")
                animal.setValue("\(name)'s pet \(pet)", for: "name")
                animal.setToOne(person, for: "owner")
            }
        }
        try context.save()
    }

    static func rows(_ url: URL, _ sql: String) throws -> [String] {
        try Database(path: url.path).fetchAll(sql: sql).map { row in
            row.map { $0.integerValue.map(String.init) ?? $0.textValue ?? "nil" }.joined(separator: "|")
        }
    }

    /// The seed model `Models/Person.xcdatamodeld`: the generated `PersonModel` carries both versions, and a store
    /// written with the first (`PersonModel.versions[0]`, as an app of that version would have) opens with the
    /// current one, every person kept.
    @Test(arguments: StoreKind.persistent)
    func theGeneratedPersonModelOpensStoresOfItsFirstVersion(kind: StoreKind) throws {
        #expect(PersonModel.versions.map(\.versionName) == ["Person", "Person 2"])
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        let joined = Date(timeIntervalSinceReferenceDate: 700_000_000)
        do {
            let first = try PersistentContainer(model: PersonModel.versions[0], store: location.store)
            for index in 0..<50 {
                let person = try first.viewContext.insertNewObject(forEntityName: "Person")
                person.setValue("person \(index)", for: "name")
                person.setValue("id-\(index)", for: "id")
                person.setValue(joined.addingTimeInterval(Double(index)), for: "updateDate")
            }
            try first.viewContext.save()
        }
        let container = try PersistentContainer(model: PersonModel.model, store: location.store)
        let people = try container.viewContext.fetch(Person.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(people.count == 50)
        let byID = Dictionary(uniqueKeysWithValues: people.map { ($0.id ?? "", $0) })
        for index in 0..<50 {
            let person = try #require(byID["id-\(index)"])
            #expect(person.name == "person \(index)")
            #expect(person.updateDate == joined.addingTimeInterval(Double(index)))
            #expect(person.email == nil)
        }
        people[0].email = "a@example.com"
        try container.viewContext.save()
        #expect(try location.rows(#"SELECT "ZEMAIL" FROM "ZPERSON" WHERE "ZEMAIL" IS NOT NULL"#) == ["a@example.com"])
    }

    @Test(arguments: StoreKind.persistent)
    func aStoreOfTheFirstVersionOpensWithTheSecond(kind: StoreKind) throws {
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        do {
            let container = try PersistentContainer(model: Self.version1, store: location.store)
            try Self.fill(container.viewContext)
        }
        let pets = #"SELECT "Z_PK", "ZOWNER", "Z_FOK_OWNER", "ZNAME" FROM "ZPET" ORDER BY "Z_PK""#
        let entities = #"SELECT "Z_ENT", "Z_NAME" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#
        let before = try location.rows(pets)
        #expect(before.count == 3)

        // Turned off: the store is left alone and the error says why.
        #expect(throws: StoreError.migrationRequired(path: location.path, from: "People", to: "People 2")) {
            _ = try PersistentContainer(
                model: Self.version2, store: location.store, migratesStoreAutomatically: false)
        }
        #expect(try location.rows(entities) == ["1|Person", "2|Pet"])

        let container = try PersistentContainer(model: Self.version2, store: location.store)
        let context = container.viewContext
        let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        #expect(Set(people.map { $0.value(for: "name") as String? }) == ["Ann", "Bob", "Cy"])
        #expect(people.allSatisfy { ($0.value(for: "email") as String?) == nil })
        // Relationships are kept, ordered ones in their order.
        let cy = try #require(people.first { ($0.value(for: "name") as String?) == "Cy" })
        let cyPets: [ManagedObject] = cy.toManyArray(for: "pets")
        #expect(cyPets.map { $0.value(for: "name") as String? } == ["Cy's pet 0", "Cy's pet 1"])
        #expect(try location.rows(pets) == before)
        #expect(try location.rows(entities) == ["1|Address", "2|Person", "3|Pet"])
        #expect(try location.rows(#"SELECT DISTINCT "Z_ENT" FROM "ZPERSON""#) == ["2"])
        // New objects get keys after the old ones; a reopened store needs no second migration.
        let added = try context.insertNewObject(forEntityName: "Person")
        added.setValue("Dee", for: "name")
        let address = try context.insertNewObject(forEntityName: "Address")
        address.setValue("Oslo", for: "city")
        try context.save()
        #expect(added.objectID.primaryKey > 3)
        let again = try PersistentContainer(
            model: Self.version2, store: location.store, migratesStoreAutomatically: false)
        #expect(try again.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 4)
        #expect(try again.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Address")) == 1)
        if kind == .sqlite {
            #expect(try Database(path: location.url.path).fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        }
    }

    /// A store whose metadata Core Data wrote (and which has no version hashes of ours) is told apart by its
    /// structure, migrated, and keeps every metadata key Core Data put there.
    @Test func coreDataMetadataIsKeptAcrossAMigration() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        do {
            let container = try PersistentContainer(model: Self.version1, store: .sqlite(at: url))
            try Self.fill(container.viewContext)
        }
        let coreData: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreUUID": "6B2A51E1-5B5E-4D52-8A77-2F8E2F0C1E11",
            "NSStoreModelVersionHashes": [
                "Person": Data(repeating: 7, count: 32), "Pet": Data(repeating: 9, count: 32),
            ],
            "NSStoreModelVersionHashesVersion": 3, "_NSAutoVacuumLevel": "2",
            "NSStoreModelVersionIdentifiers": [""],
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: coreData, format: .binary, options: 0)
        try Database(path: url.path).execute(sql: #"UPDATE "Z_METADATA" SET "Z_PLIST" = ?"#, arguments: [.blob(plist)])

        let container = try PersistentContainer(model: Self.version2, store: .sqlite(at: url))
        #expect(try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Pet")) == 3)
        let stored = try #require(
            try Database(path: url.path).fetchOne(sql: #"SELECT "Z_PLIST" FROM "Z_METADATA""#)?.first?.blobValue)
        let metadata = try #require(
            try PropertyListSerialization.propertyList(from: stored, format: nil) as? [String: Any])
        #expect(metadata["NSStoreUUID"] as? String == "6B2A51E1-5B5E-4D52-8A77-2F8E2F0C1E11")
        #expect((metadata["NSStoreModelVersionHashes"] as? [String: Data])?["Pet"] == Data(repeating: 9, count: 32))
        #expect(metadata["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(
            (metadata["DataModelRuntimeVersionHashes"] as? [String: String])?.keys.sorted() == [
                "Address", "Person", "Pet",
            ])
    }

    @Test(arguments: StoreKind.persistent)
    func anUninferableChangeIsRefusedAndNothingIsWritten(kind: StoreKind) throws {
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        do {
            let container = try PersistentContainer(model: Self.version1, store: location.store)
            try Self.fill(container.viewContext)
        }
        let strict = ManagedObjectModel(
            name: "People",
            entities: [
                Self.person([
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "born", type: .date, isOptional: false),
                ]), Self.pet,
            ], versionName: "People 3", earlierVersions: [Self.version1])
        #expect(
            throws: StoreError.migrationNotInferable(
                path: location.path, from: "People",
                reasons: ["Person.born: non-optional attribute added without a default value"])
        ) {
            _ = try PersistentContainer(model: strict, store: location.store)
        }
        #expect(try location.rows(#"SELECT COUNT(*) FROM "ZPERSON""#) == ["3"])
        #expect(
            try location.rows(#"SELECT "Z_ENT", "Z_NAME" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#) == [
                "1|Person", "2|Pet",
            ])
        _ = try PersistentContainer(model: Self.version1, store: location.store)
    }

    /// PostgreSQL: the external-storage flag turned on, a rebuild, then off. There is no folder beside a server, so
    /// every value stays in its column: in Core Data's marked form while the flag is set (rewritten row by row in the
    /// migration's transaction), bare again once it is off; every value reads back equal throughout.
    @Test(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
    func externalStorageFlagChangesOnPostgreSQL() throws {
        typealias Store = CoreDataStore
        let location = try MigrationStore(.postgres)
        defer { location.cleanUp() }
        let payloads = #"SELECT encode("ZPAYLOAD", 'hex') FROM "ZNOTE" ORDER BY "Z_PK""#
        let plain = ManagedObjectModel(
            name: "Notes", entities: [Store.note(external: false), Store.folder], versionName: "Notes")
        let small = Store.bytes(50, seed: 12)
        let large = Store.bytes(3_000, seed: 13)
        do {
            let context = try PersistentContainer(model: plain, store: location.store).viewContext
            for payload in [small, Data([2, 65, 66])] {
                let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
                note.payload = payload
            }
            try context.save()
        }
        #expect(try location.rows(payloads).last == "024142")
        let external = ManagedObjectModel(
            name: "Notes", entities: [Store.note(), Store.folder], versionName: "Notes 2", earlierVersions: [plain])
        do {
            let context = try PersistentContainer(model: external, store: location.store).viewContext
            #expect(try location.rows(payloads).last == "01024142", "the inline marker")
            #expect(try Store.notes(context).map(\.payload) == [small, Data([2, 65, 66])])
            let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
            note.payload = large
            try context.save()
        }
        let album = EntityDescription(
            name: "Album", objectType: ManagedObject.self,
            attributes: [AttributeDescription(name: "name", type: .string)])
        let renumbered = ManagedObjectModel(
            name: "Notes", entities: [album, Store.note(), Store.folder], versionName: "Notes 3",
            earlierVersions: [plain, external])
        do {
            let context = try PersistentContainer(model: renumbered, store: location.store).viewContext
            #expect(try Store.notes(context).map(\.payload) == [small, Data([2, 65, 66]), large])
        }
        let off = ManagedObjectModel(
            name: "Notes", entities: [album, Store.note(external: false), Store.folder], versionName: "Notes 4",
            earlierVersions: [plain, external, renumbered])
        let context = try PersistentContainer(model: off, store: location.store).viewContext
        #expect(try Store.notes(context).map(\.payload) == [small, Data([2, 65, 66]), large])
        #expect(try location.rows(payloads)[1] == "024142", "bare bytes again")
    }

    /// Several processes opening one old store at once: one migrates (PostgreSQL: under the advisory lock, SQLite:
    /// under the write lock), the others wait and then find it migrated; all open it, and it is migrated once.
    @Test(arguments: StoreKind.persistent)
    func storesOpenedAtOnceMigrateOnce(kind: StoreKind) throws {
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        do {
            let container = try PersistentContainer(model: Self.version1, store: location.store)
            try Self.fill(container.viewContext)
        }
        let store = location.store
        let failures = NSLock()
        nonisolated(unsafe) var errors: [String] = []  // safe: only touched under `failures`
        nonisolated(unsafe) var counts: [Int] = []  // safe: only touched under `failures`
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let container = try PersistentContainer(model: Self.version2, store: store)
                let count = try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Pet"))
                failures.lock()
                counts.append(count)
                failures.unlock()
            } catch {
                failures.lock()
                errors.append("\(error)")
                failures.unlock()
            }
        }
        #expect(errors.isEmpty)
        #expect(counts == [3, 3, 3, 3])
        #expect(
            try location.rows(#"SELECT "Z_ENT", "Z_NAME" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#) == [
                "1|Address", "2|Person", "3|Pet",
            ])
        #expect(try location.rows(#"SELECT COUNT(*) FROM "ZPET""#) == ["3"])
    }

    /// `Note` with `title` indexed or not, and optionally an `age` attribute.
    static func notes(indexed: Bool, age: Bool = false, name: String, earlier: [ManagedObjectModel] = [])
        -> ManagedObjectModel
    {
        var attributes = [
            AttributeDescription(name: "title", type: .string, isIndexed: indexed),
            AttributeDescription(name: "body", type: .string),
        ]
        if age { attributes.append(AttributeDescription(name: "age", type: .integer64)) }
        return ManagedObjectModel(
            name: "Notes",
            entities: [EntityDescription(name: "Note", objectType: ManagedObject.self, attributes: attributes)],
            versionName: name, earlierVersions: earlier)
    }

    /// An attribute's `indexed` flag is not part of a version (as in Core Data): a version that only adds it opens the
    /// store without a migration, and the index is created then; a later migration drops an index the model no longer
    /// has. A program of the older version opening the store meanwhile leaves the index alone.
    @Test(arguments: StoreKind.persistent)
    func attributeIndexesFollowTheModel(kind: StoreKind) throws {
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        let plain = Self.notes(indexed: false, name: "Notes")
        let indexed = Self.notes(indexed: true, name: "Notes 2", earlier: [plain])
        do {
            let container = try PersistentContainer(model: plain, store: location.store)
            let note = try container.viewContext.insertNewObject(forEntityName: "Note")
            note.setValue("First", for: "title")
            try container.viewContext.save()
        }
        #expect(try !location.indexNames().contains("ZNOTE_ZTITLE_INDEX"))

        _ = try PersistentContainer(model: indexed, store: location.store)
        #expect(try location.indexNames().contains("ZNOTE_ZTITLE_INDEX"))
        // The older program: same version to it, and the index stays.
        let older = try PersistentContainer(model: plain, store: location.store)
        #expect(try older.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Note")) == 1)
        #expect(try location.indexNames().contains("ZNOTE_ZTITLE_INDEX"))

        // Automatic migration off: nothing is written.
        let third = Self.notes(indexed: false, age: true, name: "Notes 3", earlier: [plain, indexed])
        #expect(throws: StoreError.self) {
            _ = try PersistentContainer(model: third, store: location.store, migratesStoreAutomatically: false)
        }
        #expect(try location.indexNames().contains("ZNOTE_ZTITLE_INDEX"))
        // A migration to a version without the flag drops it; the rows stay.
        let container = try PersistentContainer(model: third, store: location.store)
        #expect(try !location.indexNames().contains("ZNOTE_ZTITLE_INDEX"))
        let notes = try container.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(notes.map { $0.value(for: "title") as String? } == ["First"])
    }

    /// A store of a version without the flag is recognised as the newest version with its hashes, which has the flag;
    /// the migration from there to the current version does not see the index as new, and it is created all the same.
    @Test(arguments: StoreKind.persistent)
    func anIndexAddedBetweenEarlierVersionsIsCreatedByTheMigration(kind: StoreKind) throws {
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        let plain = Self.notes(indexed: false, name: "Notes")
        let indexed = Self.notes(indexed: true, name: "Notes 2", earlier: [plain])
        let current = Self.notes(indexed: true, age: true, name: "Notes 3", earlier: [plain, indexed])
        _ = try PersistentContainer(model: plain, store: location.store)
        _ = try PersistentContainer(model: current, store: location.store)
        #expect(try location.indexNames().contains("ZNOTE_ZTITLE_INDEX"))
        #expect(try location.rows(#"SELECT COUNT(*) FROM "ZNOTE" WHERE "ZAGE" IS NULL"#) == ["0"])
    }

    /// A program of an older version opening a store a newer version wrote (its version hashes are none of the
    /// program's versions) is refused, as Core Data refuses it (an incompatible model), even when the store's tables
    /// have everything the older version needs: nothing is written, and the newer program still opens the store.
    @Test(arguments: StoreKind.persistent)
    func anOlderProgramDoesNotOpenANewerStore(kind: StoreKind) throws {
        let location = try MigrationStore(kind)
        defer { location.cleanUp() }
        let older = Self.notes(indexed: false, name: "Notes")
        let newer = Self.notes(indexed: false, age: true, name: "Notes 2", earlier: [older])
        do {
            let container = try PersistentContainer(model: newer, store: location.store)
            let note = try container.viewContext.insertNewObject(forEntityName: "Note")
            note.setValue("First", for: "title")
            note.setValue(Int64(3), for: "age")
            try container.viewContext.save()
        }
        let metadata = #"SELECT "Z_PLIST" FROM "Z_METADATA""#
        let before = try location.rows(metadata)
        #expect(throws: StoreError.self) { _ = try PersistentContainer(model: older, store: location.store) }
        #expect(try location.rows(metadata) == before)
        let container = try PersistentContainer(model: newer, store: location.store)
        let notes = try container.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(notes.map { $0.value(for: "age") as Int64? } == [3])
    }
}
