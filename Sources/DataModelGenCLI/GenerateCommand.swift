import DataModel
import DataModelCodegen
import DataModelNaming
import DataModelStoreLayout
import FoundationEssentials
import Mustache

/// `datamodelgen generate`: renders the model's files (``OutputPipeline``) and writes, checks or lists them.
enum GenerateCommand {
    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        let request = try GenerateRequest(arguments)
        if printer.print(request.configWarnings).contains(where: { $0.severity == .error }) { return .usageError }
        let cache = request.cache()
        if let record = cache?.validRecord() {
            printer.print(record.diagnostics)
            return .success
        }
        // The templates compile on another thread while the model loads; they do not depend on it.
        let templates = request.templates
        let compiledLibrary = BackgroundWork { () throws -> MustacheLibrary in
            try TemplateLoader.library(overrides: templates)
        }
        let (outcome, diagnostics) = ModelInput.loadAndValidateQuietly(
            path: request.modelPath, versionName: request.versionName, printer: printer)
        printer.print(diagnostics)
        guard let loaded = outcome.loaded, outcome.exitCode == .success else { return outcome.exitCode }
        let pipeline = GeneratorPipeline.commandLine
        defer { pipeline.scheduler.discard(loaded) }
        if request.flavors.contains(.runtime),
            let collision = modelTypeCollision(in: loaded.model, configured: request.options.modelTypeName)
        {
            printer.print([collision])
            return .modelError
        }
        let manualWarning = manualCodegenWarning(in: loaded.model, includeManual: request.options.includeManual)
        if let manualWarning { printer.print([manualWarning]) }
        let reported = diagnostics + (manualWarning.map { [$0] } ?? [])

        let output = OutputPipeline(
            pipeline: pipeline, library: try compiledLibrary.wait(), options: request.options,
            schemaUsesDefaultTemplate: !TemplateLoader.overrides(CodeGenerator.TemplateName.schema, in: templates),
            modelFileName: ModelNaming.sourceFileName(modelName: loaded.model.name),
            overwritesUserFiles: request.overwritesUserFiles,
            earlierVersions: request.flavors.contains(.runtime) || request.options.flavor == .runtime
                ? earlierVersions(of: loaded, pipeline: pipeline, printer: printer) : [])
        let targets = FlavorTarget.targets(for: request.flavors, output: request.output)
        // A plain run writes each flavor as soon as it is rendered, while the others still render.
        let mode: OutputMode = request.action == .write && request.expectedOutputs == nil ? .write : .plan
        let outputs: [FlavorOutput]
        do throws(OutputFailure) {
            outputs = try output.produce(for: loaded.model, targets: targets, mode: mode)
        } catch {
            switch error {
            case .generation(.template(let failure)):
                console.err(failure.description + "\n")
                return .modelError
            case .generation(.layout(let failure)):
                printer.print([failure.diagnostic])
                return .modelError
            case .io(let failure): throw failure
            }
        }
        defer { pipeline.scheduler.discard(outputs) }
        let produced = zip(targets, outputs).flatMap { target, output in output.paths.map { target.prefix + $0 } }
        if let expected = request.expectedOutputs,
            let mismatch = ExpectedOutputs.mismatch(expected: expected, produced: produced)
        {
            printer.print([.error(mismatch, rule: "unexpected-outputs", at: SourceLocation(file: loaded.contentsPath))])
            return .modelError
        }
        let plans = outputs.compactMap(\.plan)
        // A user-owned file that a generated one would replace stops every action, --check and --dry-run too.
        if let conflicts = IOFailure.combined(plans.flatMap(\.conflicts)) { throw conflicts }
        switch (request.action, mode) {
        case (.write, .write):
            let entries = zip(targets, outputs).flatMap { target, output in
                output.written.map {
                    GenerationCache.Entry(path: target.prefix + $0.path, size: $0.size, modified: $0.modified)
                }
            }
            cache?.store(entries: entries, diagnostics: reported)
            return .success
        case (.write, .plan):
            try OutputWriter.apply(plans)
            cache?.store(paths: produced, diagnostics: reported)
            return .success
        case (.check, _):
            let changes = plans.reduce(0) { $0 + $1.changes.count }
            let removals = plans.reduce(0) { $0 + $1.removals.count }
            if changes == 0 && removals == 0 { return .success }
            console.out(plans.map(OutputWriter.diff).joined())
            console.err(
                "error: generated files in '\(request.output)' are stale (\(changes) to write, \(removals) to remove); run 'datamodelgen generate' to update them\n"
            )
            return .modelError
        case (.dryRun, _):
            for (target, plan) in zip(targets, plans) {
                for change in plan.changes {
                    console.out("\(change.existing == nil ? "create" : "update") \(target.prefix)\(change.file.path)\n")
                }
                for path in plan.unchanged { console.out("keep   \(target.prefix)\(path)\n") }
                for path in plan.removals { console.out("remove \(target.prefix)\(path)\n") }
            }
            return .success
        }
    }
}

/// What a `generate` run does once the files are rendered.
extension GenerateCommand {
    /// An error when the runtime flavor's model type would have the name of an entity's class (the two would not
    /// compile in one module).
    static func modelTypeCollision(in model: ObjectModel, configured: String?) -> Diagnostic? {
        let typeName = ModelNaming.modelTypeName(modelName: model.name, configured: configured)
        guard
            let entity = model.entities.first(where: {
                ModelNaming.escaped(
                    ModelNaming.className(entityName: $0.name, className: $0.className, flavor: .runtime))
                    == typeName
            })
        else { return nil }
        return .error(
            "the model type '\(typeName)' has the name of entity '\(entity.name)'s class; name the model type with "
                + "--model-type-name or \"modelTypeName\" in \(GenerationConfig.fileName)",
            rule: "model-type-name-collision", at: entity.location)
    }

    /// A warning when no entity gets a class because every one has Manual/None codegen (models saved by older
    /// Xcode versions, which had no codegen setting) and `--include-manual` is off: the run would otherwise write
    /// only the model file and the schema, and say nothing.
    static func manualCodegenWarning(in model: ObjectModel, includeManual: Bool) -> Diagnostic? {
        guard !includeManual, let first = model.entities.first,
            model.entities.allSatisfy({ $0.codeGenerationType == .manual })
        else { return nil }
        let count = model.entities.count
        return .warning(
            "no entity classes generated: \(count == 1 ? "the entity has" : "all \(count) entities have") codegen "
                + "Manual/None; pass --include-manual (or \"includeManual\": true in \(GenerationConfig.fileName)) "
                + "to generate them", rule: "manual-codegen", at: SourceLocation(file: first.location.file))
    }

    /// The earlier versions the runtime flavor describes; their warnings are printed.
    static func earlierVersions(of loaded: LoadedModel, pipeline: GeneratorPipeline, printer: DiagnosticPrinter)
        -> [ObjectModel]
    {
        let (models, warnings) = pipeline.earlierVersions(of: loaded)
        printer.print(warnings)
        return models
    }
}

enum GenerateAction: Sendable {
    /// Writes the files that changed and removes stale ones.
    case write
    /// Writes nothing; prints a diff and fails when the output is stale (`--check`).
    case check
    /// Writes nothing; lists what would be written, kept or removed (`--dry-run`).
    case dryRun
}

/// The settings of a `generate` run, resolved once: each option from the command line, else from the config
/// file (`--config`, or the `datamodelgen.json` next to the model), else its default.
struct GenerateRequest {
    var modelPath: String
    /// The config file: given with `--config`, or the `datamodelgen.json` next to the model.
    var configPath: String?
    var config: GenerationConfig?
    /// Keys of the config that no option reads.
    var configWarnings: [Diagnostic]
    var output: String
    /// The flavors as given (`coredata,runtime`), or empty for the default.
    var flavorList: String
    var flavors: [Flavor]
    var options: GenerationOptions
    var versionName: String?
    var templates: String?
    var expectedOutputs: [String]?
    /// Whether user-owned files (`--include-manual`'s) are rewritten when they exist (`--overwrite-user-files`).
    var overwritesUserFiles: Bool
    var action: GenerateAction
    var usesCache: Bool
    var warningsAsErrors: Bool

    init(_ arguments: ArgumentParser.Parsed) throws {
        guard arguments.positionals.count == 1, let modelPath = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing <model> argument" : "generate takes one model")
        }
        self.modelPath = modelPath
        let configPath = arguments.value(.config) ?? GenerationConfig.path(nextTo: modelPath)
        self.configPath = configPath
        if let configPath {
            (config, configWarnings) = try GenerationConfig.loadReporting(configPath)
        } else {
            (config, configWarnings) = (nil, [])
        }
        guard let output = arguments.value(.outputDirectory) ?? config?.output else {
            throw UsageError("missing '\(ArgumentParser.Option.outputDirectory.usage(required: true))'")
        }
        self.output = output
        let givenFlavors = arguments.value(.flavor)
        flavorList = givenFlavors ?? config?.flavor ?? ""
        let flavorList = givenFlavors ?? config?.flavor
        flavors = try Self.fromConfig(key: "flavor", given: givenFlavors, path: configPath) { () throws(UsageError) in
            try Self.flavors(flavorList, fromCommandLine: givenFlavors != nil)
        }
        let givenAccess = arguments.value(.access)
        let accessName = givenAccess ?? config?.access ?? AccessLevel.public.rawValue
        guard let access = AccessLevel(rawValue: accessName) else {
            let message =
                "invalid access level '\(accessName)'\(givenAccess == nil ? " in the config" : ""); expected public or internal"
            if givenAccess == nil, let configPath {
                throw ConfigFailure(path: configPath, key: "access", message: message)
            }
            throw UsageError(message)
        }
        let givenDialect = arguments.value(.schemaDialect)
        let dialectName = givenDialect ?? config?.schemaDialect
        let dialect = try Self.fromConfig(key: "schemaDialect", given: givenDialect, path: configPath) {
            () throws(UsageError) in
            try SchemaOptions.dialect(named: dialectName, fromCommandLine: givenDialect != nil)
        }
        options = GenerationOptions(
            flavor: flavors[0], access: access,
            includeManual: arguments.flag(.includeManual) || (config?.includeManual ?? false),
            includeSchema: !arguments.flag(.noSchema) && (config?.schema ?? true),
            schema: SchemaOptions(
                dialect: dialect,
                foreignKeys: arguments.flag(.foreignKeys) || (config?.foreignKeys ?? false)),
            modelTypeName: try Self.modelTypeName(
                arguments.value(.modelTypeName), config: config, configPath: configPath),
            xcodeCompatible: arguments.flag(.xcodeCompatible) || (config?.xcodeCompatible ?? false))
        versionName = arguments.value(.modelVersion) ?? config?.modelVersion
        templates = arguments.value(.templates) ?? config?.templates
        expectedOutputs = arguments.values(.expectOutput)
        overwritesUserFiles = arguments.flag(.overwriteUserFiles)
        action = arguments.flag(.check) ? .check : arguments.flag(.dryRun) ? .dryRun : .write
        usesCache = !arguments.flag(.noCache)
        warningsAsErrors = arguments.flag(.warningsAsErrors)
    }

    /// The cache for this run, or nil when it must not be used (`--check`, `--dry-run`, `--no-cache`).
    func cache() -> GenerationCache? {
        guard action == .write, usesCache else { return nil }
        var files = GenerationCache.inputFiles(at: modelPath)
        if let templates { files += GenerationCache.inputFiles(at: templates) }
        if let configPath { files.append(configPath) }
        let parts = [
            "flavor=\(flavorList)", "access=\(options.access.rawValue)",
            "manual=\(options.includeManual)", "schema=\(options.includeSchema)",
            "dialect=\(options.schema.dialect)", "foreign-keys=\(options.schema.foreignKeys)",
            "model-type=\(options.modelTypeName ?? "")", "xcode-compatible=\(options.xcodeCompatible)",
            "overwrite-user-files=\(overwritesUserFiles)",
            "version=\(versionName ?? "")", "expect=\((expectedOutputs ?? []).joined(separator: "\n"))",
            "config=\(config.map { "\($0)" } ?? "")", "warnings-as-errors=\(warningsAsErrors)",
        ]
        return GenerationCache(output: output, parts: parts, files: files)
    }

    /// The model type name `--model-type-name` gives, else the config's `modelTypeName`; a name that is no Swift
    /// identifier, or needs backticks, is a usage error (located in the config file when it comes from there).
    static func modelTypeName(_ given: String?, config: GenerationConfig?, configPath: String?) throws -> String? {
        if let given {
            if let problem = ModelNaming.modelTypeNameProblem(given) {
                throw UsageError("invalid model type name for --model-type-name: \(problem)")
            }
            return given
        }
        guard let configured = config?.modelTypeName else { return nil }
        if let problem = ModelNaming.modelTypeNameProblem(configured) {
            throw ConfigFailure(
                path: configPath ?? GenerationConfig.fileName, key: "modelTypeName",
                message: "invalid model type name: \(problem)")
        }
        return configured
    }

    /// Runs `body`, which checks an option that the command line gives (`given`) or else the config; a usage
    /// error about the config's value becomes a ``ConfigFailure`` at the key's position in the file.
    static func fromConfig<Value>(
        key: String, given: String?, path: String?, _ body: () throws(UsageError) -> Value
    ) throws -> Value {
        do {
            return try body()
        } catch {
            guard given == nil, let path else { throw error }
            throw ConfigFailure(path: path, key: key, message: error.description)
        }
    }

    /// The flavors in `list`: one flavor, or several separated by commas, or `all` (by default, the runtime
    /// flavor); each flavor is generated once, in the order given.
    static func flavors(_ list: String?, fromCommandLine: Bool) throws(UsageError) -> [Flavor] {
        var flavors: [Flavor] = []
        for part in (list ?? Flavor.runtime.rawValue).split(separator: ",", omittingEmptySubsequences: false) {
            let name = Validator.trimmingWhitespace(String(part))
            let named = name == "all" ? Flavor.allCases : Flavor(rawValue: name).map { [$0] }
            guard let named else {
                throw UsageError(
                    "invalid flavor '\(name)'\(fromCommandLine ? "" : " in the config"); expected runtime, coredata, a comma-separated list of them, or all"
                )
            }
            for flavor in named where !flavors.contains(flavor) { flavors.append(flavor) }
        }
        return flavors
    }

}
