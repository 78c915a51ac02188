import DataModelGenCLI
import Foundation
import Synchronization

/// Paths of the repository and the shared folder beside it.
enum TestPaths {
    /// The repository root (three levels above this file).
    static let repoRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `Models/`.
    static let models = repoRoot.appendingPathComponent("Models")
    /// The golden files.
    static let golden = repoRoot.appendingPathComponent("Tests/DataModelCodegenTests/Golden")
    /// `../shared/corpus/models`, when present.
    static let corpus: URL? = {
        let url = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Every `.xcdatamodeld` in `Models/`, sorted.
    static var exampleModels: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: models.path)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodeld") }.sorted().map { models.appendingPathComponent($0) }
    }

    /// Every model bundle in the corpus, plus bare `.xcdatamodel` directories outside bundles, sorted.
    static var corpusModels: [URL] {
        guard let corpus else { return [] }
        var found: [URL] = []
        let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "xcdatamodeld" {
                found.append(url)
                enumerator?.skipDescendants()
            } else if url.pathExtension == "xcdatamodel" {
                found.append(url)
                enumerator?.skipDescendants()
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}

/// Runs the command-line tool in-process, capturing what it prints.
struct ToolRun {
    var exitCode: ExitCode
    var out: String
    var err: String

    static func run(_ arguments: [String]) -> ToolRun {
        let out = Mutex("")
        let err = Mutex("")
        let console = Console(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } })
        let code = CommandLineTool(console: console).run(arguments)
        return ToolRun(exitCode: code, out: out.withLock { $0 }, err: err.withLock { $0 })
    }
}

/// A fresh temporary directory, removed by the caller with `cleanUp()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("datamodelgen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
