import Foundation

/// The options of one generator run for one model, resolved from the config and the plugin's arguments.
struct GeneratorOptions {
    typealias Flavor = ModelNaming.Flavor

    var flavor: Flavor = .runtime
    var access = "public"
    var includeManual = false
    /// Whether the config asks for `<ModelName>.sql` (`schema`): the command plugin writes it then, or when given
    /// `--schema`; the build plugin never declares it.
    var schema = false
    /// The config file in effect, passed to the generator with `--config`.
    var configFile: URL?
    /// The templates directory, resolved against the config's directory.
    var templatesDirectory: URL?
    /// The output directory the config names, resolved against the config's directory.
    var configuredOutput: URL?
    /// The model version the config pins.
    var modelVersion: String?
    /// The runtime flavor's model type name the config gives (`modelTypeName`); the generator checks it.
    var modelTypeName: String?
    /// Whether the config asks for Xcode's shapes (`xcodeCompatible`), which changes the file names.
    var xcodeCompatible = false

    /// The config that applies to `model`: `datamodelgen.json` next to the model (where the generator looks for
    /// it too), else the one in the target's directory.
    static func configFile(for model: URL, targetDirectory: URL) -> URL? {
        let candidates = [
            model.deletingLastPathComponent().appendingPathComponent(ModelNaming.Config.fileName),
            targetDirectory.appendingPathComponent(ModelNaming.Config.fileName),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The options from the config at `url` (or the defaults when there is none).
    static func load(config url: URL?) throws -> GeneratorOptions {
        var options = GeneratorOptions()
        guard let url else { return options }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PluginError("\(url.path): cannot read the config file")
        }
        let file: ModelNaming.Config
        do {
            file = try JSONDecoder().decode(ModelNaming.Config.self, from: data)
        } catch {
            throw PluginError("\(url.path): invalid config file: \(error)")
        }
        options.configFile = url
        if let name = file.flavor {
            options.flavor = try flavor(named: name, source: url.path)
        }
        if let access = file.access { options.access = access }
        options.includeManual = file.includeManual ?? false
        options.schema = file.schema ?? false
        let base = url.deletingLastPathComponent()
        options.templatesDirectory = file.templates.map { resolve($0, against: base) }
        options.configuredOutput = file.output.map { resolve($0, against: base) }
        options.modelVersion = file.modelVersion
        options.modelTypeName = file.modelTypeName
        options.xcodeCompatible = file.xcodeCompatible ?? false
        return options
    }

    static func flavor(named name: String, source: String) throws -> Flavor {
        guard let flavor = Flavor(rawValue: name) else {
            let expected = Flavor.allCases.map(\.rawValue).joined(separator: " or ")
            throw PluginError("\(source): invalid flavor '\(name)'; expected \(expected)")
        }
        return flavor
    }

    private static func resolve(_ path: String, against base: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
    }

    /// The `.mustache` files of the templates directory, which the generator reads.
    var templateFiles: [URL] {
        guard let directory = templatesDirectory else { return [] }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter { $0.hasSuffix(".mustache") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Every file besides the model whose change must re-run the generator.
    var inputFiles: [URL] { (configFile.map { [$0] } ?? []) + templateFiles }

    /// The files `generate --no-schema` writes for `model`, sorted, named by the generator's own naming code.
    func outputFileNames(for model: ScannedModel, entities: [ModelNaming.EntityFacts]) -> [String] {
        ModelNaming.outputFiles(
            modelName: model.name, entities: entities, flavor: flavor, includeManual: includeManual,
            xcodeCompatible: xcodeCompatible
        ).map(\.name)
    }

    /// `--no-schema`, unless `<ModelName>.sql` is asked for by the config's `schema` or by `asked` (the command
    /// plugin's `--schema`).
    func schemaArguments(asked: Bool) -> [String] { asked || schema ? [] : ["--no-schema"] }

    /// What the build plugin adds to ``generateArguments(model:output:)``: no schema, and `--overwrite-user-files`
    /// with `includeManual`. Its output directory is its own work directory, regenerated when the model changes and
    /// edited by nobody, so the Manual/None entities' files ("yours to edit" elsewhere) must follow the model there
    /// like the others; the command plugin writes into the package, where they are the user's and kept.
    var buildPluginArguments: [String] { ["--no-schema"] + (includeManual ? ["--overwrite-user-files"] : []) }

    /// The `datamodelgen generate` arguments for `model`, writing into `output`.
    func generateArguments(model: URL, output: URL) -> [String] {
        var arguments = [
            "generate", model.path, "--output", output.path, "--flavor", flavor.rawValue, "--access", access,
        ]
        if let configFile { arguments += ["--config", configFile.path] }
        if let templatesDirectory { arguments += ["--templates", templatesDirectory.path] }
        if let modelVersion { arguments += ["--model-version", modelVersion] }
        if includeManual { arguments.append("--include-manual") }
        if let modelTypeName { arguments += ["--model-type-name", modelTypeName] }
        if xcodeCompatible { arguments.append("--xcode-compatible") }
        return arguments
    }
}

/// An error a plugin reports to SwiftPM.
struct PluginError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
