import DataModelStoreLayout
import Foundation
import SQLiteKit
import Testing

/// Migrations run on real SQLite stores: a store laid out for the old model, filled, migrated with the plan's
/// statements in one transaction, then read back through the new layout.
@Suite("Migration plans")
struct MigrationPlanTests {
    /// A store of `model` with its schema and `Z_PRIMARYKEY` rows.
    static func store(_ model: LayoutModel) throws -> Database {
        let db = try Database()
        let layout = try StoreLayout(model: model)
        for sql in layout.ddlStatements() + layout.primaryKeyRowStatements() { try db.execute(sql: sql) }
        return db
    }

    /// `Tests/StoreLayoutTests/Golden/Migration`: each case's plan (steps and SQL), compared byte for byte;
    /// `Scripts/update-golden.sh` rewrites them (it runs these tests with `UPDATE_GOLDEN=1`).
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/Migration")

    static func expectGolden(_ plan: MigrationPlan, _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let text =
            plan.steps.map { "-- \($0)\n" }.joined() + plan.blockers.map { "-- not inferable: \($0)\n" }.joined()
            + plan.statements.map { $0 + ";\n" }.joined()
        let url = golden.appendingPathComponent(name + ".sql")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOf: url, encoding: .utf8)
        #expect(
            text == expected,
            "the plan differs from \(url.lastPathComponent); if intended, run Scripts/update-golden.sh",
            sourceLocation: sourceLocation)
    }

    static func migrate(
        _ db: Database, from old: LayoutModel, to new: LayoutModel, golden name: String,
        mergingHierarchies: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> MigrationPlan {
        let plan = try MigrationPlan(from: old, to: new, mergingHierarchies: mergingHierarchies)
        try expectGolden(plan, name, sourceLocation: sourceLocation)
        #expect(plan.isInferable, "\(plan.blockers)")
        try db.transaction { for sql in plan.statements { try db.execute(sql: sql) } }
        // The migrated store has the new layout's tables (every column with its type; an added column comes last)
        // and exactly its indexes.
        let layout = try StoreLayout(model: new)
        for table in layout.tables {
            let columns = try db.fetchAll(sql: "PRAGMA table_info(\"\(table.name)\")")
                .map { "\($0[1].textValue ?? "") \($0[2].textValue ?? "")" }
            #expect(
                columns.sorted() == table.columns.map { "\($0.name) \($0.type.rawValue)" }.sorted(), "\(table.name)")
        }
        let tables = try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0.first?.textValue }
        #expect(tables == layout.tables.map(\.name).sorted())
        let indexes = try db.fetchAll(
            sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        ).compactMap { $0.first?.textValue }
        #expect(indexes == layout.indexes.map(\.name).sorted())
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        return plan
    }

    static func rows(_ db: Database, _ sql: String) throws -> [String] {
        try db.fetchAll(sql: sql).map { row in
            row.map { $0.integerValue.map(String.init) ?? $0.textValue ?? "nil" }.joined(separator: "|")
        }
    }

    static let people = LayoutModel(entities: [
        entity(
            "Person", attributes: [attribute("name"), attribute("age", .integer16)],
            relationships: [toMany("pets", "Pet", inverse: "owner", ordered: true)]),
        entity("Pet", attributes: [attribute("name")], relationships: [toOne("owner", "Person", inverse: "pets")]),
    ])

    static func fillPeople(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO "ZPERSON" (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAGE) VALUES (1, 1, 3, 'Ann', 40);
                INSERT INTO "ZPERSON" (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAGE) VALUES (2, 1, 1, 'Bob', 7);
                INSERT INTO "ZPET" (Z_PK, Z_ENT, Z_OPT, ZOWNER, Z_FOK_OWNER, ZNAME) VALUES (1, 2, 1, 1, 2, 'Rex');
                INSERT INTO "ZPET" (Z_PK, Z_ENT, Z_OPT, ZOWNER, Z_FOK_OWNER, ZNAME) VALUES (2, 2, 1, 1, 1, 'Tom');
                INSERT INTO "ZPET" (Z_PK, Z_ENT, Z_OPT, ZOWNER, Z_FOK_OWNER, ZNAME) VALUES (3, 2, 1, 2, 1, 'Kit');
                UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 2 WHERE "Z_ENT" = 1;
                UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 3 WHERE "Z_ENT" = 2;
                """)
    }

    @Test func anAddedOptionalAttributeIsAnAddedColumn() throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        var new = Self.people
        new.entities[0].attributes.append(attribute("email"))
        let plan = try Self.migrate(db, from: Self.people, to: new, golden: "added-column")
        #expect(plan.statements.first == #"ALTER TABLE "ZPERSON" ADD COLUMN "ZEMAIL" VARCHAR"#)
        #expect(!plan.statements.contains { $0.hasPrefix("INSERT INTO \"ZPERSON\"") })
        #expect(
            try Self.rows(db, #"SELECT Z_PK, ZNAME, ZAGE, ZEMAIL FROM ZPERSON"#) == ["1|Ann|40|nil", "2|Bob|7|nil"])
        #expect(try Self.rows(db, #"SELECT * FROM Z_PRIMARYKEY"#) == ["1|Person|0|2", "2|Pet|0|3"])
    }

    /// Renaming `Person` to `Agent` (renaming identifier `Person`) and adding `Zoo`, whose name sorts last; then
    /// adding `Animal` (sorts first): every entity number moves, and the rows, keys, positions and `Z_OPT` follow.
    @Test func renamesAndRenumberingKeepEveryRow() throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        let new = LayoutModel(entities: [
            entity("Aardvark", attributes: [attribute("name")]),
            LayoutEntity(
                name: "Agent",
                attributes: [
                    LayoutAttribute(name: "fullName", type: .string, renamingIdentifier: "name"),
                    attribute("age", .integer32),
                ],
                relationships: [toMany("pets", "Pet", inverse: "owner", ordered: true)], renamingIdentifier: "Person"),
            entity("Pet", attributes: [attribute("name")], relationships: [toOne("owner", "Agent", inverse: "pets")]),
        ])
        let plan = try Self.migrate(db, from: Self.people, to: new, golden: "rename-and-renumber")
        #expect(plan.steps.contains("copy Person rows into Agent (renamed)"))
        #expect(
            try Self.rows(db, #"SELECT Z_PK, Z_ENT, Z_OPT, ZFULLNAME, ZAGE FROM ZAGENT"#) == [
                "1|2|3|Ann|40", "2|2|1|Bob|7",
            ])
        #expect(
            try Self.rows(db, #"SELECT Z_PK, Z_ENT, ZOWNER, Z_FOK_OWNER, ZNAME FROM ZPET ORDER BY Z_PK"#) == [
                "1|3|1|2|Rex", "2|3|1|1|Tom", "3|3|2|1|Kit",
            ])
        #expect(try Self.rows(db, #"SELECT * FROM Z_PRIMARYKEY"#) == ["1|Aardvark|0|0", "2|Agent|0|2", "3|Pet|0|3"])
    }

    /// A to-one becoming a to-many turns a one-to-many into a many-to-many: the keys move into a join table.
    @Test func toOneBecomingToManyFillsAJoinTable() throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        let new = LayoutModel(entities: [
            entity(
                "Person", attributes: [attribute("name"), attribute("age", .integer16)],
                relationships: [toMany("pets", "Pet", inverse: "owners")]),
            entity(
                "Pet", attributes: [attribute("name")],
                relationships: [
                    LayoutRelationship(
                        name: "owners", destinationName: "Person", inverseName: "pets", isToMany: true,
                        renamingIdentifier: "owner")
                ]),
        ])
        _ = try Self.migrate(db, from: Self.people, to: new, golden: "to-one-becomes-to-many")
        let join = try #require(try StoreLayout(model: new).joinTables.first)
        #expect(
            try Self.rows(
                db,
                "SELECT \(join.sourceColumn), \(join.destinationColumn) FROM \(join.name) ORDER BY 1, 2"
            )
            .sorted() == (join.ownerRelationshipName == "pets" ? ["1|1", "1|2", "2|3"] : ["1|1", "2|1", "3|2"]))
        #expect(try Self.rows(db, "SELECT Z_PK, ZNAME FROM ZPET") == ["1|Rex", "2|Tom", "3|Kit"])
    }

    @Test func removedEntityAndAttributeLeaveNoDanglingReferences() throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        let new = LayoutModel(entities: [entity("Pet", attributes: [attribute("name")])])
        let plan = try Self.migrate(db, from: Self.people, to: new, golden: "removed-entity")
        #expect(plan.steps.first == "drop Person rows (entity removed)")
        #expect(try Self.rows(db, "SELECT Z_PK, Z_ENT, ZNAME FROM ZPET") == ["1|1|Rex", "2|1|Tom", "3|1|Kit"])
        #expect(try Self.rows(db, "SELECT * FROM Z_PRIMARYKEY") == ["1|Pet|0|3"])
    }

    @Test func changesCoreDataCannotInferAreRefusedWithAReason() throws {
        var new = Self.people
        new.entities[0].attributes[1] = LayoutAttribute(name: "age", type: .string)
        new.entities[1].attributes.append(LayoutAttribute(name: "tag", type: .string, isOptional: false))
        let plan = try MigrationPlan(from: Self.people, to: new)
        try Self.expectGolden(plan, "refused")
        #expect(!plan.isInferable)
        #expect(plan.statements.isEmpty)
        #expect(
            plan.blockers == [
                "Person.age: attribute type changed from Integer 16 to String, which needs a mapping model",
                "Pet.tag: non-optional attribute added without a default value",
            ])
    }

    /// A new attribute with a default, and an optional one made non-optional with a default, get the default in
    /// existing rows (where they are empty), on the additive path and in a rebuild alike.
    @Test(arguments: [false, true])
    func defaultsFillExistingRows(rebuild: Bool) throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        try db.execute(sql: #"UPDATE "ZPERSON" SET "ZAGE" = NULL WHERE "Z_PK" = 2"#)
        var new = Self.people
        new.entities[0].attributes[1] = LayoutAttribute(
            name: "age", type: .integer16, isOptional: false, defaultValue: .integer(18))
        new.entities[0].attributes.append(
            LayoutAttribute(name: "score", type: .double, isOptional: false, defaultValue: .double(2.5)))
        if rebuild { new.entities[1].attributes.removeAll() }
        let plan = try Self.migrate(
            db, from: Self.people, to: new, golden: rebuild ? "defaults-rebuild" : "defaults-additive")
        #expect(plan.statements.contains { $0.contains("RENAME TO") } == rebuild)
        #expect(
            try Self.rows(db, #"SELECT Z_PK, ZAGE, CAST(ZSCORE AS TEXT) FROM ZPERSON ORDER BY Z_PK"#) == [
                "1|40|2.5", "2|18|2.5",
            ])
    }

    /// An attribute that was non-optional with a default already, and stays so, has no empty values to fill: the
    /// plan has no `UPDATE` of it (on a large table, a scan in the migration's transaction for nothing), on the
    /// additive path (another entity gains a column) and in a rebuild (another entity loses one) alike.
    @Test(arguments: [false, true])
    func anUnchangedNonOptionalAttributeIsNotFilled(rebuild: Bool) throws {
        var old = Self.people
        old.entities[0].attributes[1] = LayoutAttribute(
            name: "age", type: .integer16, isOptional: false, defaultValue: .integer(18))
        let db = try Self.store(old)
        try Self.fillPeople(db)
        var new = old
        if rebuild {
            new.entities[1].attributes.removeAll()
        } else {
            new.entities[1].attributes.append(attribute("breed"))
        }
        let plan = try MigrationPlan(from: old, to: new)
        #expect(plan.isInferable && !plan.isEmpty)
        #expect(plan.statements.contains { $0.contains("RENAME TO") } == rebuild)
        #expect(!plan.steps.contains { $0.contains("Person.age") }, "\(plan.steps)")
        #expect(!plan.statements.contains { $0.contains(#"SET "ZAGE""#) }, "\(plan.statements)")
        try db.transaction { for sql in plan.statements { try db.execute(sql: sql) } }
        #expect(try Self.rows(db, #"SELECT Z_PK, ZAGE FROM ZPERSON ORDER BY Z_PK"#) == ["1|40", "2|7"])
    }

    @Test func equalModelsNeedNothing() throws {
        #expect(try MigrationPlan(from: Self.people, to: Self.people).isEmpty)
    }
}

/// Entities of separate hierarchies moved into one: two roots under a new common parent, and a root under another
/// root. Their old tables' keys overlap, so the second table's keys move above the first's, and every reference
/// follows.
@Suite("Migration plans: hierarchies merged into one table")
struct MergedHierarchyMigrationPlanTests {
    typealias Plans = MigrationPlanTests

    /// Cats and dogs, each a root (tables `ZCAT`, `ZDOG`), with relationships into, out of and between them: an
    /// ordered one-to-many (`Cat.toys`), a one-to-many between them (`Cat.rival`), a many-to-many between them
    /// (`Cat.friends` / `Dog.pals`), to-ones without inverse from them (`Dog.chases`) and to them (`Toy.dog`,
    /// `Zoo.star`), and a table that refers to neither (`Yard`).
    static let pets = LayoutModel(entities: [
        entity(
            "Cat", attributes: [attribute("name"), attribute("lives", .integer16)],
            relationships: [
                toMany("toys", "Toy", inverse: "cat", ordered: true), toOne("rival", "Dog", inverse: "rivalOf"),
                toMany("friends", "Dog", inverse: "pals"),
            ]),
        dog(parent: nil, attributes: [attribute("name"), attribute("weight", .double)]),
        entity(
            "Toy", attributes: [attribute("label")],
            relationships: [toOne("cat", "Cat", inverse: "toys"), toOne("dog", "Dog")]),
        entity("Yard", attributes: [attribute("size", .integer32)], relationships: [toOne("toy", "Toy")]),
        entity("Zoo", attributes: [attribute("city")], relationships: [toOne("star", "Cat")]),
    ])

    static func dog(parent: String?, attributes: [LayoutAttribute]) -> LayoutEntity {
        entity(
            "Dog", parent: parent, attributes: attributes,
            relationships: [
                toMany("rivalOf", "Cat", inverse: "rival"), toMany("pals", "Cat", inverse: "friends"),
                toOne("chases", "Cat"),
            ])
    }

    /// Cats 1–3, dogs 1–2 (overlapping keys); cats' `Z_MAX` is 5, above their largest key.
    static func fill(_ db: Database) throws {
        let join = try #require(try StoreLayout(model: pets).joinTables.first)
        let (catColumn, dogColumn) =
            join.ownerRelationshipName == "friends"
            ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
        try db.execute(
            sql: """
                INSERT INTO ZCAT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLIVES, ZRIVAL) VALUES (1, 1, 4, 'Tom', 9, 2);
                INSERT INTO ZCAT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLIVES, ZRIVAL) VALUES (2, 1, 1, 'Kit', 7, NULL);
                INSERT INTO ZCAT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZLIVES, ZRIVAL) VALUES (3, 1, 1, 'Max', 3, 1);
                INSERT INTO ZDOG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZWEIGHT, ZCHASES) VALUES (1, 2, 2, 'Rex', 30.5, 3);
                INSERT INTO ZDOG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZWEIGHT, ZCHASES) VALUES (2, 2, 1, 'Fido', 12.25, 1);
                INSERT INTO ZTOY (Z_PK, Z_ENT, Z_OPT, ZLABEL, ZCAT, Z_FOK_CAT, ZDOG) VALUES (1, 3, 1, 'ball', 1, 2, 2);
                INSERT INTO ZTOY (Z_PK, Z_ENT, Z_OPT, ZLABEL, ZCAT, Z_FOK_CAT, ZDOG) VALUES (2, 3, 1, 'yarn', 1, 1, NULL);
                INSERT INTO ZTOY (Z_PK, Z_ENT, Z_OPT, ZLABEL, ZCAT, Z_FOK_CAT, ZDOG) VALUES (3, 3, 1, 'bone', NULL, NULL, 1);
                INSERT INTO ZYARD (Z_PK, Z_ENT, Z_OPT, ZSIZE, ZTOY) VALUES (1, 4, 1, 80, 3);
                INSERT INTO ZZOO (Z_PK, Z_ENT, Z_OPT, ZCITY, ZSTAR) VALUES (1, 5, 1, 'Rome', 3);
                INSERT INTO "\(join.name)" ("\(catColumn)", "\(dogColumn)") VALUES (1, 1), (2, 1), (3, 2);
                UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_ENT = 1;
                UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = 2;
                UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 3;
                UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_ENT IN (4, 5);
                """)
    }

    /// The (cat, dog) pairs of the friendship join table of `model`'s store.
    static func friendships(_ db: Database, _ model: LayoutModel) throws -> [String] {
        let join = try #require(try StoreLayout(model: model).joinTables.first)
        let (cat, dog) =
            join.ownerRelationshipName == "friends"
            ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
        return try Plans.rows(db, "SELECT \"\(cat)\", \"\(dog)\" FROM \"\(join.name)\" ORDER BY 1, 2")
    }

    /// The references every case checks: to-ones into, out of and between cats and dogs, positions, the join table.
    static func expectReferences(_ db: Database, _ model: LayoutModel, table: String) throws {
        #expect(
            try Plans.rows(db, "SELECT Z_PK, ZRIVAL FROM \(table) WHERE ZLIVES IS NOT NULL ORDER BY Z_PK") == [
                "1|7", "2|nil", "3|6",
            ])
        #expect(
            try Plans.rows(db, "SELECT ZNAME, ZCHASES FROM \(table) WHERE ZWEIGHT IS NOT NULL ORDER BY Z_PK") == [
                "Rex|3", "Fido|1",
            ])
        #expect(
            try Plans.rows(db, "SELECT Z_PK, ZLABEL, ZCAT, Z_FOK_CAT, ZDOG FROM ZTOY ORDER BY Z_PK") == [
                "1|ball|1|2|7", "2|yarn|1|1|nil", "3|bone|nil|nil|6",
            ])
        #expect(try friendships(db, model) == ["1|6", "2|6", "3|7"])
        #expect(try Plans.rows(db, "SELECT ZSTAR FROM ZZOO") == ["3"])
        #expect(try Plans.rows(db, "SELECT ZSIZE, ZTOY FROM ZYARD") == ["80|3"])
    }

    /// `Animal` (new, sorts first) becomes the parent of `Cat` and `Dog` and takes `name` up: every entity number
    /// moves, both tables become `ZANIMAL`; cats keep keys 1–3, dogs get 6 and 7 (above the cats' `Z_MAX` of 5).
    @Test func twoRootsUnderANewParent() throws {
        let db = try Plans.store(Self.pets)
        try Self.fill(db)
        var entities = Self.pets.entities
        entities[0] = LayoutEntity(
            name: "Cat", parentName: "Animal", attributes: [attribute("lives", .integer16)],
            relationships: entities[0].relationships)
        entities[1] = Self.dog(parent: "Animal", attributes: [attribute("weight", .double)])
        let new = LayoutModel(entities: [entity("Animal", attributes: [attribute("name")])] + entities)
        let plan = try Plans.migrate(
            db, from: Self.pets, to: new, golden: "merged-under-new-parent", mergingHierarchies: true)
        #expect(
            plan.steps.contains {
                $0.hasPrefix("merge ZCAT, ZDOG into ZANIMAL: ZCAT rows keep their keys; ZDOG keys move above them")
            })
        #expect(plan.beyondCoreData.count == 1)
        #expect(
            plan.beyondCoreData.first?.hasPrefix("Cat, Dog: entities of separate hierarchies (tables ZCAT, ZDOG)")
                == true)
        #expect(
            try Plans.rows(
                db, "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZLIVES, CAST(ZWEIGHT AS TEXT) FROM ZANIMAL ORDER BY Z_PK")
                == [
                    "1|2|4|Tom|9|nil", "2|2|1|Kit|7|nil", "3|2|1|Max|3|nil", "6|3|2|Rex|nil|30.5",
                    "7|3|1|Fido|nil|12.25",
                ])
        try Self.expectReferences(db, new, table: "ZANIMAL")
        #expect(
            try Plans.rows(db, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                "1|Animal|0|7", "2|Cat|1|5", "3|Dog|1|2", "4|Toy|0|3", "5|Yard|0|1", "6|Zoo|0|1",
            ])
        #expect(try db.fetchAll(sql: "SELECT name FROM sqlite_temp_master").isEmpty)
    }

    /// `Dog` moves under `Cat` (an existing root): `ZDOG` merges into `ZCAT`, whose rows keep their keys; `Yard`,
    /// which refers to neither, stays as it is, while `Zoo` (its star now has sub-entities) and `Toy` are rebuilt.
    @Test func aRootUnderAnotherRoot() throws {
        let db = try Plans.store(Self.pets)
        try Self.fill(db)
        var entities = Self.pets.entities
        entities[1] = Self.dog(parent: "Cat", attributes: [attribute("weight", .double)])
        let new = LayoutModel(entities: entities)
        let plan = try Plans.migrate(
            db, from: Self.pets, to: new, golden: "merged-under-existing-root", mergingHierarchies: true)
        #expect(plan.steps.contains { $0.hasSuffix("(ZYARD stay as they are)") })
        #expect(plan.steps.contains { $0.hasPrefix("merge ZCAT, ZDOG into ZCAT: ZCAT rows keep their keys") })
        #expect(
            try Plans.rows(
                db, "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZLIVES, CAST(ZWEIGHT AS TEXT) FROM ZCAT ORDER BY Z_PK")
                == [
                    "1|1|4|Tom|9|nil", "2|1|1|Kit|7|nil", "3|1|1|Max|3|nil", "6|2|2|Rex|nil|30.5",
                    "7|2|1|Fido|nil|12.25",
                ])
        try Self.expectReferences(db, new, table: "ZCAT")
        #expect(try Plans.rows(db, "SELECT Z1_STAR FROM ZZOO") == ["1"])
        #expect(try Plans.rows(db, "SELECT Z_PK, Z1_CAT FROM ZTOY ORDER BY Z_PK") == ["1|1", "2|1", "3|nil"])
        #expect(
            try Plans.rows(db, "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                "1|Cat|0|7", "2|Dog|1|2", "3|Toy|0|3", "4|Yard|0|1", "5|Zoo|0|1",
            ])
    }

    /// Three roots under one new parent: each table's keys move above all earlier ones'; and a root that sorts first
    /// moved under one that sorts later: the table whose root stays a root keeps its keys.
    @Test func threeRootsAndTheTableThatStaysARootFirst() throws {
        let three = LayoutModel(entities: ["Ant", "Bee", "Cow"].map { entity($0, attributes: [attribute("name")]) })
        let db = try Plans.store(three)
        try db.execute(
            sql: """
                INSERT INTO ZANT (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'a1'), (2, 1, 1, 'a2');
                INSERT INTO ZBEE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 2, 1, 'b1'), (3, 2, 1, 'b3');
                INSERT INTO ZCOW (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (2, 3, 1, 'c2');
                UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 2;
                """)
        let merged = LayoutModel(
            entities: [entity("Zoo", attributes: [attribute("name")])]
                + ["Ant", "Bee", "Cow"].map { entity($0, parent: "Zoo") })
        // Core Data refuses to merge hierarchies, and so does a plan not asked to.
        let refused = try MigrationPlan(from: three, to: merged)
        #expect(!refused.isInferable && refused.statements.isEmpty)
        #expect(
            refused.blockers.count == 1
                && refused.blockers
                    == refused.beyondCoreData.map {
                        $0 + " (datamodelgen migrate --merge-hierarchies migrates such a store)"
                    }
        )
        let plan = try MigrationPlan(from: three, to: merged, mergingHierarchies: true)
        #expect(plan.isInferable, "\(plan.blockers)")
        try db.transaction { for sql in plan.statements { try db.execute(sql: sql) } }
        #expect(
            try Plans.rows(db, "SELECT Z_PK, ZNAME FROM ZZOO ORDER BY Z_PK") == [
                "1|a1", "2|a2", "3|b1", "5|b3", "7|c2",
            ])
        #expect(try Plans.rows(db, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Zoo'") == ["7"])

        let pair = LayoutModel(entities: ["Ant", "Cow"].map { entity($0, attributes: [attribute("name")]) })
        let other = try Plans.store(pair)
        try other.execute(
            sql: """
                INSERT INTO ZANT (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'a1');
                INSERT INTO ZCOW (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 2, 1, 'c1'), (2, 2, 1, 'c2');
                """)
        let antUnderCow = LayoutModel(entities: [
            entity("Ant", parent: "Cow"), entity("Cow", attributes: [attribute("name")]),
        ])
        let second = try MigrationPlan(from: pair, to: antUnderCow, mergingHierarchies: true)
        try other.transaction { for sql in second.statements { try other.execute(sql: sql) } }
        #expect(try Plans.rows(other, "SELECT Z_PK, ZNAME FROM ZCOW ORDER BY Z_PK") == ["1|c1", "2|c2", "3|a1"])
    }

    /// The keys move above the other table's largest key when it exceeds its `Z_MAX` (rows another tool wrote
    /// without updating it), and above its `Z_MAX` otherwise (tested above).
    @Test func keysMoveAboveTheLargestKeyWhenZMaxIsBehind() throws {
        let db = try Plans.store(Self.pets)
        try Self.fill(db)
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 0")
        var entities = Self.pets.entities
        entities[1] = Self.dog(parent: "Cat", attributes: [attribute("weight", .double)])
        let plan = try MigrationPlan(from: Self.pets, to: LayoutModel(entities: entities), mergingHierarchies: true)
        try db.transaction { for sql in plan.statements { try db.execute(sql: sql) } }
        #expect(try Plans.rows(db, "SELECT Z_PK FROM ZCAT ORDER BY Z_PK") == ["1", "2", "3", "4", "5"])
        #expect(try Plans.rows(db, "SELECT ZRIVAL FROM ZCAT WHERE Z_ENT = 1 ORDER BY Z_PK") == ["5", "nil", "4"])
        #expect(try Plans.rows(db, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == ["5"])
    }
}
