import DataModel
import FoundationEssentials
import Mustache

/// The `datamodelgen` command: dispatches to subcommands and maps failures to exit codes.
public struct CommandLineTool: Sendable {
    /// The tool's version, printed by `--version`.
    public static let version = "0.1.0"

    let console: Console
    /// What migrates a PostgreSQL store; without one (`datamodelgen`), `migrate` on a PostgreSQL URL runs
    /// `datamodelgen-postgres`, which has one (``PostgresTool``).
    let postgres: (any PostgresStoreMigrator)?

    /// Creates the tool writing to `console`, migrating PostgreSQL stores with `postgres` when given.
    public init(console: Console = .standard, postgres: (any PostgresStoreMigrator)? = nil) {
        self.console = console
        self.postgres = postgres
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) -> ExitCode {
        guard let first = arguments.first else {
            console.err(Self.overview)
            return .usageError
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = Command(rawValue: arguments[1]) {
                console.out(command.help)
            } else {
                console.out(Self.overview)
            }
            return .success
        case "--version":
            console.out("datamodelgen \(Self.version)\n")
            return .success
        default:
            break
        }
        guard let command = Command(rawValue: first) else {
            var message = "error: unknown command '\(first)'"
            let names = Command.allCases.map(\.rawValue)
            if let best = NameSuggestion.closest(to: first, among: names) { message += "; did you mean '\(best)'?" }
            console.err(message + "\n\n" + Self.overview)
            return .usageError
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return .success
        }
        do {
            let parsed = try ArgumentParser(options: command.options).parse(rest)
            if command == .migrate, postgres == nil, parsed.positionals.count == 2,
                PostgresURL.isURL(parsed.positionals[1])
            {
                return PostgresTool.forward(arguments, console: console)
            }
            return try command.run(parsed, console: console, postgres: postgres)
        } catch let error as UsageError {
            console.err(
                "error: \(error.description)\n\(command.usageLine)\nRun 'datamodelgen \(command.rawValue) --help' for details.\n"
            )
            return .usageError
        } catch let error as ConfigFailure {
            console.err("\(error.description)\n")
            return .usageError
        } catch let error as IOFailure {
            console.err("\(error.description)\n")
            return .ioError
        } catch let error as MustacheError {
            // A broken template is bad input like a broken model: a located diagnostic and exit code 1.
            console.err("\(error.description)\n")
            return .modelError
        } catch {
            console.err("error: \(error)\n")
            return .ioError
        }
    }

    static let overview = """
        OVERVIEW: Generate Swift model classes and SQLite schemas from Xcode data models.

        USAGE: datamodelgen <command> [options]

        COMMANDS:
        \(Command.allCases.map { "  " + MessageText.padded($0.rawValue, to: 10) + $0.summary }.joined(separator: "\n"))

        OPTIONS:
          --help       Show help (also after a command: datamodelgen validate --help).
          --version    Show the version.

        EXIT CODES: 0 success, 1 model errors (or stale output with --check), 2 usage errors, 3 I/O errors;
                    diff, as diff(1): 0 the same, 1 different, 2 model or usage errors, 3 I/O errors.

        """
}

/// A failure to read or write a file (exit code 3).
struct IOFailure: Error, CustomStringConvertible {
    var path: String
    var message: String
    /// The diagnostic's rule name.
    var rule = "io-error"
    /// Failures of the same run reported with this one, a line each after it.
    var others: [IOFailure] = []

    var description: String {
        ([self] + others).map { "\($0.path): error: \($0.message) [\($0.rule)]" }.joined(separator: "\n")
    }

    /// `failures` (not empty) as one failure that reports them all, in order.
    static func combined(_ failures: [IOFailure]) -> IOFailure? {
        guard var first = failures.first else { return nil }
        first.others = Array(failures.dropFirst())
        return first
    }

    /// The refusal to replace `path`, a user-owned file ("This file is yours to edit") that the generator now
    /// writes because its entity's codegen changed from Manual/None to Class Definition or Category/Extension.
    static func userFileConflict(at path: String) -> IOFailure {
        IOFailure(
            path: path,
            message:
                "this file is yours to edit (created while its entity's codegen was Manual/None), and the entity's "
                + "codegen now has it generated: move what you added to a file of your own and delete this one, or "
                + "pass --overwrite-user-files to replace it",
            rule: userFileConflictRule)
    }

    /// The rule of ``userFileConflict(at:)``.
    static let userFileConflictRule = "user-file-conflict"
}
