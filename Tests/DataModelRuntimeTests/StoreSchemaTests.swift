import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import SQLiteKit
import Testing

@Suite("Stores have Core Data's layout")
struct StoreSchemaTests {
    @Test("the store holds exactly the layout's tables and indexes", arguments: StoreKind.sqliteKinds)
    func schema(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RecordsModel.model)
        defer { store.cleanUp() }
        #expect(
            try StoreInspection.schema(of: store.container) == StoreInspection.layoutStatements(of: store.container))
    }

    /// Core Data's settings for file stores, which the benchmarks' fairness rests on too: write-ahead log,
    /// `synchronous=NORMAL` (1) on the connection the runtime uses.
    @Test("a file store runs in WAL with synchronous=NORMAL")
    func fileStoresRunInWAL() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        #expect(try StoreInspection.pragma("journal_mode", of: store.container) == "wal")
        #expect(try StoreInspection.pragma("synchronous", of: store.container) == "1")
        // The mode is the file's: a second container, and a plain connection, find it set.
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        #expect(try StoreInspection.pragma("journal_mode", of: reopened) == "wal")
        let plain = try Database(path: store.url.path)
        #expect(try plain.fetchOne(sql: "PRAGMA journal_mode") == [.text("wal")])
    }

    /// SQLite's failures reach the caller as SQLite reported them: the extended result code is kept and matchable.
    @Test("a file that is not a database fails with SQLite's own error, SQLITE_NOTADB")
    func notADatabase() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 0x41, count: 4096).write(to: url)
        let error = #expect(throws: StoreError.self) {
            _ = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: url))
        }
        guard case .sqlite(let sqlite)? = error else {
            Issue.record("expected StoreError.sqlite, got \(String(describing: error))")
            return
        }
        #expect(sqlite.resultCode == .notADatabase)
        #expect(sqlite.extendedResultCode == 26)
        #expect(error?.description.contains("file is not a database") == true)
    }

    @Test("Z_PRIMARYKEY numbers entities and keeps Z_MAX across reopening")
    func primaryKeys() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        #expect(
            try StoreInspection.primaryKeyRows(of: store.container) == [
                "1|BusinessEntity|0|0", "2|DepartmentEntity|0|0", "3|EmployeeEntity|0|0",
            ])
        for _ in 0..<3 { _ = BusinessEntity(context: store.context) }
        try store.context.save()
        // Keys are reserved in blocks: Z_MAX is past every key handed out, for other containers.
        let reserved = try StoreInspection.primaryKeyRows(of: store.container)[0]
        #expect(reserved.hasPrefix("1|BusinessEntity|0|"))
        #expect((Int(reserved.split(separator: "|")[3]) ?? 0) >= 3)
        // A second container on the same file allocates above the first one's reservation.
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        let fourth = BusinessEntity(context: reopened.viewContext)
        #expect(fourth.objectID.primaryKey > 3)
        try reopened.viewContext.save()
        let more = BusinessEntity(context: store.context)
        try store.context.save()
        #expect(more.objectID.primaryKey != fourth.objectID.primaryKey)
        #expect(try reopened.viewContext.count(for: BusinessEntity.fetchRequest()) == 5)
    }

    @Test("a closed container hands back its unused keys: the next open continues after the last one")
    func keysHandedBack() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        do {
            let container = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
            for _ in 0..<3 { _ = BusinessEntity(context: container.viewContext) }
            try container.viewContext.save()
        }
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        #expect(try StoreInspection.primaryKeyRows(of: reopened)[0] == "1|BusinessEntity|0|3")
        #expect(BusinessEntity(context: reopened.viewContext).objectID.primaryKey == 4)
    }
}

@Suite("Stores written by other Core Data versions")
struct ForeignStoreTests {
    @Test("columns in another order, other type spellings, extra columns and history rows are accepted")
    func tolerantOpen() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let employee = EmployeeEntity(context: store.context)
        employee.name = "Ann"
        employee.age = 41
        try store.context.save()
        let id = employee.objectID

        let database = try Database(path: store.url.path)
        try database.execute(
            sql: """
                ALTER TABLE "ZEMPLOYEEENTITY" RENAME TO "OLD";
                CREATE TABLE "ZEMPLOYEEENTITY" (
                    "ZNAME" varchar(255), "ZEXTRA" integer, "ZDEPARTMENT" integer, "Z_OPT" integer,
                    "ZDATEJOINED" timestamp, "Z_ENT" integer, "ZAGE" integer, "ZBUSINESS" integer,
                    "Z_PK" integer PRIMARY KEY);
                INSERT INTO "ZEMPLOYEEENTITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZAGE", "ZDATEJOINED", "ZNAME", "ZBUSINESS",
                    "ZDEPARTMENT") SELECT "Z_PK", "Z_ENT", "Z_OPT", "ZAGE", "ZDATEJOINED", "ZNAME", "ZBUSINESS",
                    "ZDEPARTMENT" FROM "OLD";
                DROP TABLE "OLD";
                INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (16001, 'ACHANGE', 0, 0);
                """)
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        let found = try #require(try reopened.viewContext.existingObject(with: id) as? EmployeeEntity)
        #expect(found.name == "Ann")
        #expect(found.age == 41)
        found.age = 42
        let second = EmployeeEntity(context: reopened.viewContext)
        second.name = "Bea"
        try reopened.viewContext.save()
        let check = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url)).viewContext
        let names = try check.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(names.map(\.name) == ["Ann", "Bea"])
        #expect(names.map(\.age) == [42, 0])
    }

    @Test("a missing column or a column of another affinity is still a mismatch")
    func strictWhereItMatters() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        try store.context.save()
        let database = try Database(path: store.url.path)
        try database.execute(
            sql: """
                ALTER TABLE "ZEMPLOYEEENTITY" RENAME TO "OLD";
                CREATE TABLE "ZEMPLOYEEENTITY" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER,
                    "ZAGE" VARCHAR, "ZNAME" VARCHAR, "ZBUSINESS" INTEGER, "ZDEPARTMENT" INTEGER);
                DROP TABLE "OLD";
                """)
        #expect(throws: StoreError.self) {
            _ = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        }
    }
}
