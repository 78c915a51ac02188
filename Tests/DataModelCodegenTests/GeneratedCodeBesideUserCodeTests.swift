import DataModelGenCLI
import DataModelNaming
import Foundation
import Testing

/// Generated code in the user's target, beside the user's own files: file names that never collide with the names
/// people give their files, a model type name of the user's choice, and Xcode's shapes for ports
/// (`--xcode-compatible`). Each is type-checked with `swiftc` against the `DataModelRuntime` module of this build,
/// as one module, the way SwiftPM compiles a target (where two `Person.swift` fail the build).
@Suite("Generated code beside user code")
struct GeneratedCodeBesideUserCodeTests {
    // MARK: File names

    @Test(.enabled(if: TypeCheck.isAvailable, "swiftc or the DataModelRuntime module was not found"))
    func userFilesNamedLikeTheClassAndTheModelTypeCompileBesideTheGeneratedOnes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let generated = directory.url.appendingPathComponent("Generated").path
        let run = ToolRun.run([
            "generate", Self.model("Person"), "--output", generated, "--include-manual", "--no-schema",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        let user = directory.url.appendingPathComponent("App")
        let userFiles = try Self.write(
            [
                "Person.swift": "extension Person {\n    var displayName: String { name ?? \"?\" }\n}\n",
                "PersonModel.swift":
                    "extension PersonModel {\n    static var entityCount: Int { model.entities.count }\n}\n",
            ], in: user)
        let generatedFiles = try Self.swiftFiles(in: generated)
        #expect(
            Set(generatedFiles.map { ($0 as NSString).lastPathComponent }).isDisjoint(with: [
                "Person.swift", "PersonModel.swift",
            ]))
        let result = try TypeCheck.run(generatedFiles + userFiles)
        #expect(result.succeeded, "\(result.errors)")
    }

    /// A type check of two files with one name fails (the failure the naming convention avoids), so the test
    /// above can fail.
    @Test(.enabled(if: TypeCheck.isAvailable, "swiftc or the DataModelRuntime module was not found"))
    func twoFilesWithOneNameDoNotCompile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let first = try Self.write(["Person.swift": "enum A {}\n"], in: directory.url.appendingPathComponent("a"))
        let second = try Self.write(["Person.swift": "enum B {}\n"], in: directory.url.appendingPathComponent("b"))
        let result = try TypeCheck.run(first + second)
        #expect(!result.succeeded)
        #expect(result.errors.contains("Person.swift"))
    }

    @Test func everyGeneratedNameEndsInAGeneratorSuffix() {
        let entities: [ModelNaming.EntityFacts] = [
            .init(name: "Person", representedClassName: nil, codeGeneration: .class),
            .init(name: "Tag", representedClassName: nil, codeGeneration: .category),
        ]
        for flavor in ModelNaming.Flavor.allCases {
            for xcodeCompatible in [false, true] {
                let names = ModelNaming.outputFiles(
                    modelName: "Person", entities: entities, flavor: flavor, includeManual: true,
                    xcodeCompatible: xcodeCompatible
                ).map(\.name)
                #expect(!names.isEmpty)
                for name in names {
                    #expect(
                        [
                            "+DataModelClass.swift", "+DataModelProperties.swift", "+DataModel.swift",
                            "+CoreDataClass.swift",
                            "+CoreDataProperties.swift",
                        ].contains { name.hasSuffix($0) }, "\(name) (\(flavor))")
                }
            }
        }
    }

    /// Files an older version wrote (`EmployeeEntity.swift`, `EmployeeEntity+Properties.swift`,
    /// `Company+Model.swift`) carry the generator's header: the next `generate` removes them; the user's files stay,
    /// and so do files an older version wrote for Manual/None entities, which say they are the user's to edit.
    @Test func filesWithTheOldNamesAreRemovedOnUpgrade() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let output = directory.url.appendingPathComponent("Generated")
        let old = ["EmployeeEntity.swift", "EmployeeEntity+Properties.swift", "Company+Model.swift"]
        var files: [String: String] = [:]
        for name in old {
            files[name] =
                "// \(name) — generated from Company.xcdatamodeld by datamodelgen. Do not edit.\nimport Foundation\n"
        }
        files["Mine.swift"] = "// Mine.\nimport Foundation\n"
        files["Person.swift"] =
            "// Person.swift — created from Company.xcdatamodeld by datamodelgen. This file is yours to edit.\n"
        _ = try Self.write(files, in: output)
        let run = ToolRun.run(["generate", Self.model("Company"), "--output", output.path, "--no-schema"])
        #expect(run.exitCode == .success, "\(run.err)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: output.path))
        #expect(names.isDisjoint(with: old), "\(names)")
        #expect(names.isSuperset(of: ["Mine.swift", "Person.swift"]))
        #expect(
            names.isSuperset(of: [
                "EmployeeEntity+DataModelClass.swift", "EmployeeEntity+DataModelProperties.swift",
                "Company+DataModel.swift",
            ]))

        // Switching to Xcode's names removes the files of the default names.
        let xcode = ToolRun.run([
            "generate", Self.model("Company"), "--output", output.path, "--no-schema", "--xcode-compatible",
        ])
        #expect(xcode.exitCode == .success, "\(xcode.err)")
        let xcodeNames = Set(
            try FileManager.default.contentsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".") })
        #expect(
            xcodeNames == [
                "BusinessEntity+CoreDataClass.swift", "BusinessEntity+CoreDataProperties.swift",
                "Company+DataModel.swift",
                "DepartmentEntity+CoreDataClass.swift", "DepartmentEntity+CoreDataProperties.swift",
                "EmployeeEntity+CoreDataClass.swift", "EmployeeEntity+CoreDataProperties.swift", "Mine.swift",
                "Person.swift",
            ], "\(xcodeNames)")
    }

    /// Files of Manual/None entities (`--include-manual`, Xcode's "Create NSManagedObject Subclass") say they are
    /// the user's to edit, in both flavors; files of `class` entities say "Do not edit".
    @Test(arguments: ["runtime", "coredata"])
    func manualEntitiesFilesAreTheUsers(_ flavor: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let manual = directory.url.appendingPathComponent("Person").path
        let run = ToolRun.run([
            "generate", Self.model("Person"), "--output", manual, "--include-manual", "--no-schema", "--flavor", flavor,
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        for file in try Self.swiftFiles(in: manual) where !file.hasSuffix(ModelNaming.modelFileSuffix) {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains("This file is yours to edit."), "\(file)")
            #expect(!text.contains("Do not edit") && !text.contains("should not be edited"), "\(file)")
        }
        let owned = directory.url.appendingPathComponent("Company").path
        #expect(
            ToolRun.run(["generate", Self.model("Company"), "--output", owned, "--no-schema", "--flavor", flavor])
                .exitCode == .success)
        for file in try Self.swiftFiles(in: owned) {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.contains("yours to edit"), "\(file)")
        }
    }

    // MARK: The model type name

    @Test(.enabled(if: TypeCheck.isAvailable, "swiftc or the DataModelRuntime module was not found"))
    func aModelTypeNameTheUserTookCompilesWithModelTypeName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        // A tutorial's own protocol, named like the default model type.
        let userFiles = try Self.write(
            [
                "PersonModel.swift":
                    "protocol PersonModel {\n    var name: String? { get }\n}\n\nextension Person: PersonModel {}\n"
            ], in: directory.url.appendingPathComponent("App"))
        let plain = directory.url.appendingPathComponent("Plain").path
        #expect(
            ToolRun.run(["generate", Self.model("Person"), "--output", plain, "--include-manual", "--no-schema"])
                .exitCode == .success)
        let clash = try TypeCheck.run(try Self.swiftFiles(in: plain) + userFiles)
        #expect(!clash.succeeded, "the default name PersonModel should clash with the user's protocol")

        let renamed = directory.url.appendingPathComponent("Renamed").path
        let run = ToolRun.run([
            "generate", Self.model("Person"), "--output", renamed, "--include-manual", "--no-schema",
            "--model-type-name", "PersonStore",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        let modelFile = try String(contentsOfFile: renamed + "/Person+DataModel.swift", encoding: .utf8)
        #expect(modelFile.contains("public enum PersonStore {"))
        let userCode = try Self.write(
            ["Store.swift": "let storeModel = PersonStore.model\n"], in: directory.url.appendingPathComponent("More"))
        let result = try TypeCheck.run(try Self.swiftFiles(in: renamed) + userFiles + userCode)
        #expect(result.succeeded, "\(result.errors)")
    }

    @Test func theConfigNamesTheModelType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = directory.url.appendingPathComponent("Person.xcdatamodeld")
        try FileManager.default.copyItem(atPath: Self.model("Person"), toPath: model.path)
        let config = directory.url.appendingPathComponent(ModelNaming.Config.fileName)
        try "{ \"modelTypeName\": \"People\", \"includeManual\": true, \"xcodeCompatible\": true }\n".write(
            to: config, atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("Out").path
        let run = ToolRun.run(["generate", model.path, "--output", output, "--no-schema"])
        #expect(run.exitCode == .success, "\(run.err)")
        let modelFile = try String(contentsOfFile: output + "/Person+DataModel.swift", encoding: .utf8)
        #expect(modelFile.contains("public enum People {"))
        #expect(FileManager.default.fileExists(atPath: output + "/Person+CoreDataProperties.swift"))
        // The command line wins.
        let given = ToolRun.run([
            "generate", model.path, "--output", output, "--no-schema", "--model-type-name", "PersonData",
        ])
        #expect(given.exitCode == .success, "\(given.err)")
        #expect(
            try String(contentsOfFile: output + "/Person+DataModel.swift", encoding: .utf8).contains(
                "enum PersonData {"))
    }

    @Test(arguments: ["class", "Type", "1st", "Person Store", "Person.Model", ""])
    func anInvalidModelTypeNameIsAUsageError(_ name: String) throws {
        let run = ToolRun.run([
            "generate", Self.model("Person"), "--output", "/nonexistent/out", "--dry-run", "--model-type-name", name,
        ])
        #expect(run.exitCode == .usageError)
        #expect(run.err.contains("error: invalid model type name for --model-type-name: '\(name)'"), "\(run.err)")
    }

    @Test func anInvalidModelTypeNameInTheConfigIsReportedAtItsLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let model = directory.url.appendingPathComponent("Person.xcdatamodeld")
        try FileManager.default.copyItem(atPath: Self.model("Person"), toPath: model.path)
        let config = directory.url.appendingPathComponent(ModelNaming.Config.fileName)
        try "{\n  \"output\": \"Out\",\n    \"modelTypeName\": \"protocol\"\n}\n".write(
            to: config, atomically: true, encoding: .utf8)
        let run = ToolRun.run(["generate", model.path, "--dry-run"])
        #expect(run.exitCode == .usageError)
        #expect(
            run.err.contains("\(config.path):3:5: error: invalid model type name: 'protocol' is a Swift keyword"),
            "\(run.err)")
    }

    @Test func aModelTypeNamedLikeAnEntitysClassIsAModelError() throws {
        let run = ToolRun.run([
            "generate", Self.model("Person"), "--output", "/nonexistent/out", "--dry-run", "--model-type-name",
            "Person",
            "--include-manual",
        ])
        #expect(run.exitCode == .modelError)
        #expect(run.err.contains("error: the model type 'Person' has the name of entity 'Person's class"), "\(run.err)")
        #expect(run.err.contains("[model-type-name-collision]"), "\(run.err)")
    }

    // MARK: Xcode's shapes

    @Test(.enabled(if: TypeCheck.isAvailable, "swiftc or the DataModelRuntime module was not found"))
    func portedCodeCompilesAgainstTheXcodeCompatibleRuntimeFlavor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        // Code written against Xcode's generated classes.
        let port = try Self.write(
            [
                "Port.swift": """
                import DataModelRuntime
                import Foundation

                func describe(_ item: PortedItem, tag: PortedTag) -> String {
                    let count: Int16 = item.count
                    item.count += 1
                    item.isDone.toggle()
                    let title = item.title ?? "Untitled"
                    if let date = item.timestamp { _ = date }
                    let total: Double = item.price * Double(count)
                    let tags = item.tags?.allObjects as? [PortedTag] ?? []
                    let tagSet = item.tags as? Set<PortedTag> ?? []
                    let siblings = item.list?.items?.array as? [PortedItem] ?? []
                    item.addToTags(tag)
                    return "\\(title) \\(total) \\(item.serial + 1) \\(tags.count + tagSet.count + siblings.count)"
                }

                """
            ], in: directory.url.appendingPathComponent("App"))
        let plain = directory.url.appendingPathComponent("Plain").path
        #expect(ToolRun.run(["generate", Self.model("Ported"), "--output", plain, "--no-schema"]).exitCode == .success)
        if TypeCheck.isAvailable {
            let result = try TypeCheck.run(try Self.swiftFiles(in: plain) + port)
            #expect(!result.succeeded, "the Swift-native default has Int16? and String: the port should not compile")
        }
        let xcode = directory.url.appendingPathComponent("Xcode").path
        let run = ToolRun.run([
            "generate", Self.model("Ported"), "--output", xcode, "--no-schema", "--xcode-compatible",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        let properties = try String(contentsOfFile: xcode + "/PortedItem+CoreDataProperties.swift", encoding: .utf8)
        for declaration in [
            "public var count: Int16 {", "public var isDone: Bool {", "public var price: Double {",
            "public var serial: Int64 {", "public var rating: Int32? {", "public var title: String? {",
            "public var timestamp: Date? {", "public var tags: NSSet? {", "public var list: PortedList? {",
        ] {
            #expect(properties.contains(declaration), "\(declaration)")
        }
        let result = try TypeCheck.run(try Self.swiftFiles(in: xcode) + port)
        #expect(result.succeeded, "\(result.errors)")
    }

    /// The Core Data flavor has Xcode's shapes already: `--xcode-compatible` changes nothing in it.
    @Test(arguments: ["Company", "Ported"])
    func theCoreDataFlavorIsTheSameWithXcodeCompatible(_ name: String) {
        let golden = TestPaths.golden.appendingPathComponent("\(name)/coredata").path
        let run = ToolRun.run([
            "generate", Self.model(name), "--output", golden, "--flavor", "coredata", "--include-manual", "--no-schema",
            "--xcode-compatible", "--check",
        ])
        #expect(run.exitCode == .success, "\(run.out)\(run.err)")
    }

    // MARK: Helpers

    static func model(_ name: String) -> String {
        TestPaths.models.appendingPathComponent(name + ".xcdatamodeld").path
    }

    /// Writes `files` (name → text) into `directory`; returns their paths.
    static func write(_ files: [String: String], in directory: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        return paths
    }

    static func swiftFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }.sorted()
            .map { directory + "/" + $0 }
    }
}

/// `swiftc -typecheck` of files as one module importing this build's `DataModelRuntime`.
enum TypeCheck {
    /// The build's `Modules` directory (beside the test binary), when it holds `DataModelRuntime`.
    static let modules: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("DataModelRuntime.swiftmodule").path)
            {
                return modules
            }
        }
        return nil
    }()

    static var isAvailable: Bool { CorpusGenerationTests.swiftc != nil && modules != nil }

    struct Result {
        var succeeded: Bool
        var errors: String
    }

    static func run(_ files: [String]) throws -> Result {
        let swiftc = try #require(CorpusGenerationTests.swiftc)
        let modules = try #require(modules)
        let csqlite = TestPaths.repoRoot.appendingPathComponent("Sources/CSQLite").path
        // DataModelRuntime uses PostgresKit, which imports libpq's header through the CLibPQ module map.
        let clibpq = TestPaths.repoRoot.appendingPathComponent("Sources/CLibPQ").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments =
            [
                "-typecheck", "-swift-version", "6", "-module-name", "App", "-parse-as-library", "-I", modules.path,
                "-Xcc", "-fmodule-map-file=\(csqlite)/module.modulemap", "-Xcc", "-I\(csqlite)",
                "-Xcc", "-fmodule-map-file=\(clibpq)/module.modulemap", "-Xcc", "-I\(clibpq)",
                "-Xcc", "-I/usr/include/postgresql",
            ] + files
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(succeeded: process.terminationStatus == 0, errors: String(decoding: output, as: UTF8.self))
    }
}
