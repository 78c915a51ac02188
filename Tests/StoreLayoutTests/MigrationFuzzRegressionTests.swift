import DataModelStoreLayout
import SQLiteKit
import Testing

/// Migrations `fuzz-migration` (Fuzz/) found wrong, each reduced to a small model pair.
extension MigrationPlanTests {
    static func number(_ layout: StoreLayout, _ name: String) throws -> Int {
        try #require(layout.entity(named: name)).number
    }

    static func foreignKey(_ layout: StoreLayout, _ entity: String, _ relationship: String) throws -> ForeignKeyColumns
    {
        let found = try #require(layout.entity(named: entity)?.relationship(named: relationship))
        guard case .foreignKey(let columns) = found.storage else { throw StoreLayoutError.duplicateEntity(entity) }
        return columns
    }

    /// A sub-entity made a root leaves its old parent's table and hierarchy: the join rows and to-one keys that
    /// reached its rows through the parent's relationships are cleared, not left pointing at nothing (they were
    /// kept, because no entity was removed).
    @Test func rowsLeavingAHierarchyLeaveItsRelationships() throws {
        func model(gadgetParent: String?) -> LayoutModel {
            LayoutModel(entities: [
                entity(
                    "Thing", attributes: [attribute("name")],
                    relationships: [toMany("tags", "Tag", inverse: "things")]),
                entity("Gadget", parent: gadgetParent, attributes: [attribute("power", .integer32)]),
                entity("Tag", relationships: [toMany("things", "Thing", inverse: "tags")]),
                entity("Note", relationships: [toOne("thing", "Thing")]),
            ])
        }
        let old = model(gadgetParent: "Thing")
        let new = model(gadgetParent: nil)
        let layout = try StoreLayout(model: old)
        let db = try Self.store(old)
        let thing = try Self.number(layout, "Thing")
        let gadget = try Self.number(layout, "Gadget")
        let join = try #require(layout.joinTables.first)
        let thingColumn = join.ownerRelationshipName == "tags" ? join.sourceColumn : join.destinationColumn
        let tagColumn = join.ownerRelationshipName == "tags" ? join.destinationColumn : join.sourceColumn
        let noteThing = try Self.foreignKey(layout, "Note", "thing").column
        try db.execute(
            sql: """
                INSERT INTO ZTHING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(thing), 1, 'plain');
                INSERT INTO ZTHING (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPOWER) VALUES (2, \(gadget), 1, 'gadget', 9);
                INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT) VALUES (1, \(try Self.number(layout, "Tag")), 1);
                INSERT INTO \(join.name) (\(thingColumn), \(tagColumn)) VALUES (1, 1), (2, 1);
                INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, \(noteThing)) VALUES (1, \(try Self.number(layout, "Note")), 1, 2);
                INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, \(noteThing)) VALUES (2, \(try Self.number(layout, "Note")), 1, 1);
                """)
        _ = try Self.migrate(db, from: old, to: new, golden: "sub-entity-leaves-hierarchy")
        let newLayout = try StoreLayout(model: new)
        let newJoin = try #require(newLayout.joinTables.first)
        let newThingColumn = newJoin.ownerRelationshipName == "tags" ? newJoin.sourceColumn : newJoin.destinationColumn
        #expect(try Self.rows(db, "SELECT \(newThingColumn) FROM \(newJoin.name)") == ["1"])
        let newNoteThing = try Self.foreignKey(newLayout, "Note", "thing").column
        #expect(try Self.rows(db, "SELECT Z_PK, \(newNoteThing) FROM ZNOTE ORDER BY Z_PK") == ["1|nil", "2|1"])
        #expect(try Self.rows(db, "SELECT Z_PK, ZPOWER FROM ZGADGET") == ["2|9"])
        #expect(try Self.rows(db, "SELECT Z_PK, ZNAME FROM ZTHING") == ["1|plain"])
    }

    /// A to-many becoming a to-one to a destination with sub-entities keeps the lowest key, and its entity column
    /// (`Z<n>_…`) names that row's own entity, not the destination's.
    @Test func aToManyBecomingToOneNamesTheRowsOwnEntity() throws {
        func model(toMany many: Bool) -> LayoutModel {
            LayoutModel(entities: [
                entity("Owner", relationships: [many ? toMany("items", "Item") : toOne("items", "Item")]),
                entity("Item", attributes: [attribute("title")]),
                entity("Book", parent: "Item", attributes: [attribute("pages", .integer32)]),
            ])
        }
        let old = model(toMany: true)
        let new = model(toMany: false)
        let layout = try StoreLayout(model: old)
        let db = try Self.store(old)
        let join = try #require(layout.joinTables.first)
        try db.execute(
            sql: """
                INSERT INTO ZOWNER (Z_PK, Z_ENT, Z_OPT) VALUES (1, \(try Self.number(layout, "Owner")), 1);
                INSERT INTO ZOWNER (Z_PK, Z_ENT, Z_OPT) VALUES (2, \(try Self.number(layout, "Owner")), 1);
                INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (1, \(try Self.number(layout, "Item")), 1, 'item');
                INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (2, \(try Self.number(layout, "Book")), 1, 'book');
                INSERT INTO \(join.name) (\(join.sourceColumn), \(join.destinationColumn)) VALUES (1, 2), (2, 2), (2, 1);
                """)
        _ = try Self.migrate(db, from: old, to: new, golden: "to-many-becomes-to-one-sub-entity")
        let newLayout = try StoreLayout(model: new)
        let columns = try Self.foreignKey(newLayout, "Owner", "items")
        let entityColumn = try #require(columns.entityColumn)
        #expect(
            try Self.rows(db, "SELECT Z_PK, \(columns.column), \(entityColumn) FROM ZOWNER ORDER BY Z_PK") == [
                "1|2|\(try Self.number(newLayout, "Book"))", "2|1|\(try Self.number(newLayout, "Item"))",
            ])
    }

    /// An attribute made non-optional with a default, and nothing else that changes the layout: its empty values get
    /// the default (the plan was empty, since the two layouts are equal, and the NULLs stayed).
    @Test func madeRequiredWithADefaultFillsEmptyValuesWhenTheLayoutIsUnchanged() throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        try db.execute(sql: #"UPDATE "ZPERSON" SET "ZNAME" = NULL WHERE "Z_PK" = 2"#)
        var new = Self.people
        new.entities[0].attributes[0] = LayoutAttribute(
            name: "name", type: .string, isOptional: false, defaultValue: .string("nobody"))
        #expect(try StoreLayout(model: new) == StoreLayout(model: Self.people))
        let plan = try Self.migrate(db, from: Self.people, to: new, golden: "made-required-same-layout")
        #expect(!plan.isEmpty)
        #expect(try Self.rows(db, "SELECT Z_PK, ZNAME FROM ZPERSON ORDER BY Z_PK") == ["1|Ann", "2|nobody"])
    }

    /// A parent entity renamed without a renaming identifier is a new entity, but its sub-entity still maps: the
    /// many-to-many it inherits keeps the sub-entity's pairs (the join table was filled only from a mapped owner).
    @Test func aSubEntityKeepsTheManyToManyItInheritsFromANewParent() throws {
        func model(parent: String) -> LayoutModel {
            LayoutModel(entities: [
                entity(parent, abstract: true, relationships: [toMany("tags", "Tag", inverse: "bases")]),
                entity("Leaf", parent: parent, attributes: [attribute("name")]),
                entity("Tag", relationships: [toMany("bases", parent, inverse: "tags")]),
            ])
        }
        let old = model(parent: "Base")
        let new = model(parent: "Root")
        let layout = try StoreLayout(model: old)
        let db = try Self.store(old)
        let join = try #require(layout.joinTables.first)
        let baseColumn = join.ownerRelationshipName == "tags" ? join.sourceColumn : join.destinationColumn
        let tagColumn = join.ownerRelationshipName == "tags" ? join.destinationColumn : join.sourceColumn
        try db.execute(
            sql: """
                INSERT INTO ZBASE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(try Self.number(layout, "Leaf")), 1, 'leaf');
                INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT) VALUES (1, \(try Self.number(layout, "Tag")), 1);
                INSERT INTO \(join.name) (\(baseColumn), \(tagColumn)) VALUES (1, 1);
                """)
        _ = try Self.migrate(db, from: old, to: new, golden: "sub-entity-keeps-inherited-many-to-many")
        let newJoin = try #require(try StoreLayout(model: new).joinTables.first)
        #expect(
            try Self.rows(db, "SELECT \(newJoin.sourceColumn), \(newJoin.destinationColumn) FROM \(newJoin.name)") == [
                "1|1"
            ])
        #expect(try Self.rows(db, "SELECT Z_PK, ZNAME FROM ZROOT") == ["1|leaf"])
    }

    /// A rebuild that leaves a table as it is (another table changes) still fills the empty values of an attribute
    /// of that table made non-optional with a default (only copied rows got the default).
    @Test func aKeptTableGetsTheDefaultOfAnAttributeMadeRequired() throws {
        let db = try Self.store(Self.people)
        try Self.fillPeople(db)
        try db.execute(sql: #"UPDATE "ZPERSON" SET "ZNAME" = NULL WHERE "Z_PK" = 2"#)
        var new = Self.people
        new.entities[0].attributes[0] = LayoutAttribute(
            name: "name", type: .string, isOptional: false, defaultValue: .string("nobody"))
        new.entities[1].attributes.removeAll()
        let plan = try Self.migrate(db, from: Self.people, to: new, golden: "kept-table-made-required")
        #expect(plan.statements.contains { $0.contains("RENAME TO") })
        #expect(try Self.rows(db, "SELECT Z_PK, ZNAME FROM ZPERSON ORDER BY Z_PK") == ["1|Ann", "2|nobody"])
    }
}
