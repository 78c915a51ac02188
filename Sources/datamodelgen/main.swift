import DataModel
import DataModelGenCLI
import FoundationEssentials

// The process exits right after the command: no teardown of large graphs, memory kept for reuse.
BatchProcess.prepare()
let code = CommandLineTool().run(Array(CommandLine.arguments.dropFirst()))
BatchProcess.exit(code)
