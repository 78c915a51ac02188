import DataModel
import FoundationEssentials

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

    static let diagnosticOptions: [ArgumentParser.Option] = [
        .value(
            "diagnostics-format", "FORMAT", "How to print diagnostics on standard error: text (default) or json.",
            allowed: ["text", "json"]),
        .flag("warnings-as-errors", "Treat warnings as errors."),
    ]

    static let modelVersionOption = ArgumentParser.Option.value(
        "model-version", "NAME", "Use this version of a .xcdatamodeld bundle instead of the current one.")

    var options: [ArgumentParser.Option] {
        switch self {
        case .generate:
            [
                .value("output", "DIR", "Directory for the generated files (created when missing)."),
                .value(
                    "flavor", "FLAVOR",
                    "runtime (default: classes for DataModelRuntime), coredata (Xcode's codegen), or several: coredata,runtime or all (each into <output>/<flavor>)."
                ),
                .value(
                    "access", "LEVEL", "Access level of declarations: public (default) or internal.",
                    allowed: ["public", "internal"]),
                .value("templates", "DIR", "Directory of .mustache files overriding default templates by file name."),
                .flag("include-manual", "Also generate entities whose codegen is Manual/None."),
                .flag("no-schema", "Do not write <ModelName>.sql next to the Swift files."),
                .flag("check", "Write nothing; print a diff and exit 1 when the output is stale."),
                .flag("dry-run", "Write nothing; list the files that would be written, kept or removed."),
                .flag("no-cache", "Always regenerate, even when inputs and outputs are unchanged since the last run."),
                .value("config", "FILE", "A datamodelgen.json config (default: the one next to the model, if any)."),
                .value(
                    "expect-output", "FILE",
                    "Fail unless exactly these files are generated (repeatable; the build plugin declares its outputs so)."
                ),
                Self.modelVersionOption,
            ] + Self.diagnosticOptions
        case .schema:
            [
                .value("output", "FILE", "Write the DDL to FILE (only when it changes) instead of standard output."),
                .flag("if-not-exists", "Write CREATE TABLE/INDEX IF NOT EXISTS."),
                .value("templates", "DIR", "Directory of .mustache files overriding default templates by file name."),
                Self.modelVersionOption,
            ] + Self.diagnosticOptions
        case .validate: [Self.modelVersionOption] + Self.diagnosticOptions
        case .dump:
            [
                .value("format", "FORMAT", "Output format: json (default) or text.", allowed: ["json", "text"]),
                Self.modelVersionOption,
            ] + Self.diagnosticOptions
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
            format: DiagnosticsFormat(rawValue: arguments.value("diagnostics-format") ?? "text") ?? .text,
            warningsAsErrors: arguments.flag("warnings-as-errors"), console: console)
        switch self {
        case .generate: return try GenerateCommand.run(arguments, printer: printer, console: console)
        case .schema: return try SchemaCommand.run(arguments, printer: printer, console: console)
        case .validate: return try ValidateCommand.run(arguments, printer: printer, console: console)
        case .dump: return try DumpCommand.run(arguments, printer: printer, console: console)
        }
    }
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
        do {
            var loaded = try ModelLoader.load(path: path, versionName: versionName)
            loaded.diagnostics += Validator().validate(loaded.model)
            let diagnostics = printer.promote(loaded.diagnostics)
            return (Outcome(loaded: loaded, exitCode: diagnostics.containsErrors ? .modelError : .success), diagnostics)
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
                path: path, versionName: arguments.value("model-version"), printer: printer)
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
            let loaded = try ModelLoader.load(path: path, versionName: arguments.value("model-version"))
            let printed = printer.print(loaded.diagnostics)
            if printed.containsErrors { return .modelError }
            let text: String
            switch arguments.value("format") ?? "json" {
            case "text": text = ModelDumper.text(loaded)
            default: text = try ModelDumper.json(loaded)
            }
            console.out(text)
            return .success
        } catch let error as ModelLoadingError {
            printer.print(error.diagnostics)
            return error.kind == .io ? .ioError : .modelError
        }
    }
}
