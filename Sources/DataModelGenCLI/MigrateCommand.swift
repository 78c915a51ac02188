import DataModel
import DataModelCodegen
import DataModelStore
import DataModelStoreLayout
import FoundationEssentials
import SQLiteKit

/// `datamodelgen migrate <bundle> <store.sqlite | postgresql://…>`: migrates a store offline, as the runtime does
/// when it opens one (servers migrate before they deploy). A `postgresql://` (or `postgres://`) URL names a
/// PostgreSQL store: the same plan as the runtime's on open, in one transaction under its advisory lock, by the
/// ``PostgresStoreMigrator`` of `datamodelgen-postgres` (`datamodelgen` runs that tool for a URL: ``PostgresTool``). Recognises the version that wrote the store, then migrates it to the
/// current version (or `--to`) in one transaction; `--dry-run` writes nothing and reports the plan.
///
/// Exit codes: 0 migrated (or nothing to do), 1 the store's version is unknown or the change is not inferable
/// (nothing written), 2 usage, 3 I/O.
enum MigrateCommand {
    struct Report: Encodable {
        var store: String
        var sourceVersion: String?
        var targetVersion: String
        var inferable: Bool
        var migrated: Bool
        var steps: [String]
        var sql: [String]
        var reasons: [String]
        /// What the migration does that Core Data's inferred mapping refuses (`MigrationPlan.beyondCoreData`).
        var beyondCoreData: [String] = []
    }

    static func run(
        _ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console,
        postgres: (any PostgresStoreMigrator)? = nil
    ) throws -> ExitCode {
        guard arguments.positionals.count == 2 else {
            throw UsageError(
                "migrate takes a model bundle and a store: migrate <bundle> <store.sqlite | postgresql://…>")
        }
        let (bundle, storePath) = (arguments.positionals[0], arguments.positionals[1])
        let versions: [LoadedModel]
        let target: Int
        do {
            let loaded = try ModelLoader.loadVersions(
                path: bundle, versionName: arguments.value(.toVersion) ?? arguments.value(.modelVersion))
            versions = loaded.versions
            target = loaded.chosen
        } catch {
            printer.print(error.diagnostics)
            return error.kind == .io ? .ioError : .modelError
        }
        for version in versions {
            let validated = GeneratorPipeline.commandLine.validate(version)
            let diagnostics = printer.promote(validated.diagnostics)
            if diagnostics.containsErrors {
                printer.print(diagnostics)
                return .modelError
            }
        }
        let isPostgres = PostgresURL.isURL(storePath)
        var database: Database?
        if !isPostgres {
            guard FileManager.default.fileExists(atPath: storePath) else {
                throw IOFailure(path: storePath, message: "no such store")
            }
            do {
                let opened = try Database(location: .file(path: storePath), flags: [.readWrite])
                opened.setBusyTimeout(milliseconds: 5000)
                database = opened
            } catch {
                throw IOFailure(path: storePath, message: error.description)
            }
        }
        let names = versions.map(\.model.versionName)
        let dryRun = arguments.flag(.dryRun)
        var report = Report(
            store: isPostgres ? PostgresURL.displayed(storePath) : storePath, sourceVersion: nil,
            targetVersion: names[target], inferable: false, migrated: false,
            steps: [], sql: [], reasons: [])
        var exitCode = ExitCode.success
        do {
            let layouts = versions.map { LayoutModel($0.model) }
            let migration: StoreFile.Migration
            if let database {
                migration = try StoreFile.migrate(
                    database, versions: layouts, to: target, dryRun: dryRun,
                    mergingHierarchies: arguments.flag(.mergeHierarchies))
            } else if let postgres {
                // A PostgreSQL store: the runtime's plan, in one transaction under its advisory lock.
                migration = try postgres.migrate(
                    url: storePath, versions: layouts, to: target, modelName: versions[target].model.name,
                    dryRun: dryRun,
                    mergingHierarchies: arguments.flag(.mergeHierarchies))
            } else {
                // `CommandLineTool` runs `datamodelgen-postgres` for a URL before it comes here.
                throw IOFailure(path: report.store, message: "this tool cannot migrate PostgreSQL stores")
            }
            report.sourceVersion = names[migration.sourceIndex]
            report.inferable = true
            report.migrated = migration.migrated
            report.steps = migration.plan.steps + migration.indexRepair.steps
            report.sql = migration.plan.statements + migration.indexRepair.statements
            report.beyondCoreData = migration.plan.beyondCoreData
        } catch let failure as IOFailure {
            throw failure
        } catch {
            exitCode = .modelError
            // Anything else the PostgreSQL migrator throws is a failure to reach or change the database.
            guard let error = error as? StoreFile.MigrationFailure else {
                throw IOFailure(path: report.store, message: "\(error)")
            }
            switch error {
            case .unknownVersion(let differences):
                report.reasons = ["no version of \(bundle) wrote this store"] + differences
            case .newerVersion(let source):
                report.sourceVersion = names[source]
                report.reasons = ["the store is of \(names[source]), newer than \(names[target])"]
            case .notInferable(let source, let reasons):
                report.sourceVersion = names[source]
                report.reasons = reasons
            case .layout(let failure): report.reasons = ["cannot lay out the store: \(failure.description)"]
            case .sqlite(let failure): throw IOFailure(path: storePath, message: failure.description)
            }
        }
        switch arguments.value(.diffFormat).flatMap(DiffFormat.init) ?? .text {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            console.out(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        case .text:
            console.out(text(report, dryRun: dryRun))
        }
        return exitCode
    }

    static func text(_ report: Report, dryRun: Bool) -> String {
        var text = "store: \(report.store)\nsource version: \(report.sourceVersion ?? "unknown")\n"
        text += "target version: \(report.targetVersion)\n"
        guard report.reasons.isEmpty else {
            return text + "not migrated:\n" + report.reasons.map { "  \($0)\n" }.joined()
        }
        if report.sql.isEmpty { return text + "up to date: nothing to migrate\n" }
        text += "inferable: yes\nsteps:\n" + report.steps.map { "  \($0)\n" }.joined()
        text += report.beyondCoreData.map { "beyond Core Data: \($0)\n" }.joined()
        if dryRun {
            text += "sql:\n" + report.sql.map { "  \($0);\n" }.joined() + "dry run: nothing was written\n"
        } else {
            text += "migrated\n"
        }
        return text
    }
}
