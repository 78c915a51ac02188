import Mustache
import Synchronization
import Testing

/// Typed contexts that answer lookups themselves (`MustacheValue.object`).
@Suite struct MustacheObjectTests {
    final class Entity: MustacheObject {
        let name: String
        let attributes: [String]
        let lookups = Mutex(0)

        init(name: String, attributes: [String]) {
            self.name = name
            self.attributes = attributes
        }

        func mustacheValue(forKey key: String) -> MustacheValue? {
            lookups.withLock { $0 += 1 }
            switch key {
            case "name": return .string(name)
            case "attributes": return .array(attributes.map { .dictionary(["attribute": .string($0)]) })
            case "isEmpty": return .bool(attributes.isEmpty)
            default: return nil
            }
        }
    }

    @Test func objectsResolveNamesSectionsAndOuterContexts() throws {
        let template = try MustacheTemplate(
            "{{#entity}}{{prefix}}class {{name}} {{#attributes}}[{{attribute}} of {{name}}]{{/attributes}}{{^isEmpty}}!{{/isEmpty}}{{/entity}}"
        )
        let entity = Entity(name: "Person", attributes: ["age", "name"])
        let output = try template.render(
            with: .dictionary(["prefix": "public ", "entity": .object(entity)]),
            library: MustacheLibrary(options: .codeGeneration))
        #expect(output == "public class Person [age of Person][name of Person]!")
    }

    @Test func dottedNamesAndEquality() throws {
        let entity = Entity(name: "Person", attributes: [])
        let value = MustacheValue.object(entity)
        #expect(value["name"] == .string("Person"))
        #expect(value["missing"] == nil)
        #expect(value == .object(entity))
        #expect(value != .object(Entity(name: "Person", attributes: [])))
        #expect(value.isTruthy)
        let template = try MustacheTemplate("{{entity.name}}")
        #expect(try template.render(with: .dictionary(["entity": value])) == "Person")
    }

    @Test func contextStacksShareAnOuterContext() throws {
        let library = try MustacheLibrary(sources: ["t": "{{access}}{{name}}"], options: .codeGeneration)
        let outer = MustacheValue.dictionary(["access": "public ", "name": "Outer"])
        #expect(
            try library.render("t", withContexts: [outer, .object(Entity(name: "Inner", attributes: []))])
                == "public Inner")
        #expect(try library.render("t", withContexts: [outer]) == "public Outer")
    }

    /// An object answering through a static key table, the way generated-code contexts do.
    final class Keyed: KeyedMustacheObject {
        enum Key: Int, CaseIterable {
            case name, kind, isEmpty
        }

        static let keys = makeKeys()

        func value(for known: Key) -> MustacheValue? {
            switch known {
            case .name: return "Keyed"
            case .kind: return "object"
            case .isEmpty: return false
            }
        }
    }

    @Test func keyTablesFindEveryNameAndNothingElse() {
        let names = (0..<300).map { "name\($0)" } + ["", "é", "a.b", "name0"]
        let table = MustacheKeyTable(names)
        for (position, name) in names.enumerated().dropLast() {
            #expect(table[MustacheKey(name)] == position)
            #expect(table[name] == position)
        }
        #expect(table["name0"] == 0)  // a repeated name keeps its first position
        #expect(table["name300"] == nil)
        #expect(table["Name1"] == nil)
        #expect(MustacheKeyTable([])["anything"] == nil)
        #expect(MustacheKey("a") == MustacheKey("a"))
        #expect(MustacheKey("a") != MustacheKey("b"))
    }

    @Test func keyedObjectsResolveThroughTheStack() throws {
        let template = try MustacheTemplate(
            "{{#object}}{{name}} is an {{kind}}{{^isEmpty}}, {{outer}}{{/isEmpty}}{{missing}}{{/object}} {{object.kind}}"
        )
        let output = try template.render(
            with: .dictionary(["object": .object(Keyed()), "outer": "outside"]),
            library: MustacheLibrary(options: .codeGeneration))
        #expect(output == "Keyed is an object, outside object")
    }
}
