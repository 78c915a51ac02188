import Foundation
import SQLiteKit
import Testing

/// `datamodelgen migrate`: the runtime's migration, offline.
@Suite("migrate")
struct MigrateCommandTests {
    static let person = Paths.repositoryRoot.appendingPathComponent("Models/Person.xcdatamodeld").path

    /// A store of the bundle's first version (`Person`), with one person.
    static func firstVersionStore() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite")
            .path
        let schema = runTool(["schema", person, "--model-version", "Person"])
        #expect(schema.code == .success)
        let db = try Database(path: path)
        try db.execute(sql: schema.out)
        try db.execute(sql: #"INSERT INTO "ZPERSON" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (1, 1, 1, 'Ann')"#)
        return path
    }

    @Test func dryRunReportsAndWritesNothingThenMigrateMigrates() throws {
        let store = try Self.firstVersionStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let dry = runTool(["migrate", Self.person, store, "--dry-run", "--format", "json"])
        #expect(dry.code == .success, "\(dry.err)")
        let report = try JSONSerialization.jsonObject(with: Data(dry.out.utf8)) as? [String: Any]
        #expect(report?["sourceVersion"] as? String == "Person")
        #expect(report?["targetVersion"] as? String == "Person 2")
        #expect(report?["inferable"] as? Bool == true)
        #expect(report?["migrated"] as? Bool == false)
        #expect((report?["sql"] as? [String]) == [#"ALTER TABLE "ZPERSON" ADD COLUMN "ZEMAIL" VARCHAR"#])
        #expect((report?["steps"] as? [String])?.isEmpty == false)
        let columns = { try Database(path: store).fetchAll(sql: #"PRAGMA table_info("ZPERSON")"#).count }
        let before = try columns()
        let dryAgain = runTool(["migrate", Self.person, store, "--dry-run"])
        #expect(dryAgain.out.contains("source version: Person\n"), "a dry run writes nothing")
        #expect(try columns() == before)

        let run = runTool(["migrate", Self.person, store])
        #expect(run.code == .success)
        #expect(run.out.contains("migrated"))
        #expect(try columns() == before + 1)
        #expect(try Database(path: store).fetchOne(sql: #"SELECT "ZNAME" FROM "ZPERSON""#) == [.text("Ann")])
        #expect(runTool(["migrate", Self.person, store]).out.contains("up to date"))
    }

    @Test func anUnknownStoreOrVersionFails() throws {
        let store = try Self.firstVersionStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let company = Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path
        let unknown = runTool(["migrate", company, store])
        #expect(unknown.code == .modelError)
        #expect(unknown.out.contains("no version of"))
        #expect(runTool(["migrate", Self.person, store, "--to", "Person 9"]).code == .modelError)
        #expect(runTool(["migrate", Self.person, "/nonexistent/store.sqlite"]).code == .ioError)
        #expect(runTool(["migrate", Self.person]).code == .usageError)
    }
}
