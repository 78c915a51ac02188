import Foundation
import Testing

@testable import DataModelCodegen

/// Every key a template can use is documented in `Templates/README.md` (as `` `key` ``), so a key added to a context
/// without its documentation fails here.
@Suite struct TemplateKeyDocumentationTests {
    static let readme: String =
        (try? String(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("Templates/README.md"), encoding: .utf8)) ?? ""

    static var keys: [(context: String, names: [String])] {
        [
            ("model", ModelObject.Key.allCases.map(\.rawValue)),
            ("entity", EntityContext.Key.allCases.map(\.rawValue)),
            ("attribute", AttributeContext.Key.allCases.map(\.rawValue)),
            ("relationship", RelationshipContext.Key.allCases.map(\.rawValue)),
            ("fetched property", FetchedPropertyContext.Key.allCases.map(\.rawValue)),
            ("fetch request template", FetchRequestTemplateContext.Key.allCases.map(\.rawValue)),
            ("fetch index", FetchIndexObject.Key.allCases.map(\.rawValue)),
            ("key path", KeyPathObject.Key.allCases.map(\.rawValue)),
            ("lambda", TemplateLambdas.Key.allCases.map(\.rawValue)),
            ("schema", SchemaObject.Key.allCases.map(\.rawValue)),
        ]
    }

    @Test func everyKeyIsDocumented() {
        #expect(!Self.readme.isEmpty)
        for (context, names) in Self.keys {
            for name in names {
                #expect(Self.readme.contains("`\(name)`"), "the \(context) key '\(name)' is not in Templates/README.md")
            }
        }
    }
}
