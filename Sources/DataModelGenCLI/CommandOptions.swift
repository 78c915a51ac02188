import DataModelCodegen
import DataModelStoreLayout

/// Every option of every command, declared once: the commands list them (``Command/options``), the parser
/// parses by them, help prints them and the commands read the parsed values through them.
extension ArgumentParser.Option {
    // MARK: generate

    static let outputDirectory = path("output", "DIR", "Directory for the generated files (created when missing).")
    static let flavor = value(
        "flavor", "FLAVOR",
        "runtime (default: classes for DataModelRuntime), coredata (Xcode's codegen), or several: coredata,runtime or all (each into <output>/<flavor>).",
        usage: "runtime|coredata|coredata,runtime")
    static let access = value(
        "access", "LEVEL", "Access level of declarations: public (default) or internal.",
        allowed: AccessLevel.allCases.map(\.rawValue))
    static let templates = path(
        "templates", "DIR", "Directory of .mustache files overriding default templates by file name.")
    static let includeManual = flag(
        "include-manual",
        "Also generate entities whose codegen is Manual/None (yours to edit: written only when missing, never overwritten)."
    )
    static let overwriteUserFiles = flag(
        "overwrite-user-files",
        "Rewrite existing --include-manual files too (the build plugin does: nobody edits its output directory).")
    static let modelTypeName = value(
        "model-type-name", "NAME",
        "Name of the runtime flavor's model type (default: <ModelName>Model), when that name is taken in your code.")
    static let xcodeCompatible = flag(
        "xcode-compatible",
        "Xcode's shapes for ports: scalars non-optional (unset reads 0), other attributes optional, to-many NSSet?/NSOrderedSet?, +CoreDataClass/+CoreDataProperties file names."
    )
    static let noSchema = flag("no-schema", "Do not write <ModelName>.sql next to the Swift files.")
    static let schemaDialect = value(
        "schema-dialect", "DIALECT", "Dialect of <ModelName>.sql: sqlite (default) or postgres.",
        allowed: SQLDialect.all.map(\.name))
    static let check = flag("check", "Write nothing; print a diff and exit 1 when the output is stale.")
    static let dryRun = flag("dry-run", "Write nothing; list the files that would be written, kept or removed.")
    static let noCache = flag(
        "no-cache", "Always regenerate, even when inputs and outputs are unchanged since the last run.")
    static let config = path(
        "config", "FILE", "A datamodelgen.json config (default: the one next to the model, if any).")
    static let expectOutput = path(
        "expect-output", "FILE",
        "Fail unless exactly these files are generated (repeatable; the build plugin declares its outputs so).")

    // MARK: schema

    static let outputFile = path(
        "output", "FILE", "Write the DDL to FILE (only when it changes) instead of standard output.")
    static let ifNotExists = flag("if-not-exists", "Write CREATE TABLE/INDEX IF NOT EXISTS.")
    static let dialect = value(
        "dialect", "DIALECT",
        "sqlite (default: Core Data's store) or postgres (the same tables with PostgreSQL's types).",
        allowed: SQLDialect.all.map(\.name))
    static let foreignKeys = flag(
        "foreign-keys", "Declare to-one and join-table keys as foreign keys (deferred; Core Data declares none).")

    // MARK: dump

    static let format = value(
        "format", "FORMAT", "Output format: json (default) or text.", allowed: DumpFormat.allCases.map(\.rawValue))

    // MARK: diff

    static let fromVersion = value("from", "VERSION", "The old version of the bundle (default: the one before --to).")
    static let toVersion = value("to", "VERSION", "The new version of the bundle (default: the current one).")
    static let gitRevision = value(
        "git", "REV", "Compare the model as git has it at REV (a commit, branch or tag) with the working tree.")
    static let mergeHierarchies = flag(
        "merge-hierarchies",
        "Also migrate entities of separate hierarchies moved into one (Core Data refuses; their keys are renumbered).")
    static let sql = flag("sql", "Also print the SQL that migrates a store of the old version.")
    static let diffFormat = value(
        "format", "FORMAT", "Output format: text (default) or json.", allowed: DiffFormat.allCases.map(\.rawValue))

    // MARK: every command

    static let modelVersion = value(
        "model-version", "NAME", "Use this version of a .xcdatamodeld bundle instead of the current one.")
    static let diagnosticsFormat = value(
        "diagnostics-format", "FORMAT", "How to print diagnostics on standard error: text (default) or json.",
        allowed: DiagnosticsFormat.allCases.map(\.rawValue))
    static let warningsAsErrors = flag("warnings-as-errors", "Treat warnings as errors.")
}

/// The formats of `datamodelgen dump`.
enum DumpFormat: String, CaseIterable, Sendable {
    case json
    case text
}
