import Foundation
import Mustache
import Synchronization
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
        "sections.json", "~inheritance.json", "~dynamic-names.json", "~lambdas.json",
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
            return try library.render(template, with: try data(of: test))
        } catch {
            return "error: \(error)"
        }
    }

    /// A test's data, with the `lambda` the spec gives as code per language replaced by its Swift version.
    static func data(of test: SpecTest) throws -> MustacheValue {
        guard case .dictionary(var entries) = test.data, case .dictionary(let code)? = entries["lambda"],
            code["__tag__"] == "code"
        else { return test.data }
        let swiftLambda = try #require(lambda(named: test.name), "no Swift lambda for '\(test.name)'")
        entries["lambda"] = .lambda(swiftLambda)
        return .dictionary(entries)
    }

    /// The Swift equivalent of the `lambda` of each test of `~lambdas.json`, made anew for every render.
    static func lambda(named name: String) -> MustacheLambda? {
        switch name {
        case "Interpolation": MustacheLambda { _ in "world" }
        case "Interpolation - Expansion": MustacheLambda { _ in "{{planet}}" }
        case "Interpolation - Alternate Delimiters": MustacheLambda { _ in "|planet| => {{planet}}" }
        case "Interpolation - Multiple Calls":
            { () -> MustacheLambda in
                let calls = Mutex(0)
                return MustacheLambda { _ in
                    String(
                        calls.withLock { count in
                            count += 1
                            return count
                        })
                }
            }()
        case "Escaping": MustacheLambda { _ in ">" }
        case "Section": MustacheLambda { text in text == "{{x}}" ? "yes" : "no" }
        case "Section - Expansion": MustacheLambda { text in (text ?? "") + "{{planet}}" + (text ?? "") }
        case "Section - Alternate Delimiters":
            MustacheLambda { text in (text ?? "") + "{{planet}} => |planet|" + (text ?? "") }
        case "Section - Multiple Calls": MustacheLambda { text in "__" + (text ?? "") + "__" }
        // The spec's lambda returns false; a lambda is truthy whatever it returns, so the section is skipped.
        case "Inverted Section": MustacheLambda { _ in "" }
        default: nil
        }
    }
}
