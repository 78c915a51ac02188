import Foundation
import Testing

@testable import DataModelGenCLI

/// `generate --expect-output`: the build plugin's declared outputs are checked against what the model generates.
@Suite("generate --expect-output")
struct ExpectedOutputsTests {
    private let company = Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path
    private let companyFiles = [
        "BusinessEntity+DataModelClass.swift", "BusinessEntity+DataModelProperties.swift", "Company+DataModel.swift",
        "DepartmentEntity+DataModelClass.swift", "DepartmentEntity+DataModelProperties.swift",
        "EmployeeEntity+DataModelClass.swift", "EmployeeEntity+DataModelProperties.swift",
    ]

    private func generate(expecting files: [String]) throws -> (run: ToolRun, written: [String]) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("dmg-expect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = runTool(
            ["generate", company, "--output", output.path, "--no-schema"] + files.flatMap { ["--expect-output", $0] })
        let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        return (run, written.sorted())
    }

    @Test func matchingDeclarationWritesTheFiles() throws {
        let (run, written) = try generate(expecting: companyFiles.reversed())
        #expect(run.code == .success)
        #expect(run.err.isEmpty)
        #expect(written == companyFiles)
    }

    @Test func mismatchIsAnErrorOnTheModelAndWritesNothing() throws {
        let declared = companyFiles.filter { $0 != "EmployeeEntity+DataModelClass.swift" } + ["Extra.swift"]
        let (run, written) = try generate(expecting: declared)
        #expect(run.code == .modelError)
        #expect(written.isEmpty)
        let diagnostic = try #require(PrintedDiagnostic(run.err.trimmingCharacters(in: .newlines)))
        #expect(diagnostic.file.hasSuffix("Company.xcdatamodeld/Company.xcdatamodel/contents"))
        #expect(diagnostic.severity == "error")
        #expect(diagnostic.rule == "unexpected-outputs")
        #expect(diagnostic.message.contains("generates undeclared 'EmployeeEntity+DataModelClass.swift'"))
        #expect(diagnostic.message.contains("does not generate declared 'Extra.swift'"))
    }

    @Test func messageListsBothDirections() {
        #expect(ExpectedOutputs.mismatch(expected: ["A.swift", "B.swift"], produced: ["B.swift", "A.swift"]) == nil)
        let message = ExpectedOutputs.mismatch(expected: ["A.swift"], produced: ["B.swift"])
        #expect(message?.contains("generates undeclared 'B.swift' and does not generate declared 'A.swift'") == true)
    }
}
