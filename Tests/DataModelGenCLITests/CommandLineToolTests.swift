import DataModel
import Foundation
import Testing

@testable import DataModelGenCLI

@Suite("Command-line tool")
struct CommandLineToolTests {
    // MARK: Help and version

    @Test(arguments: Command.allCases)
    func subcommandHelp(_ command: Command) {
        for arguments in [
            [command.rawValue, "--help"], [command.rawValue, "-h"], ["help", command.rawValue],
            [command.rawValue, "some.xcdatamodeld", "--help"],
        ] {
            let run = runTool(arguments)
            #expect(run.code == .success, "\(arguments)")
            #expect(run.err.isEmpty)
            #expect(run.out == command.help, "\(arguments)")
        }
        let help = command.help
        #expect(help.contains(command.usageLine))
        #expect(help.contains(command.summary))
        #expect(help.contains("--help"))
        for option in command.options {
            #expect(help.contains("--\(option.name)"), "\(command.rawValue) help lists --\(option.name)")
        }
        // Every option's text starts in one column, apart from its synopsis: a long synopsis never runs into it.
        let optionLines = help.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "OPTIONS:" }
            .dropFirst().prefix { !$0.isEmpty }
        let columns = Set(
            optionLines.map { line in
                let synopsis = command.options.first { line.hasPrefix("  " + $0.synopsis + " ") }?.synopsis ?? "--help"
                #expect(line.hasPrefix("  " + synopsis + "  "), "\(command.rawValue): \(line)")
                return line.dropFirst(2 + synopsis.count).prefix { $0 == " " }.count + synopsis.count
            })
        #expect(optionLines.count == command.options.count + 1)
        #expect(columns.count == 1, "\(command.rawValue) help texts start in one column")
    }

    @Test func everyCommandAcceptsTheDiagnosticOptions() {
        for command in Command.allCases {
            let names = Set(command.options.map(\.name))
            #expect(names.isSuperset(of: ["diagnostics-format", "warnings-as-errors", "model-version"]), "\(command)")
            #expect(names.count == command.options.count, "\(command) declares an option twice")
        }
    }

    @Test func overview() {
        for arguments in [["--help"], ["-h"], ["help"], ["help", "nonsense"]] {
            let run = runTool(arguments)
            #expect(run.code == .success)
            #expect(run.out == CommandLineTool.overview)
        }
        for command in Command.allCases {
            #expect(CommandLineTool.overview.contains(command.rawValue))
        }
        #expect(CommandLineTool.overview.contains("EXIT CODES"))
    }

    @Test func version() {
        let run = runTool(["--version"])
        #expect(run.code == .success)
        #expect(run.out == "datamodelgen \(CommandLineTool.version)\n")
        #expect(run.err.isEmpty)
        #expect(CommandLineTool.version.split(separator: ".").count == 3)
    }

    @Test func noArguments() {
        let run = runTool([])
        #expect(run.code == .usageError)
        #expect(run.out.isEmpty)
        #expect(run.err == CommandLineTool.overview)
    }

    // MARK: Unknown commands

    @Test func unknownCommandWithSuggestion() {
        let run = runTool(["valdiate", "x"])
        #expect(run.code == .usageError)
        #expect(run.err.hasPrefix("error: unknown command 'valdiate'; did you mean 'validate'?\n"))
        #expect(run.err.contains("USAGE: datamodelgen <command>"))
        #expect(runTool(["dmup"]).err.contains("did you mean 'dump'?"))
        #expect(runTool(["generat"]).err.contains("did you mean 'generate'?"))
    }

    @Test func unknownCommandWithoutSuggestion() {
        let run = runTool(["frobnicate"])
        #expect(run.code == .usageError)
        #expect(run.err.hasPrefix("error: unknown command 'frobnicate'\n"))
        #expect(!run.err.contains("did you mean"))
    }

    // MARK: Exit codes

    @Test func exitCodeSuccess() {
        let run = runTool(["validate", Paths.library])
        #expect(run.code == .success)
        #expect(run.out.isEmpty && run.err.isEmpty)
    }

    @Test func exitCodeModelError() {
        let run = runTool(["validate", Paths.withError])
        #expect(run.code == .modelError)
        #expect(run.err.contains("error:") && run.err.contains("[missing-destination]"))
    }

    @Test func exitCodeUsageError() {
        let missing = runTool(["validate"])
        #expect(missing.code == .usageError)
        #expect(missing.err.hasPrefix("error: missing <model> argument\n"))
        #expect(missing.err.contains(Command.validate.usageLine))
        #expect(missing.err.contains("datamodelgen validate --help"))
        let unknown = runTool(["dump", Paths.library, "--fromat", "text"])
        #expect(unknown.code == .usageError)
        #expect(unknown.err.hasPrefix("error: unknown option '--fromat'; did you mean '--format'?\n"))
        #expect(unknown.out.isEmpty)
        #expect(runTool(["dump", Paths.library, Paths.library]).code == .usageError)
        #expect(runTool(["dump", Paths.library, "--format", "yaml"]).code == .usageError)
        #expect(runTool(["validate", Paths.library, "--diagnostics-format"]).code == .usageError)
    }

    @Test func exitCodeIOError() {
        let path = "/nonexistent-\(UUID().uuidString)/Model.xcdatamodeld"
        let run = runTool(["validate", path])
        #expect(run.code == .ioError)
        #expect(run.err == "\(path): error: no such file or directory [io-error]\n")
        #expect(runTool(["dump", path]).code == .ioError)
    }

    @Test func worstExitCodeOfSeveralModels() {
        #expect(runTool(["validate", Paths.library, Paths.withError]).code == .modelError)
        #expect(runTool(["validate", Paths.withError, "/nonexistent/x.xcdatamodel", Paths.library]).code == .ioError)
        #expect(runTool(["validate", Paths.library, Paths.warningsOnly]).code == .success)
        let run = runTool(["validate", Paths.withError, Paths.warningsOnly])
        #expect(run.err.contains("[missing-destination]") && run.err.contains("[missing-inverse]"))
    }

    @Test func exitCodeConstantsAreStable() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.modelError.rawValue == 1)
        #expect(ExitCode.usageError.rawValue == 2)
        #expect(ExitCode.ioError.rawValue == 3)
    }

    // MARK: Diagnostics

    @Test func textDiagnosticsFormat() throws {
        let run = runTool(["validate", Paths.warningsOnly])
        #expect(run.code == .success)
        let line = try #require(run.err.split(separator: "\n").first.map(String.init))
        let diagnostic = try #require(PrintedDiagnostic(line))
        #expect(diagnostic.file == Paths.warningsOnly + "/contents")
        #expect(diagnostic.line == 10 && diagnostic.column == 9)
        #expect(diagnostic.severity == "warning")
        #expect(diagnostic.rule == "missing-inverse")
    }

    @Test func jsonDiagnosticsFormat() throws {
        let run = runTool(["validate", Paths.withError, "--diagnostics-format", "json"])
        #expect(run.code == .modelError)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(Set(row.keys) == ["file", "line", "column", "severity", "message", "rule"])
            #expect(row["file"] as? String == Paths.withError + "/contents")
            #expect(row["line"] is Int && row["column"] is Int)
            #expect(["error", "warning", "note"].contains(row["severity"] as? String ?? ""))
            #expect(!(row["message"] as? String ?? "").isEmpty)
        }
        #expect(
            rows.contains {
                $0["rule"] as? String == "missing-destination" && $0["line"] as? Int == 6 && $0["column"] as? Int == 9
            })
        #expect(run.out.isEmpty)
    }

    @Test func jsonDiagnosticsWhenClean() throws {
        let run = runTool(["validate", Paths.library, "--diagnostics-format=json"])
        #expect(run.code == .success)
        let rows = try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [Any]
        #expect(rows?.isEmpty == true)
    }

    @Test func jsonDiagnosticsForSeveralModelsIsOneDocument() throws {
        let run = runTool(["validate", Paths.withError, Paths.warningsOnly, "--diagnostics-format", "json"])
        let rows = try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [[String: Any]]
        #expect(rows?.count ?? 0 >= 2)

    }

    @Test func jsonErrorForUnloadableModel() throws {
        let run = runTool(["validate", "/nonexistent/Model.xcdatamodeld", "--diagnostics-format", "json"])
        #expect(run.code == .ioError)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["rule"] as? String == "io-error")
        #expect(rows.first?["line"] as? Int == 0)
    }

    @Test func warningsAsErrors() {
        let plain = runTool(["validate", Paths.warningsOnly])
        #expect(plain.code == .success)
        #expect(plain.err.contains(": warning: "))
        let strict = runTool(["validate", Paths.warningsOnly, "--warnings-as-errors"])
        #expect(strict.code == .modelError)
        #expect(strict.err.contains(": error: "))
        #expect(!strict.err.contains(": warning: "))
        #expect(strict.err.replacingOccurrences(of: ": error: ", with: ": warning: ") == plain.err)
        // A clean model stays clean.
        #expect(runTool(["validate", Paths.library, "--warnings-as-errors"]).code == .success)
    }

    @Test func modelVersionOption() {
        #expect(runTool(["validate", Paths.library, "--model-version", "Library"]).code == .success)
        let missing = runTool(["validate", Paths.library, "--model-version", "Library 7"])
        #expect(missing.code == .modelError)
        #expect(
            missing.err
                == "\(Paths.library): error: model version 'Library 7' not found; the bundle has: Library, Library 2 [unknown-model-version]\n"
        )
    }

    @Test func diagnosticsAreSortedAcrossLoaderAndValidator() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let version = directory + "/Shop.xcdatamodeld/Shop.xcdatamodel"
        try FileManager.default.createDirectory(atPath: version, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
                <entity name="Order" codeGenerationType="class">
                    <relationship name="lines" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Line"/>
                    <attribute name="objectID" optional="YES" attributeType="String"/>
                    <attribute name="total" optional="YES" attributeType="Decimal" defaultValueString="lots"/>
                </entity>
                <fetchRequest name="Open" entity="Cart"/>
            </model>

            """
        try contents.write(toFile: version + "/contents", atomically: true, encoding: .utf8)
        let run = runTool(["validate", directory + "/Shop.xcdatamodeld"])
        #expect(run.code == .modelError)
        let printed = run.err.split(separator: "\n").compactMap { PrintedDiagnostic(String($0)) }
        #expect(
            printed.map(\.rule) == [
                "current-version", "missing-destination", "reserved-name", "invalid-default-value",
                "unknown-fetch-entity",
            ])
        #expect(printed.map(\.line) == [0, 4, 5, 6, 8])
    }
}
