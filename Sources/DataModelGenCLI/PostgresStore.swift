import DataModelStore
import DataModelStoreLayout
import FoundationEssentials
import ProcessSupport

/// Migrates a PostgreSQL store for `migrate <bundle> postgresql://…`.
///
/// `datamodelgen` has none: it does not link PostgreSQL's client library, whose own libraries (TLS, GSSAPI, LDAP …)
/// every start of the tool would load, so it runs `datamodelgen-postgres` for a PostgreSQL URL (``PostgresTool``).
/// `datamodelgen-postgres` is the same tool (``CommandLineTool``) with a migrator.
public protocol PostgresStoreMigrator: Sendable {
    /// Connects to `url` and migrates the store to `versions[target]` (or, with `dryRun`, plans it) in one transaction.
    ///
    /// - Throws: ``StoreFile/MigrationFailure`` for a store of no known version, of a newer version, or with a change
    ///   that is not inferable (the command reports it, exit code 1, nothing written). Any other error is a failure to
    ///   reach or change the database (the command prints `URL: error: <the error>`, exit code 3); the migrator has
    ///   rolled the transaction back.
    /// `modelName` is recorded in the store's metadata, as the runtime records its model's name.
    func migrate(
        url: String, versions: [LayoutModel], to target: Int, modelName: String, dryRun: Bool,
        mergingHierarchies: Bool
    ) throws -> StoreFile.Migration
}

/// Store arguments that name a PostgreSQL database rather than a SQLite file.
public enum PostgresURL {
    /// Whether `store` is a `postgresql://` or `postgres://` URL.
    static func isURL(_ store: String) -> Bool {
        let lowered = store.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// `url` as messages and reports show it: without its password.
    public static func displayed(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// `datamodelgen migrate <bundle> postgresql://…`: runs `datamodelgen-postgres` with the same arguments.
enum PostgresTool {
    /// The executable that migrates PostgreSQL stores.
    static let name = "datamodelgen-postgres"

    /// The message when `datamodelgen-postgres` is not installed.
    static let missing =
        "error: migrating a PostgreSQL store needs the \(name) tool next to datamodelgen; "
        + "build it with swift build --product \(name)\n"

    /// Runs `datamodelgen-postgres` (found by ``ChildProcess/companion(named:)``: beside this executable, then on the
    /// `PATH`) with `arguments` (the command's, `migrate` first).
    ///
    /// In the `datamodelgen` executable (``BatchProcess/isActive``) the process becomes `datamodelgen-postgres`
    /// (`execv`): its output, its exit code and any signal sent to the process (a deploy script killing the migration)
    /// are the tool's own, and this returns only when that fails. Elsewhere (a test, a program using
    /// ``CommandLineTool``) it runs as a child process whose output goes to `console` unchanged, and its exit code is
    /// returned.
    static func forward(_ arguments: [String], console: Console) -> ExitCode {
        guard let tool = ChildProcess.companion(named: name) else {
            console.err(missing)
            return .ioError
        }
        if BatchProcess.isActive {
            do {
                try ChildProcess.replaceProcess(with: [tool] + arguments)
            } catch {
                console.err("error: \(error.description)\n")
                return .ioError
            }
        }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run([tool] + arguments, capturing: true)
        } catch {
            console.err("error: \(error.description)\n")
            return .ioError
        }
        if !outcome.output.isEmpty { console.out(String(decoding: outcome.output, as: UTF8.self)) }
        if !outcome.errors.isEmpty { console.err(String(decoding: outcome.errors, as: UTF8.self)) }
        switch outcome.termination {
        case .exited(let status):
            if let code = ExitCode(rawValue: status) { return code }
            console.err("error: \(tool) exited with status \(status)\n")
            return .ioError
        case .signaled(let signal):
            console.err("error: \(tool) was ended by signal \(signal)\n")
            return .ioError
        }
    }
}
