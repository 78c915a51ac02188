import DataModelGenCLI
import Foundation
import Testing

/// The schema the `DDLWriter` writes is byte for byte what the template engine renders from
/// `Examples/Templates/schema.sql.mustache` with the documented schema keys, for every model, with and
/// without `IF NOT EXISTS`: the keys a user's schema template has can reproduce the default.
@Suite struct SchemaWriterTests {
    /// A `--templates` directory holding a copy of the example `schema.sql` template: the CLI then
    /// treats it as a user's override and renders it through the template engine.
    static func templateCopyDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let source = TestPaths.repoRoot.appendingPathComponent("Examples/Templates/schema.sql.mustache")
        try FileManager.default.copyItem(
            at: source, to: directory.url.appendingPathComponent("schema.sql.mustache"))
        return directory
    }

    @Test func directSchemaMatchesTheTemplateForEveryModel() throws {
        let templates = try Self.templateCopyDirectory()
        defer { templates.cleanUp() }
        var compared = 0
        for model in TestPaths.exampleModels + TestPaths.corpusModels {
            for extra in [[], ["--if-not-exists"]] {
                let direct = ToolRun.run(["schema", model.path] + extra)
                let templated = ToolRun.run(["schema", model.path, "--templates", templates.url.path] + extra)
                #expect(direct.exitCode == templated.exitCode, "\(model.path)")
                #expect(
                    direct.out == templated.out,
                    "\(model.path) \(extra): direct schema differs from the template's\n\(UnifiedDiffText.of(templated.out, direct.out))"
                )
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    @Test func generateWritesTheSameSchemaEitherWay() throws {
        let templates = try Self.templateCopyDirectory()
        defer { templates.cleanUp() }
        let output = try TemporaryDirectory()
        defer { output.cleanUp() }
        for (index, model) in TestPaths.exampleModels.enumerated() {
            let direct = output.url.appendingPathComponent("direct\(index)")
            let templated = output.url.appendingPathComponent("templated\(index)")
            let first = ToolRun.run(["generate", model.path, "--output", direct.path])
            let second = ToolRun.run(
                ["generate", model.path, "--output", templated.path, "--templates", templates.url.path])
            #expect(first.exitCode == second.exitCode, "\(model.path)")
            let name = model.deletingPathExtension().lastPathComponent + ".sql"
            let directSQL = FileManager.default.contents(atPath: direct.appendingPathComponent(name).path)
            let templatedSQL = FileManager.default.contents(atPath: templated.appendingPathComponent(name).path)
            #expect(directSQL == templatedSQL, "\(model.path): \(name) differs")
        }
    }

    @Test func anOverriddenSchemaTemplateIsRendered() throws {
        let templates = try TemporaryDirectory()
        defer { templates.cleanUp() }
        try "-- custom schema for {{modelName}}\n".write(
            to: templates.url.appendingPathComponent("schema.sql.mustache"), atomically: true, encoding: .utf8)
        guard let model = TestPaths.exampleModels.first else { return }
        let run = ToolRun.run(["schema", model.path, "--templates", templates.url.path])
        #expect(run.exitCode == .success, "\(run.err)")
        #expect(run.out.hasPrefix("-- custom schema for "), "\(run.out)")
    }
}
