import DataModelStoreLayout
import Testing

@Suite("Indexes")
struct IndexLayoutTests {
    /// The model of a published test that records the indexes Apple's store creates (run against
    /// Core Data on macOS): Folder <-->> Note; Place (with sub-entity Cafe) <<-->> Tag; fetch
    /// indexes on a string, descending and ascending together, a to-one alone and with an
    /// attribute, and one on the sub-entity. (Its partial and R-tree indexes are not modelled.)
    static let notesModel = LayoutModel(entities: [
        entity("Folder", attributes: [attribute("name")], relationships: [toMany("notes", "Note", inverse: "folder")]),
        entity(
            "Note", attributes: [attribute("title"), attribute("stamp", .date), attribute("lat", .float)],
            relationships: [toOne("folder", "Folder", inverse: "notes")],
            fetchIndexes: [
                LayoutFetchIndex(name: "byTitle", elements: [.init(property: "title")]),
                LayoutFetchIndex(
                    name: "byStampAndTitle",
                    elements: [.init(property: "stamp", isAscending: false), .init(property: "title")]),
                LayoutFetchIndex(name: "byFolder", elements: [.init(property: "folder")]),
                LayoutFetchIndex(
                    name: "byFolderAndTitle",
                    elements: [.init(property: "folder"), .init(property: "title", isAscending: false)]),
            ]),
        entity(
            "Place", attributes: [attribute("label")], relationships: [toMany("tags", "Tag", inverse: "places")]),
        entity(
            "Cafe", parent: "Place", attributes: [attribute("roast")],
            fetchIndexes: [LayoutFetchIndex(name: "byRoast", elements: [.init(property: "roast")])]),
        entity("Tag", attributes: [attribute("word")], relationships: [toMany("places", "Place", inverse: "tags")]),
    ])

    @Test func theIndexesAppleCreates() throws {
        let layout = try StoreLayout(model: Self.notesModel)
        let join = try #require(layout.joinTables.first)
        let second = join.table.columns[1].name
        let first = join.table.columns[0].name
        let joinIndex = "\(join.name)_\(second)_INDEX"
        let expected: Set<String> = [
            #"CREATE INDEX "ZNOTE_ZFOLDER_INDEX" ON "ZNOTE" ("ZFOLDER")"#,
            #"CREATE INDEX "ZPLACE_Z_ENT_INDEX" ON "ZPLACE" ("Z_ENT")"#,
            #"CREATE INDEX "\#(joinIndex)" ON "\#(join.name)" ("\#(second)", "\#(first)")"#,
            #"CREATE INDEX "Z_Note_byTitle" ON "ZNOTE" ("ZTITLE" COLLATE BINARY ASC)"#,
            #"CREATE INDEX "Z_Note_byStampAndTitle" ON "ZNOTE" ("ZSTAMP" COLLATE BINARY DESC, "ZTITLE" COLLATE BINARY ASC)"#,
            #"CREATE INDEX "Z_Note_byFolderAndTitle" ON "ZNOTE" ("ZFOLDER" COLLATE BINARY ASC, "ZTITLE" COLLATE BINARY DESC)"#,
            #"CREATE INDEX "Z_Cafe_byRoast" ON "ZPLACE" ("ZROAST" COLLATE BINARY ASC)"#,
        ]
        let statements = layout.indexes.map { DDLWriter().createIndex($0) }
        #expect(Set(statements) == expected)
        #expect(statements.count == expected.count)
        #expect(layout.joinTableListing == ["Z_3TAGS (Z_3PLACES, Z_5TAGS)"])
    }

    @Test func indexKindsAndOrder() throws {
        let layout = try StoreLayout(model: Self.notesModel)
        #expect(
            layout.indexes.map(\.name) == [
                "ZNOTE_ZFOLDER_INDEX", "Z_Note_byTitle", "Z_Note_byStampAndTitle", "Z_Note_byFolderAndTitle",
                "ZPLACE_Z_ENT_INDEX", "Z_Cafe_byRoast", "Z_3TAGS_Z_5TAGS_INDEX",
            ])
        #expect(
            layout.indexes.map(\.kind) == [
                .foreignKey, .fetchIndex, .fetchIndex, .fetchIndex, .entityType, .fetchIndex, .joinReverse,
            ])
        #expect(layout.indexes.first { $0.name == "Z_Cafe_byRoast" }?.entityNumber == 4)
    }

    @Test func indexedAttributesAndUniquenessConstraints() throws {
        let layout = try StoreLayout(model: companyModel)
        let statements = layout.indexes.map { DDLWriter().createIndex($0) }
        #expect(
            statements == [
                #"CREATE INDEX "ZBUSINESS_ZNAME_INDEX" ON "ZBUSINESS" ("ZNAME")"#,
                #"CREATE UNIQUE INDEX "Z_Business_UNIQUE_name" ON "ZBUSINESS" ("ZNAME" COLLATE BINARY ASC)"#,
                #"CREATE INDEX "ZEMPLOYEE_ZBUSINESS_INDEX" ON "ZEMPLOYEE" ("ZBUSINESS")"#,
                #"CREATE INDEX "ZEMPLOYEE_ZDEPARTMENT_INDEX" ON "ZEMPLOYEE" ("ZDEPARTMENT")"#,
                #"CREATE INDEX "Z_1DEPARTMENTS_Z_2DEPARTMENTS_INDEX" ON "Z_1DEPARTMENTS" ("Z_2DEPARTMENTS", "Z_1BUSINESSES")"#,
            ])
    }

    @Test func compoundUniquenessOnAnAttributeAndAToOne() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Folder"),
                entity(
                    "Note", attributes: [attribute("title")], relationships: [toOne("folder", "Folder")],
                    unique: [["title", "folder"], []]),
            ]))
        let index = try #require(layout.indexes.first { $0.kind == .uniquenessConstraint })
        #expect(
            DDLWriter().createIndex(index)
                == #"CREATE UNIQUE INDEX "Z_Note_UNIQUE_title_folder" ON "ZNOTE" ("ZTITLE" COLLATE BINARY ASC, "ZFOLDER" COLLATE BINARY ASC)"#
        )
        #expect(layout.indexes.filter { $0.kind == .uniquenessConstraint }.count == 1)
    }

    @Test func inheritedPropertiesCanBeIndexedBySubentities() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Document", attributes: [attribute("title", indexed: true)]),
                entity(
                    "Report", parent: "Document", attributes: [attribute("year", .integer16)],
                    unique: [["title", "year"]],
                    fetchIndexes: [LayoutFetchIndex(name: "byTitle", elements: [.init(property: "title")])]),
            ]))
        #expect(
            layout.indexes.map { DDLWriter(ifNotExists: true).createIndex($0) } == [
                #"CREATE INDEX IF NOT EXISTS "ZDOCUMENT_ZTITLE_INDEX" ON "ZDOCUMENT" ("ZTITLE")"#,
                #"CREATE INDEX IF NOT EXISTS "ZDOCUMENT_Z_ENT_INDEX" ON "ZDOCUMENT" ("Z_ENT")"#,
                #"CREATE INDEX IF NOT EXISTS "Z_Report_byTitle" ON "ZDOCUMENT" ("ZTITLE" COLLATE BINARY ASC)"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Z_Report_UNIQUE_title_year" ON "ZDOCUMENT" ("ZTITLE" COLLATE BINARY ASC, "ZYEAR" COLLATE BINARY ASC)"#,
            ])
    }

    /// SQLite compares identifiers case-insensitively: index names that differ only in case get a
    /// suffix.
    @Test func indexNamesAreUniqueIgnoringCase() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Note", attributes: [attribute("title")],
                    fetchIndexes: [
                        LayoutFetchIndex(name: "byTitle", elements: [.init(property: "title")]),
                        LayoutFetchIndex(name: "BYTITLE", elements: [.init(property: "title", isAscending: false)]),
                    ])
            ]))
        #expect(layout.indexes.map(\.name) == ["Z_Note_byTitle", "Z_Note_BYTITLE1"])
    }
}
