import Foundation
import Testing

@testable import DataModelGenCLI

/// `generate` on a model whose entities all have Manual/None codegen (what older Xcode versions saved) says why no
/// class was written, instead of writing only the model file and the schema in silence.
@Suite struct ManualCodegenWarningTests {
    static func model(codegen: [String?]) throws -> (directory: String, bundle: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manual-\(UUID().uuidString)")
            .path
        let version = directory + "/Shop.xcdatamodeld/Shop.xcdatamodel"
        try FileManager.default.createDirectory(atPath: version, withIntermediateDirectories: true)
        let entities = codegen.enumerated().map { index, mode in
            let attribute = mode.map { " codeGenerationType=\"\($0)\"" } ?? ""
            return """
                    <entity name="Item\(index)"\(attribute)>
                        <attribute name="name" optional="YES" attributeType="String"/>
                    </entity>
                """
        }
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            \(entities.joined(separator: "\n"))
            </model>

            """
        try contents.write(toFile: version + "/contents", atomically: true, encoding: .utf8)
        return (directory, directory + "/Shop.xcdatamodeld")
    }

    @Test(arguments: ["runtime", "coredata"])
    func allManualIsReported(flavor: String) throws {
        let (directory, bundle) = try Self.model(codegen: [nil, "manual"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = runTool(["generate", bundle, "--output", directory + "/Out", "--flavor", flavor, "--no-cache"])
        #expect(run.code == .success, "\(run.err)")
        #expect(
            run.err.contains("warning: no entity classes generated: all 2 entities have codegen Manual/None"),
            "\(run.err)")
        #expect(run.err.contains("--include-manual"))
        #expect(run.err.contains("[manual-codegen]"))
        let written = try FileManager.default.contentsOfDirectory(atPath: directory + "/Out")
        #expect(!written.contains { $0.hasPrefix("Item0+") }, "\(written)")
    }

    @Test func includeManualOrAnyGeneratedEntityIsQuiet() throws {
        let (directory, bundle) = try Self.model(codegen: [nil, "manual"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let included = runTool(["generate", bundle, "--output", directory + "/Out", "--include-manual", "--no-cache"])
        #expect(included.code == .success)
        #expect(!included.err.contains("manual-codegen"), "\(included.err)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory + "/Out").contains(
                "Item0+DataModelClass.swift"))

        let (mixedDirectory, mixed) = try Self.model(codegen: ["class", nil])
        defer { try? FileManager.default.removeItem(atPath: mixedDirectory) }
        let run = runTool(["generate", mixed, "--output", mixedDirectory + "/Out", "--no-cache"])
        #expect(run.code == .success)
        #expect(!run.err.contains("manual-codegen"), "\(run.err)")
    }

    /// A re-run that the no-change cache answers prints the warning again (it is part of the recorded run).
    @Test(.enabled(if: Paths.executable != nil, "datamodelgen was not built next to the test bundle"))
    func theCacheReplaysTheWarning() throws {
        let executable = try #require(Paths.executable)
        let (directory, bundle) = try Self.model(codegen: [nil])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["DATAMODELGEN_CACHE_DIR": directory + "/cache"]
        let arguments = ["generate", bundle, "--output", directory + "/Out"]
        let first = try runExecutable(executable, arguments, in: directory, environment: environment)
        let second = try runExecutable(executable, arguments, in: directory, environment: environment)
        #expect(first.status == 0 && second.status == 0)
        #expect(String(decoding: first.err, as: UTF8.self).contains("the entity has codegen Manual/None"))
        #expect(String(decoding: second.err, as: UTF8.self).contains("the entity has codegen Manual/None"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/cache").count == 1)
    }
}
