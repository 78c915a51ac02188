import DataModelGenCLI
import Foundation
import Testing

/// `generate --flavor coredata` over every model in `Models/` and in the shared corpus.
@Suite struct CorpusGenerationTests {
    /// Models to run: the examples plus the corpus when present.
    static var allModels: [URL] { TestPaths.exampleModels + TestPaths.corpusModels }

    @Test func generatesTwiceIdenticallyAndChecksClean() throws {
        if TestPaths.corpus == nil { print("corpus: ../shared/corpus/models is absent; checking Models/ only") }
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        var generated = 0
        for (index, model) in Self.allModels.enumerated() {
            let output = directory.url.appendingPathComponent("\(index)").path
            let first = ToolRun.run(["generate", model.path, "--output", output, "--flavor", "coredata"])
            #expect(first.exitCode == .success, "\(model.path): \(first.err)")
            let snapshot = try Self.snapshot(output)
            // `--no-cache`: the second run must generate again and find every byte unchanged, not be answered by
            // the no-change cache.
            let second = ToolRun.run([
                "generate", model.path, "--output", output, "--flavor", "coredata", "--no-cache",
            ])
            #expect(second.exitCode == .success, "\(model.path): \(second.err)")
            let again = try Self.snapshot(output)
            #expect(snapshot.contents == again.contents, "\(model.path): second run changed bytes")
            #expect(snapshot.modificationDates == again.modificationDates, "\(model.path): second run rewrote files")
            let check = ToolRun.run(["generate", model.path, "--output", output, "--flavor", "coredata", "--check"])
            #expect(check.exitCode == .success, "\(model.path): --check after generate: \(check.out)")
            generated += 1
        }
        print("generate --flavor coredata: \(generated) models, each twice with identical bytes")
    }

    @Test func checkFailsWithDiffAfterModelChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let bundle = directory.url.appendingPathComponent("Company.xcdatamodeld")
        try FileManager.default.copyItem(
            at: TestPaths.models.appendingPathComponent("Company.xcdatamodeld"), to: bundle)
        let output = directory.url.appendingPathComponent("Generated").path
        #expect(
            ToolRun.run(["generate", bundle.path, "--output", output, "--flavor", "coredata"]).exitCode == .success)
        let contents = bundle.appendingPathComponent("Company.xcdatamodel/contents")
        var xml = try String(contentsOf: contents, encoding: .utf8)
        xml = xml.replacingOccurrences(
            of: "<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>",
            with:
                "<attribute name=\"motto\" optional=\"YES\" attributeType=\"String\"/>\n        <attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>"
        )
        try xml.write(to: contents, atomically: true, encoding: .utf8)
        let check = ToolRun.run(["generate", bundle.path, "--output", output, "--flavor", "coredata", "--check"])
        #expect(check.exitCode == .modelError)
        #expect(check.out.contains("+    @NSManaged public var motto: String?"))
        #expect(check.err.contains("stale"))
    }

    @Test func staleGeneratedFilesAreRemovedAndOthersKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let output = directory.url.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let stale = output.appendingPathComponent("Gone+CoreDataProperties.swift")
        try
            "//\n//  Gone+CoreDataProperties.swift\n//  \n//\n//  This file was automatically generated and should not be edited.\n//\n"
            .write(to: stale, atomically: true, encoding: .utf8)
        let mine = output.appendingPathComponent("Helpers.swift")
        try "// my own code\n".write(to: mine, atomically: true, encoding: .utf8)
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let dry = ToolRun.run(["generate", model, "--output", output.path, "--flavor", "coredata", "--dry-run"])
        #expect(dry.out.contains("remove Gone+CoreDataProperties.swift"))
        #expect(dry.out.contains("create BusinessEntity+CoreDataClass.swift"))
        #expect(FileManager.default.fileExists(atPath: stale.path))
        #expect(ToolRun.run(["generate", model, "--output", output.path, "--flavor", "coredata"]).exitCode == .success)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: mine.path))
    }

    /// A schema file an earlier run wrote is stale once `--no-schema` is given, like any file the tool wrote.
    @Test func noSchemaRemovesTheSchemaFileAnEarlierRunWrote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path
        let output = directory.url.appendingPathComponent("Generated").path
        #expect(ToolRun.run(["generate", model, "--output", output, "--no-cache"]).exitCode == .success)
        #expect(FileManager.default.fileExists(atPath: output + "/Company.sql"))
        let dry = ToolRun.run(["generate", model, "--output", output, "--no-schema", "--no-cache", "--dry-run"])
        #expect(dry.out.contains("remove Company.sql"))
        #expect(ToolRun.run(["generate", model, "--output", output, "--no-schema", "--no-cache"]).exitCode == .success)
        #expect(!FileManager.default.fileExists(atPath: output + "/Company.sql"))
        #expect(FileManager.default.fileExists(atPath: output + "/Company+DataModel.swift"))
    }

    @Test(.enabled(if: swiftc != nil, "swiftc was not found"))
    func everyGeneratedFileParsesAsSwift() throws {
        let swiftc = try #require(Self.swiftc)
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        var files: [String] = []
        for (index, model) in Self.allModels.enumerated() {
            let output = directory.url.appendingPathComponent("\(index)").path
            let run = ToolRun.run([
                "generate", model.path, "--output", output, "--flavor", "coredata", "--include-manual", "--no-schema",
            ])
            #expect(run.exitCode == .success, "\(model.path): \(run.err)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
            let swiftFiles = names.filter { $0.hasSuffix(".swift") }
            #expect(!swiftFiles.isEmpty, "\(model.path): generate wrote no Swift file")
            files += swiftFiles.map { output + "/" + $0 }
        }
        // One swiftc -parse per batch of files keeps this fast; a batch never holds two files with one name.
        var batches: [[String]] = []
        var batchNames: [Set<String>] = []
        for file in files {
            let name = (file as NSString).lastPathComponent
            if let index = batchNames.firstIndex(where: { !$0.contains(name) }) {
                batches[index].append(file)
                batchNames[index].insert(name)
            } else {
                batches.append([file])
                batchNames.append([name])
            }
        }
        var failures: [String] = []
        for batch in batches {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swiftc)
            process.arguments = ["-parse"] + batch
            let pipe = Pipe()
            process.standardError = pipe
            try process.run()
            let errors = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus != 0 { failures.append(String(decoding: errors, as: UTF8.self)) }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        print("swiftc -parse: \(files.count) generated Core Data–flavor files parse")
    }

    static let swiftc: String? = {
        let candidates = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").map {
            "\($0)/swiftc"
        }
        return (candidates + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]).first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    struct Snapshot {
        var contents: [String: Data]
        var modificationDates: [String: Date]
    }

    static func snapshot(_ directory: String) throws -> Snapshot {
        var snapshot = Snapshot(contents: [:], modificationDates: [:])
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            snapshot.contents[name] = FileManager.default.contents(atPath: path)
            snapshot.modificationDates[name] =
                try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        }
        return snapshot
    }
}

/// An unchanged re-run is answered from the generation cache, and anything changed is regenerated.
@Suite struct GenerationCacheTests {
    @Test func editedOrRemovedOutputIsRestoredAndWarningsReplayed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = TestPaths.models.appendingPathComponent("ReservedNames.xcdatamodeld").path
        let output = directory.url.appendingPathComponent("out").path
        let arguments = ["generate", model, "--output", output, "--flavor", "coredata"]
        let first = ToolRun.run(arguments)
        #expect(first.exitCode == .success)
        #expect(first.err.contains("warning:"))
        let second = ToolRun.run(arguments)
        #expect(second.exitCode == .success)
        #expect(second.err == first.err, "a cached run prints the same diagnostics")

        let file = output + "/Class+CoreDataClass.swift"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try original.replacingOccurrences(of: "public class", with: "public klass").write(
            toFile: file, atomically: true, encoding: .utf8)
        #expect(ToolRun.run(arguments).exitCode == .success)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == original)

        try FileManager.default.removeItem(atPath: file)
        #expect(ToolRun.run(arguments).exitCode == .success)
        #expect(FileManager.default.fileExists(atPath: file))

        // A different option is a different fingerprint.
        let internalRun = ToolRun.run(arguments + ["--access", "internal"])
        #expect(internalRun.exitCode == .success)
        #expect(try !String(contentsOfFile: file, encoding: .utf8).contains("public class"))
    }
}
