import Foundation
import Testing

@testable import DataModelGenCLI

/// `datamodelgen.json`: every problem with the file is reported at its line and column, with exit code 2, and a
/// key no option reads is a warning (a misspelt key would otherwise be ignored without a word).
@Suite struct ConfigFileTests {
    /// Runs `generate` on the Company model with `config` as the `datamodelgen.json` next to it.
    private func generate(config: String, extra: [String] = []) throws -> (ToolRun, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("Company.xcdatamodeld").path
        try FileManager.default.copyItem(
            atPath: Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path, toPath: model)
        try config.write(
            to: directory.appendingPathComponent("datamodelgen.json"), atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("Generated").path
        let run = runTool(["generate", model, "--output", output, "--no-cache"] + extra)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        return (run, written.sorted().joined(separator: ","))
    }

    @Test(
        "errors are located at the offending line and column",
        arguments: [
            (
                "{\n  \"flavor\": \"runtime\",\n  \"access\": 3\n}\n", "3:3",
                "'access' must be a string in double quotes"
            ),
            ("{\n  \"access\": \"public\",,\n}\n", "2:22", "invalid JSON: expected a key in double quotes"),
            ("{\n  \"access\": \"public\",\n}\n", "3:1", "invalid JSON: trailing comma before '}'"),
            ("{\n  \"flavor\": \"runtim\"\n}\n", "2:3", "invalid flavor 'runtim' in the config"),
            ("{ \"access\": \"private\" }", "1:3", "invalid access level 'private' in the config"),
            ("{ \"schemaDialect\": \"pg\" }", "1:3", "invalid schema dialect 'pg' in the config"),
            ("{ \"schema\": \"yes\" }", "1:3", "'schema' must be true or false"),
            ("[\"runtime\"]", "1:1", "the config must be a JSON object"),
            ("{ \"output\": \"a\\qb\" }", "1:16", "invalid JSON: invalid escape '\\q' in a string"),
            ("{ \"output\": \"abc", "1:13", "invalid JSON: a string that is never closed"),
            ("{ \"schema\": tru }", "1:13", "invalid JSON: expected a value"),
            ("{ \"schema\": true } }", "1:20", "invalid JSON: unexpected text after the end of the JSON value"),
            ("", "1:1", "invalid JSON: unexpected end of file"),
            (String(repeating: "[", count: 100_000), "1:65", "invalid JSON: nested more than 64 levels deep"),
        ])
    func locatedErrors(config: String, position: String, message: String) throws {
        let (run, output) = try generate(config: config)
        #expect(run.code == .usageError)
        #expect(run.err.contains("datamodelgen.json:\(position): error: \(message)"), "\(run.err)")
        #expect(!run.err.contains("USAGE:"), "a config error is not a command-line mistake")
        #expect(output.isEmpty, "nothing is written")
    }

    @Test func unknownKeysAreWarningsWithASuggestion() throws {
        let (run, output) = try generate(
            config: "{\n  \"flavor\": \"runtime\",\n  \"acess\": \"internal\",\n  \"z\": 1\n}")
        #expect(run.code == .success, "\(run.err)")
        #expect(
            run.err.contains("datamodelgen.json:3:3: warning: unknown key 'acess' is ignored; did you mean 'access'?"))
        #expect(run.err.contains("datamodelgen.json:4:3: warning: unknown key 'z' is ignored [unknown-config-key]"))
        #expect(!output.isEmpty)

        let (strict, strictOutput) = try generate(
            config: "{ \"outptu\": \"x\" }", extra: ["--warnings-as-errors"])
        #expect(strict.code == .usageError)
        #expect(strict.err.contains("1:3: error: unknown key 'outptu' is ignored; did you mean 'output'?"))
        #expect(strictOutput.isEmpty)
    }

    @Test func commandLineMistakesStayUsageErrors() throws {
        let (run, _) = try generate(config: "{}", extra: ["--access", "private"])
        #expect(run.code == .usageError)
        #expect(run.err.contains("error: invalid value 'private' for '--access'"), "\(run.err)")
        #expect(!run.err.contains("in the config"))
        #expect(run.err.contains("USAGE:"))
    }

    @Test func everyKeyOfTheConfigIsKnown() throws {
        let all = """
            { "flavor": "runtime", "access": "internal", "includeManual": false, "schema": true,
              "schemaDialect": "sqlite", "foreignKeys": false, "modelTypeName": "CompanyData", "xcodeCompatible": false }
            """
        let (run, output) = try generate(config: all)
        #expect(run.code == .success, "\(run.err)")
        #expect(!run.err.contains("warning"), "\(run.err)")
        #expect(output.contains("Company.sql"))
    }

    @Test(
        "the scanner finds top-level keys only, with their positions",
        arguments: [
            ("{\"a\": {\"b\": 1}, \"c\": [ {\"d\": 2} ]}", ["a@1:2", "c@1:17"]),
            ("\u{FEFF}{\n\t\"k\\\"q\": null}", ["k\"q@2:2"]),
            ("{}", []),
        ])
    func scannerKeys(text: String, expected: [String]) {
        guard case .success(let scan) = ConfigFileScanner.scan(Array(text.utf8)) else {
            Issue.record("\(text) did not scan")
            return
        }
        #expect(scan.keys.map { "\($0.name)@\($0.position.line):\($0.position.column)" } == expected)
    }
}
