import DataModel
import DataModelCodegen
import DataModelStoreLayout
import FoundationEssentials

/// `datamodelgen diff`: what changed between two versions of a model, for review, and whether a store of the old
/// one migrates to the new one automatically.
///
/// - `diff <bundle>`: the version before the current one → the current one (`--from` / `--to` pick others);
/// - `diff <old> <new>`: two models (bundles at their current versions, or `.xcdatamodel` directories);
/// - `diff <model> --git REV`: the model as git has it at REV → the working tree.
///
/// Exit codes as diff(1)'s: 0 the same, 1 different, 2 an error (a model with errors, a version that does not exist,
/// a usage error), 3 a file that cannot be read.
enum DiffCommand {
    /// The two sides compared, with the names shown for them.
    struct Sides {
        var old: LoadedModel
        var new: LoadedModel
        var oldName: String
        var newName: String
        /// For `--git`: the temporary copy's path and what to show for it instead.
        var shownPath: (copy: String, shown: String)?

        /// `file` as the reviewer should see it.
        func display(_ file: String) -> String {
            guard let shownPath, file.hasPrefix(shownPath.copy) else { return file }
            return shownPath.shown + file.dropFirst(shownPath.copy.count)
        }
    }

    static func run(_ arguments: ArgumentParser.Parsed, printer: DiagnosticPrinter, console: Console) throws
        -> ExitCode
    {
        let sides: Sides
        do {
            sides = try loadSides(arguments)
        } catch let error as ModelLoadingError {
            printer.print(error.diagnostics)
            return error.kind == .io ? .ioError : .diffError
        }
        for side in [sides.old, sides.new] {
            let validated = GeneratorPipeline.commandLine.validate(side)
            let diagnostics = printer.promote(validated.diagnostics)
            if diagnostics.containsErrors {
                printer.print(diagnostics)
                return .diffError
            }
        }
        let changes = ModelDiff.changes(from: sides.old.model, to: sides.new.model)
        // `--sql` writes the statements of a store in this dialect (`--dialect postgres`: a PostgreSQL store's).
        let dialect = try SchemaOptions.dialect(named: arguments.value(.dialect), fromCommandLine: true)
        let plan: MigrationPlan
        do {
            plan = try MigrationPlan(
                from: LayoutModel(sides.old.model), to: LayoutModel(sides.new.model),
                mergingHierarchies: arguments.flag(.mergeHierarchies), dialect: dialect)
        } catch {
            printer.print([
                .error(
                    "cannot lay out the store: \(error.description)", rule: .storeLayout, at: sides.new.model.location)
            ])
            return .diffError
        }
        let report = Report(
            sides: sides, changes: changes, plan: plan, includesSQL: arguments.flag(.sql), dialect: dialect)
        switch arguments.value(.diffFormat).flatMap(DiffFormat.init) ?? .text {
        case .text: console.out(report.text)
        case .json: console.out(try report.json())
        }
        return changes.isEmpty && plan.isEmpty ? .success : .differences
    }

    // MARK: Sides

    private static func loadSides(_ arguments: ArgumentParser.Parsed) throws -> Sides {
        let positionals = arguments.positionals
        let from = arguments.value(.fromVersion)
        // `--model-version` picks the version in every command: here, the new side (as `--to`).
        let to = arguments.value(.toVersion) ?? arguments.value(.modelVersion)
        if let revision = arguments.value(.gitRevision) {
            guard positionals.count == 1, let path = positionals.first else {
                throw UsageError("--git compares one model with itself at a revision: diff <model> --git REV")
            }
            let copy = try GitRevision.materialize(path: path, revision: revision)
            defer { try? FileManager.default.removeItem(atPath: copy.root) }
            return Sides(
                old: try ModelLoader.load(path: copy.model, versionName: from),
                new: try ModelLoader.load(path: path, versionName: to), oldName: "\(revision):\(path)", newName: path,
                shownPath: (copy.model, "\(revision):\(path)"))
        }
        switch positionals.count {
        case 1:
            let path = positionals[0]
            let current = try ModelLoader.load(path: path, versionName: to)
            let versions = current.availableVersions
            let newName = current.model.versionName
            let oldName: String
            if let from {
                oldName = from
            } else {
                guard let index = versions.firstIndex(of: newName), index > 0 else {
                    throw UsageError(
                        "'\(path)' has no version before '\(newName)' to compare with; name one with --from, or give two models"
                    )
                }
                oldName = versions[index - 1]
            }
            let old = try ModelLoader.load(path: path, versionName: oldName)
            return Sides(old: old, new: current, oldName: old.model.versionName, newName: newName)
        case 2:
            guard from == nil, to == nil else {
                throw UsageError("--from and --to pick versions of one bundle; with two models, give each as a path")
            }
            let old = try ModelLoader.load(path: positionals[0])
            let new = try ModelLoader.load(path: positionals[1])
            return Sides(old: old, new: new, oldName: positionals[0], newName: positionals[1])
        case 0: throw UsageError("missing <model> argument")
        default: throw UsageError("diff takes one bundle, or two models")
        }
    }

    // MARK: Output

    /// The diff as a reviewer reads it, or as JSON for tools.
    struct Report {
        var sides: Sides
        var changes: [ModelChange]
        var plan: MigrationPlan
        var includesSQL: Bool
        /// The dialect of the SQL (`BEGIN IMMEDIATE` on SQLite, `BEGIN` on PostgreSQL).
        var dialect: SQLDialect = .sqlite

        /// Each change on one line with its place in the new model (the old one for removals), then the verdict.
        var text: String {
            var text = "--- \(sides.oldName)\n+++ \(sides.newName)\n"
            for change in changes {
                text += "\(sides.display(change.location.file)):\(change.location.line): \(change.summary)\n"
            }
            if changes.isEmpty { text += "no changes\n" }
            if plan.isEmpty {
                text += "migration: none needed\n"
            } else if plan.isInferable {
                let kind = plan.beyondCoreData.isEmpty ? "inferable (lightweight)" : "with --merge-hierarchies"
                text += "migration: \(kind), \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s")\n"
                for step in plan.steps { text += "  \(step)\n" }
                for note in plan.beyondCoreData { text += "beyond Core Data: \(note)\n" }
            } else {
                text += "migration: NOT inferable; needs a mapping model:\n"
                for blocker in plan.blockers { text += "  \(blocker)\n" }
            }
            if includesSQL && !plan.statements.isEmpty {
                text +=
                    (dialect == .postgres ? "\nBEGIN;\n" : "\nBEGIN IMMEDIATE;\n")
                    + plan.statements.map { $0 + ";\n" }.joined() + "COMMIT;\n"
            }
            return text
        }

        struct JSONChange: Encodable {
            var kind: String
            var element: String
            var entity: String
            var name: String?
            var field: String?
            var old: String?
            var new: String?
            var file: String
            var line: Int
        }

        struct JSONReport: Encodable {
            var from: String
            var to: String
            var changes: [JSONChange]
            var inferable: Bool
            var blockers: [String]
            var steps: [String]
            var sql: [String]
            /// What this migration does that Core Data's inferred mapping refuses (``MigrationPlan/beyondCoreData``).
            var beyondCoreData: [String]
        }

        func json() throws -> String {
            let report = JSONReport(
                from: sides.oldName, to: sides.newName,
                changes: changes.map {
                    JSONChange(
                        kind: $0.kind.rawValue, element: $0.element.rawValue, entity: $0.entity, name: $0.name,
                        field: $0.field, old: $0.oldValue, new: $0.newValue, file: sides.display($0.location.file),
                        line: $0.location.line)
                },
                inferable: plan.isInferable, blockers: plan.blockers, steps: plan.steps, sql: plan.statements,
                beyondCoreData: plan.beyondCoreData)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        }
    }
}

/// The formats of `datamodelgen diff`.
enum DiffFormat: String, CaseIterable, Sendable {
    case text
    case json
}
