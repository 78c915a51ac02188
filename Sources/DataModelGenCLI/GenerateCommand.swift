import DataModel
import DataModelCodegen
import Foundation
import Mustache

/// `datamodelgen generate`: renders the model's files and writes, checks or lists them.
enum GenerateCommand {
    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        guard arguments.positionals.count == 1, let modelPath = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing <model> argument" : "generate takes one model")
        }
        let config: GenerationConfig?
        if let path = arguments.value("config") {
            config = try GenerationConfig.load(path)
        } else {
            config = try GenerationConfig.discover(nextTo: modelPath)
        }
        guard let output = arguments.value("output") ?? config?.output else {
            throw UsageError("missing '--output DIR'")
        }
        let options = try options(arguments, config: config)
        let cache = cache(for: arguments, config: config, modelPath: modelPath, output: output, options: options)
        if let record = cache?.validRecord() {
            printer.print(record.diagnostics)
            return .success
        }
        let versionName = arguments.value("model-version") ?? config?.modelVersion
        let (outcome, diagnostics) = ModelInput.loadAndValidateQuietly(
            path: modelPath, versionName: versionName, printer: printer)
        printer.print(diagnostics)
        guard let loaded = outcome.loaded, outcome.exitCode == .success else { return outcome.exitCode }
        defer { ExitTeardown.keep(loaded) }

        let templates = arguments.value("templates") ?? config?.templates
        let library = try TemplateLoader.library(overrides: templates)
        let files: [OutputFile]
        do {
            files = try ModelOutput.files(
                for: loaded.model, library: library, options: options,
                schemaUsesDefaultTemplate: !TemplateLoader.overrides(CodeGenerator.TemplateName.schema, in: templates))
        } catch let error as MustacheError {
            console.err(error.description + "\n")
            return .modelError
        } catch let error as SchemaLayoutError {
            printer.print([error.diagnostic])
            return .modelError
        }
        if let expected = arguments.values["expect-output"],
            let mismatch = ExpectedOutputs.mismatch(expected: expected, produced: files.map(\.path))
        {
            printer.print([.error(mismatch, rule: "unexpected-outputs", at: SourceLocation(file: loaded.contentsPath))])
            return .modelError
        }
        defer { ExitTeardown.keep(files) }
        let plan = OutputWriter.plan(files, in: output, modelFileName: loaded.model.name + ".xcdatamodeld")
        defer { ExitTeardown.keep(plan) }
        if arguments.flag("check") {
            if plan.isUpToDate { return .success }
            console.out(OutputWriter.diff(plan))
            console.err(
                "error: generated files in '\(output)' are stale (\(plan.changes.count) to write, \(plan.removals.count) to remove); run 'datamodelgen generate' to update them\n"
            )
            return .modelError
        }
        if arguments.flag("dry-run") {
            for change in plan.changes {
                console.out("\(change.existing == nil ? "create" : "update") \(change.file.path)\n")
            }
            for path in plan.unchanged { console.out("keep   \(path)\n") }
            for path in plan.removals { console.out("remove \(path)\n") }
            return .success
        }
        try OutputWriter.apply(plan)
        cache?.store(paths: files.map(\.path), diagnostics: diagnostics)
        return .success
    }

    /// The cache for this run, or nil when it must not be used (`--check`, `--dry-run`, `--no-cache`).
    static func cache(
        for arguments: ArgumentParser.Parsed, config: GenerationConfig?, modelPath: String, output: String,
        options: GenerationOptions
    ) -> GenerationCache? {
        if arguments.flag("check") || arguments.flag("dry-run") || arguments.flag("no-cache") { return nil }
        var files = GenerationCache.inputFiles(at: modelPath)
        if let templates = arguments.value("templates") ?? config?.templates {
            files += GenerationCache.inputFiles(at: templates)
        }
        if let configPath = arguments.value("config") { files.append(configPath) }
        let parts = [
            "flavor=\(options.flavor.rawValue)", "access=\(options.access.rawValue)",
            "manual=\(options.includeManual)", "schema=\(options.includeSchema)",
            "version=\(arguments.value("model-version") ?? config?.modelVersion ?? "")",
            "expect=\((arguments.values["expect-output"] ?? []).joined(separator: "\n"))",
            "config=\(config.map { "\($0)" } ?? "")", "warnings-as-errors=\(arguments.flag("warnings-as-errors"))",
        ]
        return GenerationCache(output: output, parts: parts, files: files)
    }

    static func options(_ arguments: ArgumentParser.Parsed, config: GenerationConfig?) throws -> GenerationOptions {
        let flavorName = arguments.value("flavor") ?? config?.flavor ?? Flavor.runtime.rawValue
        guard let flavor = Flavor(rawValue: flavorName) else {
            throw UsageError("invalid flavor '\(flavorName)' in the config; expected runtime or coredata")
        }
        let accessName = arguments.value("access") ?? config?.access ?? AccessLevel.public.rawValue
        guard let access = AccessLevel(rawValue: accessName) else {
            throw UsageError("invalid access level '\(accessName)' in the config; expected public or internal")
        }
        return GenerationOptions(
            flavor: flavor, access: access,
            includeManual: arguments.flag("include-manual") || (config?.includeManual ?? false),
            includeSchema: !arguments.flag("no-schema") && (config?.schema ?? true))
    }
}

/// Everything `generate` writes for a model: the Swift files and, when asked, the schema.
enum ModelOutput {
    /// `schemaUsesDefaultTemplate`: whether `library`'s `schema.sql` is the default template.
    static func files(
        for model: ObjectModel, library: MustacheLibrary, options: GenerationOptions, schemaUsesDefaultTemplate: Bool
    ) throws -> [OutputFile] {
        // The schema renders on another thread meanwhile; its errors still come after the Swift files' errors.
        let schema =
            options.includeSchema
            ? BackgroundWork {
                try SchemaOutput.file(for: model, library: library, usesDefaultTemplate: schemaUsesDefaultTemplate)
            } : nil
        let swiftFiles: Result<[OutputFile], any Error> = Result {
            try CodeGenerator(library: library, options: options).generate(model)
        }
        let schemaFile = schema.map { work in Result { try work.wait() } }
        var files = try swiftFiles.get()
        if let schemaFile {
            files.append(try schemaFile.get())
            files.sort { $0.path < $1.path }
        }
        return files
    }
}

/// `datamodelgen schema`: prints or writes the model's SQLite DDL.
enum SchemaCommand {
    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        guard arguments.positionals.count == 1, let modelPath = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing <model> argument" : "schema takes one model")
        }
        let outcome = ModelInput.loadAndValidate(
            path: modelPath, versionName: arguments.value("model-version"), printer: printer)
        guard let loaded = outcome.loaded, outcome.exitCode == .success else { return outcome.exitCode }
        let templates = arguments.value("templates")
        let library = try TemplateLoader.library(overrides: templates)
        let text: String
        do {
            text = try SchemaOutput.text(
                for: loaded.model, library: library, ifNotExists: arguments.flag("if-not-exists"),
                usesDefaultTemplate: !TemplateLoader.overrides(CodeGenerator.TemplateName.schema, in: templates))
        } catch let error as SchemaLayoutError {
            printer.print([error.diagnostic])
            return .modelError
        }
        guard let output = arguments.value("output") else {
            console.out(text)
            return .success
        }
        let directory = PathName.deletingLastComponent(output)
        let fileName = (output as NSString).lastPathComponent
        guard !fileName.isEmpty, fileName != ".", fileName != "..", fileName != "/", !output.hasSuffix("/") else {
            throw UsageError("'--output \(output)' must name a file, not a directory")
        }
        let file = OutputFile(path: fileName, contents: text)
        var plan = OutputWriter.plan([file], in: directory.isEmpty ? "." : directory, modelFileName: "")
        plan.removals = []
        try OutputWriter.apply(plan)
        return .success
    }
}
