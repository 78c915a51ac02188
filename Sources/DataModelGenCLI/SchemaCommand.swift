import DataModel
import DataModelCodegen
import DataModelStoreLayout
import FoundationEssentials

/// `datamodelgen schema`: prints or writes the model's SQLite DDL.
enum SchemaCommand {
    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        guard arguments.positionals.count == 1, let modelPath = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing <model> argument" : "schema takes one model")
        }
        let outcome = ModelInput.loadAndValidate(
            path: modelPath, versionName: arguments.value(.modelVersion), printer: printer)
        guard let loaded = outcome.loaded, outcome.exitCode == .success else { return outcome.exitCode }
        let templates = arguments.value(.templates)
        let library = try TemplateLoader.library(overrides: templates)
        let options = SchemaOptions(
            dialect: try SchemaOptions.dialect(named: arguments.value(.dialect), fromCommandLine: true),
            ifNotExists: arguments.flag(.ifNotExists), foreignKeys: arguments.flag(.foreignKeys))
        let text: String
        do throws(GenerationFailure) {
            text = try GeneratorPipeline.commandLine.schemaText(
                for: loaded.model, library: library, options: options,
                usesDefaultTemplate: !TemplateLoader.overrides(CodeGenerator.TemplateName.schema, in: templates))
        } catch {
            switch error {
            case .template(let failure): throw failure
            case .layout(let failure):
                printer.print([failure.diagnostic])
                return .modelError
            }
        }
        guard let output = arguments.value(.outputFile) else {
            console.out(text)
            return .success
        }
        let directory = PathName.deletingLastComponent(output)
        let fileName = PathName.lastComponent(output)
        guard !fileName.isEmpty, fileName != ".", fileName != "..", fileName != "/", !output.hasSuffix("/") else {
            throw UsageError("'--\(ArgumentParser.Option.outputFile.name) \(output)' must name a file, not a directory")
        }
        let file = OutputFile(path: fileName, contents: text)
        var plan = OutputWriter.plan([file], in: directory.isEmpty ? "." : directory, modelFileName: "")
        plan.removals = []
        try OutputWriter.apply(plan)
        return .success
    }
}

extension SchemaOptions {
    /// The dialect named `name` (SQLite when `nil`); an unknown name is a usage error naming where it came from.
    static func dialect(named name: String?, fromCommandLine: Bool) throws(UsageError) -> SQLDialect {
        guard let name else { return .sqlite }
        guard let dialect = SQLDialect(name: name) else {
            throw UsageError(
                "invalid schema dialect '\(name)'\(fromCommandLine ? "" : " in the config"); expected "
                    + SQLDialect.all.map(\.name).joined(separator: " or "))
        }
        return dialect
    }
}
