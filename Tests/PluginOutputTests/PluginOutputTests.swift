import DataModelGenCLI
import Foundation
import Synchronization
import Testing

// This target compiles the plugins' shared sources (`PluginsShared`, a symlink to `Plugins/PluginsShared`, which
// holds the symlink to `Sources/DataModelNaming/ModelNaming.swift`): `ModelScanner`, `GeneratorOptions` and
// `ModelNaming` here are the plugins' own code, and `generate` runs in-process through `DataModelGenCLI`.

/// The build plugin declares its outputs before the generator runs, predicted from its quick scan of the model;
/// these tests check that prediction against the files `datamodelgen generate` actually writes.
@Suite("Plugin output prediction")
struct PluginOutputTests {
    @Test func predictionsMatchGenerateForEveryExampleModel() throws {
        let models = PluginTestPaths.exampleModels
        #expect(!models.isEmpty, "no models found in \(PluginTestPaths.models.path)")
        let checked = try Self.checkPredictions(models)
        #expect(checked > 0, "no model was checked")
    }

    @Test(
        .enabled(
            if: PluginTestPaths.corpus != nil,
            "the shared corpus (../shared/corpus/models) is absent: only Models/ is checked"))
    func predictionsMatchGenerateForEveryCorpusModel() throws {
        let models = PluginTestPaths.corpusModels
        #expect(!models.isEmpty, "no models found in the corpus")
        let checked = try Self.checkPredictions(models)
        #expect(checked > 0, "no corpus model was checked")
    }

    /// A model made to exercise every naming rule the prediction depends on: module prefixes (`MyApp.PersonMO`,
    /// `.TagMO`), `NSManagedObject` (the entity's own class in the runtime flavor only), `class`, `category` and
    /// Manual/None code generation, and versions in natural order (`Edge 10` after `Edge 9`, no
    /// `.xccurrentversion`: the newest is used) or pinned. Checked whether or not the corpus is present.
    @Test func predictionsMatchGenerateForTheNamingEdgeCases() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datamodelgen-plugin-outputs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Edge.xcdatamodeld")
        try EdgeModel.write(to: bundle)
        #expect(try Self.checkPredictions([bundle]) == 1)
        for version in ["Edge 9", "Edge 10"] {
            let scanned = ModelScanner.scan(bundle, versionName: version)
            let entities = try #require(scanned.entities)
            for flavor in ModelNaming.Flavor.allCases {
                var options = GeneratorOptions()
                options.flavor = flavor
                options.includeManual = true
                let actual = try Self.generatedFileNames(
                    bundle, flavor: flavor, includeManual: true, extraArguments: ["--model-version", version])
                #expect(options.outputFileNames(for: scanned, entities: entities) == actual, "\(version), \(flavor)")
            }
        }
    }

    /// The plugins read `datamodelgen.json` with the keys and meanings `generate` uses: the command plugin's
    /// arguments for a model with a config make `generate` write what it writes from the config alone.
    @Test func thePluginsReadTheConfigAsGenerateDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datamodelgen-plugin-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("Company.xcdatamodeld")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PluginTestPaths.models.appendingPathComponent("Company.xcdatamodeld"), to: model)
        let config = directory.appendingPathComponent(ModelNaming.Config.fileName)
        let json = """
            { "flavor": "coredata", "access": "internal", "includeManual": true, "schema": true, "output": "Gen" }
            """
        try json.write(to: config, atomically: true, encoding: .utf8)

        let options = try GeneratorOptions.load(
            config: GeneratorOptions.configFile(for: model, targetDirectory: directory))
        #expect(options.flavor == .coredata)
        #expect(options.access == "internal")
        #expect(options.includeManual)
        #expect(options.schema)
        #expect(
            options.configuredOutput?.standardizedFileURL == directory.appendingPathComponent("Gen").standardizedFileURL
        )

        let output = directory.appendingPathComponent("Gen")
        let fromPlugin = try Self.runGenerate(
            options.generateArguments(model: model, output: output) + options.schemaArguments(asked: false)
                + ["--dry-run"])
        let fromConfig = try Self.runGenerate(["generate", model.path, "--output", output.path, "--dry-run"])
        #expect(fromPlugin == fromConfig)
        #expect(fromConfig.contains(ModelNaming.schemaFileName(modelName: "Company")))
        #expect(fromConfig.contains { $0.hasSuffix("+CoreDataClass.swift") })
    }

    /// `modelTypeName` and `xcodeCompatible` in the config reach the generator, and the build plugin predicts the
    /// Xcode file names `xcodeCompatible` gives the runtime flavor.
    @Test func thePluginsHonourModelTypeNameAndXcodeCompatible() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datamodelgen-plugin-xcode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("Company.xcdatamodeld")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PluginTestPaths.models.appendingPathComponent("Company.xcdatamodeld"), to: model)
        let config = directory.appendingPathComponent(ModelNaming.Config.fileName)
        try #"{ "modelTypeName": "CompanyStore", "xcodeCompatible": true }"#.write(
            to: config, atomically: true, encoding: .utf8)

        let options = try GeneratorOptions.load(
            config: GeneratorOptions.configFile(for: model, targetDirectory: directory))
        #expect(options.modelTypeName == "CompanyStore")
        #expect(options.xcodeCompatible)
        let output = directory.appendingPathComponent("Out")
        let arguments = options.generateArguments(model: model, output: output) + ["--no-schema"]
        #expect(arguments.contains("--xcode-compatible"))
        let scanned = ModelScanner.scan(model, versionName: nil)
        let predicted = options.outputFileNames(for: scanned, entities: try #require(scanned.entities))
        #expect(predicted.contains("EmployeeEntity+CoreDataClass.swift"))
        #expect(predicted.contains("Company+DataModel.swift"))
        // What the build plugin runs writes exactly the predicted files, with the configured type name.
        let code = CommandLineTool(console: Console(out: { _ in }, err: { _ in })).run(
            arguments + predicted.flatMap { ["--expect-output", $0] })
        #expect(code == .success)
        let written = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { !$0.hasPrefix(".") }
        #expect(written.sorted() == predicted)
        let modelFile = try String(
            contentsOf: output.appendingPathComponent("Company+DataModel.swift"), encoding: .utf8)
        #expect(modelFile.contains("enum CompanyStore {"))
    }

    /// The build plugin regenerates into its own work directory, which nobody edits: with `includeManual`, a
    /// Manual/None entity's files ("yours to edit" in a directory of yours) follow the model there
    /// (`--overwrite-user-files`), where `generate` alone would keep them as they are.
    @Test func theBuildPluginRegeneratesManualEntitiesFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datamodelgen-plugin-manual-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Edge.xcdatamodeld")
        try EdgeModel.write(to: bundle)
        var options = GeneratorOptions()
        options.includeManual = true
        let output = directory.appendingPathComponent("Out")
        let arguments = options.generateArguments(model: bundle, output: output) + options.buildPluginArguments
        #expect(arguments.contains("--overwrite-user-files"))
        let scanned = ModelScanner.scan(bundle, versionName: nil)
        let predicted = options.outputFileNames(for: scanned, entities: try #require(scanned.entities))
        let console = Console(out: { _ in }, err: { _ in })
        let run = arguments + predicted.flatMap { ["--expect-output", $0] }
        #expect(CommandLineTool(console: console).run(run) == .success)
        let properties = output.appendingPathComponent("Note+DataModelProperties.swift")
        #expect(try String(contentsOf: properties, encoding: .utf8).contains("This file is yours to edit."))

        let contents = bundle.appendingPathComponent("Edge 10.xcdatamodel/contents")
        let edited = try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(
            of: #"<attribute name="text" "#,
            with: #"<attribute name="title" optional="YES" attributeType="String"/><attribute name="text" "#)
        try edited.write(to: contents, atomically: true, encoding: .utf8)
        #expect(CommandLineTool(console: console).run(run) == .success)
        #expect(try String(contentsOf: properties, encoding: .utf8).contains("var title: String?"))
        #expect(!GeneratorOptions().buildPluginArguments.contains("--overwrite-user-files"))
    }

    /// The plugins compile the generator's naming file itself (a symlink), not a copy of it.
    @Test func thePluginsShareTheGeneratorsNamingFile() throws {
        let link = PluginTestPaths.repoRoot.appendingPathComponent("Plugins/PluginsShared/ModelNaming.swift")
        let source = PluginTestPaths.repoRoot.appendingPathComponent("Sources/DataModelNaming/ModelNaming.swift")
        let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "\(link.path) is not a symlink")
        #expect(link.resolvingSymlinksInPath().path == source.resolvingSymlinksInPath().path)
    }

    /// The naming file imports nothing: it must compile alone, in the plugins and in any target.
    @Test func theNamingFileUsesOnlyTheStandardLibrary() throws {
        let directory = PluginTestPaths.repoRoot.appendingPathComponent("Sources/DataModelNaming")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let source = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            let imports = source.split(separator: "\n").filter { $0.contains(/^\s*(@\w+\s+)?(\w+\s+)?import\s/) }
            #expect(imports.isEmpty, "Sources/DataModelNaming/\(name): \(imports)")
        }
    }

    /// Checks every model in both flavors, with and without `--include-manual`; returns how many models
    /// `generate` accepted (a model it rejects fails the build with its diagnostics: nothing to predict).
    static func checkPredictions(_ models: [URL]) throws -> Int {
        var checked = 0
        for model in models {
            var accepted = false
            for flavor in ModelNaming.Flavor.allCases {
                for includeManual in [false, true] {
                    var options = GeneratorOptions()
                    options.flavor = flavor
                    options.includeManual = includeManual
                    guard let actual = try? generatedFileNames(model, flavor: flavor, includeManual: includeManual)
                    else { continue }
                    accepted = true
                    let scanned = ModelScanner.scan(model, versionName: nil)
                    let entities = try #require(scanned.entities, "\(model.path): the plugin's scan failed")
                    let predicted = options.outputFileNames(for: scanned, entities: entities)
                    #expect(
                        predicted == actual,
                        "\(model.path) (\(flavor.rawValue), includeManual: \(includeManual)): the plugin predicts \(predicted), generate writes \(actual)"
                    )
                }
            }
            if accepted { checked += 1 }
        }
        print(
            "plugin output prediction: \(checked) of \(models.count) models checked, both flavors, with and without --include-manual"
        )
        return checked
    }

    /// The Swift files `generate --no-schema --dry-run` would write for `model`, sorted; throws when it fails.
    static func generatedFileNames(
        _ model: URL, flavor: ModelNaming.Flavor, includeManual: Bool, extraArguments: [String] = []
    ) throws -> [String] {
        var arguments = [
            "generate", model.path, "--output", "/nonexistent/datamodelgen-plugin-test", "--flavor", flavor.rawValue,
            "--no-schema", "--dry-run",
        ]
        if includeManual { arguments.append("--include-manual") }
        return try runGenerate(arguments + extraArguments)
    }

    /// The files `datamodelgen` run in-process with `arguments` (a `--dry-run`) would create, sorted.
    static func runGenerate(_ arguments: [String]) throws -> [String] {
        let out = Mutex("")
        let console = Console(out: { text in out.withLock { $0 += text } }, err: { _ in })
        let code = CommandLineTool(console: console).run(arguments)
        guard code == .success else { throw GenerateFailed(arguments: arguments) }
        let lines = out.withLock { $0 }.split(separator: "\n")
        return lines.compactMap { $0.hasPrefix("create ") ? String($0.dropFirst("create ".count)) : nil }.sorted()
    }

    struct GenerateFailed: Error {
        var arguments: [String]
    }
}

/// The model of ``PluginOutputTests/predictionsMatchGenerateForTheNamingEdgeCases()``.
enum EdgeModel {
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

        """

    static let versions = [
        "Edge 9": """
        <entity name="Old" representedClassName="Old" syncable="YES" codeGenerationType="class">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        """,
        "Edge 10": """
        <entity name="Person" representedClassName="MyApp.PersonMO" syncable="YES" codeGenerationType="class">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Tag" representedClassName=".TagMO" syncable="YES" codeGenerationType="category">
            <attribute name="label" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Legacy" representedClassName="NSManagedObject" syncable="YES" codeGenerationType="class">
            <attribute name="code" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Note" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
        """,
    ]

    static func write(to bundle: URL) throws {
        for (version, entities) in versions {
            let directory = bundle.appendingPathComponent(version + ".xcdatamodel")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try (header + entities + "\n</model>\n").write(
                to: directory.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
    }
}

/// Paths of the repository and the shared folder beside it.
enum PluginTestPaths {
    /// The repository root (three levels above this file).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `Models/`.
    static let models = repoRoot.appendingPathComponent("Models")
    /// `../shared/corpus/models`, when present.
    static let corpus: URL? = {
        let url = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Every `.xcdatamodeld` in `Models/`, sorted.
    static var exampleModels: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: models.path)) ?? []
        return names.filter { $0.hasSuffix(ModelNaming.bundleExtension) }.sorted().map {
            models.appendingPathComponent($0)
        }
    }

    /// Every model bundle in the corpus, plus bare `.xcdatamodel` directories outside bundles, sorted.
    static var corpusModels: [URL] {
        guard let corpus else { return [] }
        var found: [URL] = []
        let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "xcdatamodeld" || url.pathExtension == "xcdatamodel" {
                found.append(url)
                enumerator?.skipDescendants()
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}
