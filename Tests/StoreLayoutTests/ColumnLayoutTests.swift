import DataModelStoreLayout
import Testing

@Suite("Columns")
struct ColumnLayoutTests {
    @Test func everyAttributeTypeHasItsColumnTypeAndGroup() throws {
        let types: [(String, AttributeType)] = [
            ("aInt16", .integer16), ("bInt32", .integer32), ("cInt64", .integer64), ("dDecimal", .decimal),
            ("eDouble", .double), ("fFloat", .float), ("gString", .string), ("hBoolean", .boolean),
            ("iDate", .date), ("jBinary", .binary), ("kUUID", .uuid), ("lURI", .uri),
            ("mTransformable", .transformable), ("nObjectID", .objectID), ("oComposite", .composite),
            ("pUndefined", .undefined),
        ]
        let layout = try StoreLayout(
            model: LayoutModel(entities: [entity("Thing", attributes: types.map { attribute($0.0, $0.1) })]))
        let table = try #require(layout.table(named: "ZTHING"))
        #expect(
            table.columns.map { "\($0.name) \($0.type.rawValue)" } == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER",
                "ZAINT16 INTEGER", "ZBINT32 INTEGER", "ZCINT64 INTEGER", "ZHBOOLEAN INTEGER",
                "ZEDOUBLE FLOAT", "ZFFLOAT FLOAT", "ZIDATE TIMESTAMP",
                "ZDDECIMAL DECIMAL",
                "ZGSTRING VARCHAR", "ZLURI VARCHAR",
                "ZMTRANSFORMABLE BLOB",
                "ZJBINARY BLOB", "ZKUUID BLOB", "ZOCOMPOSITE BLOB",
            ])
        #expect(table.primaryKey == ["Z_PK"])
        #expect(AttributeType.objectID.sqlColumnType == nil)
        #expect(AttributeType.undefined.sqlColumnType == nil)
        let thing = try #require(layout.entity(named: "Thing"))
        #expect(thing.attribute(named: "nObjectID") == nil)
        #expect(thing.attribute(named: "iDate")?.sqlType == .timestamp)
        #expect(thing.attribute(named: "kUUID")?.type == .uuid)
    }

    /// Dates and doubles interleave by name (observed: `ZCREATIONDATE TIMESTAMP,
    /// ZCREATIONDATEYEARLESS FLOAT, ZMODIFICATIONDATE TIMESTAMP`); names sort case-insensitively.
    @Test func realColumnsInterleaveAndNamesSortCaseInsensitively() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Workout",
                    attributes: [
                        attribute("updatedAt", .date), attribute("weight", .double), attribute("createdAt", .date),
                        attribute("Zeal", .integer16), attribute("apple", .integer16), attribute("Banana", .integer16),
                        attribute("URL", .uri), attribute("name"),
                    ])
            ]))
        #expect(
            layout.columnNames(of: "ZWORKOUT") == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZAPPLE", "ZBANANA", "ZZEAL", "ZCREATEDAT", "ZUPDATEDAT", "ZWEIGHT", "ZNAME",
                "ZURL",
            ])
    }

    @Test func transientPropertiesHaveNoColumnsDerivedOnesDo() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Person",
                    attributes: [
                        attribute("name"), attribute("cache", transient: true),
                        attribute("nameLength", .integer32, derived: true),
                    ],
                    relationships: [toOne("friend", "Person", transient: true)])
            ]))
        #expect(layout.columnNames(of: "ZPERSON") == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAMELENGTH", "ZNAME"])
        let person = try #require(layout.entity(named: "Person"))
        #expect(person.attribute(named: "nameLength")?.isDerived == true)
        #expect(person.attribute(named: "cache") == nil)
        #expect(person.relationship(named: "friend") == nil)
    }

    /// `ZOWNER` + `Z22_OWNER` when the destination has sub-entities; `Z_FOK_` when the inverse is
    /// an ordered to-many; both after their foreign key.
    @Test func toOneColumnsWithEntityAndOrderColumns() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Template",
                    relationships: [toMany("exercises", "TemplateExercise", inverse: "template", ordered: true)]),
                entity(
                    "TemplateExercise", attributes: [attribute("reps", .integer16), attribute("id", .uuid)],
                    relationships: [toOne("template", "Template", inverse: "exercises"), toOne("owner", "Record")]),
                entity("Record"), entity("Contact", parent: "Record"),
            ]))
        #expect(
            layout.columnNames(of: "ZTEMPLATEEXERCISE") == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZREPS", "ZOWNER", "Z1_OWNER", "ZTEMPLATE", "Z_FOK_TEMPLATE", "ZID",
            ])
        let exercise = try #require(layout.entity(named: "TemplateExercise"))
        #expect(
            exercise.relationship(named: "owner")?.storage
                == .foreignKey(ForeignKeyColumns(column: "ZOWNER", entityColumn: "Z1_OWNER", orderColumn: nil)))
        #expect(
            exercise.relationship(named: "template")?.storage
                == .foreignKey(ForeignKeyColumns(column: "ZTEMPLATE", entityColumn: nil, orderColumn: "Z_FOK_TEMPLATE"))
        )
        let roles = try #require(layout.table(named: "ZTEMPLATEEXERCISE")).columns.map(\.role)
        #expect(
            roles == [
                .primaryKey, .entity, .optimisticLock, .attribute, .foreignKey, .foreignEntity, .foreignKey,
                .foreignOrder, .attribute,
            ])
        #expect(
            layout.entity(named: "Template")?.relationship(named: "exercises")?.storage
                == .inverseForeignKey(
                    table: "ZTEMPLATEEXERCISE",
                    columns: ForeignKeyColumns(column: "ZTEMPLATE", entityColumn: nil, orderColumn: "Z_FOK_TEMPLATE")))
    }

    @Test func oneToOneStoresAForeignKeyOnBothSides() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Attachment", relationships: [toOne("location", "Location", inverse: "attachment")]),
                entity("Location", relationships: [toOne("attachment", "Attachment", inverse: "location")]),
            ]))
        #expect(layout.columnNames(of: "ZATTACHMENT") == ["Z_PK", "Z_ENT", "Z_OPT", "ZLOCATION"])
        #expect(layout.columnNames(of: "ZLOCATION") == ["Z_PK", "Z_ENT", "Z_OPT", "ZATTACHMENT"])
    }

    /// The hierarchy shares one table: the parent's columns first within each group, then each
    /// sub-entity's in number order; an entity's own column list skips its siblings'.
    @Test func hierarchyColumnsAndPerEntityColumns() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Car", attributes: [attribute("model"), attribute("wheels", .integer16)]),
                entity("SportCar", parent: "Car", attributes: [attribute("topSpeed", .double), attribute("model2")]),
                entity(
                    "Truck", parent: "Car", attributes: [attribute("load", .double), attribute("axles", .integer16)]),
            ]))
        #expect(
            layout.columnNames(of: "ZCAR") == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZWHEELS", "ZAXLES", "ZTOPSPEED", "ZLOAD", "ZMODEL", "ZMODEL2",
            ])
        #expect(layout.table(named: "ZCAR")?.kind == .entity(rootEntityNumber: 1))
        let truck = try #require(layout.entity(named: "Truck"))
        #expect(truck.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZWHEELS", "ZAXLES", "ZLOAD", "ZMODEL"])
        #expect(truck.attributes.map(\.name) == ["model", "wheels", "axles", "load"])
        #expect(truck.attribute(named: "wheels")?.declaringEntityNumber == 1)
        #expect(truck.attribute(named: "topSpeed") == nil)
        #expect(layout.entity(named: "Car")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZWHEELS", "ZMODEL"])
    }

    /// An attribute literally named like a suffixed column still gets a unique column.
    @Test func suffixesSkipNamesAlreadyTaken() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Base", attributes: [attribute("name1")]),
                entity("A", parent: "Base", attributes: [attribute("name")]),
                entity("B", parent: "Base", attributes: [attribute("name")]),
                entity("C", parent: "Base", attributes: [attribute("name")]),
            ]))
        #expect(layout.columnNames(of: "ZBASE") == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME1", "ZNAME", "ZNAME2", "ZNAME3"])
    }

    @Test func sqlKeywordsAndNonASCIINamesAreUppercasedAndQuoted() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Order", attributes: [attribute("group"), attribute("select", .integer64)]),
                entity("Café", attributes: [attribute("straße"), attribute("naïve", .boolean)]),
            ]))
        #expect(layout.columnNames(of: "ZORDER") == ["Z_PK", "Z_ENT", "Z_OPT", "ZSELECT", "ZGROUP"])
        #expect(layout.columnNames(of: "ZCAFÉ") == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAÏVE", "ZSTRASSE"])
        #expect(StoreNaming.uppercased("straße") == "STRASSE")
    }

    @Test func quoting() {
        #expect(SQLQuoting.identifier("order") == #""order""#)
        #expect(SQLQuoting.identifier(#"a"b"#) == #""a""b""#)
        #expect(SQLQuoting.literal("O'Neil") == "'O''Neil'")
        #expect(SQLQuoting.literal("plain") == "'plain'")
    }

    @Test func namingHelpers() {
        #expect(StoreNaming.zName("sportCar") == "ZSPORTCAR")
        #expect(StoreNaming.foreignEntityColumn(forForeignKey: "ZACCOUNT1", destinationNumber: 14) == "Z14_ACCOUNT1")
        #expect(StoreNaming.foreignOrderColumn(forForeignKey: "ZTEMPLATE") == "Z_FOK_TEMPLATE")
        #expect(StoreNaming.joinName(entityNumber: 3, relationshipName: "shows") == "Z_3SHOWS")
        #expect(StoreNaming.joinOrderColumn(forJoinColumn: "Z_34ASSETS") == "Z_FOK_34ASSETS")
        #expect(StoreNaming.columnIndex(table: "ZSFNOTE", column: "ZPASSWORD") == "ZSFNOTE_ZPASSWORD_INDEX")
        #expect(StoreNaming.fetchIndex(entity: "Note", index: "byTitle") == "Z_Note_byTitle")
        #expect(StoreNaming.uniquenessIndex(entity: "Note", properties: ["a", "b"]) == "Z_Note_UNIQUE_a_b")
        #expect(StoreNaming.synthesizedInverseName(for: "admins") == "adminsInverse")
    }
}
