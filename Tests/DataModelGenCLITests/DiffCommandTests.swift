import Foundation
import Testing

@testable import DataModelGenCLI

/// `datamodelgen diff`: what changed between model versions, for review.
@Suite("diff")
struct DiffCommandTests {
    static let person = Paths.repositoryRoot.appendingPathComponent("Models/Person.xcdatamodeld").path

    @Test func aBundleDiffsItsPreviousVersionWithTheCurrentOne() {
        let run = runTool(["diff", Self.person])
        #expect(run.code == .differences, "differences exit 1, like diff")
        #expect(
            run.out == """
                --- Person
                +++ Person 2
                \(Self.person)/Person 2.xcdatamodel/contents:4: added attribute Person.email
                migration: inferable (lightweight), 1 step
                  add column ZPERSON.ZEMAIL

                """)
        let sql = runTool(["diff", Self.person, "--sql"]).out
        #expect(sql.hasSuffix("BEGIN IMMEDIATE;\nALTER TABLE \"ZPERSON\" ADD COLUMN \"ZEMAIL\" VARCHAR;\nCOMMIT;\n"))
        // A PostgreSQL store's statements: its column types, its transaction.
        let postgres = runTool(["diff", Self.person, "--sql", "--dialect", "postgres"]).out
        #expect(postgres.hasSuffix("BEGIN;\nALTER TABLE \"ZPERSON\" ADD COLUMN \"ZEMAIL\" TEXT;\nCOMMIT;\n"))
        #expect(runTool(["diff", Self.person, "--dialect", "mysql"]).code == .usageError)
    }

    @Test func sameVersionsExitZeroAndUsageErrorsExitTwo() {
        #expect(runTool(["diff", Self.person, "--from", "Person 2"]).code == .success)
        #expect(
            runTool(["diff", Self.person, "--from", "Person 2", "--to", "Person"]).out.contains(
                "removed attribute Person.email"))
        let company = Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path
        #expect(runTool(["diff", company]).code == .usageError, "one version: nothing before it")
        #expect(runTool(["diff"]).code == .usageError)
        #expect(runTool(["diff", company, company, "--from", "Company"]).code == .usageError)
        #expect(runTool(["diff", company, "/nonexistent/Model.xcdatamodeld"]).code == .ioError)
    }

    /// As diff(1): 0 the same, 1 different, 2 when there is no answer (a model with errors, a version that does not
    /// exist, a usage error); 3 when a file cannot be read, as in every command.
    @Test func exitCodesAreDiffsOwn() throws {
        #expect(runTool(["diff", Self.person, "--from", "Person 2"]).code.rawValue == 0)
        #expect(runTool(["diff", Self.person]).code.rawValue == 1)
        let broken = runTool(["diff", Paths.withError, Paths.withError])
        #expect(broken.code.rawValue == 2, "a model with errors: \(broken.err)")
        #expect(broken.err.contains("error:"))
        #expect(broken.out.isEmpty)
        let oneBroken = runTool(["diff", Self.person + "/Person.xcdatamodel", Paths.withError])
        #expect(oneBroken.code.rawValue == 2, "\(oneBroken.err)")
        let noVersion = runTool(["diff", Self.person, "--from", "X"])
        #expect(noVersion.code.rawValue == 2, "\(noVersion.err)")
        #expect(noVersion.err.contains("model version 'X' not found"), "\(noVersion.err)")
        #expect(runTool(["diff", Self.person, "--to", "X"]).code.rawValue == 2)
        #expect(runTool(["diff", Self.person, "--warnings-as-errors", "--from", "X"]).code.rawValue == 2)
        #expect(runTool(["diff"]).code.rawValue == 2)
        #expect(runTool(["diff", Self.person, "/nonexistent/Model.xcdatamodeld"]).code.rawValue == 3)
        #expect(ExitCode.differences.rawValue == 1 && ExitCode.diffError.rawValue == 2)
        #expect(Command.diff.help.contains("EXIT CODES: 0 the same, 1 different"))
    }

    @Test func jsonHasTheChangesAndThePlan() throws {
        let run = runTool([
            "diff", Self.person + "/Person.xcdatamodel", Self.person + "/Person 2.xcdatamodel", "--format", "json",
        ])
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let changes = object?["changes"] as? [[String: Any]]
        #expect(changes?.count == 1)
        #expect(changes?.first?["kind"] as? String == "added")
        #expect(changes?.first?["name"] as? String == "email")
        #expect(object?["inferable"] as? Bool == true)
        #expect((object?["sql"] as? [String])?.first == #"ALTER TABLE "ZPERSON" ADD COLUMN "ZEMAIL" VARCHAR"#)
    }

    /// `--git REV`: the model as committed against the working tree, in a repository made for the test.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed"))
    func gitRevisionAgainstTheWorkingTree() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let bundle = directory.appendingPathComponent("Person.xcdatamodeld")
        try FileManager.default.copyItem(atPath: Self.person, toPath: bundle.path)
        for arguments in [
            ["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v"],
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
            process.arguments = ["-C", directory.path] + arguments
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(runTool(["diff", bundle.path, "--git", "HEAD"]).code == .success)
        let contents = bundle.appendingPathComponent("Person 2.xcdatamodel/contents")
        let edited = try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(
            of: "name=\"email\"", with: "name=\"mail\"")
        try edited.write(to: contents, atomically: true, encoding: .utf8)
        let run = runTool(["diff", bundle.path, "--git", "HEAD"])
        #expect(run.code == .modelError)
        #expect(run.out.contains("+++ \(bundle.path)"))
        #expect(run.out.contains("HEAD:\(bundle.path)/Person 2.xcdatamodel/contents:4: removed attribute Person.email"))
        #expect(runTool(["diff", bundle.path, "--git", "no-such-revision"]).code == .ioError)
    }

    /// `Cat` and `Dog`, two roots, moved under a new `Animal` (`Tests/DataModelTests/Fixtures/Pets.xcdatamodeld`): the
    /// plan merges their tables, says what Core Data's inferred mapping would not do, and its SQL is golden
    /// (`Golden/diff/merged-hierarchies.txt`; `Scripts/update-golden.sh` rewrites it).
    static let pets = Paths.fixtures + "/Pets.xcdatamodeld"

    @Test func mergedHierarchiesDiffIsGolden() throws {
        // As Core Data: not inferable, with the way further in the reason.
        let refused = runTool(["diff", Self.pets, "--sql"])
        #expect(refused.code == .modelError)
        #expect(refused.out.contains("migration: NOT inferable"), "\(refused.out)")
        #expect(refused.out.contains("refuses to merge hierarchies"))
        #expect(refused.out.contains("(datamodelgen migrate --merge-hierarchies migrates such a store)"))
        #expect(!refused.out.contains("BEGIN IMMEDIATE"))
        let run = runTool(["diff", Self.pets, "--sql", "--merge-hierarchies"])
        #expect(run.code == .modelError, "\(run.err)")
        #expect(run.out.contains("migration: with --merge-hierarchies, 9 steps"), "\(run.out)")
        let text = run.out.replacingOccurrences(of: Paths.fixtures + "/", with: "")
        #expect(text.contains("\nbeyond Core Data: Cat, Dog: entities of separate hierarchies (tables ZCAT, ZDOG)"))
        let url = Paths.testsDirectory.appendingPathComponent("Golden/diff/merged-hierarchies.txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        } else {
            #expect(
                text == (try? String(contentsOf: url, encoding: .utf8)),
                "the diff differs from merged-hierarchies.txt; if intended, run Scripts/update-golden.sh")
        }
        for (arguments, inferable) in [([String](), false), (["--merge-hierarchies"], true)] {
            let json = runTool(["diff", Self.pets, "--format", "json"] + arguments)
            let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
            #expect(object?["inferable"] as? Bool == inferable)
            #expect((object?["beyondCoreData"] as? [String])?.count == 1)
        }
    }

    /// The diffs of a few real bundles, every consecutive version pair, compared with golden files
    /// (`Tests/DataModelGenCLITests/Golden/diff`; `Scripts/update-golden.sh` rewrites them).
    static let corpus = Paths.repositoryRoot.appendingPathComponent("../shared/corpus/models").standardizedFileURL.path
    static let goldenBundles = [
        "rileytestut__AltStore/AltStoreCore/Model/AltStore.xcdatamodeld",
        "HabitRPG__habitica-ios/HabitRPG/Habitica.xcdatamodeld",
        "RestKit__RestKit/Tests/Models/VersionedModel.xcdatamodeld",
    ]

    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: corpus), "the corpus is absent"), arguments: goldenBundles)
    func corpusDiffsAreGolden(bundle: String) throws {
        let path = Self.corpus + "/" + bundle
        let versions = try FileManager.default.contentsOfDirectory(atPath: path)
            .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        var text = ""
        for (old, new) in zip(versions, versions.dropFirst()) {
            let run = runTool(["diff", path, "--from", old, "--to", new, "--sql"])
            #expect(run.code != .usageError && run.code != .ioError, "\(run.err)")
            text += run.out.replacingOccurrences(of: Self.corpus + "/", with: "") + "\n"
        }
        let name = bundle.split(separator: "/").first.map(String.init) ?? bundle
        let url = Paths.testsDirectory.appendingPathComponent("Golden/diff/\(name).txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            text == (try? String(contentsOf: url, encoding: .utf8)),
            "\(name): the diff differs from its golden file; if intended, run Scripts/update-golden.sh")
    }
}
