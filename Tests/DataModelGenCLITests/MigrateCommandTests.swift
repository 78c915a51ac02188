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

    /// `migrate` merges the tables of `Cat` and `Dog` (moved under a new `Animal`): keys of dogs move above the cats',
    /// and the references follow.
    @Test func mergedHierarchiesMigrate() throws {
        let pets = Paths.fixtures + "/Pets.xcdatamodeld"
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("pets-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let schema = runTool(["schema", pets, "--model-version", "Pets"])
        #expect(schema.code == .success)
        do {
            let db = try Database(path: store)
            try db.execute(sql: schema.out)
            try db.execute(
                sql: #"""
                    INSERT INTO "ZCAT" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZRIVAL") VALUES (1, 1, 1, 'Tom', 2), (2, 1, 1, 'Kit', 1);
                    INSERT INTO "ZDOG" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (1, 2, 1, 'Rex'), (2, 2, 1, 'Fido');
                    INSERT INTO "Z_1FRIENDS" ("Z_1PALS", "Z_2FRIENDS") VALUES (1, 2), (2, 1);
                    UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 2 WHERE "Z_ENT" IN (1, 2);
                    """#)
        }
        // As Core Data: refused, nothing written, and the reason says how to go further.
        let refused = runTool(["migrate", pets, store])
        #expect(refused.code == .modelError, "\(refused.out)\(refused.err)")
        #expect(refused.out.contains("Core Data's inferred mapping refuses to merge hierarchies"), "\(refused.out)")
        #expect(refused.out.contains("--merge-hierarchies"))
        let untouched = try Database(path: store)
        #expect(try untouched.fetchOne(sql: #"SELECT COUNT(*) FROM "ZCAT""#)?.first?.integerValue == 2)

        let run = runTool(["migrate", pets, store, "--merge-hierarchies"])
        #expect(run.code == .success, "\(run.out)\(run.err)")
        #expect(run.out.contains("beyond Core Data: Cat, Dog:"))
        let db = try Database(path: store)
        let rows = { (sql: String) in
            try db.fetchAll(sql: sql).map { $0.map { $0.integerValue.map(String.init) ?? $0.textValue ?? "nil" } }
        }
        #expect(
            try rows(#"SELECT "Z_PK", "Z_ENT", "ZNAME", "ZRIVAL" FROM "ZANIMAL" ORDER BY "Z_PK""#) == [
                ["1", "2", "Tom", "4"], ["2", "2", "Kit", "3"], ["3", "3", "Rex", "nil"], ["4", "3", "Fido", "nil"],
            ])
        #expect(
            try rows(#"SELECT "Z_2PALS", "Z_3FRIENDS" FROM "Z_2FRIENDS" ORDER BY 1"#) == [["1", "4"], ["2", "3"]])
        #expect(try rows(#"SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = 'Animal'"#) == [["4"]])
    }

    /// An attribute's `indexed` flag is not part of a version: a store of the model's version that lacks the index of
    /// an indexed attribute (written by a version without the flag) gets it from `migrate`, reported as a step; other
    /// indexes the store has are left alone.
    @Test func aMissingAttributeIndexIsCreated() throws {
        let model = Paths.repositoryRoot.appendingPathComponent("Models/ReservedNames.xcdatamodeld").path
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let schema = runTool(["schema", model])
        #expect(schema.code == .success)
        let db = try Database(path: store)
        try db.execute(sql: schema.out)
        try db.execute(sql: #"DROP INDEX "ZDATA_ZCHECKSUM_INDEX"; CREATE INDEX "MY_OWN" ON "ZDATA" ("ZCHECKSUM")"#)
        let indexes = {
            try Database(path: store).fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY 1")
                .compactMap { $0.first?.textValue }
        }
        #expect(try !indexes().contains("ZDATA_ZCHECKSUM_INDEX"))

        let dry = runTool(["migrate", model, store, "--dry-run", "--format", "json"])
        #expect(dry.code == .success, "\(dry.err)")
        let report = try JSONSerialization.jsonObject(with: Data(dry.out.utf8)) as? [String: Any]
        #expect(
            (report?["sql"] as? [String]) == [
                #"CREATE INDEX IF NOT EXISTS "ZDATA_ZCHECKSUM_INDEX" ON "ZDATA" ("ZCHECKSUM")"#
            ]
        )
        #expect((report?["steps"] as? [String]) == ["create index ZDATA_ZCHECKSUM_INDEX (the store lacks it)"])
        #expect(try !indexes().contains("ZDATA_ZCHECKSUM_INDEX"), "a dry run writes nothing")

        let run = runTool(["migrate", model, store])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.contains("migrated"))
        #expect(try indexes().contains("ZDATA_ZCHECKSUM_INDEX"))
        #expect(try indexes().contains("MY_OWN"))
        #expect(runTool(["migrate", model, store]).out.contains("up to date"))
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
