import Foundation
import PackagePlugin

/// Builds the default templates into the `DataModelTemplates` module: `template-embedder` turns the target's
/// `*.mustache` files into a Swift file of string literals, regenerated whenever a template changes.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let templates = target.sourceFiles.map(\.url).filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding the default templates",
                executable: try context.tool(named: "template-embedder").url,
                arguments: [output.path] + templates.map(\.path),
                inputFiles: templates,
                outputFiles: [output])
        ]
    }
}
