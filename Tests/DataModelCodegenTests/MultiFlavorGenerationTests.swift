import DataModel
import DataModelCodegen
import Foundation
import ProcessSupport
import Testing

@testable import DataModelGenCLI

/// `generate --flavor coredata,runtime`: several flavors from one load of the model, each into its own
/// subdirectory, byte for byte what a run per flavor writes.
@Suite struct MultiFlavorGenerationTests {
    @Test func everyFlavorMatchesItsOwnRunForEveryModel() throws {
        if TestPaths.corpus == nil { print("corpus: ../shared/corpus/models is absent; checking Models/ only") }
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        var compared = 0
        for (index, model) in CorpusGenerationTests.allModels.enumerated() {
            let base = directory.url.appendingPathComponent("\(index)").path
            let together = base + "/together"
            let run = ToolRun.run([
                "generate", model.path, "--output", together, "--flavor", "coredata,runtime", "--include-manual",
                "--no-cache",
            ])
            #expect(run.exitCode == .success, "\(model.path): \(run.err)")
            for flavor in ["coredata", "runtime"] {
                let alone = base + "/" + flavor
                let single = ToolRun.run([
                    "generate", model.path, "--output", alone, "--flavor", flavor, "--include-manual", "--no-cache",
                ])
                #expect(single.exitCode == run.exitCode, "\(model.path)")
                #expect(single.err == run.err, "\(model.path): the same diagnostics, printed once")
                let expected = try CorpusGenerationTests.snapshot(alone).contents
                let actual = try CorpusGenerationTests.snapshot(together + "/" + flavor).contents
                #expect(expected == actual, "\(model.path): \(flavor) differs from its own run")
            }
            let entries = try FileManager.default.contentsOfDirectory(atPath: together).sorted()
            #expect(entries == ["coredata", "runtime"], "\(model.path): \(entries)")
            compared += 1
        }
        print("generate --flavor coredata,runtime: \(compared) models, each flavor identical to its own run")
    }

    @Test func secondRunRewritesNothingAndCheckSeesEveryFlavor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let bundle = directory.url.appendingPathComponent("Company.xcdatamodeld")
        try FileManager.default.copyItem(
            at: TestPaths.models.appendingPathComponent("Company.xcdatamodeld"), to: bundle)
        let output = directory.url.appendingPathComponent("Generated").path
        let arguments = ["generate", bundle.path, "--output", output, "--flavor", "all", "--no-cache"]
        #expect(ToolRun.run(arguments).exitCode == .success)
        let before = try Self.modificationDates(output)
        #expect(before.keys.contains("coredata/Company.sql") && before.keys.contains("runtime/Company+DataModel.swift"))
        #expect(ToolRun.run(arguments).exitCode == .success)
        #expect(try Self.modificationDates(output) == before, "a second run rewrote files")
        #expect(ToolRun.run(arguments + ["--check"]).exitCode == .success)

        let contents = bundle.appendingPathComponent("Company.xcdatamodel/contents")
        let xml = try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(
            of: "<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>",
            with:
                "<attribute name=\"motto\" optional=\"YES\" attributeType=\"String\"/>\n        <attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>"
        )
        try xml.write(to: contents, atomically: true, encoding: .utf8)
        let check = ToolRun.run(arguments + ["--check"])
        #expect(check.exitCode == .modelError)
        #expect(check.out.contains("+++ b/\(output)/coredata/"))
        #expect(check.out.contains("+++ b/\(output)/runtime/"))
        #expect(check.out.contains("+    @NSManaged public var motto: String?"))
        #expect(check.err.contains("stale"))
        let dry = ToolRun.run(arguments + ["--dry-run"])
        #expect(dry.out.contains("update coredata/Company.sql"))
        #expect(
            dry.out.contains("keep   runtime/Company+DataModel.swift")
                || dry.out.contains("update runtime/Company+DataModel.swift"))
        #expect(try Self.modificationDates(output) == before, "--check and --dry-run wrote files")
    }

    @Test func flavorListsAreValidated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let bad = ToolRun.run(["generate", model, "--output", directory.path, "--flavor", "coredata,swiftdata"])
        #expect(bad.exitCode == .usageError)
        #expect(bad.err.contains("invalid flavor 'swiftdata'"))
        let empty = ToolRun.run(["generate", model, "--output", directory.path, "--flavor", "runtime,"])
        #expect(empty.exitCode == .usageError)
        // A repeated flavor is generated once, into the output directory itself.
        let repeated = ToolRun.run(["generate", model, "--output", directory.path, "--flavor", "runtime, runtime"])
        #expect(repeated.exitCode == .success, "\(repeated.err)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/Company+DataModel.swift"))
    }

    @Test func configFileNamesSeveralFlavors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.copyItem(
            at: TestPaths.models.appendingPathComponent("Company.xcdatamodeld"),
            to: directory.url.appendingPathComponent("Company.xcdatamodeld"))
        try #"{ "flavor": "runtime,coredata", "output": "Generated", "schema": false }"#.write(
            to: directory.url.appendingPathComponent("datamodelgen.json"), atomically: true, encoding: .utf8)
        let run = ToolRun.run(["generate", directory.path + "/Company.xcdatamodeld"])
        #expect(run.exitCode == .success, "\(run.err)")
        let generated = directory.path + "/Generated"
        #expect(FileManager.default.fileExists(atPath: generated + "/runtime/Company+DataModel.swift"))
        #expect(FileManager.default.fileExists(atPath: generated + "/coredata/EmployeeEntity+CoreDataClass.swift"))
        #expect(!FileManager.default.fileExists(atPath: generated + "/coredata/Company.sql"))
    }

    @Test func declaredOutputsIncludeTheFlavorDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let listed = ToolRun.run([
            "generate", model, "--output", directory.path, "--flavor", "coredata,runtime", "--dry-run",
        ])
        let paths = listed.out.split(separator: "\n").map { String($0.dropFirst(7)) }
        #expect(paths.contains("runtime/Company+DataModel.swift"))
        let expected = paths.flatMap { ["--expect-output", $0] }
        let run = ToolRun.run(
            ["generate", model, "--output", directory.path, "--flavor", "coredata,runtime"] + expected)
        #expect(run.exitCode == .success, "\(run.err)")
        let missing = ToolRun.run(
            ["generate", model, "--output", directory.path, "--flavor", "coredata,runtime", "--no-cache"]
                + expected.dropLast(2))
        #expect(missing.exitCode == .modelError)
        #expect(missing.err.contains("undeclared"))
    }

    @Test func aFIFOAmongTheOutputFilesDoesNotStopGenerate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        // A stale-looking name: generate reads the head of such files to tell whether it wrote them.
        #expect(mkfifo(directory.path + "/Stale.swift", 0o600) == 0)
        let run = ToolRun.run(["generate", model, "--output", directory.path, "--flavor", "runtime"])
        #expect(run.exitCode == .success, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/EmployeeEntity+DataModelClass.swift"))
    }

    @Test func aFlavorDirectoryThatCannotBeMadeIsReportedWithItsPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        // `runtime` is a file, so the runtime flavor's directory cannot be created.
        try "not a directory".write(
            to: directory.url.appendingPathComponent("runtime"), atomically: true, encoding: .utf8)
        let run = ToolRun.run(["generate", model, "--output", directory.path, "--flavor", "coredata,runtime"])
        #expect(run.exitCode == .ioError)
        #expect(run.err.contains("\(directory.path)/runtime: error: cannot create the output directory"), "\(run.err)")
        // The system's words for what went wrong, not a generic "operation could not be completed".
        #expect(run.err.contains("cannot create the output directory: File exists"), "\(run.err)")
        // The Core Data flavor does not depend on it and is written.
        #expect(FileManager.default.fileExists(atPath: directory.path + "/coredata/EmployeeEntity+CoreDataClass.swift"))
    }

    @Test func aFlavorThatFailsToRenderIsNotWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let templates = directory.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "{{>*className}}\n".write(
            to: templates.appendingPathComponent("runtime-class.mustache"), atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("out")
        let run = ToolRun.run([
            "generate", model, "--output", output.path, "--flavor", "coredata,runtime", "--templates", templates.path,
        ])
        #expect(run.exitCode == .modelError)
        #expect(run.err.contains("unknown partial 'BusinessEntity'"), "\(run.err)")
        let runtime = (try? FileManager.default.contentsOfDirectory(atPath: output.path + "/runtime")) ?? []
        #expect(runtime == [], "\(runtime)")
        // Nothing of it is left either: its files were written into a staging directory, removed on failure.
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter {
            $0.contains(".datamodelgen-")
        }
        #expect(leftovers == [], "\(leftovers)")
        // The other flavor rendered, so it is written.
        #expect(FileManager.default.fileExists(atPath: output.path + "/coredata/EmployeeEntity+CoreDataClass.swift"))
    }

    @Test func aFileThatCannotBeReplacedIsReportedAndNoTemporaryFileIsLeft() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        // A directory where a generated file goes: its temporary file is written, the rename fails.
        let blocked = directory.url.appendingPathComponent("runtime/EmployeeEntity+DataModelClass.swift")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        let run = ToolRun.run(["generate", model, "--output", directory.path, "--flavor", "coredata,runtime"])
        #expect(run.exitCode == .ioError)
        #expect(run.err.contains("\(blocked.path): error: cannot replace the file"), "\(run.err)")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter {
            $0.contains(".datamodelgen-")
        }
        #expect(leftovers == [])
    }

    static func modificationDates(_ directory: String) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            dates[name] = attributes[.modificationDate] as? Date
        }
        return dates
    }
}

/// Rendering on several threads gives the same files as rendering on one.
@Suite struct ParallelRenderingTests {
    @Test(arguments: [Flavor.coredata, .runtime])
    func filesDoNotDependOnTheNumberOfThreads(flavor: Flavor) throws {
        let library = try TemplateLoader.library(overrides: nil)
        for model in TestPaths.exampleModels {
            let loaded = try ModelLoader.load(path: model.path, versionName: nil)
            let generator = CodeGenerator(
                library: library, options: GenerationOptions(flavor: flavor, includeManual: true),
                scheduler: ThreadedWork())
            let serial = try generator.generate(loaded.model, parallelism: 1)
            for threads in [2, 3, 8] {
                #expect(
                    try generator.generate(loaded.model, parallelism: threads) == serial, "\(model.lastPathComponent)")
            }
        }
    }
}
