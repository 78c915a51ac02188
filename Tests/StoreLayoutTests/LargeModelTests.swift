import DataModelStoreLayout
import Testing

@Suite("Large models")
struct LargeModelTests {
    /// `roots` root entities, each with `subentities` sub-entities; every entity has five
    /// attributes, a to-one to the next root, and roots have a many-to-many with the next root.
    static func model(roots: Int, subentities: Int) -> LayoutModel {
        var entities: [LayoutEntity] = []
        entities.reserveCapacity(roots * (subentities + 1))
        func name(_ root: Int) -> String { "Root\(root)" }
        for root in 0..<roots {
            let next = name((root + 1) % roots)
            let previous = name((root + roots - 1) % roots)
            entities.append(
                entity(
                    name(root),
                    attributes: [
                        attribute("title"), attribute("count", .integer64, indexed: true),
                        attribute("created", .date), attribute("payload", .binary), attribute("ratio", .double),
                    ],
                    relationships: [
                        toOne("next", next), toMany("peers", next, inverse: "peersOf"),
                        toMany("peersOf", previous, inverse: "peers"),
                    ],
                    unique: [["title"]],
                    fetchIndexes: [LayoutFetchIndex(name: "byTitle", elements: [.init(property: "title")])]))
            for sub in 0..<subentities {
                entities.append(
                    entity(
                        "\(name(root))Sub\(sub)", parent: name(root),
                        attributes: [
                            attribute("title\(sub)"), attribute("flag", .boolean), attribute("when", .date),
                            attribute("note"), attribute("size", .integer32),
                        ],
                        relationships: [toOne("other", next)]))
            }
        }
        return LayoutModel(entities: entities)
    }

    /// 10,000 entities lay out well under a second (not asserted: timing on shared machines is
    /// noisy), with nothing quadratic in the model size.
    @Test func tenThousandEntities() throws {
        let model = Self.model(roots: 2_000, subentities: 4)
        #expect(model.entities.count == 10_000)
        let clock = ContinuousClock()
        var layout: StoreLayout?
        let elapsed = try clock.measure { layout = try StoreLayout(model: model) }
        let built = try #require(layout)
        print("10,000-entity layout built in \(elapsed)")
        #expect(built.entities.count == 10_000)
        #expect(built.entityTables.count == 2_000)
        #expect(built.joinTables.count == 2_000)
        #expect(built.entities.last?.name == "Root999Sub3")  // names sort as text: Root0, Root1, Root10 …
        // Z_PK, Z_ENT, Z_OPT; the root's five attributes and to-one (ZNEXT, Z<n>_NEXT: its
        // destination has sub-entities); the same again for the sub-entity's own.
        let expectedColumns = 3 + 5 + 2 + 5 + 2
        #expect(built.entity(named: "Root0Sub2")?.columns.count == expectedColumns)
        let tableCount = 2_000 + 2_000 + 3
        #expect(built.ddlStatements().count == tableCount + built.indexes.count)
        #expect(built.primaryKeyRows.count == 10_000)
    }

    /// One hierarchy of 5,000 sibling sub-entities sharing property names: column suffixes are
    /// handed out without rescanning (`ZTITLE`, `ZTITLE1` … `ZTITLE4999`).
    @Test func wideHierarchyWithCollidingNames() throws {
        let siblings = (0..<5_000).map {
            entity("Sub\($0)", parent: "Base", attributes: [attribute("title")], relationships: [toOne("base", "Base")])
        }
        let layout = try StoreLayout(model: LayoutModel(entities: [entity("Base")] + siblings))
        let columns = layout.columnNames(of: "ZBASE")
        let expectedCount = 3 + 3 * 5_000  // ZTITLE…, ZBASE…, Z1_BASE… for each sibling
        #expect(columns.count == expectedCount)
        #expect(Set(columns).count == columns.count)
        // Siblings are numbered by name: Sub0, Sub1, Sub10, Sub100 …
        #expect(layout.entity(named: "Sub0")?.attribute(named: "title")?.column == "ZTITLE")
        #expect(layout.entity(named: "Sub1")?.attribute(named: "title")?.column == "ZTITLE1")
        #expect(layout.entity(named: "Sub10")?.attribute(named: "title")?.column == "ZTITLE2")
        #expect(layout.entity(named: "Sub999")?.attribute(named: "title")?.column == "ZTITLE4999")
    }

    @Test func largeLayoutCreatesAValidStore() throws {
        let layout = try StoreLayout(model: Self.model(roots: 200, subentities: 4))
        let db = try makeStore(layout)
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") == [.integer(403)])
    }
}
