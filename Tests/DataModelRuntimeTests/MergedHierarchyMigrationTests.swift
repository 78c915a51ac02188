import DataModelRuntime
import DataModelStore
import DataModelStoreLayout
import Foundation
import SQLiteKit
import Testing

/// Stores whose model moves entities of separate hierarchies into one: `Cat` and `Dog`, each a root with its own
/// table, become sub-entities of a new `Animal`, or `Dog` moves under `Cat`. Their keys overlapped; after the
/// migration every value and every relationship (into, out of and between them; to-one, to-many, many-to-many,
/// ordered) reads as before.
@Suite("Stores migrate when hierarchies merge")
struct MergedHierarchyMigrationTests {
    /// One attribute of every type, named after the entity (`catInteger16` …); `photo`-like Binary values allow
    /// external storage.
    static func everyType(_ prefix: String) -> [AttributeDescription] {
        [
            AttributeDescription(name: prefix + "Integer16", type: .integer16),
            AttributeDescription(name: prefix + "Integer32", type: .integer32),
            AttributeDescription(name: prefix + "Integer64", type: .integer64),
            AttributeDescription(name: prefix + "Decimal", type: .decimal),
            AttributeDescription(name: prefix + "Double", type: .double),
            AttributeDescription(name: prefix + "Float", type: .float),
            AttributeDescription(name: prefix + "Boolean", type: .boolean),
            AttributeDescription(name: prefix + "Date", type: .date),
            AttributeDescription(name: prefix + "Binary", type: .binary, allowsExternalBinaryDataStorage: true),
            AttributeDescription(name: prefix + "UUID", type: .uuid),
            AttributeDescription(name: prefix + "URI", type: .uri),
            AttributeDescription(name: prefix + "Transformable", type: .transformable),
        ]
    }

    static func relationship(
        _ name: String, _ destination: String, inverse: String, toMany: Bool = false, ordered: Bool = false
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: toMany, isOrdered: ordered)
    }

    static let catRelationships = [
        relationship("toys", "Toy", inverse: "cat", toMany: true, ordered: true),
        relationship("rival", "Dog", inverse: "rivalOf"),
        relationship("friends", "Dog", inverse: "pals", toMany: true),
        relationship("keeper", "Owner", inverse: "cats"),
        relationship("fans", "Owner", inverse: "favorites", toMany: true),
    ]
    static let dogRelationships = [
        relationship("rivalOf", "Cat", inverse: "rival", toMany: true),
        relationship("pals", "Cat", inverse: "friends", toMany: true),
        relationship("tricks", "Trick", inverse: "dogs", toMany: true, ordered: true),
        relationship("walker", "Owner", inverse: "dogs"),
    ]
    static let others = [
        EntityDescription(
            name: "Owner", objectType: ManagedObject.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [
                relationship("cats", "Cat", inverse: "keeper", toMany: true),
                relationship("dogs", "Dog", inverse: "walker", toMany: true, ordered: true),
                relationship("favorites", "Cat", inverse: "fans", toMany: true),
            ]),
        EntityDescription(
            name: "Toy", objectType: ManagedObject.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [relationship("cat", "Cat", inverse: "toys")]),
        EntityDescription(
            name: "Trick", objectType: ManagedObject.self,
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [relationship("dogs", "Dog", inverse: "tricks", toMany: true)]),
    ]

    static let name = AttributeDescription(name: "name", type: .string)

    static let version1 = ManagedObjectModel(
        name: "Pets",
        entities: [
            EntityDescription(
                name: "Cat", objectType: ManagedObject.self, attributes: [name] + everyType("cat"),
                relationships: catRelationships),
            EntityDescription(
                name: "Dog", objectType: ManagedObject.self, attributes: [name] + everyType("dog"),
                relationships: dogRelationships),
        ] + others, versionName: "Pets")

    /// `Animal` (new) is the parent of `Cat` and `Dog` and declares `name`.
    static let underNewParent = ManagedObjectModel(
        name: "Pets",
        entities: [
            EntityDescription(name: "Animal", objectType: ManagedObject.self, attributes: [name]),
            EntityDescription(
                name: "Cat", parentName: "Animal", objectType: ManagedObject.self, attributes: everyType("cat"),
                relationships: catRelationships),
            EntityDescription(
                name: "Dog", parentName: "Animal", objectType: ManagedObject.self, attributes: everyType("dog"),
                relationships: dogRelationships),
        ] + others, versionName: "Pets 2", earlierVersions: [version1])

    /// `Dog` is a sub-entity of `Cat` (inheriting its `name`, and the rest).
    static let dogUnderCat = ManagedObjectModel(
        name: "Pets",
        entities: [
            EntityDescription(
                name: "Cat", objectType: ManagedObject.self, attributes: [name] + everyType("cat"),
                relationships: catRelationships),
            EntityDescription(
                name: "Dog", parentName: "Cat", objectType: ManagedObject.self, attributes: everyType("dog"),
                relationships: dogRelationships),
        ] + others, versionName: "Pets 2", earlierVersions: [version1])

    /// A value of every attribute type for object `index` (some left empty).
    static func value(of attribute: AttributeDescription, index: Int) -> Any? {
        if index % 4 == 3 && attribute.type != .string { return nil }
        switch attribute.type {
        case .integer16: return Int16(index * 7 - 20)
        case .integer32: return Int32(index * 100_003)
        case .integer64: return Int64(index) * 9_000_000_001
        case .decimal: return Decimal(string: "\(index).\(index + 1)5")
        case .double: return Double(index) / 3
        case .float: return Float(index) * 1.5
        case .boolean: return index % 2 == 0
        case .date: return Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 86_400.5)
        case .binary:
            // Every third value is large enough to go to a file of the external-data folder.
            return Data((0..<(index % 3 == 0 ? 5_000 : 40)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) })
        case .uuid: return UUID(uuidString: String(format: "6B2A51E1-5B5E-4D52-8A77-%012d", index))
        case .uri: return URL(string: "https://example.org/pets/\(index)")
        case .transformable: return Data("archived \(index)".utf8)
        default: return "\(index)"
        }
    }

    /// Fills a store of the first version: keys of cats and dogs overlap (1…), relationships of every kind.
    static func fill(_ context: ManagedObjectContext) throws {
        func insert(_ entity: String, _ name: String) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            object.setValue(name, forKey: "name")
            return object
        }
        let owners = try (0..<3).map { try insert("Owner", "owner \($0)") }
        let toys = try (0..<6).map { try insert("Toy", "toy \($0)") }
        let tricks = try (0..<4).map { try insert("Trick", "trick \($0)") }
        var cats: [ManagedObject] = []
        var dogs: [ManagedObject] = []
        for index in 0..<8 {
            let cat = try insert("Cat", "cat \(index)")
            for attribute in everyType("cat") {
                cat.setValue(value(of: attribute, index: index), forKey: attribute.name)
            }
            cats.append(cat)
        }
        for index in 0..<6 {
            let dog = try insert("Dog", "dog \(index)")
            for attribute in everyType("dog") {
                dog.setValue(value(of: attribute, index: index + 50), forKey: attribute.name)
            }
            dogs.append(dog)
        }
        for (index, cat) in cats.enumerated() {
            // Ordered toys (not in key order), a rival dog, dog friends, an owner, fans.
            cat.setValue(index < 2 ? [toys[index * 3 + 2], toys[index * 3], toys[index * 3 + 1]] : [], forKey: "toys")
            cat.setValue(index % 3 == 2 ? nil : dogs[(index + 1) % dogs.count], forKey: "rival")
            cat.setValue(Set([dogs[index % dogs.count], dogs[(index * 2) % dogs.count]]), forKey: "friends")
            cat.setValue(index == 5 ? nil : owners[index % owners.count], forKey: "keeper")
            cat.setValue(Set(owners.prefix(index % 3)), forKey: "fans")
        }
        for (index, dog) in dogs.enumerated() {
            dog.setValue([tricks[(index + 1) % 4], tricks[index % 4]], forKey: "tricks")
        }
        owners[0].setValue([dogs[4], dogs[1], dogs[3]], forKey: "dogs")
        owners[2].setValue([dogs[0], dogs[5]], forKey: "dogs")
        try context.save()
        // Cats and dogs have overlapping keys (each root numbers its own rows from 1).
        #expect(Set(cats.map(\.objectID.primaryKey)).intersection(dogs.map(\.objectID.primaryKey)).count == 6)
    }

    /// Every object of the first version's entities, as lines: each attribute's value and each relationship's
    /// objects by name (ordered ones in order), whatever the objects' keys.
    static func snapshot(_ context: ManagedObjectContext) throws -> [String] {
        var lines: [String] = []
        for entity in version1.entities {
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name))
                .filter { $0.entity.name == entity.name }
            for object in objects {
                let name = object.value(forKey: "name") as? String ?? "?"
                for attribute in entity.attributes {
                    lines.append(
                        "\(entity.name) \(name) \(attribute.name) = "
                            + (object.value(forKey: attribute.name).map { "\($0)" } ?? "nil"))
                }
                for relationship in entity.relationships {
                    let names: [String]
                    switch object.value(forKey: relationship.name) {
                    case let list as [ManagedObject]: names = list.map { $0.value(forKey: "name") as? String ?? "?" }
                    case let set as Set<ManagedObject>:
                        names = set.map { $0.value(forKey: "name") as? String ?? "?" }.sorted()
                    case let one as ManagedObject: names = [one.value(forKey: "name") as? String ?? "?"]
                    default: names = []
                    }
                    lines.append("\(entity.name) \(name) \(relationship.name) -> " + names.joined(separator: ", "))
                }
            }
        }
        return lines.sorted()
    }

    static func files(_ folder: URL) -> [String] {
        let external = folder.appendingPathComponent(".Pets_SUPPORT/_EXTERNAL_DATA")
        return ((try? FileManager.default.contentsOfDirectory(atPath: external.path)) ?? []).sorted()
    }

    @Test(arguments: [("Animal", true), ("Cat", false)])
    func everyValueAndRelationshipSurvives(root: String, newParent: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Pets.sqlite")
        let before: [String]
        do {
            let container = try PersistentContainer(
                model: Self.version1, store: .sqlite(at: url), externalBinaryDataThreshold: 1_000)
            try Self.fill(container.viewContext)
            before = try Self.snapshot(
                PersistentContainer(model: Self.version1, store: .sqlite(at: url)).viewContext)
        }
        #expect(before.count > 250)
        let filesBefore = Self.files(folder)
        #expect(filesBefore.count == 3)

        let model = newParent ? Self.underNewParent : Self.dogUnderCat
        // Opening refuses as Core Data does; the offline migration asked to merge (`datamodelgen migrate
        // --merge-hierarchies`) migrates, and then the store opens.
        #expect {
            try PersistentContainer(model: model, store: .sqlite(at: url))
        } throws: { error in
            guard case StoreError.migrationNotInferable(_, _, let reasons) = error else { return false }
            return reasons.contains { $0.contains("refuses to merge hierarchies") }
        }
        do {
            let database = try Database(path: url.path)
            let versions = (model.earlierVersions + [model]).map(\.layoutModel)
            let migration = try StoreFile.migrate(
                database, versions: versions, to: versions.count - 1, mergingHierarchies: true)
            #expect(migration.migrated)
        }
        let container = try PersistentContainer(model: model, store: .sqlite(at: url))
        let context = container.viewContext
        let after = try Self.snapshot(context)
        #expect(after.count == before.count)
        // The first difference, not two lists of hundreds of lines.
        if let (old, new) = zip(before, after).first(where: { $0 != $1 }) { Issue.record("\(old)  ≠  \(new)") }
        #expect(Self.files(folder) == filesBefore)

        // One table, distinct keys, the root's Z_MAX above them: a new object gets a fresh key.
        let everyone = try context.fetch(FetchRequest<ManagedObject>(entityName: root))
        #expect(everyone.count == 14)
        #expect(Set(everyone.map(\.objectID.primaryKey)).count == 14)
        let added = try context.insertNewObject(forEntityName: "Dog")
        added.setValue("dog new", forKey: "name")
        try context.save()
        #expect(everyone.allSatisfy { $0.objectID.primaryKey < added.objectID.primaryKey })
        let db = try Database(path: url.path)
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        let table = "Z" + root.uppercased()
        #expect(try db.fetchOne(sql: "SELECT COUNT(*) FROM \(table)")?.first?.integerValue == 15)
        // Reopened: recognised as current, nothing to migrate again.
        let again = try PersistentContainer(model: model, store: .sqlite(at: url), migratesStoreAutomatically: false)
        #expect(
            try Self.snapshot(again.viewContext).count == before.count + Self.version1.entities[1].attributes.count
                + Self.version1.entities[1].relationships.count)
    }
}

/// A migration that removes a Binary attribute with external storage, or the entity holding one, removes the files
/// of the removed values, after it commits: a migration that fails leaves the old version whole, files included.
@Suite("Migrations remove the external-data files of removed values")
struct ExternalDataCleanupMigrationTests {
    typealias Store = CoreDataStore

    static let external = ManagedObjectModel(
        name: "Notes", entities: [Store.note(), Store.folder], versionName: "Notes")

    /// `Note` without `payload`.
    static let withoutPayload = ManagedObjectModel(
        name: "Notes",
        entities: [
            EntityDescription(
                name: "Note", objectType: ManagedObject.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "tags", type: .transformable),
                ],
                relationships: [
                    RelationshipDescription(name: "folder", destinationEntityName: "Folder", inverseName: "notes")
                ]),
            Store.folder,
        ], versionName: "Notes 2", earlierVersions: [external])

    /// `Note` removed.
    static let withoutNotes = ManagedObjectModel(
        name: "Notes",
        entities: [
            EntityDescription(
                name: "Folder", objectType: ManagedObject.self,
                attributes: [AttributeDescription(name: "name", type: .string)])
        ], versionName: "Notes 2", earlierVersions: [external])

    /// Three notes, two of them with a value in a file.
    static func fill(_ location: Store.Location) throws {
        let container = try PersistentContainer(
            model: external, store: .sqlite(at: location.store), externalBinaryDataThreshold: 1_000)
        let context = container.viewContext
        for (index, size) in [3_000, 20, 4_000].enumerated() {
            let note = try #require(try context.insertNewObject(forEntityName: "Note") as? CoreDataNote)
            note.title = "note \(index)"
            note.payload = Store.bytes(size, seed: UInt8(index))
        }
        try context.save()
    }

    @Test(arguments: [false, true])
    func filesOfRemovedValuesGoAfterTheCommit(removingTheEntity: Bool) throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        try Self.fill(location)
        let files = location.externalFiles()
        #expect(files.count == 2)
        let target = removingTheEntity ? Self.withoutNotes : Self.withoutPayload

        // A migration that fails at its last statement (the metadata update) rolls back: the store and every file
        // are as they were.
        let db = try Database(path: location.store.path)
        try db.execute(
            sql: #"CREATE TRIGGER "refuse" BEFORE UPDATE ON "Z_METADATA" BEGIN SELECT RAISE(ABORT, 'refused'); END"#)
        #expect(throws: StoreError.self) {
            _ = try PersistentContainer(model: target, store: .sqlite(at: location.store))
        }
        #expect(location.externalFiles() == files)
        do {
            let old = try PersistentContainer(
                model: Self.external, store: .sqlite(at: location.store), migratesStoreAutomatically: false)
            let notes = try Store.notes(old.viewContext)
            #expect(notes.map(\.payload?.count) == [3_000, 20, 4_000])
        }

        try db.execute(sql: #"DROP TRIGGER "refuse""#)
        let container = try PersistentContainer(model: target, store: .sqlite(at: location.store))
        #expect(location.externalFiles().isEmpty)
        if !removingTheEntity {
            let notes = try container.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
            #expect(Set(notes.map { $0.value(forKey: "title") as? String }) == ["note 0", "note 1", "note 2"])
        }
    }

    /// Files still referenced by a value the migration keeps stay (here: `payload` kept, only `tags` removed).
    @Test func filesOfKeptValuesStay() throws {
        let location = try Store.Location()
        defer { location.cleanUp() }
        try Self.fill(location)
        let files = location.externalFiles()
        let withoutTags = ManagedObjectModel(
            name: "Notes",
            entities: [
                EntityDescription(
                    name: "Note", objectType: CoreDataNote.self,
                    attributes: [
                        AttributeDescription(name: "title", type: .string),
                        AttributeDescription(
                            name: "payload", type: .binary, allowsExternalBinaryDataStorage: true),
                    ],
                    relationships: [
                        RelationshipDescription(name: "folder", destinationEntityName: "Folder", inverseName: "notes")
                    ]),
                Store.folder,
            ], versionName: "Notes 2", earlierVersions: [Self.external])
        let container = try PersistentContainer(model: withoutTags, store: .sqlite(at: location.store))
        #expect(location.externalFiles() == files)
        #expect(
            try container.viewContext.fetch(FetchRequest<CoreDataNote>(entityName: "Note"))
                .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }.map(\.payload?.count) == [3_000, 20, 4_000])
    }
}
