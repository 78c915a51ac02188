import DataModel
import DataModelCodegen
import DataModelRuntime
import DataModelStoreLayout
import Foundation
import GeneratedCompanyModel
import Testing

/// The DDL the runtime executes is the DDL `datamodelgen schema` prints: one writer, two styles.
@Suite struct OneDDLWriterTests {
    /// The statements of a schema file: comments and blank lines dropped, each statement's pretty
    /// line breaks undone (the only difference between ``DDLWriter/Style/pretty`` and
    /// ``DDLWriter/Style/compact``).
    static func statements(ofScript script: String) -> [String] {
        let body = script.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("--") && !$0.isEmpty }
            .joined(separator: "\n")
        return body.components(separatedBy: ";\n").map {
            $0.replacingOccurrences(of: ";", with: "", options: .anchored, range: nil)
                .replacingOccurrences(of: " (\n    ", with: " (")
                .replacingOccurrences(of: ",\n    ", with: ", ")
                .replacingOccurrences(of: "\n)", with: ")")
                .trimmingCharacters(in: CharacterSet(charactersIn: ";\n"))
        }.filter { !$0.isEmpty }
    }

    @Test func runtimeStatementsEqualTheSchemaCommandsForEveryModel() throws {
        if TestPaths.corpus == nil { print("corpus: ../shared/corpus/models is absent; checking Models/ only") }
        var compared = 0
        for model in TestPaths.exampleModels + TestPaths.corpusModels {
            let loaded = try ModelLoader.load(path: model.path)
            guard let layout = try? SchemaRenderer.layout(of: loaded.model) else { continue }
            for extra in [[], ["--if-not-exists"]] {
                let run = ToolRun.run(["schema", model.path] + extra)
                #expect(run.exitCode == .success, "\(model.path): \(run.err)")
                let executed =
                    layout.ddlStatements(ifNotExists: !extra.isEmpty) + layout.primaryKeyRowStatements()
                let printed = Self.statements(ofScript: run.out)
                #expect(printed == executed, "\(model.path) \(extra): the schema command and the runtime disagree")
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    /// The runtime's layout comes from generated code, the schema command's from the model file:
    /// both give the same statements, byte for byte.
    @Test func theGeneratedCompanyModelExecutesTheSchemaCommandsStatements() throws {
        let path = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let run = ToolRun.run(["schema", path])
        #expect(run.exitCode == .success, "\(run.err)")
        let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
        #expect(Self.statements(ofScript: run.out) == layout.ddlStatements() + layout.primaryKeyRowStatements())
    }

    @Test func prettyAndCompactDifferInLineBreaksOnly() throws {
        let path = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let layout = try SchemaRenderer.layout(of: ModelLoader.load(path: path).model)
        for table in layout.tables {
            let pretty = DDLWriter(style: .pretty).createTable(table)
            #expect(pretty.contains("\n    "))
            #expect(Self.statements(ofScript: pretty + ";\n") == [DDLWriter().createTable(table)])
        }
    }
}

/// The parsed model, the store layout, the generator and the runtime name one attribute type and one
/// delete rule.
@Suite struct SharedVocabularyTests {
    /// The assignments compile only because each name is the same enum; the generator spells each
    /// case (`caseName`) as the runtime declares it.
    @Test func oneAttributeTypeAndOneDeleteRule() {
        for type in DataModelStoreLayout.AttributeType.allCases {
            let parsed: DataModel.AttributeType = type
            let runtime: DataModelRuntime.AttributeType = parsed
            #expect(String(describing: runtime) == runtime.caseName)
        }
        for rule in DataModelStoreLayout.DeleteRule.allCases {
            let parsed: DataModel.DeleteRule = rule
            let runtime: DataModelRuntime.DeleteRule = parsed
            #expect(String(describing: runtime) == runtime.caseName)
        }
    }
}
