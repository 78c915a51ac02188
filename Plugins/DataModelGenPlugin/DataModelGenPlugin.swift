import Foundation
import PackagePlugin

/// Generates Swift code for the target's Xcode data models on every build.
///
/// For each `.xcdatamodeld` / `.xcdatamodel` among the target's files, declares one `datamodelgen generate`
/// command whose inputs are the model's files (every version's `contents`, `.xccurrentversion`), the
/// `datamodelgen.json` config and any custom templates, and whose outputs are exactly the files the generator
/// writes, predicted from a quick scan of the model. An unchanged model does not re-run the generator; the
/// generator's diagnostics (`path:line:column: error: …`) point at the model file.
@main
struct DataModelGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let models = ModelLocator.models(among: target.sourceFiles.map(\.url))
        guard !models.isEmpty else {
            Diagnostics.warning(
                "target '\(target.name)' uses DataModelGenPlugin but has no .xcdatamodeld or .xcdatamodel")
            return []
        }
        let tool = try context.tool(named: "datamodelgen")
        var commands: [Command] = []
        var outputNames: [String: URL] = [:]
        for model in models {
            let configFile = GeneratorOptions.configFile(for: model, targetDirectory: target.directoryURLCompatible)
            let options = try GeneratorOptions.load(config: configFile)
            let scanned = ModelScanner.scan(model, versionName: options.modelVersion)
            if let other = outputNames[scanned.name] {
                throw PluginError(
                    "\(model.path): another model of target '\(target.name)' has the same name: \(other.path)")
            }
            outputNames[scanned.name] = model
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(scanned.name, isDirectory: true)
            // When the scan fails (unreadable or malformed XML), the generator still runs, to report the problem
            // at its line; it fails before writing, and if it did not, `--expect-output` would stop it.
            let outputFiles =
                scanned.entities.map { options.outputFileNames(for: scanned, entities: $0) }
                ?? [ModelNaming.modelFileName(modelName: scanned.name)]
            guard !outputFiles.isEmpty else { continue }  // Every entity is Manual/None: Xcode generates nothing.
            let arguments =
                options.generateArguments(model: model, output: output) + options.buildPluginArguments
                + outputFiles.flatMap { ["--expect-output", $0] }
            commands.append(
                .buildCommand(
                    displayName: "Generating Swift for \(model.lastPathComponent) with datamodelgen",
                    executable: tool.url,
                    arguments: arguments,
                    // The model itself too: SwiftPM then knows the plugin handles it and does not warn about an
                    // unhandled file.
                    inputFiles: [model] + scanned.inputFiles + options.inputFiles,
                    outputFiles: outputFiles.map { output.appendingPathComponent($0) }))
        }
        return commands
    }
}
