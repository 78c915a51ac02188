// libFuzzer target: a model `contents` file through the secure XML parser, the model parser, the validator and the
// store layout — everything `datamodelgen validate` and `schema` do with a model they are given. Any input must end
// in a model or diagnostics, never a crash, a hang or a sanitizer report.
import DataModel
import DataModelCodegen
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard
        let parsed = try? ModelParser.parse(
            data, file: "fuzz/contents", modelName: "Fuzz", versionName: "Fuzz")
    else { return 0 }
    _ = Validator().validate(parsed.model)
    _ = try? SchemaRenderer.layout(of: parsed.model)
    return 0
}
