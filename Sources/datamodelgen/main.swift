import DataModel
import DataModelGenCLI
import Foundation

// The process exits right after the command: the model and its contexts need not be freed one by one.
ExitTeardown.skipDeallocation()
let code = CommandLineTool().run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
