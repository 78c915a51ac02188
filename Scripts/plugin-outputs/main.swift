// Prints the files the build plugin declares for each model, one `<model>\t<file>` line per file, using the
// plugin's own scan (Plugins/PluginsShared). Scripts/test-plugins.sh compiles it with those sources and compares
// the list with `datamodelgen generate --dry-run` for every model it can find.
//
//   plugin-outputs runtime|coredata include-manual|no-manual MODEL...
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3, let flavor = GeneratorOptions.Flavor(rawValue: arguments[1]) else {
    let usage = "usage: plugin-outputs runtime|coredata include-manual|no-manual MODEL...\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
var options = GeneratorOptions()
options.flavor = flavor
options.includeManual = arguments[2] == "include-manual"
for path in arguments.dropFirst(3) {
    let scanned = ModelScanner.scan(URL(fileURLWithPath: path), versionName: nil)
    guard let entities = scanned.entities else {
        print("\(path)\t<scan failed>")
        continue
    }
    for name in options.outputFileNames(for: scanned, entities: entities) { print("\(path)\t\(name)") }
}
