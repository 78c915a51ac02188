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
        enum Key: String, CaseIterable, Sendable {
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

    /// An object that writes some keys' text straight into the output, as generated-code contexts do.
    final class Writing: KeyedMustacheObject {
        enum Key: String, CaseIterable, Sendable {
            case name, label, missing, count
        }

        static let keys = makeKeys()
        let writes = Mutex(0)

        func value(for known: Key) -> MustacheValue? {
            switch known {
            case .name: return "A&B"
            case .label: return "value of label"
            case .missing: return nil
            case .count: return .int(3)
            }
        }

        func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
            switch known {
            case .name:
                writes.withLock { $0 += 1 }
                output.append("A&B" as StaticString)
                return .written
            case .missing: return .absent
            case .label, .count: return .notText
            }
        }
    }

    @Test func objectsWriteTextStraightIntoTheOutput() throws {
        let object = Writing()
        let library = try MustacheLibrary(
            sources: ["t": "{{#object}}{{name}}/{{label}}/{{count}}/{{missing}}{{/object}}|{{object.name}}"],
            options: .codeGeneration)
        let output = try library.render(
            "t", withContexts: [.dictionary(["missing": "outer", "object": .object(object)])])
        // `missing` is absent from the object, so the lookup goes on to the outer context.
        #expect(output == "A&B/value of label/3/outer|A&B")
        // The dotted name goes through the value; the plain name was written.
        #expect(object.writes.withLock { $0 } == 1)
    }

    @Test func escapedInterpolationsUseTheValue() throws {
        let object = Writing()
        let template = try MustacheTemplate("{{#object}}{{name}} {{{name}}}{{/object}}")
        let output = try template.render(with: .dictionary(["object": .object(object)]))
        #expect(output == "A&amp;B A&B")
        #expect(object.writes.withLock { $0 } == 1)
    }
}
