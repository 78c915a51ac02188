import DataModel
import Foundation
import Testing

@testable import DataModelGenCLI

/// One row of `Fixtures/Invalid/MANIFEST.tsv`.
struct ManifestRow: Sendable, CustomTestStringConvertible {
    var fixture: String
    var arguments: [String]
    var exitCode: Int32
    var rule: String
    var line: Int

    var path: String { Paths.invalid + "/" + fixture }
    var testDescription: String { fixture + (arguments.isEmpty ? "" : " " + arguments.joined(separator: " ")) }

    static func load() -> [ManifestRow] {
        guard let text = try? String(contentsOfFile: Paths.invalid + "/MANIFEST.tsv", encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line -> ManifestRow? in
            if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 5, let code = Int32(columns[2]), let number = Int(columns[4]) else {
                return ManifestRow(fixture: "MALFORMED ROW: \(line)", arguments: [], exitCode: -1, rule: "", line: -1)
            }
            let arguments = columns[1] == "-" ? [] : columns[1].split(separator: " ").map(String.init)
            return ManifestRow(
                fixture: columns[0], arguments: arguments, exitCode: code, rule: columns[3], line: number)
        }
    }
}

/// Rows whose expectation is right but which the Sources do not meet yet (bugs reported, not fixed here).
private let knownIssues: [String: String] = [:]

private let manifest = ManifestRow.load()

@Suite("Invalid-input catalog")
struct InvalidCatalogTests {
    @Test func manifestIsCompleteAndWellFormed() throws {
        #expect(manifest.count >= 35)
        #expect(manifest.allSatisfy { !$0.fixture.hasPrefix("MALFORMED ROW") }, "rows need 5 tab-separated columns")
        let listed = Set(manifest.map { $0.fixture.split(separator: "/").first.map(String.init) ?? $0.fixture })
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: Paths.invalid)).subtracting([
            "MANIFEST.tsv"
        ])
        #expect(
            onDisk.subtracting(listed).isEmpty,
            "fixtures missing from MANIFEST.tsv: \(onDisk.subtracting(listed).sorted())")
        let missing = manifest.filter { !FileManager.default.fileExists(atPath: $0.path) }.map(\.fixture)
        #expect(missing == ["DoesNotExist.xcdatamodeld"], "only the non-existent-path row names a missing path")
        #expect(Set(knownIssues.keys).isSubset(of: listed))
    }

    @Test func everyRuleTheSourcesEmitIsCatalogued() throws {
        // Every rule id is a case of the one registry, `RuleID`.
        let rules = Set(RuleID.allCases.map(\.rawValue))
        // Not reachable from the command line: the size limit is 256 MiB. Not about an invalid model: a model
        // that validates but cannot be laid out, and `generate --expect-output` finding other files.
        let unreachable: Set<String> = ["file-too-large", "store-layout", "unexpected-outputs"]
        let catalogued = Set(manifest.map(\.rule))
        #expect(rules.count >= 30)
        #expect(
            rules.subtracting(catalogued).subtracting(unreachable).isEmpty,
            "rule ids without a fixture: \(rules.subtracting(catalogued).subtracting(unreachable).sorted())")
        #expect(
            catalogued.subtracting(rules).isEmpty,
            "manifest rules the Sources never emit: \(catalogued.subtracting(rules).sorted())")
    }

    @Test(arguments: manifest)
    func fixture(_ row: ManifestRow) throws {
        let clock = ContinuousClock()
        var run: ToolRun?
        let elapsed = clock.measure { run = runTool(["validate", row.path] + row.arguments) }
        let result = try #require(run)
        #expect(elapsed < .seconds(30), "\(row.fixture) took \(elapsed): a hang guard, not a speed target")
        #expect(result.out.isEmpty, "validate prints diagnostics on standard error only")

        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(result.err.isEmpty || result.err.hasSuffix("\n"))
        let printed = lines.compactMap(PrintedDiagnostic.init)
        #expect(
            printed.count == lines.count,
            "every line is one diagnostic: \(lines.filter { PrintedDiagnostic($0) == nil })")
        #expect(printed.allSatisfy { $0.file.hasPrefix(row.path) }, "diagnostics name the path as given")

        // Sorted by location.
        let keys = printed.map { ($0.file, $0.line, $0.column) }
        #expect(
            zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 }, "diagnostics are sorted by location:\n\(result.err)")

        let check = { () throws -> Void in
            #expect(result.code.rawValue == row.exitCode, "exit code; stderr:\n\(result.err)")
            let match = printed.first { $0.rule == row.rule && $0.line == row.line }
            #expect(match != nil, "no [\(row.rule)] at line \(row.line) in:\n\(result.err)")
            #expect(match?.severity == "error")
            if row.line == 0 {
                #expect(match.map { lines.contains("\($0.file): error: \($0.message) [\(row.rule)]") } == true)
            } else if let match, !row.rule.hasPrefix("xml-") {
                // Element diagnostics point at the element's `<`.
                #expect(match.column > 0)
                #expect(try Self.byte(atLine: match.line, column: match.column, of: match.file) == UInt8(ascii: "<"))
            }
        }
        if let reason = knownIssues[row.fixture] {
            withKnownIssue(Comment(rawValue: reason)) { try check() }
        } else {
            try check()
        }
    }

    /// One mistake, one error: an unknown attribute type is reported once, with the closest known type, not again as
    /// an Undefined attribute that is not transient.
    @Test func unknownAttributeTypeIsOneErrorWithASuggestion() throws {
        let path = Paths.invalid + "/UnknownAttributeType.xcdatamodel"
        let result = runTool(["validate", path])
        let errors = result.err.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 1, "\(result.err)")
        #expect(
            errors.first?.hasSuffix(
                "unknown attribute type 'Integer 128'; did you mean 'Integer 16'? [unknown-attribute-type]") == true,
            "\(result.err)")
        #expect(NameSuggestion.closest(to: "Strin", among: AttributeType.allCases.map(\.rawValue)) == "String")
        #expect(NameSuggestion.closest(to: "Blob", among: AttributeType.allCases.map(\.rawValue)) == nil)
    }

    /// The subprocess never crashes (no signal) and exits with the same code as in-process.
    @Test(.enabled(if: Paths.executable != nil, "datamodelgen was not built next to the test bundle"))
    func executableNeverCrashes() throws {
        let executable = try #require(Paths.executable)
        for row in manifest {
            let run = try runExecutable(executable, ["validate", row.path] + row.arguments, in: Paths.invalid)
            #expect(run.exitedNormally, "\(row.fixture) crashed")
            if knownIssues[row.fixture] == nil {
                #expect(run.status == row.exitCode, "\(row.fixture)")
            }
            #expect(run.out.isEmpty)
        }
    }

    @Test func hostileInputsCompleteQuickly() throws {
        for fixture in [
            "BillionLaughs.xcdatamodel", "DeepNesting10000.xcdatamodel", "DeepNesting100.xcdatamodel",
            "XXE.xcdatamodel",
        ] {
            let clock = ContinuousClock()
            var run: ToolRun?
            let elapsed = clock.measure { run = runTool(["validate", Paths.invalid + "/" + fixture]) }
            #expect(run?.code == .modelError)
            #expect(elapsed < .seconds(15), "\(fixture) took \(elapsed): a hang guard, not a speed target")
        }
        let deep = try FileManager.default.attributesOfItem(
            atPath: Paths.invalid + "/DeepNesting10000.xcdatamodel/contents")
        #expect(((deep[.size] as? NSNumber)?.intValue ?? .max) < 100_000, "the committed fixture stays small")
    }

    @Test func catalogAsJSON() throws {
        for row in manifest where knownIssues[row.fixture] == nil {
            let run = runTool(["validate", row.path, "--diagnostics-format", "json"] + row.arguments)
            #expect(run.code.rawValue == row.exitCode)
            let json = try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [[String: Any]]
            let rows = try #require(json, "\(row.fixture): \(run.err)")
            #expect(rows.contains { $0["rule"] as? String == row.rule && $0["line"] as? Int == row.line })
        }
    }

    private static func byte(atLine line: Int, column: Int, of file: String) throws -> UInt8? {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        let text = lines[lines.startIndex + line - 1]
        guard column >= 1, column <= text.count else { return nil }
        return text[text.startIndex + column - 1]
    }
}
