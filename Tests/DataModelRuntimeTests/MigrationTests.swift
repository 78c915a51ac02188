import DataModelRuntime
import Foundation
import SQLiteKit
import Testing

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

    @Test func aStoreOfTheFirstVersionOpensWithTheSecond() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        do {
            let container = try PersistentContainer(model: Self.version1, store: .sqlite(at: url))
            try Self.fill(container.viewContext)
        }
        let before = try Self.rows(url, #"SELECT Z_PK, ZOWNER, Z_FOK_OWNER, ZNAME FROM ZPET ORDER BY Z_PK"#)
        #expect(before.count == 3)

        // Turned off: the store is left alone and the error says why.
        #expect(throws: StoreError.migrationRequired(path: url.path, from: "People", to: "People 2")) {
            _ = try PersistentContainer(
                model: Self.version2, store: .sqlite(at: url), migratesStoreAutomatically: false)
        }
        #expect(try Self.rows(url, #"SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT"#) == ["1|Person", "2|Pet"])

        let container = try PersistentContainer(model: Self.version2, store: .sqlite(at: url))
        let context = container.viewContext
        let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        #expect(Set(people.map { $0.value(for: "name") as String? }) == ["Ann", "Bob", "Cy"])
        #expect(people.allSatisfy { ($0.value(for: "email") as String?) == nil })
        #expect(try Self.rows(url, #"SELECT Z_PK, ZOWNER, Z_FOK_OWNER, ZNAME FROM ZPET ORDER BY Z_PK"#) == before)
        #expect(
            try Self.rows(url, #"SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT"#) == [
                "1|Address", "2|Person", "3|Pet",
            ])
        #expect(try Self.rows(url, #"SELECT DISTINCT Z_ENT FROM ZPERSON"#) == ["2"])
        // New objects get keys after the old ones; a reopened store needs no second migration.
        let added = try context.insertNewObject(forEntityName: "Person")
        added.setValue("Dee", for: "name")
        try context.save()
        #expect(added.objectID.primaryKey > 3)
        let again = try PersistentContainer(
            model: Self.version2, store: .sqlite(at: url), migratesStoreAutomatically: false)
        #expect(try again.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 4)
        #expect(try Database(path: url.path).fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
    }

    @Test func anUninferableChangeIsRefusedAndNothingIsWritten() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        do {
            let container = try PersistentContainer(model: Self.version1, store: .sqlite(at: url))
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
                path: url.path, from: "People",
                reasons: ["Person.born: non-optional attribute added without a default value"])
        ) {
            _ = try PersistentContainer(model: strict, store: .sqlite(at: url))
        }
        #expect(try Self.rows(url, #"SELECT COUNT(*) FROM ZPERSON"#) == ["3"])
        _ = try PersistentContainer(model: Self.version1, store: .sqlite(at: url))
    }
}
