import DataModel
import DataModelCodegen
import DataModelNaming
import FoundationEssentials
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
        let flavors = try flavors(arguments, config: config)
        let options = try options(arguments, config: config, flavor: flavors[0])
        let cache = cache(for: arguments, config: config, modelPath: modelPath, output: output, options: options)
        if let record = cache?.validRecord() {
            printer.print(record.diagnostics)
            return .success
        }
        let versionName = arguments.value("model-version") ?? config?.modelVersion
        // The templates compile on another thread while the model loads; they do not depend on it.
        let templates = arguments.value("templates") ?? config?.templates
        let compiledLibrary = BackgroundWork { try TemplateLoader.library(overrides: templates) }
        let (outcome, diagnostics) = ModelInput.loadAndValidateQuietly(
            path: modelPath, versionName: versionName, printer: printer)
        printer.print(diagnostics)
        guard let loaded = outcome.loaded, outcome.exitCode == .success else { return outcome.exitCode }
        defer { ExitTeardown.keep(loaded) }

        let library = try compiledLibrary.wait()
        let targets = FlavorTarget.targets(for: flavors, output: output)
        let expected = arguments.values["expect-output"]
        // A plain run writes each flavor as soon as it is rendered, while the others still render.
        let writes = expected == nil && !arguments.flag("check") && !arguments.flag("dry-run")
        let outputs: [FlavorOutput]
        do {
            outputs = try ModelOutput.produce(
                for: loaded.model, library: library, options: options, targets: targets,
                schemaUsesDefaultTemplate: !TemplateLoader.overrides(CodeGenerator.TemplateName.schema, in: templates),
                modelFileName: ModelNaming.sourceFileName(modelName: loaded.model.name), writingChanges: writes)
        } catch let error as MustacheError {
            console.err(error.description + "\n")
            return .modelError
        } catch let error as SchemaLayoutError {
            printer.print([error.diagnostic])
            return .modelError
        }
        defer { ExitTeardown.keep(outputs) }
        let produced = zip(targets, outputs).flatMap { target, output in output.paths.map { target.prefix + $0 } }
        if let expected, let mismatch = ExpectedOutputs.mismatch(expected: expected, produced: produced) {
            printer.print([.error(mismatch, rule: "unexpected-outputs", at: SourceLocation(file: loaded.contentsPath))])
            return .modelError
        }
        if writes {
            let entries = zip(targets, outputs).flatMap { target, output in
                (output.written ?? []).map {
                    GenerationCache.Entry(path: target.prefix + $0.path, size: $0.size, modified: $0.modified)
                }
            }
            cache?.store(entries: entries, diagnostics: diagnostics)
            return .success
        }
        let plans = outputs.compactMap(\.planned?.plan)
        if arguments.flag("check") {
            let changes = plans.reduce(0) { $0 + $1.changes.count }
            let removals = plans.reduce(0) { $0 + $1.removals.count }
            if changes == 0 && removals == 0 { return .success }
            console.out(plans.map(OutputWriter.diff).joined())
            console.err(
                "error: generated files in '\(output)' are stale (\(changes) to write, \(removals) to remove); run 'datamodelgen generate' to update them\n"
            )
            return .modelError
        }
        if arguments.flag("dry-run") {
            for (target, plan) in zip(targets, plans) {
                for change in plan.changes {
                    console.out("\(change.existing == nil ? "create" : "update") \(target.prefix)\(change.file.path)\n")
                }
                for path in plan.unchanged { console.out("keep   \(target.prefix)\(path)\n") }
                for path in plan.removals { console.out("remove \(target.prefix)\(path)\n") }
            }
            return .success
        }
        try OutputWriter.apply(plans)
        cache?.store(paths: produced, diagnostics: diagnostics)
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
            "flavor=\((arguments.value("flavor") ?? config?.flavor ?? ""))", "access=\(options.access.rawValue)",
            "manual=\(options.includeManual)", "schema=\(options.includeSchema)",
            "version=\(arguments.value("model-version") ?? config?.modelVersion ?? "")",
            "expect=\((arguments.values["expect-output"] ?? []).joined(separator: "\n"))",
            "config=\(config.map { "\($0)" } ?? "")", "warnings-as-errors=\(arguments.flag("warnings-as-errors"))",
        ]
        return GenerationCache(output: output, parts: parts, files: files)
    }

    /// The flavors asked for: `--flavor` (or the config's `flavor`) is one flavor, or several separated by
    /// commas, or `all`; each flavor is generated once, in the order given.
    static func flavors(_ arguments: ArgumentParser.Parsed, config: GenerationConfig?) throws -> [Flavor] {
        let fromCommandLine = arguments.value("flavor")
        let list = fromCommandLine ?? config?.flavor ?? Flavor.runtime.rawValue
        var flavors: [Flavor] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = Validator.trimmingWhitespace(String(part))
            let named = name == "all" ? Flavor.allCases : Flavor(rawValue: name).map { [$0] }
            guard let named else {
                throw UsageError(
                    "invalid flavor '\(name)'\(fromCommandLine == nil ? " in the config" : ""); expected runtime, coredata, a comma-separated list of them, or all"
                )
            }
            for flavor in named where !flavors.contains(flavor) { flavors.append(flavor) }
        }
        return flavors
    }

    static func options(_ arguments: ArgumentParser.Parsed, config: GenerationConfig?, flavor: Flavor) throws
        -> GenerationOptions
    {
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

/// Where one flavor's files go: the output directory itself when one flavor is generated, else a
/// subdirectory named after the flavor (`<output>/coredata`, `<output>/runtime`).
struct FlavorTarget {
    var flavor: Flavor
    var directory: String
    /// The path of the flavor's directory relative to the output directory, with a trailing slash, or "".
    var prefix: String

    static func targets(for flavors: [Flavor], output: String) -> [FlavorTarget] {
        guard flavors.count > 1 else {
            return flavors.map { FlavorTarget(flavor: $0, directory: output, prefix: "") }
        }
        return flavors.map {
            FlavorTarget(
                flavor: $0, directory: PathName.joined(output, $0.rawValue),
                prefix: $0.rawValue + "/")
        }
    }
}

/// One flavor's part of a `generate` run.
struct FlavorOutput {
    /// The paths of its files, relative to its directory, sorted.
    var paths: [String]
    /// Its files and what writing them changes, when the run did not write them as they rendered.
    var planned: (files: [OutputFile], plan: OutputPlan)?
    /// The size and modification time of every file, when the run wrote them as they rendered.
    var written: [GenerationCache.Entry]?
}

/// Everything `generate` writes for a model: the Swift files of each flavor and, when asked, the schema.
enum ModelOutput {
    /// Renders every flavor of `targets` (in that order); the schema is rendered once and goes into every
    /// flavor's files. Without `writingChanges`, each flavor's files are kept and its directory planned.
    /// With it, each file is written as soon as it renders (see ``DirectoryUpdate``) and not kept, and a
    /// flavor's files become visible when all of them (and the schema) rendered; a flavor that fails to
    /// render leaves its directory as it was.
    ///
    /// The flavors and the schema render on threads of their own (each flavor's files on several), sharing
    /// nothing but immutable inputs. Errors come in a fixed order whatever the timing: rendering errors of
    /// the flavors in order, then the schema's, then failures to write.
    ///
    /// `schemaUsesDefaultTemplate`: whether `library`'s `schema.sql` is the default template (then the schema
    /// is written without going through Mustache).
    static func produce(
        for model: ObjectModel, library: MustacheLibrary, options: GenerationOptions, targets: [FlavorTarget],
        schemaUsesDefaultTemplate: Bool, modelFileName: String, writingChanges: Bool
    ) throws -> [FlavorOutput] {
        let schema =
            options.includeSchema
            ? BackgroundWork {
                try SchemaOutput.file(for: model, library: library, usesDefaultTemplate: schemaUsesDefaultTemplate)
            } : nil
        // Several flavors already render side by side; splitting a small model's files further costs more in
        // thread starts than it saves.
        let threads =
            targets.count > 1 && model.entities.count < 256 ? 1 : ProcessInfo.processInfo.activeProcessorCount
        let pipelines = ParallelWork.map(targets) { target -> FlavorPipeline in
            var flavorOptions = options
            flavorOptions.flavor = target.flavor
            let generator = CodeGenerator(library: library, options: flavorOptions)
            guard writingChanges else {
                let rendered = Result { try generator.generate(model, parallelism: threads) }
                guard var files = try? rendered.get() else { return FlavorPipeline(rendered: rendered.map { _ in [] }) }
                if let schema {
                    guard let schemaFile = try? schema.wait() else { return FlavorPipeline(rendered: .success([])) }
                    files.append(schemaFile)
                    files.sort { $0.path < $1.path }
                }
                let plan = OutputWriter.plan(files, in: target.directory, modelFileName: modelFileName)
                return FlavorPipeline(
                    rendered: .success(files.map(\.path)),
                    output: FlavorOutput(paths: files.map(\.path), planned: (files, plan)))
            }
            let update = Result { () throws(IOFailure) -> DirectoryUpdate in
                try DirectoryUpdate(directory: target.directory, modelFileName: modelFileName)
            }
            let updater = try? update.get()
            let rendered = Result {
                try generator.generate(model, parallelism: threads) { _, file in
                    updater?.offer(file)
                    return file.path
                }
            }
            guard var paths = try? rendered.get() else {
                updater?.abandon()
                return FlavorPipeline(rendered: rendered)
            }
            if let schema {
                guard let schemaFile = try? schema.wait() else {
                    updater?.abandon()
                    return FlavorPipeline(rendered: .success([]))
                }
                updater?.offer(schemaFile)
                paths.append(schemaFile.path)
                paths.sort()
            }
            let written = Result { () throws(IOFailure) -> [GenerationCache.Entry] in
                try update.get().commit()
            }
            return FlavorPipeline(
                rendered: .success(paths), output: FlavorOutput(paths: paths, written: try? written.get()),
                written: written.map { _ in () }.mapError { $0 })
        }
        for pipeline in pipelines { _ = try pipeline.rendered.get() }
        _ = try schema?.wait()
        for pipeline in pipelines { try pipeline.written?.get() }
        // safe: every flavor rendered (and was written, when asked), or the loops above threw.
        return pipelines.compactMap(\.output)
    }

    /// What one flavor's thread hands back.
    private struct FlavorPipeline: @unchecked Sendable {
        // @unchecked: handed from the flavor's thread to the caller once, after the thread finished.
        var rendered: Result<[String], any Error>
        var output: FlavorOutput?
        var written: Result<Void, any Error>?
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
        let fileName = PathName.lastComponent(output)
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
