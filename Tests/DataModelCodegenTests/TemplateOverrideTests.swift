import DataModelGenCLI
import DataModelTemplates
import Foundation
import Testing

/// `--templates DIR` replaces default templates by file name, and an override can extend one block.
@Suite struct TemplateOverrideTests {
    static let company = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path

    /// The default templates are compiled into the binary from `Templates/*.mustache`, byte for byte.
    @Test func theDefaultTemplatesAreBuiltInByteForByte() throws {
        let directory = TestPaths.repoRoot.appendingPathComponent("Templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
        #expect(Set(files) == Set(DefaultTemplates.names))
        for name in DefaultTemplates.names {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(name + ".mustache"))
            let embedded = try #require(DefaultTemplates.source(named: name), "\(name)")
            #expect(embedded.utf8.elementsEqual(bytes), "\(name)")
        }
    }

    @Test func overrideExtendsOneBlockOfTheDefault() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let templates = directory.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try """
        {{<default-coredata-class}}
        {{$imports}}
        import Foundation
        import CoreData
        import MyKit
        {{/imports}}
        {{/default-coredata-class}}
        """.write(to: templates.appendingPathComponent("coredata-class.mustache"), atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("out").path
        let run = ToolRun.run([
            "generate", Self.company, "--output", output, "--flavor", "coredata", "--templates", templates.path,
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        let classFile = try String(contentsOfFile: output + "/BusinessEntity+CoreDataClass.swift", encoding: .utf8)
        #expect(classFile.contains("import CoreData\nimport MyKit\n\n@objc(BusinessEntity)"))
        // Templates that were not overridden come from the defaults.
        let golden = TestPaths.golden.appendingPathComponent("Company/coredata/BusinessEntity+CoreDataProperties.swift")
        #expect(
            try String(contentsOfFile: output + "/BusinessEntity+CoreDataProperties.swift", encoding: .utf8)
                == String(contentsOf: golden, encoding: .utf8))
    }

    @Test func templateErrorIsADiagnosticWithPosition() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.url.appendingPathComponent("coredata-class.mustache")
        try "line one\n{{#entities}}\n".write(to: path, atomically: true, encoding: .utf8)
        let run = ToolRun.run([
            "generate", Self.company, "--output", directory.url.appendingPathComponent("out").path, "--flavor",
            "coredata", "--templates", directory.path,
        ])
        #expect(run.exitCode != .success)
        #expect(run.err.contains("\(path.path):2:"), "\(run.err)")
        #expect(run.err.contains("error:"))
    }

    @Test func unknownPartialIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.url.appendingPathComponent("coredata-class.mustache")
        try "{{> nowhere}}\n".write(to: path, atomically: true, encoding: .utf8)
        let run = ToolRun.run([
            "generate", Self.company, "--output", directory.url.appendingPathComponent("out").path, "--flavor",
            "coredata", "--templates", directory.path,
        ])
        #expect(run.exitCode != .success)
        #expect(run.err.contains("nowhere"), "\(run.err)")
    }

    /// Files render on several threads; when several fail, the error is the first file's, every time.
    @Test func renderErrorIsTheFirstFilesWhateverTheThreads() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        // A dynamic partial named after the class: unknown for every entity, with the entity in the message.
        try "{{>*className}}\n".write(
            to: directory.url.appendingPathComponent("coredata-class.mustache"), atomically: true, encoding: .utf8)
        var errors: Set<String> = []
        for _ in 0..<8 {
            let run = ToolRun.run([
                "generate", Self.company, "--output", directory.url.appendingPathComponent("out").path, "--flavor",
                "coredata", "--templates", directory.path, "--no-cache",
            ])
            #expect(run.exitCode == .modelError)
            errors.insert(run.err)
        }
        #expect(errors.count == 1, "\(errors)")
        // BusinessEntity+CoreDataClass.swift is the first class file by path.
        #expect(errors.first?.contains("unknown partial 'BusinessEntity'") == true, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("out").path))
    }
}
