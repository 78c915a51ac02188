import DataModelRuntime
import DataModelStoreLayout
import Foundation
import GeneratedCompanyModel
import PostgresKit
import Testing

/// What only a PostgreSQL store has: the connection's errors, the schema it creates or refuses, and several
/// connections on one database. (The scenarios run on it through ``StoreKind/postgres``.)
@Suite("PostgreSQL store: opening")
struct PostgresStoreOpeningTests {
    @Test("a URL that is not postgresql:// is refused before anything connects")
    func notAPostgresURL() throws {
        let url = try #require(URL(string: "mysql://localhost/app"))
        #expect {
            _ = try PersistentContainer(model: MembersModel.model, store: .postgres(url: url))
        } throws: { error in
            guard case StoreError.unsupportedStore(let reason)? = error as? StoreError else { return false }
            return reason.contains("postgresql://")
        }
    }

    @Test("a server that is down is a connection error, with no crash")
    func serverDown() throws {
        // Port 1 on the loopback address: nothing listens there.
        let url = try #require(URL(string: "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"))
        #expect {
            _ = try PersistentContainer(model: MembersModel.model, store: .postgres(url: url))
        } throws: { error in
            guard case StoreError.postgres(let failure)? = error as? StoreError else { return false }
            return failure.kind == .connection && (error as? StoreError)?.description.contains("connection") == true
        }
    }

    @Test("a password in the URL is not shown in messages")
    func passwordHidden() throws {
        let url = try #require(URL(string: "mysql://app:secret@localhost/app"))
        #expect {
            _ = try PersistentContainer(model: MembersModel.model, store: .postgres(url: url))
        } throws: { error in
            "\(error)".contains("***") && !"\(error)".contains("secret")
        }
    }

    @Test("the persistent store description names the PostgreSQL type")
    func storeDescription() throws {
        let url = try #require(URL(string: "postgresql://app@db.example/app"))
        let description = PersistentStoreDescription(.postgres(url: url))
        #expect(description.type == .postgres)
        #expect(try description.storeDescription() == .postgres(url: url))
    }
}

@Suite(
    "PostgreSQL store: schema and several connections",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresStoreServerTests {
    @Test("a search_path naming a schema that does not exist says to create it, and nothing is written")
    func missingSchemaIsNamed() throws {
        let base = try #require(PostgresTestServer.url)
        let schema = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let url = try #require(
            URL(string: base + (base.contains("?") ? "&" : "?") + "options=-c%20search_path%3D" + schema))
        #expect {
            _ = try PersistentContainer(model: MembersModel.model, store: .postgres(url: url))
        } throws: { error in
            guard case StoreError.postgres(let failure)? = error as? StoreError else { return false }
            return failure.sqlState == .invalidSchemaName && failure.kind == .statement
                && failure.message.contains("create it first (CREATE SCHEMA name)")
        }
        let exists = try PostgresConnection(url: base).query(
            "SELECT 1 FROM pg_namespace WHERE nspname = $1",
            [
                .text(schema)
            ])
        #expect(exists.rows.isEmpty)
    }

    @Test("an empty schema gets the model's tables with PostgreSQL's types, Z_PRIMARYKEY and Z_METADATA")
    func schemaCreated() throws {
        let store = try TestStore(.postgres, model: CompanyModel.model)
        defer { store.cleanUp() }
        let connection = try PostgresConnection(url: store.url.absoluteString)
        let tables = try connection.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() "
                + "ORDER BY 1"
        ).rows.compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        #expect(tables.contains("Z_PRIMARYKEY") && tables.contains("Z_METADATA"))
        #expect(tables.contains("ZEMPLOYEEENTITY"))
        let types = try connection.query(
            "SELECT data_type::text FROM information_schema.columns WHERE table_schema = current_schema() "
                + #"AND table_name = 'Z_METADATA' AND column_name = 'Z_PLIST'"#)
        #expect(types.rows.first?.first == .text("bytea"))
        let rows = try connection.query(#"SELECT COUNT(*) FROM "Z_METADATA""#)
        #expect(rows[0, 0] == PostgresValue.int(1))
    }

    /// README: "To create it yourself (or review it first): datamodelgen schema … --dialect postgres | psql". Those
    /// statements (the schema command prints exactly `DDLWriter`'s, a test of the generator checks) create no
    /// `Z_METADATA` row; the runtime takes such tables for the model's when their layout is the model's, as it does
    /// an SQLite store Core Data wrote, and records its row.
    /// With `--foreign-keys` too: the references are deferred to the commit, so saves that write rows in any order
    /// and delete rules that clear references pass them.
    @Test(
        "tables created with the schema command's DDL open, and a second open finds the store",
        arguments: [false, true])
    func schemaCommandTablesOpen(foreignKeys: Bool) throws {
        let fresh = try PostgresTestServer.freshSchema()
        defer { PostgresTestServer.drop(schema: fresh.name) }
        let connection = try PostgresConnection(url: fresh.url.absoluteString)
        let writer = DDLWriter(dialect: .postgres, foreignKeys: foreignKeys)
        let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
        for sql in writer.statements(for: layout) + writer.primaryKeyRowStatements(for: layout) {
            try connection.execute(sql)
        }
        do {
            let container = try PersistentContainer(model: CompanyModel.model, store: .postgres(url: fresh.url))
            let context = container.viewContext
            let business = BusinessEntity(context: context)
            let department = DepartmentEntity(context: context)
            let employee = EmployeeEntity(context: context)
            employee.name = "Ann"
            employee.department = department
            employee.business = business
            business.addToDepartments(department)
            try context.save()
            // Cascades to the employee; the join row and the department's reference go.
            context.delete(business)
            try context.save()
            #expect(department.employees.isEmpty && department.businesses.isEmpty)
            _ = BusinessEntity(context: context)
            try context.save()
        }
        #expect(try connection.query(#"SELECT COUNT(*) FROM "Z_METADATA""#)[0, 0] == PostgresValue.int(1))
        let again = try PersistentContainer(
            model: CompanyModel.model, store: .postgres(url: fresh.url), migratesStoreAutomatically: false)
        #expect(try again.viewContext.count(for: BusinessEntity.fetchRequest()) == 1)
        #expect(try again.viewContext.count(for: EmployeeEntity.fetchRequest()) == 0)
        #expect(try again.viewContext.fetch(DepartmentEntity.fetchRequest()).map(\.businesses.count) == [0])
        // Another model's open still finds tables that are not its own.
        #expect(throws: StoreError.self) {
            _ = try PersistentContainer(model: MembersModel.model, store: .postgres(url: fresh.url))
        }
    }

    @Test("tables an earlier version's schema command created are migrated when the current version opens them")
    func schemaCommandTablesOfAnEarlierVersionMigrate() throws {
        let fresh = try PostgresTestServer.freshSchema()
        defer { PostgresTestServer.drop(schema: fresh.name) }
        let connection = try PostgresConnection(url: fresh.url.absoluteString)
        let older = MigrationTests.notes(indexed: false, name: "Notes")
        let newer = MigrationTests.notes(indexed: true, age: true, name: "Notes 2", earlier: [older])
        let writer = DDLWriter(dialect: .postgres)
        let layout = try StoreLayout(model: older.layoutModel)
        for sql in writer.statements(for: layout) + writer.primaryKeyRowStatements(for: layout) {
            try connection.execute(sql)
        }
        try connection.execute(#"INSERT INTO "ZNOTE" ("Z_PK", "Z_ENT", "Z_OPT", "ZTITLE") VALUES (1, 1, 1, 'First')"#)
        try connection.execute(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 1"#)
        #expect(throws: StoreError.self) {
            _ = try PersistentContainer(
                model: newer, store: .postgres(url: fresh.url), migratesStoreAutomatically: false)
        }
        let container = try PersistentContainer(model: newer, store: .postgres(url: fresh.url))
        let notes = try container.viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(notes.map { $0.value(for: "title") as String? } == ["First"])
        notes.first?.setValue(Int64(4), for: "age")
        try container.viewContext.save()
        #expect(try connection.query(#"SELECT "ZAGE" FROM "ZNOTE""#)[0, 0] == PostgresValue.int(4))
        #expect(try connection.query(#"SELECT COUNT(*) FROM "Z_METADATA""#)[0, 0] == PostgresValue.int(1))
        #expect(
            try connection.query(
                #"SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'ZNOTE_ZTITLE_INDEX'"#
            )[0, 0]
                == PostgresValue.int(1))
        // Reopened: recognised by its recorded hashes, nothing to do.
        _ = try PersistentContainer(model: newer, store: .postgres(url: fresh.url), migratesStoreAutomatically: false)
    }

    @Test("a database holding other tables is refused, and nothing is written to it")
    func otherTablesRefused() throws {
        let fresh = try PostgresTestServer.freshSchema()
        defer { PostgresTestServer.drop(schema: fresh.name) }
        let connection = try PostgresConnection(url: fresh.url.absoluteString)
        try connection.execute(#"CREATE TABLE "orders" ("id" BIGINT PRIMARY KEY)"#)
        #expect {
            _ = try PersistentContainer(model: CompanyModel.model, store: .postgres(url: fresh.url))
        } throws: { error in
            guard case StoreError.modelMismatch(_, let differences)? = error as? StoreError else { return false }
            return differences.contains { $0.contains("orders") }
        }
        let tables = try connection.query(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()")
        #expect(tables[0, 0] == PostgresValue.int(1))
    }

    @Test("a store of another model is refused; the same model opens it again")
    func otherModelRefused() throws {
        let store = try TestStore(.postgres, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = BusinessEntity(context: store.context)
        try store.context.save()
        #expect {
            _ = try PersistentContainer(model: MembersModel.model, store: store.storeDescription)
        } throws: { error in
            guard case StoreError.modelMismatch? = error as? StoreError else { return false }
            return true
        }
        let again = try PersistentContainer(model: CompanyModel.model, store: store.storeDescription)
        #expect(try again.viewContext.count(for: BusinessEntity.fetchRequest()) == 1)
    }

    @Test("predicates run in PostgreSQL's SQL, and explain() says so")
    func predicatesExplained() throws {
        let store = try TestStore(.postgres, model: MembersModel.model)
        defer { store.cleanUp() }
        for (name, age) in [("Ann", 30), ("Bob", 20), ("Cy", 40)] {
            let member = MemberEntity(context: store.context)
            member.name = name
            member.age = Int16(age)
        }
        try store.context.save()
        let request = MemberEntity.fetchRequest().filtered(by: #Predicate<MemberEntity> { $0.age > 25 })
            .sorted(by: [SortDescriptor(\.name, order: .reverse)])
        let explanation = try store.context.explain(request)
        #expect(explanation.path == .sql)
        #expect(explanation.reason == nil)
        #expect(explanation.whereClause.hasPrefix("TRUE AND "), "\(explanation)")
        #expect(try store.reopened().fetch(request).map(\.name) == ["Cy", "Ann"])
        #expect(try store.reopened().count(for: request) == 2)
    }

    @Test("two containers on one database: keys never collide, a concurrent change is a merge conflict")
    func twoContainers() throws {
        let store = try TestStore(.postgres, model: MembersModel.model)
        defer { store.cleanUp() }
        let first = store.context
        let second = try store.reopened()
        var keys = Set<Int64>()
        for index in 0..<100 {
            let a = MemberEntity(context: first)
            a.name = "a\(index)"
            let b = MemberEntity(context: second)
            b.name = "b\(index)"
            #expect(keys.insert(a.objectID.primaryKey).inserted)
            #expect(keys.insert(b.objectID.primaryKey).inserted)
        }
        try first.save()
        try second.save()
        let byName = MemberEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        let one = try #require(try first.fetch(byName).first)
        let other = try #require(try second.fetch(byName).first)
        one.age = 1
        other.age = 2
        try first.save()
        #expect(throws: MergeConflict.self) { try second.save() }
        second.mergePolicy = .mergeByPropertyObjectTrump
        try second.save()
        #expect(try store.reopened().fetch(byName).first?.age == 2)
    }

    @Test(
        "four connections increment one counter 100 times each and insert their rows: no lost update, no duplicate key")
    func fourWriters() async throws {
        let store = try TestStore(.postgres, model: MembersModel.model)
        defer { store.cleanUp() }
        let counter = MemberEntity(context: store.context)
        counter.name = "counter"
        try store.context.save()
        let description = store.storeDescription
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    // A container of its own: its own connection, as another process would have.
                    let container = try PersistentContainer(model: MembersModel.model, store: description)
                    let context = container.viewContext
                    let request = MemberEntity.fetchRequest().matching(\.name, equals: "counter")
                    for step in 0..<100 {
                        while true {
                            context.reset()
                            guard let shared = try context.fetch(request).first else { return }
                            shared.age += 1
                            let row = MemberEntity(context: context)
                            row.name = "w\(worker)-\(step)"
                            do {
                                try context.save()
                                break
                            } catch is MergeConflict {
                                continue
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let check = try store.reopened()
        let all = try check.fetch(MemberEntity.fetchRequest())
        #expect(all.count == 401)
        #expect(Set(all.map(\.objectID.primaryKey)).count == 401)
        #expect(all.first { $0.name == "counter" }?.age == 400)
    }

    @Test(
        "random data of every attribute type reads back from PostgreSQL as written; random predicates equal evaluate; SQL sorts equal Swift's",
        arguments: PredicatePropertyTests.seeds.prefix(10))
    func randomDataAndPredicates(seed: UInt64) throws {
        let store = try TestStore(.postgres, model: GadgetsModel.model)
        defer { store.cleanUp() }
        var rng = SeededGenerator(seed: seed)
        _ = PredicateGrammar.populate(store.context, &rng)
        try store.context.save()
        let written = try store.context.fetch(FetchRequest<Gadget>())
        let context = try store.reopened()
        let read = Dictionary(
            uniqueKeysWithValues: try context.fetch(FetchRequest<Gadget>()).map { ($0.objectID.primaryKey, $0) })
        #expect(read.count == written.count)
        for gadget in written {
            let other = try #require(read[gadget.objectID.primaryKey])
            #expect(other.i16 == gadget.i16 && other.i32 == gadget.i32 && other.i64 == gadget.i64, "seed \(seed)")
            #expect(other.flag == gadget.flag && other.dbl == gadget.dbl && other.flt == gadget.flt, "seed \(seed)")
            #expect(other.date == gadget.date && other.dec == gadget.dec && other.uuid == gadget.uuid, "seed \(seed)")
            #expect(other.text == gadget.text && other.title == gadget.title && other.data == gadget.data)
            #expect(other.maker?.objectID == gadget.maker?.objectID)
            #expect(Set(other.tags.map(\.objectID)) == Set(gadget.tags.map(\.objectID)), "seed \(seed)")
        }
        var paths: [FetchExplanation.Path: Int] = [:]
        try PredicatePropertyTests.check(context, seed: seed, predicates: 20, &rng, paths: &paths)
        // Without a predicate the sort runs in PostgreSQL: code-point order of NFC text, NULL first ascending.
        let sorts: [SortDescriptor<Gadget>] = [
            SortDescriptor(\Gadget.title), SortDescriptor(\Gadget.i64, order: .reverse), SortDescriptor(\Gadget.dbl),
        ]
        let sorted = FetchRequest<Gadget>().sorted(by: sorts)
        sorted.fetchLimit = 15
        sorted.fetchOffset = 3
        #expect(try context.explain(sorted).path == .sql)
        let expected = PredicateGrammar.sorted(read.values, by: sorts).dropFirst(3).prefix(15)
        #expect(try context.fetch(sorted).map(\.objectID) == expected.map(\.objectID), "seed \(seed)")
    }
}
