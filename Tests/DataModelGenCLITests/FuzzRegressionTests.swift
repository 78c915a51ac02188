import DataModel
import Foundation
import Testing

@testable import DataModelGenCLI

/// Crashes found by `Scripts/fuzz-models.py` at the command-line level (model-level ones are rows of the
/// invalid catalog).
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    private static let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <model>
            <entity name="Item" codeGenerationType="class">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
        </model>

        """

    /// swift-corelibs-foundation traps in `deletingLastPathComponent` for `x`, `a/`, `.`.
    @Test(arguments: ["", "/", "x", "x/", ".", "./", "a//", "/a", "a/b", "a/b/", "//a", "a//b", "/a/b"])
    func parentPath(_ path: String) {
        let expected: [String: String] = [
            "": "", "/": "/", "x": "", "x/": "", ".": "", "./": "", "a//": "", "/a": "/", "a/b": "a", "a/b/": "a",
            "//a": "/", "a//b": "a", "/a/b": "/a",
        ]
        #expect(PathName.deletingLastComponent(path) == expected[path])
    }

    /// The last component, as `NSString.lastPathComponent` gives it (the tool no longer links that part of Foundation).
    @Test(arguments: [
        "", "/", "a", "a/", "a//", "/a", "a/b", "a/b/", "a//b", ".", "..", "/a/b//", "a/.", "M.xcdatamodeld/",
    ])
    func lastPathComponent(_ path: String) {
        let expected: [String: String] = [
            "": "", "/": "/", "a": "a", "a/": "a", "a//": "a", "/a": "a", "a/b": "b", "a/b/": "b", "a//b": "b",
            ".": ".",
            "..": "..", "/a/b//": "b", "a/.": ".", "M.xcdatamodeld/": "M.xcdatamodeld",
        ]
        #expect(PathName.lastComponent(path) == expected[path])
    }

    /// Joining, as `NSString.appendingPathComponent` does on Linux: one slash between, none added after one.
    @Test func joinedPaths() {
        let cases: [(String, String, String)] = [
            ("", "b", "b"), ("a", "", "a"), ("a", "b", "a/b"), ("a/", "b", "a/b"), ("/", "b", "/b"),
            ("a", "/b", "a//b"),
            ("a//", "b/c/", "a//b/c/"), ("..", "../b", "../../b"), ("a/b", "./b", "a/b/./b"),
        ]
        for (path, component, joined) in cases {
            #expect(PathName.joined(path, component) == joined, "\(path) + \(component)")
        }
    }

    /// One-character relative paths (a file `x`, a version directory `a`) crashed every command.
    @Test(.enabled(if: Paths.executable != nil, "datamodelgen was not built next to the test bundle"))
    func oneCharacterRelativePaths() throws {
        let executable = try #require(Paths.executable)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FuzzPaths-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/a", withIntermediateDirectories: true)
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: directory + "/x"))
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: directory + "/a/contents"))
        for arguments in [
            ["validate", "x"], ["validate", "a/contents"], ["validate", "a"], ["schema", "a", "--output", "s"],
            ["generate", "a", "--output", "o"], ["generate", "x", "--output", "p", "--flavor", "coredata"],
        ] {
            let run = try runExecutable(executable, arguments, in: directory)
            #expect(run.exitedNormally, "\(arguments) crashed")
            #expect(run.status == 0, "\(arguments): \(String(decoding: run.err, as: UTF8.self))")
        }
    }

    /// `schema --output ""` trapped; empty paths are usage errors and `--output` must name a file.
    @Test(arguments: [
        ["validate", ""], ["schema", "M", "--output", ""], ["schema", "M", "--output=."],
        ["schema", "M", "--output", "dir/"], ["generate", "M", "--output", ""],
        ["generate", "M", "--output", "o", "--templates="],
    ])
    func emptyAndDirectoryPathsAreUsageErrors(_ arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FuzzPaths-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/M.xcdatamodel", withIntermediateDirectories: true)
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: directory + "/M.xcdatamodel/contents"))
        let absolute = arguments.map { $0 == "M" ? directory + "/M.xcdatamodel" : $0 }
        let run = runTool(absolute)
        #expect(run.code == .usageError, "\(arguments): \(run.err)")
        #expect(run.err.hasPrefix("error: "))
    }
}

/// The tool's modules use `FoundationEssentials`, not the whole of Foundation: linking CoreFoundation and its
/// ICU data made a plainly built `datamodelgen` take 7.8 ms to start instead of 4.7, and an installed one 3.7
/// instead of 2.3.
@Test func theToolsModulesImportOnlyFoundationEssentials() throws {
    let modules = [
        "DataModel", "Mustache", "DataModelStoreLayout", "DataModelCodegen", "ProcessSupport", "DataModelGenCLI",
        "datamodelgen",
    ]
    for module in modules {
        let directory = Paths.repositoryRoot.appendingPathComponent("Sources/\(module)")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
            let source = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            let imports = source.split(separator: "\n").filter { $0.hasPrefix("import Foundation") }
            #expect(imports.allSatisfy { $0 == "import FoundationEssentials" }, "Sources/\(module)/\(name): \(imports)")
        }
    }
}

/// The core's stages take their threads and their teardown from a `WorkScheduler` passed in: only the
/// command-line tool (and the executables) import `ProcessSupport`, which starts threads and skips teardown.
@Test func theCoreLeavesProcessConcernsToTheTool() throws {
    for module in ["DataModel", "Mustache", "DataModelStoreLayout", "DataModelCodegen"] {
        let directory = Paths.repositoryRoot.appendingPathComponent("Sources/\(module)")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
            let source = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            for word in [
                "import ProcessSupport", "Threads.", "ExitTeardown.", "pthread_create", "exit(", "activeProcessorCount",
            ] {
                #expect(!source.contains(word), "Sources/\(module)/\(name) uses '\(word)'")
            }
        }
    }
}
