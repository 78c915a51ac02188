import Foundation
import Mustache
import Testing

/// The value model: truthiness, number formatting, typed contexts and decoding.
@Suite("Mustache values")
struct MustacheValueTests {
    struct Attribute: MustacheRepresentable {
        var name: String
        var isOptional: Bool
        var mustacheValue: MustacheValue { ["name": name.mustacheValue, "isOptional": isOptional.mustacheValue] }
    }

    struct Entity: MustacheRepresentable {
        var name: String
        var attributes: [Attribute]
        var documentation: String?
        var mustacheValue: MustacheValue {
            [
                "name": name.mustacheValue, "attributes": attributes.mustacheValue,
                "documentation": documentation.mustacheValue,
            ]
        }
    }

    @Test func truthinessFollowsTheSpecification() {
        #expect(!MustacheValue.bool(false).isTruthy)
        #expect(!MustacheValue.null.isTruthy)
        #expect(!MustacheValue.array([]).isTruthy)
        #expect(MustacheValue.string("").isTruthy)
        #expect(MustacheValue.int(0).isTruthy)
        #expect(MustacheValue.dictionary([:]).isTruthy)
    }

    @Test func numbersInterpolateWithoutNeedlessDecimals() throws {
        let template = try MustacheTemplate("{{a}} {{b}} {{c}} {{d}} {{e}}")
        let output = try template.render(with: ["a": 85, "b": 1.5, "c": 2.0, "d": -0.25, "e": true])
        #expect(output == "85 1.5 2 -0.25 true")
    }

    @Test func typedValuesProvideTheirContext() throws {
        let template = try MustacheTemplate(
            "{{#documentation}}/// {{.}}\n{{/documentation}}class {{name}} {{#attributes}}{{name}}{{#isOptional}}?{{/isOptional}} {{/attributes}}"
        )
        let entity = Entity(
            name: "Person",
            attributes: [Attribute(name: "age", isOptional: true), Attribute(name: "id", isOptional: false)],
            documentation: nil)
        #expect(try template.render(with: entity) == "class Person age? id ")
        var documented = entity
        documented.documentation = "A person."
        #expect(try template.render(with: documented).hasPrefix("/// A person.\nclass Person"))
    }

    @Test func collectionsConvert() {
        let dictionary: [String: [Int?]] = ["a": [1, nil]]
        #expect(dictionary.mustacheValue == ["a": [1, nil]])
        #expect(Int64(5).mustacheValue == .int(5))
        #expect("ab".dropFirst().mustacheValue == "b")
    }

    @Test func decodesJSON() throws {
        let json = #"{"s": "x", "i": 3, "d": 1.25, "b": false, "n": null, "a": [1, "two"], "o": {"k": {}}}"#
        let value = try JSONDecoder().decode(MustacheValue.self, from: Data(json.utf8))
        #expect(value == ["s": "x", "i": 3, "d": 1.25, "b": false, "n": nil, "a": [1, "two"], "o": ["k": [:]]])
    }
}
