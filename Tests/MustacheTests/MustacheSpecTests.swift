import Foundation
import Mustache
import Testing

/// Runs the official Mustache specification against the engine.
///
/// The spec files live outside the repository, in `../shared/mustache-spec` next to the repo
/// root; when that folder is absent the tests are reported as skipped.
@Suite("Mustache specification")
struct MustacheSpecTests {
    /// One test case of a spec file.
    struct SpecTest: Decodable {
        var name: String
        var desc: String
        var data: MustacheValue
        var template: String
        var partials: [String: String]?
        var expected: String
    }

    /// A spec file: an overview and its test cases.
    struct SpecFile: Decodable {
        var tests: [SpecTest]
    }

    static let specFiles = [
        "comments.json", "delimiters.json", "interpolation.json", "inverted.json", "partials.json",
        "sections.json", "~inheritance.json", "~dynamic-names.json",
    ]

    /// The spec folder: the repo root is three levels up from this file.
    static var specDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("../shared/mustache-spec")
            .standardizedFileURL
    }

    @Test(
        "spec file passes completely",
        .enabled(
            if: FileManager.default.fileExists(atPath: specDirectory.path), "../shared/mustache-spec is absent"),
        arguments: specFiles)
    func specFile(_ fileName: String) throws {
        let url = Self.specDirectory.appendingPathComponent(fileName)
        let file = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: url))
        var passed = 0
        for test in file.tests {
            let actual = Self.render(test)
            #expect(actual == test.expected, "\(fileName) — \(test.name): \(test.desc)")
            if actual == test.expected { passed += 1 }
        }
        print("mustache spec \(fileName): \(passed)/\(file.tests.count) passed")
        #expect(passed == file.tests.count)
    }

    /// Renders one spec test, returning the error's description when compiling or rendering fails.
    static func render(_ test: SpecTest) -> String {
        do {
            let library = try MustacheLibrary(sources: test.partials ?? [:], options: .specification)
            let template = try MustacheTemplate(test.template, name: test.name)
            return try library.render(template, with: test.data)
        } catch {
            return "error: \(error)"
        }
    }
}
