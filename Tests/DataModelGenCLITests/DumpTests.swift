import DataModel
import Foundation
import Testing

@testable import DataModelGenCLI

@Suite("dump")
struct DumpTests {
    @Test func jsonDocument() throws {
        let run = runTool(["dump", Paths.library])
        #expect(run.code == .success)
        #expect(run.err.isEmpty)
        #expect(run.out.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["contentsFile", "versions", "model"])
        #expect(object["contentsFile"] as? String == "Library 2.xcdatamodel/contents")
        #expect(object["versions"] as? [String] == ["Library", "Library 2"])
        let model = try #require(object["model"] as? [String: Any])
        #expect(model["name"] as? String == "Library")
        #expect(model["versionName"] as? String == "Library 2")
        let entities = try #require(model["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["Author", "Book", "Chapter", "Ebook"])
        let location = try #require(entities.first?["location"] as? [String: Any])
        #expect(Set(location.keys) == ["line", "column"], "no file paths in dumps")
        #expect(location["line"] as? Int == 3 && location["column"] as? Int == 5)
        #expect(!run.out.contains(Paths.fixtures), "no absolute paths in dumps")
        // The dump decodes back into the IR.
        let data = try JSONSerialization.data(withJSONObject: model)
        let decoded = try JSONDecoder().decode(ObjectModel.self, from: data)
        #expect(decoded.entities.count == 4)
        #expect(decoded.entity(named: "Ebook")?.parentEntity == "Book")
    }

    @Test func textOutline() {
        let run = runTool(["dump", Paths.library, "--format", "text", "--model-version", "Library"])
        #expect(run.code == .success)
        #expect(
            run.out == """
                model Library version Library (Library.xcdatamodel/contents)
                  entity Author codegen=class @3:5
                    attribute name: String default= @4:9
                    relationship books -> Book to-many inverse=author delete=Cascade optional @5:9
                  entity Book codegen=class @7:5
                    attribute title: String default= @8:9
                    relationship author -> Author to-one inverse=books delete=Nullify optional @9:9

                """)
    }

    @Test func dumpPrintsLoaderWarningsButSucceeds() {
        let run = runTool(["dump", Paths.invalid + "/NoCurrentVersion.xcdatamodeld", "--format", "text"])
        #expect(run.code == .success)
        #expect(run.err.contains("[current-version]"))
        #expect(run.out.hasPrefix("model NoCurrentVersion version NoCurrentVersion 2 "))
    }

    @Test func dumpOfBrokenXMLFails() {
        let run = runTool(["dump", Paths.invalid + "/Truncated.xcdatamodel"])
        #expect(run.code == .modelError)
        #expect(run.out.isEmpty)
        #expect(run.err.contains("[xml-malformed]"))
    }

    @Test func dumpIsIdenticalAcrossRuns() {
        for format in ["json", "text"] {
            let first = runTool(["dump", Paths.library, "--format", format])
            let second = runTool(["dump", Paths.library, "--format", format])
            #expect(first.code == .success)
            #expect(first.out == second.out)
            #expect(Data(first.out.utf8) == Data(second.out.utf8))
        }
    }

    @Test func dumpIsIdenticalForEquivalentPaths() {
        for format in ["json", "text"] {
            let reference = runTool(["dump", Paths.library, "--format", format]).out
            for variant in [Paths.library + "/", Paths.fixtures + "/Valid/../Valid/Library.xcdatamodeld"] {
                #expect(runTool(["dump", variant, "--format", format]).out == reference, "\(variant)")
            }
        }
    }

    /// Runs the built executable from two working directories, with relative and absolute paths.
    @Test(.enabled(if: Paths.executable != nil, "datamodelgen was not built next to the test bundle"))
    func dumpIsIdenticalAcrossWorkingDirectories() throws {
        let executable = try #require(Paths.executable)
        let elsewhere = FileManager.default.temporaryDirectory.path
        for format in ["json", "text"] {
            let runs = [
                try runExecutable(
                    executable, ["dump", "Valid/Library.xcdatamodeld", "--format", format], in: Paths.fixtures),
                try runExecutable(
                    executable, ["dump", "./Valid/Library.xcdatamodeld/", "--format", format], in: Paths.fixtures),
                try runExecutable(
                    executable, ["dump", "Library.xcdatamodeld", "--format", format], in: Paths.fixtures + "/Valid"),
                try runExecutable(executable, ["dump", Paths.library, "--format", format], in: elsewhere),
                try runExecutable(executable, ["dump", Paths.library, "--format", format], in: "/"),
            ]
            for run in runs {
                #expect(run.exitedNormally && run.status == 0)
                #expect(run.err.isEmpty)
                #expect(run.out == runs[0].out, "byte-identical output")
            }
            #expect(!runs[0].out.isEmpty)
            // In-process output matches the executable's.
            #expect(Data(runTool(["dump", Paths.library, "--format", format]).out.utf8) == runs[0].out)
        }
    }

    static let corpusSync = Paths.repositoryRoot.appendingPathComponent("../shared/corpus/models/3lvis__Sync")
        .standardizedFileURL.path
    static let corpusBundle = corpusSync + "/Tests/PropertyMapper/Models/Model.xcdatamodeld"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpusBundle), "the corpus model is absent"))
    func dumpOfACorpusModelIsStable() throws {
        let corpus = Self.corpusSync
        let bundle = Self.corpusBundle
        let first = runTool(["dump", bundle])
        #expect(first.code == .success)
        #expect(first.out == runTool(["dump", bundle + "/"]).out)
        #expect(!first.out.contains(corpus))
    }
}
