// libFuzzer target: a user's template through the Mustache parser and renderer. The input is split at the first
// NUL byte into a template and a partial (so partials, dynamic names and inheritance meet each other), rendered
// against a context with every kind of value, lambdas included.
import Foundation
import Mustache

private let context: MustacheValue = .dictionary([
    "name": .string("<Ada & \"Bob\">"),
    "count": .int(3),
    "ratio": .double(1.5),
    "yes": .bool(true),
    "no": .bool(false),
    "nothing": .null,
    "list": .array([.string("a"), .dictionary(["name": .string("inner")]), .array([.int(1), .int(2)])]),
    "person": .dictionary(["name": .string("Ann"), "friends": .array([.dictionary(["name": .string("Cy")])])]),
    "partialName": .string("partial"),
    "upper": .lambda(MustacheLambda { text in (text ?? "").uppercased() }),
    "wrap": .lambda(MustacheLambda { text in "{{#yes}}" + (text ?? "") + "{{/yes}}" }),
])

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let template = String(decoding: bytes[..<split], as: UTF8.self)
    let partial = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : "{{name}}"
    guard let library = try? MustacheLibrary(sources: ["main": template, "partial": partial]) else { return 0 }
    _ = try? library.render("main", with: context)
    return 0
}
