import DataModelStoreLayout
import Testing

@Suite("Models that cannot be laid out")
struct StoreLayoutErrorTests {
    private func error(_ entities: [LayoutEntity]) -> StoreLayoutError? {
        do {
            _ = try StoreLayout(model: LayoutModel(entities: entities))
            return nil
        } catch {
            return error
        }
    }

    @Test func duplicateEntity() {
        #expect(error([entity("A"), entity("A")]) == .duplicateEntity("A"))
    }

    @Test func unknownParent() {
        #expect(error([entity("A", parent: "Missing")]) == .unknownParent(entity: "A", parent: "Missing"))
    }

    @Test func inheritanceCycle() {
        let found = error([
            entity("Root"), entity("A", parent: "B"), entity("B", parent: "A"), entity("C", parent: "A"),
        ])
        #expect(found == .inheritanceCycle(entity: "A") || found == .inheritanceCycle(entity: "B"))
        #expect(error([entity("Self", parent: "Self")]) == .inheritanceCycle(entity: "Self"))
    }

    @Test func duplicateProperties() {
        #expect(
            error([entity("A", attributes: [attribute("x"), attribute("x", .integer16)])])
                == .duplicateProperty(entity: "A", property: "x"))
        #expect(
            error([entity("A", attributes: [attribute("x")], relationships: [toOne("x", "A")])])
                == .duplicateProperty(entity: "A", property: "x"))
        #expect(
            error([entity("A", attributes: [attribute("x")]), entity("B", parent: "A", attributes: [attribute("x")])])
                == .duplicateProperty(entity: "B", property: "x"))
    }

    @Test func unknownDestination() {
        #expect(
            error([entity("A", relationships: [toOne("b", "B")])])
                == .unknownDestination(entity: "A", relationship: "b", destination: "B"))
    }

    @Test func unknownInverse() {
        #expect(
            error([entity("A", relationships: [toOne("b", "B", inverse: "a")]), entity("B")])
                == .unknownInverse(entity: "A", relationship: "b", inverse: "a"))
        // An attribute is not an inverse.
        #expect(
            error([
                entity("A", relationships: [toOne("b", "B", inverse: "a")]), entity("B", attributes: [attribute("a")]),
            ]) == .unknownInverse(entity: "A", relationship: "b", inverse: "a"))
    }

    @Test func invalidFetchIndexAndUniquenessProperties() {
        // A to-many has no column: Xcode accepts a fetch index naming one, and it adds nothing to the SQL index.
        let fetchIndex = LayoutFetchIndex(name: "byItems", elements: [.init(property: "items")])
        #expect(
            error([
                entity("A", relationships: [toMany("items", "A")], fetchIndexes: [fetchIndex])
            ]) == nil)
        let unknown = LayoutFetchIndex(name: "byNothing", elements: [.init(property: "nothing")])
        #expect(
            error([entity("A", fetchIndexes: [unknown])])
                == .invalidFetchIndexProperty(entity: "A", index: "byNothing", property: "nothing"))
        #expect(
            error([entity("A", attributes: [attribute("t", transient: true)], unique: [["t"]])])
                == .invalidUniquenessProperty(entity: "A", property: "t"))
        #expect(
            error([entity("A", unique: [["missing"]])]) == .invalidUniquenessProperty(entity: "A", property: "missing"))
    }

    @Test func descriptionsNameTheCulprit() {
        #expect(StoreLayoutError.duplicateEntity("A").description == "duplicate entity 'A'")
        #expect(
            StoreLayoutError.unknownInverse(entity: "A", relationship: "b", inverse: "a").description
                == "relationship 'A.b' has unknown inverse 'a'")
    }
}
