import Foundation

/// The `datamodelgen.json` keys the plugins read (the generator reads the same file; see the README).
struct PluginConfigFile: Decodable {
    var flavor: String?
    var access: String?
    var templates: String?
    var includeManual: Bool?
    var output: String?
    var modelVersion: String?

    static let fileName = "datamodelgen.json"
}

/// The options of one generator run for one model, resolved from the config and the plugin's arguments.
struct GeneratorOptions {
    enum Flavor: String, CaseIterable {
        case runtime
        case coredata
    }

    var flavor: Flavor = .runtime
    var access = "public"
    var includeManual = false
    /// The config file in effect, passed to the generator with `--config`.
    var configFile: URL?
    /// The templates directory, resolved against the config's directory.
    var templatesDirectory: URL?
    /// The output directory the config names, resolved against the config's directory.
    var configuredOutput: URL?
    /// The model version the config pins.
    var modelVersion: String?

    /// The config that applies to `model`: `datamodelgen.json` next to the model (where the generator looks for
    /// it too), else the one in the target's directory.
    static func configFile(for model: URL, targetDirectory: URL) -> URL? {
        let candidates = [
            model.deletingLastPathComponent().appendingPathComponent(PluginConfigFile.fileName),
            targetDirectory.appendingPathComponent(PluginConfigFile.fileName),
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
        let file: PluginConfigFile
        do {
            file = try JSONDecoder().decode(PluginConfigFile.self, from: data)
        } catch {
            throw PluginError("\(url.path): invalid config file: \(error)")
        }
        options.configFile = url
        if let name = file.flavor {
            options.flavor = try flavor(named: name, source: url.path)
        }
        if let access = file.access { options.access = access }
        options.includeManual = file.includeManual ?? false
        let base = url.deletingLastPathComponent()
        options.templatesDirectory = file.templates.map { resolve($0, against: base) }
        options.configuredOutput = file.output.map { resolve($0, against: base) }
        options.modelVersion = file.modelVersion
        return options
    }

    static func flavor(named name: String, source: String) throws -> Flavor {
        guard let flavor = Flavor(rawValue: name) else {
            throw PluginError("\(source): invalid flavor '\(name)'; expected runtime or coredata")
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

    /// The files `generate --no-schema` writes for `model`, sorted: what Xcode would generate for each entity
    /// (`class` → class and properties, `category` → properties, Manual/None → nothing unless `includeManual`),
    /// plus `<Model>+Model.swift` in the runtime flavor.
    func outputFileNames(for model: ScannedModel, entities: [ScannedEntity]) -> [String] {
        let (classSuffix, propertiesSuffix) =
            flavor == .coredata ? ("+CoreDataClass", "+CoreDataProperties") : ("", "+Properties")
        var names: Set<String> = []
        for entity in entities {
            let (generatesClass, generatesProperties): (Bool, Bool)
            switch entity.codeGeneration {
            case .classAndProperties: (generatesClass, generatesProperties) = (true, true)
            case .propertiesOnly: (generatesClass, generatesProperties) = (false, true)
            case .manual: (generatesClass, generatesProperties) = (includeManual, includeManual)
            }
            // As `TemplateContextBuilder`: in the runtime flavor, `NSManagedObject` (older Xcode's "no custom
            // class") means the entity name.
            let className =
                flavor == .runtime && entity.className == "NSManagedObject" ? entity.name : entity.className
            if generatesClass { names.insert(className + classSuffix + ".swift") }
            if generatesProperties { names.insert(className + propertiesSuffix + ".swift") }
        }
        if flavor == .runtime { names.insert(model.name + "+Model.swift") }
        return names.sorted()
    }

    /// The `datamodelgen generate` arguments for `model`, writing into `output`.
    func generateArguments(model: URL, output: URL) -> [String] {
        var arguments = [
            "generate", model.path, "--output", output.path, "--flavor", flavor.rawValue, "--access", access,
        ]
        if let configFile { arguments += ["--config", configFile.path] }
        if let templatesDirectory { arguments += ["--templates", templatesDirectory.path] }
        if let modelVersion { arguments += ["--model-version", modelVersion] }
        if includeManual { arguments.append("--include-manual") }
        return arguments
    }
}

/// An error a plugin reports to SwiftPM.
struct PluginError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
