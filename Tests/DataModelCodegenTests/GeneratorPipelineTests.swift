import DataModel
import DataModelCodegen
import Foundation
import ProcessSupport
import Testing

@testable import DataModelGenCLI

/// The pipeline's stages, run in memory one after the other, give what `datamodelgen generate` writes.
@Suite struct GeneratorPipelineTests {
    @Test(arguments: [Flavor.coredata, .runtime])
    func stagesGiveWhatGenerateWrites(flavor: Flavor) throws {
        let library = try TemplateLoader.library(overrides: nil)
        for model in TestPaths.exampleModels {
            let directory = try TemporaryDirectory()
            defer { directory.cleanUp() }
            let run = ToolRun.run([
                "generate", model.path, "--output", directory.path, "--flavor", flavor.rawValue, "--no-cache",
            ])
            #expect(run.exitCode == .success, "\(model.lastPathComponent): \(run.err)")

            let pipeline = GeneratorPipeline()
            let validated = pipeline.validate(try pipeline.load(path: model.path, versionName: nil))
            #expect(!validated.diagnostics.containsErrors)
            let options = GenerationOptions(flavor: flavor)
            let context = pipeline.context(
                for: validated.model, options: options,
                earlierVersions: pipeline.earlierVersions(of: validated.loaded).models)
            var files = try pipeline.render(context, library: library, options: options, parallelism: 1) { $1 }
            files.append(try pipeline.schemaFile(for: validated.model, library: library, usesDefaultTemplate: true))

            let written = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(written == files.map(\.path).sorted(), "\(model.lastPathComponent)")
            for file in files {
                let bytes = try Data(contentsOf: directory.url.appendingPathComponent(file.path))
                #expect([UInt8](bytes) == file.utf8, "\(model.lastPathComponent): \(file.path)")
            }
        }
    }

    /// The sequential scheduler and the tool's threads render the same files.
    @Test func schedulersAgree() throws {
        let library = try TemplateLoader.library(overrides: nil)
        for model in TestPaths.exampleModels {
            let loaded = try ModelLoader.load(path: model.path, versionName: nil)
            let options = GenerationOptions(flavor: .runtime, includeManual: true)
            let sequential = GeneratorPipeline()
            let threaded = GeneratorPipeline(scheduler: ThreadedWork())
            let context = sequential.context(for: loaded.model, options: options)
            let one = try sequential.render(context, library: library, options: options, parallelism: 4) { $1 }
            let other = try threaded.render(context, library: library, options: options, parallelism: 4) { $1 }
            #expect(one == other, "\(model.lastPathComponent)")
            #expect(sequential.validate(loaded).diagnostics == threaded.validate(loaded).diagnostics)
        }
    }
}

/// `generate`'s output stage reports failures in a fixed order: rendering errors (exit code 1) before failures
/// to write (exit code 3), in either mode.
@Suite struct OutputPipelineTests {
    static let company = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path

    @Test(arguments: [[], ["--dry-run"]])
    func renderingErrorsComeBeforeWriteErrors(mode: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        // The output directory cannot be made: its parent is a regular file.
        let blocker = directory.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let output = blocker.appendingPathComponent("out").path
        let templates = directory.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "{{>*className}}\n".write(
            to: templates.appendingPathComponent("coredata-class.mustache"), atomically: true, encoding: .utf8)

        let broken = ToolRun.run(
            [
                "generate", Self.company, "--output", output, "--flavor", "coredata,runtime", "--no-cache",
                "--templates", templates.path,
            ] + mode)
        #expect(broken.exitCode == .modelError, "\(broken.err)")
        #expect(broken.err.contains("unknown partial 'BusinessEntity'"), "\(broken.err)")

        let unwritable = ToolRun.run(
            ["generate", Self.company, "--output", output, "--flavor", "coredata,runtime", "--no-cache"] + mode)
        if mode.isEmpty {
            #expect(unwritable.exitCode == .ioError, "\(unwritable.err)")
            #expect(unwritable.err.contains("[io-error]"), "\(unwritable.err)")
        } else {
            // A dry run writes nothing: the files it would create are listed.
            #expect(unwritable.exitCode == .success, "\(unwritable.err)")
            #expect(unwritable.out.contains("create coredata/"), "\(unwritable.out)")
        }
    }
}
