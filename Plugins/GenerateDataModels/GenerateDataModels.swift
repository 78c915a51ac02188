import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-data-models [options]`: writes the generated
/// Swift files of every model into the package's source tree, for teams that commit generated code (Xcode's
/// "Create NSManagedObject Subclass"); `--check` fails when the committed files are stale.
///
/// Each model's files go to `Generated/<ModelName>/` next to the model, or to the `output` its
/// `datamodelgen.json` names. Options: `--target NAME` (repeatable; default: every target with a model),
/// `--flavor runtime|coredata`, `--access public|internal`, `--include-manual`, `--schema` (also write
/// `<ModelName>.sql`, as does `"schema": true` in the config), `--check`, `--dry-run`.
@main
struct GenerateDataModels: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let flavor = try extractor.extractOption(named: "flavor").last.map {
            try GeneratorOptions.flavor(named: $0, source: "--flavor")
        }
        let access = extractor.extractOption(named: "access").last
        let includeManual = extractor.extractFlag(named: "include-manual") > 0
        let schema = extractor.extractFlag(named: "schema") > 0
        let check = extractor.extractFlag(named: "check") > 0
        let dryRun = extractor.extractFlag(named: "dry-run") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError(
                "unexpected arguments: \(extractor.remainingArguments.joined(separator: " ")); usage: generate-data-models [--target NAME]... [--flavor runtime|coredata] [--access public|internal] [--include-manual] [--schema] [--check] [--dry-run]"
            )
        }

        let targets: [any Target] =
            targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
        let tool = try context.tool(named: "datamodelgen")
        var runs = 0
        var failures: [String] = []
        for case let target as SourceModuleTarget in targets {
            for model in ModelLocator.models(among: target.sourceFiles.map(\.url)) {
                let configFile = GeneratorOptions.configFile(for: model, targetDirectory: target.directoryURLCompatible)
                var options = try GeneratorOptions.load(config: configFile)
                if let flavor { options.flavor = flavor }
                if let access { options.access = access }
                if includeManual { options.includeManual = true }
                let name = ModelNaming.modelName(fileName: model.lastPathComponent)
                let output =
                    options.configuredOutput
                    ?? model.deletingLastPathComponent().appendingPathComponent("Generated/\(name)", isDirectory: true)
                var arguments = options.generateArguments(model: model, output: output)
                arguments += options.schemaArguments(asked: schema)
                if check { arguments.append("--check") }
                if dryRun { arguments.append("--dry-run") }
                print(
                    "\(check ? "Checking" : "Generating") \(relative(output, to: context)) from \(relative(model, to: context))"
                )
                let status = try run(tool.url, arguments)
                runs += 1
                if status != 0 { failures.append(model.lastPathComponent) }
            }
        }
        guard runs > 0 else {
            let scope = targetNames.isEmpty ? "package '\(context.package.displayName)'" : "the given targets"
            throw PluginError("no .xcdatamodeld or .xcdatamodel found in \(scope)")
        }
        guard failures.isEmpty else {
            let models = failures.joined(separator: ", ")
            throw PluginError(
                check
                    ? "generated files are stale for \(models); run 'swift package --allow-writing-to-package-directory generate-data-models' to update them"
                    : "generation failed for \(models)")
        }
    }

    /// Runs `executable` with `arguments` and returns its exit status.
    ///
    /// The tool's standard output and error (diffs, diagnostics) are read through one pipe and printed by the
    /// plugin, so they appear in order with the plugin's own messages.
    private func run(_ executable: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if !output.isEmpty { print(String(decoding: output, as: UTF8.self), terminator: "") }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    private func relative(_ url: URL, to context: PluginContext) -> String {
        let root = context.package.directoryURL.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}
