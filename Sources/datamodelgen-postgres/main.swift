import DataModelGenCLI

// `datamodelgen` with PostgreSQL stores: `migrate <bundle> postgresql://…` connects through libpq here, in a tool of
// its own, so that `datamodelgen` itself does not load libpq and its libraries at every start.
BatchProcess.prepare()
let code = CommandLineTool(postgres: PostgresMigration()).run(Array(CommandLine.arguments.dropFirst()))
BatchProcess.exit(code)
