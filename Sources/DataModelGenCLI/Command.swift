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

    var summary: String {
        switch self {
        case .generate: "Generate Swift model classes (and the SQLite schema) from a model."
        case .schema: "Print or write the model's SQLite schema in Core Data's store layout."
        case .validate: "Check models for errors the way Xcode's model compiler does."
        case .dump: "Print a model's parsed form as deterministic JSON or text."
        }
    }

    var usageLine: String {
        switch self {
        case .generate:
            "USAGE: datamodelgen generate <model> --output DIR [--flavor runtime|coredata|coredata,runtime] [--access public|internal] [--templates DIR] [--include-manual] [--check] [--dry-run]"
        case .schema: "USAGE: datamodelgen schema <model> [--output FILE] [--if-not-exists] [--model-version NAME]"
        case .validate: "USAGE: datamodelgen validate <model>... [options]"
        case .dump: "USAGE: datamodelgen dump <model> [--format json|text] [--model-version NAME]"
        }
    }

    /// The options of every command, last in each list.
    static let commonOptions: [ArgumentParser.Option] = [.modelVersion, .diagnosticsFormat, .warningsAsErrors]

    var options: [ArgumentParser.Option] {
        switch self {
        case .generate:
            [
                .outputDirectory, .flavor, .access, .templates, .includeManual, .noSchema, .check, .dryRun, .noCache,
                .config, .expectOutput,
            ] + Self.commonOptions
        case .schema: [.outputFile, .ifNotExists, .templates] + Self.commonOptions
        case .validate: Self.commonOptions
        case .dump: [.format] + Self.commonOptions
        }
    }

    var help: String {
        var text = "OVERVIEW: \(summary)\n\n\(usageLine)\n\n"
        text += "ARGUMENTS:\n  <model>    A .xcdatamodeld bundle, a .xcdatamodel directory, or a contents file.\n\n"
        text += "OPTIONS:\n"
        for option in options {
            let head = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
            text += "  " + MessageText.padded(head, to: 26) + option.help + "\n"
        }
        text += "  " + MessageText.padded("--help", to: 26) + "Show this help.\n"
        return text
    }

    func run(_ arguments: ArgumentParser.Parsed, console: Console) throws -> ExitCode {
        let printer = DiagnosticPrinter(
            format: arguments.value(.diagnosticsFormat).flatMap(DiagnosticsFormat.init) ?? .text,
            warningsAsErrors: arguments.flag(.warningsAsErrors), console: console)
        switch self {
        case .generate: return try GenerateCommand.run(arguments, printer: printer, console: console)
        case .schema: return try SchemaCommand.run(arguments, printer: printer, console: console)
        case .validate: return try ValidateCommand.run(arguments, printer: printer, console: console)
        case .dump: return try DumpCommand.run(arguments, printer: printer, console: console)
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
