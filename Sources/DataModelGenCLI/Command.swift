import DataModel
import DataModelCodegen
import FoundationEssentials
import ProcessSupport

/// The subcommands of `datamodelgen`.
enum Command: String, CaseIterable, Sendable {
    case generate
    case schema
    case validate
    case dump
    case diff
    case migrate

    var summary: String {
        switch self {
        case .generate: "Generate Swift model classes (and the SQLite schema) from a model."
        case .schema: "Print or write the model's SQLite schema in Core Data's store layout."
        case .validate: "Check models for errors the way Xcode's model compiler does."
        case .dump: "Print a model's parsed form as deterministic JSON or text."
        case .diff: "Show what changed between two model versions and whether stores migrate automatically."
        case .migrate:
            "Migrate a SQLite or PostgreSQL store to the model's current version (or --to), as the runtime does."
        }
    }

    /// The usage line: the command's arguments and its main options (help lists them all).
    var usageLine: String {
        typealias Option = ArgumentParser.Option
        let shown: [String]
        switch self {
        case .generate:
            let optional: [Option] = [.flavor, .access, .templates, .includeManual, .check, .dryRun]
            shown = [Option.outputDirectory.usage(required: true)] + optional.map { $0.usage() }
        case .schema: shown = ([.outputFile, .ifNotExists, .modelVersion] as [Option]).map { $0.usage() }
        case .validate: shown = ["[options]"]
        case .dump: shown = ([.format, .modelVersion] as [Option]).map { $0.usage() }
        case .migrate:
            shown =
                ["<store.sqlite | postgresql://…>"]
                + ([.toVersion, .dryRun, .mergeHierarchies, .diffFormat] as [Option]).map {
                    $0.usage()
                }
        case .diff:
            shown =
                ["[<new-model>]"]
                + ([.fromVersion, .toVersion, .gitRevision, .diffFormat, .sql] as [Option]).map {
                    $0.usage()
                }
        }
        return (["USAGE: datamodelgen", rawValue, self == .validate ? "<model>..." : "<model>"] + shown)
            .joined(separator: " ")
    }

    /// The options of every command, last in each list.
    static let commonOptions: [ArgumentParser.Option] = [.modelVersion, .diagnosticsFormat, .warningsAsErrors]

    var options: [ArgumentParser.Option] {
        switch self {
        case .generate:
            [
                .outputDirectory, .flavor, .access, .templates, .includeManual, .overwriteUserFiles, .modelTypeName,
                .xcodeCompatible, .noSchema, .schemaDialect, .foreignKeys, .check, .dryRun, .noCache, .config,
                .expectOutput,
            ] + Self.commonOptions
        case .schema: [.outputFile, .dialect, .foreignKeys, .ifNotExists, .templates] + Self.commonOptions
        case .validate: Self.commonOptions
        case .dump: [.format] + Self.commonOptions
        case .diff:
            [.fromVersion, .toVersion, .gitRevision, .diffFormat, .sql, .dialect, .mergeHierarchies]
                + Self.commonOptions
        case .migrate: [.toVersion, .dryRun, .mergeHierarchies, .diffFormat] + Self.commonOptions
        }
    }

    var help: String {
        var text = "OVERVIEW: \(summary)\n\n\(usageLine)\n\n"
        text += "ARGUMENTS:\n  <model>    A .xcdatamodeld bundle, a .xcdatamodel directory, or a contents file.\n\n"
        text += "OPTIONS:\n"
        // The help texts start in one column, two spaces past the longest synopsis (at least 26 wide).
        let column = max(26, (options.map(\.synopsis.count).max() ?? 0) + 2)
        for option in options {
            text += "  " + MessageText.padded(option.synopsis, to: column) + option.help + "\n"
        }
        text += "  " + MessageText.padded("--help", to: column) + "Show this help.\n"
        text += "\nEXIT CODES: \(exitCodes)\n"
        return text
    }

    /// What the command's exit codes mean.
    var exitCodes: String {
        switch self {
        case .diff: "0 the same, 1 different (as diff(1)), 2 model or usage errors, 3 I/O errors."
        case .generate: "0 success, 1 model errors (or stale output with --check), 2 usage errors, 3 I/O errors."
        case .schema, .validate, .dump: "0 success, 1 model errors, 2 usage errors, 3 I/O errors."
        case .migrate:
            "0 migrated (or nothing to do), 1 model errors, a store of no known version or a change that is not "
                + "inferable, 2 usage errors, 3 I/O errors."
        }
    }

    func run(_ arguments: ArgumentParser.Parsed, console: Console, postgres: (any PostgresStoreMigrator)? = nil)
        throws -> ExitCode
    {
        let printer = DiagnosticPrinter(
            format: arguments.value(.diagnosticsFormat).flatMap(DiagnosticsFormat.init) ?? .text,
            warningsAsErrors: arguments.flag(.warningsAsErrors), console: console)
        switch self {
        case .generate: return try GenerateCommand.run(arguments, printer: printer, console: console)
        case .schema: return try SchemaCommand.run(arguments, printer: printer, console: console)
        case .validate: return try ValidateCommand.run(arguments, printer: printer, console: console)
        case .dump: return try DumpCommand.run(arguments, printer: printer, console: console)
        case .diff: return try DiffCommand.run(arguments, printer: printer, console: console)
        case .migrate:
            return try MigrateCommand.run(arguments, printer: printer, console: console, postgres: postgres)
        }
    }
}

extension GeneratorPipeline {
    /// The pipeline of the command-line tool: its stages run their parallel work on threads of their own and
    /// keep their large graphs until the process exits (when ``BatchProcess/prepare()`` was called).
    static let commandLine = GeneratorPipeline(scheduler: ThreadedWork())
}

/// Loads and validates a model, printing diagnostics; shared by every command.
enum ModelInput {
    /// The outcome of loading: the model when usable, and the exit code so far.
    struct Outcome {
        var loaded: LoadedModel?
        var exitCode: ExitCode
    }

    /// Loads and validates the model at `path`; prints every diagnostic.
    static func loadAndValidate(path: String, versionName: String?, printer: DiagnosticPrinter) -> Outcome {
        let (outcome, diagnostics) = loadAndValidateQuietly(path: path, versionName: versionName, printer: printer)
        printer.print(diagnostics)
        return outcome
    }

    /// Loads and validates the model at `path`, returning the diagnostics instead of printing them.
    static func loadAndValidateQuietly(path: String, versionName: String?, printer: DiagnosticPrinter) -> (
        Outcome, [Diagnostic]
    ) {
        let pipeline = GeneratorPipeline.commandLine
        do {
            let validated = pipeline.validate(try pipeline.load(path: path, versionName: versionName))
            let diagnostics = printer.promote(validated.diagnostics)
            return (
                Outcome(loaded: validated.loaded, exitCode: diagnostics.containsErrors ? .modelError : .success),
                diagnostics
            )
        } catch {
            return (Outcome(loaded: nil, exitCode: error.kind == .io ? .ioError : .modelError), error.diagnostics)
        }
    }
}

/// `datamodelgen validate`.
enum ValidateCommand {
    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing <model> argument") }
        var worst = ExitCode.success
        var diagnostics: [Diagnostic] = []
        for path in arguments.positionals {
            let (outcome, found) = ModelInput.loadAndValidateQuietly(
                path: path, versionName: arguments.value(.modelVersion), printer: printer)
            diagnostics += found
            if outcome.exitCode.rawValue > worst.rawValue { worst = outcome.exitCode }
        }
        // One report for all models, so `--diagnostics-format json` prints one JSON document.
        printer.print(diagnostics)
        return worst
    }
}

/// `datamodelgen dump`.
enum DumpCommand {
    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing <model> argument" : "dump takes one model")
        }
        do {
            let loaded = try ModelLoader.load(path: path, versionName: arguments.value(.modelVersion))
            let printed = printer.print(loaded.diagnostics)
            if printed.containsErrors { return .modelError }
            let text: String
            switch arguments.value(.format).flatMap(DumpFormat.init) ?? .json {
            case .text: text = ModelDumper.text(loaded)
            case .json: text = try ModelDumper.json(loaded)
            }
            console.out(text)
            return .success
        } catch let error as ModelLoadingError {
            printer.print(error.diagnostics)
            return error.kind == .io ? .ioError : .modelError
        }
    }
}
