// libFuzzer target: a `.xccurrentversion` file's bytes through the reader that names a bundle's current version
// (its fast path for Xcode's own file, then the property-list parser behind a nesting check).
import DataModel
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    var warnings: [Diagnostic] = []
    _ = ModelLoader.currentVersionName(inFileContents: data, path: "fuzz/.xccurrentversion", warnings: &warnings)
    return 0
}
