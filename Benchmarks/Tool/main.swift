import DataModel
import DataModelGenCLI
import FoundationEssentials

// `datamodelgen`, built as the README's install builds it (the Swift libraries linked in, in release): the
// generator cases of `datamodelgen-benchmarks` time this binary, which is what users run. Sources/datamodelgen
// is the same three lines; that target cannot carry the linker flag, because packages that use the plugins
// build it.
BatchProcess.prepare()
let code = CommandLineTool().run(Array(CommandLine.arguments.dropFirst()))
BatchProcess.exit(code)
