import DataModel
import DataModelCodegen
import DataModelStoreLayout
import Foundation
import Testing

/// `Models/Members` has an `Integer 32` default of `" 5"` and a `Double` default of `" 2.5 "`: the
/// validator accepts them, the generator writes them as the typed values 5 and 2.5, and the runtime
/// reads those (`DataModelRuntimeTests.DefaultValueTests`). One parser decides for all three.
@Suite struct DefaultValueAgreementTests {
    static let members = TestPaths.models.appendingPathComponent("Members.xcdatamodeld").path

    @Test func theValidatorAcceptsPaddedNumbers() {
        let run = ToolRun.run(["validate", Self.members])
        #expect(run.exitCode == .success, "\(run.err)")
        #expect(!run.err.contains("invalid-default-value"), "\(run.err)")
    }

    @Test func theGeneratorWritesTheParsedValues() throws {
        let output = try TemporaryDirectory()
        defer { output.cleanUp() }
        let run = ToolRun.run(["generate", Self.members, "--output", output.url.path, "--no-schema"])
        #expect(run.exitCode == .success, "\(run.err)")
        let model = try String(
            contentsOf: output.url.appendingPathComponent("Members+DataModel.swift"), encoding: .utf8)
        #expect(
            model.contains(
                #"AttributeDescription(name: "rating", type: .integer32, isOptional: false, defaultValue: .integer(5))"#
            ))
        #expect(
            model.contains(
                #"AttributeDescription(name: "score", type: .double, isOptional: false, defaultValue: .double(2.5))"#))
    }

    @Test func theParserIsTheValidatorsRule() throws {
        let loaded = try ModelLoader.load(path: Self.members)
        let entity = try #require(loaded.model.entities.first)
        for attribute in entity.attributes {
            guard let text = attribute.valueText(.defaultValue) else { continue }
            let parsed = AttributeValueParser.parse(text, as: attribute.type, role: .defaultValue)
            #expect(parsed.value != nil, "\(attribute.name)")
        }
    }
}
