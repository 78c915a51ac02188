import DataModelGenCLI
import Foundation

let code = CommandLineTool().run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
