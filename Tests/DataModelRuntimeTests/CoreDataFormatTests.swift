import DataModelRuntime
import Foundation
import SQLiteKit
import Testing

/// A note with a Binary attribute that allows external storage and a transformable, as a class so predicates can
/// name its properties.
final class CoreDataNote: ManagedObject {
    var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }
    var payload: Data? {
        get { value(for: "payload") }
        set { setValue(newValue, for: "payload") }
    }
}

/// Stores written the way Core Data writes them: built with SQLite directly (Core Data's tables, its `Z_METADATA`
/// property list without the runtime's hashes, `Z_MODELCACHE`), then opened by the runtime.
enum CoreDataStore {
    static func note(external: Bool = true) -> EntityDescription {
        EntityDescription(
            name: "Note", objectType: CoreDataNote.self,
            attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "payload", type: .binary, allowsExternalBinaryDataStorage: external),
                AttributeDescription(name: "tags", type: .transformable),
            ],
            relationships: [
                RelationshipDescription(name: "folder", destinationEntityName: "Folder", inverseName: "notes")
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \CoreDataNote.title: "title"
                case \CoreDataNote.payload: "payload"
                default: nil
                }
            })
    }

    static let folder = EntityDescription(
        name: "Folder", objectType: ManagedObject.self, attributes: [AttributeDescription(name: "name", type: .string)],
        relationships: [
            RelationshipDescription(name: "notes", destinationEntityName: "Note", inverseName: "folder", isToMany: true)
        ])

    static let model = ManagedObjectModel(name: "Notes", entities: [note(), folder], versionName: "Notes")

    /// A fresh folder holding `Notes.sqlite`; removed by `cleanUp`.
    struct Location {
        let folder: URL
        var store: URL { folder.appendingPathComponent("Notes.sqlite") }
        /// Core Data's external-data folder of the store.
        var externalData: URL { folder.appendingPathComponent(".Notes_SUPPORT/_EXTERNAL_DATA") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        func cleanUp() { try? FileManager.default.removeItem(at: folder) }

        /// The names of the files in the external-data folder.
        func externalFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: externalData.path)) ?? []).sorted()
        }

        /// The stored bytes of one column of `ZNOTE`'s row `key`, as SQLite holds them.
        func stored(_ column: String, key: Int64) throws -> SQLiteValue? {
            try Database(path: store.path).fetchOne(
                sql: "SELECT \"\(column)\" FROM \"ZNOTE\" WHERE \"Z_PK\" = ?", arguments: [.integer(key)])?.first
        }
    }

    /// Core Data's tables for `model`, columns in its own order (not the runtime's), with Core Data's metadata.
    static func create(
        at location: Location, rows: [(key: Int64, title: String, payload: SQLiteValue, tags: SQLiteValue)]
    )
        throws
    {
        let db = try Database(path: location.store.path)
        try db.execute(sql: "PRAGMA journal_mode=WAL")
        for sql in [
            #"CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )"#,
            #"CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZTITLE VARCHAR, ZPAYLOAD BLOB, ZTAGS BLOB )"#,
            #"CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)"#,
            #"CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"#,
            #"CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"#,
            #"CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"#,
            #"INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (1, 'Folder', 0, 1)"#,
            #"INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Inbox')"#,
        ] {
            try db.execute(sql: sql)
        }
        try db.execute(
            sql: #"INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (2, 'Note', 0, ?)"#,
            arguments: [.integer(rows.map(\.key).max() ?? 0)])
        let metadata: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreUUID": "0F6C3E1A-2B4D-4E5F-8A9B-0C1D2E3F4A5B",
            "NSStoreModelVersionHashes": [
                "Note": Data(repeating: 3, count: 32), "Folder": Data(repeating: 4, count: 32),
            ],
            "NSStoreModelVersionHashesVersion": 3, "NSPersistenceFrameworkVersion": 1_414,
            "NSStoreModelVersionIdentifiers": [""], "_NSAutoVacuumLevel": "2",
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        try db.execute(
            sql:
                #"INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, '0F6C3E1A-2B4D-4E5F-8A9B-0C1D2E3F4A5B', ?)"#,
            arguments: [.blob(plist)])
        try db.execute(sql: #"INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (X'00')"#)
        for row in rows {
            try db.execute(
                sql:
                    #"INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZTITLE, ZPAYLOAD, ZTAGS) VALUES (?, 2, 1, 1, ?, ?, ?)"#,
                arguments: [.integer(row.key), .text(row.title), row.payload, row.tags])
        }
    }

    /// `0x01` + bytes.
    static func inline(_ bytes: Data) -> SQLiteValue { .blob(Data([1]) + bytes) }

    /// `0x02` + the file name's ASCII (+ NUL), the file written into the external-data folder.
    static func external(_ bytes: Data, at location: Location, terminated: Bool = true) throws -> SQLiteValue {
        try FileManager.default.createDirectory(at: location.externalData, withIntermediateDirectories: true)
        let name = UUID().uuidString
        try bytes.write(to: location.externalData.appendingPathComponent(name))
        return .blob(Data([2]) + Data(name.utf8) + (terminated ? Data([0]) : Data()))
    }

    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    static func notes(_ context: ManagedObjectContext) throws -> [CoreDataNote] {
        try context.fetch(FetchRequest<CoreDataNote>(entityName: "Note"))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
    }
}

@Suite("Binary data with external storage, as Core Data stores it")
struct ExternalBinaryDataTests {
    typealias Store = CoreDataStore

    @Test func inlineExternalAndEmptyValuesOfACoreDataStoreRead() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let small = Store.bytes(40, seed: 1)
        let large = Store.bytes(300_000, seed: 2)
        let other = Store.bytes(2_000, seed: 3)
        try Store.create(
            at: location,
            rows: [
                (1, "inline", Store.inline(small), .null),
                (2, "external", try Store.external(large, at: location), .null),
                (3, "empty", .null, .null),
                (4, "unterminated", try Store.external(other, at: location, terminated: false), .null),
            ])
        let container = try PersistentContainer(model: Store.model, store: .sqlite(at: location.store))
        let context = container.viewContext

        // Fetch.
        let notes = try Store.notes(context)
        #expect(notes.map(\.payload) == [small, large, nil, other])
        // KVC.
        #expect(notes[1].value(forKey: "payload") as? Data == large)
        #expect(notes[2].value(forKey: "payload") == nil)

        // Faults, and a to-many load (prefetch) from another context.
        let fresh = container.newBackgroundContext()
        let fault = try #require(fresh.object(with: notes[1].objectID) as? CoreDataNote)
        #expect(fault.payload == large)
        let folders = try fresh.fetch(
            FetchRequest<ManagedObject>(entityName: "Folder").prefetching("notes"))
        let prefetched = folders.first?.toManySet(for: "notes") as Set<ManagedObject>? ?? []
        #expect(Set(prefetched.compactMap { ($0 as? CoreDataNote)?.payload }) == [small, large, other])

        // Predicates compare the values, in memory (the column holds markers and file names).
        let request = FetchRequest<CoreDataNote>(entityName: "Note").filtered(by: #Predicate { $0.payload == large })
        #expect(try context.explain(request).path == .memory)
        #expect(try context.fetch(request).map(\.title) == ["external"])
        let empty = FetchRequest<CoreDataNote>(entityName: "Note").filtered(by: #Predicate { $0.payload == nil })
        #expect(try context.fetch(empty).map(\.title) == ["empty"])
        // An equality condition (SQL only) cannot compare such values: refused, except for `nil`.
        #expect(throws: StoreError.self) {
            try context.fetch(FetchRequest<CoreDataNote>(entityName: "Note").matching("payload", equals: large))
        }
        #expect(
            try context.fetch(FetchRequest<CoreDataNote>(entityName: "Note").matching("payload", equals: nil as Data?))
                .map(\.title) == ["empty"])

        // Saving another column leaves the stored forms (and the files) as Core Data wrote them.
        let before = try location.stored("ZPAYLOAD", key: 2)
        notes[1].title = "renamed"
        try context.save()
        #expect(try location.stored("ZPAYLOAD", key: 2) == before)
        #expect(location.externalFiles().count == 2)
        #expect(try container.missingExternalDataFiles().isEmpty)
    }

    @Test func writesUseCoreDataFormatAndRoundTrip() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        try Store.create(at: location, rows: [])
        let small = Store.bytes(500, seed: 4)
        let large = Store.bytes(5_000, seed: 5)
        do {
            let container = try PersistentContainer(
                model: Store.model, store: .sqlite(at: location.store), externalBinaryDataThreshold: 1_000)
            let context = container.viewContext
            for (title, payload) in [("small", small), ("large", large), ("empty", Data())] {
                let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
                note.title = title
                note.payload = payload
            }
            try context.save()
        }
        // Small values: 0x01 + bytes; large ones: 0x02 + a file name + NUL, the file holding the bytes.
        #expect(try location.stored("ZPAYLOAD", key: 1) == .blob(Data([1]) + small))
        #expect(try location.stored("ZPAYLOAD", key: 3) == .blob(Data([1])))
        guard case .blob(let reference)? = try location.stored("ZPAYLOAD", key: 2) else {
            Issue.record("no reference stored")
            return
        }
        #expect(reference.first == 2 && reference.last == 0)
        let name = String(decoding: reference.dropFirst().dropLast(), as: UTF8.self)
        #expect(UUID(uuidString: name) != nil)
        #expect(location.externalFiles() == [name])
        #expect(try Data(contentsOf: location.externalData.appendingPathComponent(name)) == large)

        // Read back by a new container (as Core Data would read them).
        let container = try PersistentContainer(model: Store.model, store: .sqlite(at: location.store))
        let context = container.viewContext
        let notes = try Store.notes(context)
        #expect(notes.map(\.payload) == [small, large, Data()])

        // Replacing the large value: a new file, the old one removed after the commit (threshold by default 128 KiB:
        // this one stays inline).
        notes[1].payload = Store.bytes(200_000, seed: 6)
        try context.save()
        #expect(!location.externalFiles().contains(name))
        #expect(location.externalFiles().count == 1)
        notes[1].payload = Store.bytes(10, seed: 7)
        try context.save()
        #expect(location.externalFiles().isEmpty)
        #expect(try location.stored("ZPAYLOAD", key: 2) == .blob(Data([1]) + Store.bytes(10, seed: 7)))
    }

    @Test func deletingTheObjectRemovesItsFile() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let container = try PersistentContainer(
            model: Store.model, store: .sqlite(at: location.store), externalBinaryDataThreshold: 100)
        let context = container.viewContext
        let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
        note.payload = Store.bytes(1_000, seed: 8)
        let kept = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
        kept.payload = Store.bytes(1_000, seed: 9)
        try context.save()
        #expect(location.externalFiles().count == 2)
        let keptFiles = location.externalFiles()
        context.delete(note)
        #expect(location.externalFiles() == keptFiles)  // not before the save
        try context.save()
        #expect(location.externalFiles().count == 1)
        #expect(try Store.notes(context).map(\.payload) == [Store.bytes(1_000, seed: 9)])

        // A batch delete removes the files of the rows it deletes too.
        try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<CoreDataNote>(entityName: "Note")))
        #expect(location.externalFiles().isEmpty)
    }

    @Test func aFailedSaveLeavesNoFileBehind() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let container = try PersistentContainer(
            model: Store.model, store: .sqlite(at: location.store), externalBinaryDataThreshold: 100)
        let context = container.viewContext
        let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
        note.title = "first"
        try context.save()

        // Another context changes the row first: this context's save is a conflict (merge policy `.error`), after
        // its large value was written to a file.
        let other = container.newBackgroundContext()
        let copy = try #require(try other.existingObject(with: note.objectID) as? CoreDataNote)
        copy.title = "other"
        try other.save()
        note.payload = Store.bytes(5_000, seed: 10)
        #expect(throws: (any Error).self) { try context.save() }
        #expect(location.externalFiles().isEmpty)

        context.rollback()
        #expect(location.externalFiles().isEmpty)
    }

    @Test func aMissingFileReadsAsNilAndIsReported() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let missing = UUID().uuidString
        try Store.create(
            at: location,
            rows: [
                (1, "missing", .blob(Data([2]) + Data(missing.utf8) + Data([0])), .null),
                (2, "escaping", .blob(Data([2]) + Data("../../etc/passwd".utf8)), .null),
            ])
        let container = try PersistentContainer(model: Store.model, store: .sqlite(at: location.store))
        let notes = try Store.notes(container.viewContext)
        #expect(notes.map(\.payload) == [nil, nil])
        #expect(try container.missingExternalDataFiles().map(\.fileName) == [missing, "../../etc/passwd"])
        #expect(try container.missingExternalDataFiles().map(\.attribute) == ["payload", "payload"])
    }

    @Test func anInMemoryStoreKeepsLargeValuesInline() throws {
        let container = try PersistentContainer(model: Store.model, store: .inMemory, externalBinaryDataThreshold: 10)
        let context = container.viewContext
        let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
        note.payload = Store.bytes(1_000, seed: 11)
        try context.save()
        context.reset()
        #expect(try Store.notes(context).map(\.payload) == [Store.bytes(1_000, seed: 11)])
    }

    /// The flag turned on, then off, across model versions: every value stays readable; files of values moved back
    /// into the column are removed. A rebuild (an entity whose name sorts first renumbers the others) copies the
    /// stored forms as they are, files untouched.
    @Test func migrationKeepsValuesWhenTheFlagChanges() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let plain = ManagedObjectModel(
            name: "Notes", entities: [Store.note(external: false), Store.folder], versionName: "Notes")
        let small = Store.bytes(50, seed: 12)
        let large = Store.bytes(3_000, seed: 13)
        do {
            let container = try PersistentContainer(model: plain, store: .sqlite(at: location.store))
            let context = container.viewContext
            for payload in [small, Data([2, 65, 66])] {
                let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
                note.payload = payload
            }
            try context.save()
        }
        #expect(try location.stored("ZPAYLOAD", key: 1) == .blob(small))

        // On: the bare bytes get the inline marker (even those starting with 0x02).
        let external = ManagedObjectModel(
            name: "Notes", entities: [Store.note(), Store.folder], versionName: "Notes 2", earlierVersions: [plain])
        do {
            let container = try PersistentContainer(
                model: external, store: .sqlite(at: location.store), externalBinaryDataThreshold: 1_000)
            #expect(try location.stored("ZPAYLOAD", key: 2) == .blob(Data([1, 2, 65, 66])))
            let context = container.viewContext
            #expect(try Store.notes(context).map(\.payload) == [small, Data([2, 65, 66])])
            let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
            note.payload = large
            try context.save()
            #expect(location.externalFiles().count == 1)
        }

        // A rebuild: the stored forms and the file are copied as they are.
        let renumbered = ManagedObjectModel(
            name: "Notes",
            entities: [
                EntityDescription(
                    name: "Album", objectType: ManagedObject.self,
                    attributes: [AttributeDescription(name: "name", type: .string)]),
                Store.note(), Store.folder,
            ],
            versionName: "Notes 3", earlierVersions: [plain, external])
        do {
            let container = try PersistentContainer(model: renumbered, store: .sqlite(at: location.store))
            #expect(try Store.notes(container.viewContext).map(\.payload) == [small, Data([2, 65, 66]), large])
            #expect(location.externalFiles().count == 1)
        }

        // Off: every value back in the column, bare; the file goes.
        let off = ManagedObjectModel(
            name: "Notes",
            entities: [
                EntityDescription(
                    name: "Album", objectType: ManagedObject.self,
                    attributes: [AttributeDescription(name: "name", type: .string)]),
                Store.note(external: false), Store.folder,
            ],
            versionName: "Notes 4", earlierVersions: [plain, external, renumbered])
        let container = try PersistentContainer(model: off, store: .sqlite(at: location.store))
        #expect(try Store.notes(container.viewContext).map(\.payload) == [small, Data([2, 65, 66]), large])
        #expect(try location.stored("ZPAYLOAD", key: 3) == .blob(large))
        #expect(location.externalFiles().isEmpty)
    }
}

/// A Codable value with the keys of an archived dictionary.
struct ArchivedSettings: Codable, Equatable {
    var name: String
    var size: Int
}

@Suite("Transformable values Core Data archived")
struct KeyedArchiveTransformableTests {
    typealias Store = CoreDataStore

    static func archive(_ object: Any) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: object as AnyObject, requiringSecureCoding: true)
    }

    @Test func archivesOfFoundationTypesRead() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        let url = try #require(URL(string: "https://example.org/a?b=c"))
        let uuid = UUID()
        let values: [Any] = [
            ["swift", "linux"], ["name": "big", "size": 3] as [String: Any], date, url, uuid, "text", 42, 2.5, true,
            Data([9, 8, 7]), [1, [2, 3]] as [Any],
        ]
        try Store.create(
            at: location,
            rows: try values.enumerated().map { offset, value in
                (Int64(offset + 1), "v\(offset)", SQLiteValue.null, SQLiteValue.blob(try Self.archive(value)))
            })
        let container = try PersistentContainer(model: Store.model, store: .sqlite(at: location.store))
        let notes = try Store.notes(container.viewContext)
        #expect(notes.count == values.count)

        // Typed: directly, or through a Codable type with the same shape.
        #expect(notes[0].transformableValue(for: "tags") as [String]? == ["swift", "linux"])
        #expect(notes[1].transformableValue(for: "tags") as ArchivedSettings? == ArchivedSettings(name: "big", size: 3))
        #expect(notes[1].transformableValue(for: "tags") as [String: Int]? == nil)
        #expect(notes[2].transformableValue(for: "tags") as Date? == date)
        #expect(notes[3].transformableValue(for: "tags") as URL? == url)
        #expect(notes[4].transformableValue(for: "tags") as UUID? == uuid)
        #expect(notes[5].transformableValue(for: "tags") as String? == "text")
        #expect(notes[6].transformableValue(for: "tags") as Int? == 42)
        #expect(notes[6].transformableValue(for: "tags") as Int32? == 42)
        #expect(notes[7].transformableValue(for: "tags") as Double? == 2.5)
        #expect(notes[8].transformableValue(for: "tags") as Bool? == true)
        #expect(notes[9].transformableValue(for: "tags") as Data? == Data([9, 8, 7]))

        // Dynamic: `value(forKey:)` and `archivedValue(for:)` give Swift values.
        #expect(notes[0].value(forKey: "tags") as? [String] == ["swift", "linux"])
        let settings = try #require(notes[1].archivedValue(for: "tags") as? [String: Any])
        #expect(settings["name"] as? String == "big" && settings["size"] as? Int == 3)
        #expect(notes[2].value(forKey: "tags") as? Date == date)
        #expect(notes[8].archivedValue(for: "tags") as? Bool == true)
        let nested = try #require(notes[10].value(forKey: "tags") as? [Any])
        #expect(nested.first as? Int == 1 && nested.last as? [Int] == [2, 3])
    }

    @Test func unchangedValuesKeepTheirArchiveBytes() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        let tags = try Self.archive(["a", "b"])
        let settings = try Self.archive(["name": "x", "size": 1] as [String: Any])
        try Store.create(at: location, rows: [(1, "one", .null, .blob(tags)), (2, "two", .null, .blob(settings))])
        let container = try PersistentContainer(model: Store.model, store: .sqlite(at: location.store))
        let context = container.viewContext
        let notes = try Store.notes(context)

        // Written back unchanged (typed and dynamic): not even a change.
        notes[0].setTransformableValue(notes[0].transformableValue(for: "tags") as [String]?, for: "tags")
        notes[1].setTransformableValue(
            notes[1].transformableValue(for: "tags") as ArchivedSettings?, for: "tags")
        notes[0].setValue(notes[0].value(forKey: "tags"), forKey: "tags")
        #expect(!context.hasChanges)
        notes[0].title = "edited"
        try context.save()
        #expect(try location.stored("ZTAGS", key: 1) == .blob(tags))
        #expect(try location.stored("ZTAGS", key: 2) == .blob(settings))

        // Changed: a Codable value is written as the runtime's JSON; a dynamic one as an archive Core Data reads.
        notes[0].setTransformableValue(["a", "b", "c"], for: "tags")
        notes[1].setValue(["name": "y", "size": 2] as [String: Any], forKey: "tags")
        try context.save()
        #expect(try location.stored("ZTAGS", key: 1) == .blob(Data(#"["a","b","c"]"#.utf8)))
        guard case .blob(let archived)? = try location.stored("ZTAGS", key: 2) else {
            Issue.record("no archive stored")
            return
        }
        let classes: [AnyClass] = [NSDictionary.self, NSString.self, NSNumber.self]
        let decoded = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: archived) as? NSDictionary)
        #expect(decoded["name"] as? String == "y")
        #expect(notes[0].transformableValue(for: "tags") as [String]? == ["a", "b", "c"])
        #expect(notes[1].transformableValue(for: "tags") as ArchivedSettings? == ArchivedSettings(name: "y", size: 2))
    }
}
