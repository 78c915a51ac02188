import DataModelCodegen
import Testing

@Suite("Swift naming")
struct SwiftNamingTests {
    /// Names that break a declaration or `extension <name>` unless escaped (`each` found by a keyword sweep
    /// of the generated Core Data flavor through `swiftc -parse`).
    @Test(arguments: ["class", "Type", "Self", "Protocol", "Any", "some", "any", "each", "_"])
    func contextualKeywordsAreEscaped(_ name: String) {
        #expect(SwiftNaming.escaped(name) == "`\(name)`")
    }

    @Test(arguments: ["copy", "consume", "package", "Item", "eachItem"])
    func ordinaryNamesAreNot(_ name: String) {
        #expect(SwiftNaming.escaped(name) == name)
    }
}
