import Foundation
import Testing

@testable import DataModel

@Suite("Corpus")
struct CorpusTests {
    /// `../shared/corpus/models` next to the repository.
    static let corpus = Fixtures.repositoryRoot.appendingPathComponent("../shared/corpus/models").standardizedFileURL
        .path

    /// Every `.xcdatamodeld` bundle and every `.xcdatamodel` directory not inside a bundle, sorted.
    static func models(under root: String) -> [String] {
        var found: [String] = []
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasSuffix(".xcdatamodeld") {
                found.append(root + "/" + relative)
                enumerator.skipDescendants()
            } else if name.hasSuffix(".xcdatamodel") {
                found.append(root + "/" + relative)
                enumerator.skipDescendants()
            }
        }
        return found.sorted()
    }

    /// Whether the corpus folder exists.
    static var corpusIsPresent: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    @Test(.enabled(if: corpusIsPresent, "../shared/corpus/models is absent"))
    func everyCorpusModelLoadsAndValidatesWithoutErrors() throws {
        let models = Self.models(under: Self.corpus)
        #expect(!models.isEmpty)
        var versions = 0
        var warnings: [Diagnostic] = []
        for path in models {
            let loaded: [LoadedModel]
            do {
                loaded = try ModelLoader.loadAllVersions(path: path)
            } catch {
                Issue.record("\(path): \(error.description)")
                continue
            }
            if path.hasSuffix(".xcdatamodeld") {
                #expect(loaded.count == ModelLoader.versionDirectories(in: path).count, "\(path)")
            }
            for model in loaded {
                versions += 1
                let diagnostics = (model.diagnostics + Validator().validate(model.model)).sortedByLocation()
                let errors = diagnostics.filter { $0.severity == .error }
                #expect(errors.isEmpty, "\(model.contentsPath):\n\(errors.map(\.description).joined(separator: "\n"))")
                warnings += diagnostics.filter { $0.severity == .warning }
                #expect(!model.model.entities.isEmpty || model.model.configurations.isEmpty, "\(model.contentsPath)")
            }
        }
        let root = Self.corpus + "/"
        for warning in warnings {
            print("corpus: " + warning.description.replacingOccurrences(of: root, with: ""))
        }
        print("corpus: loaded \(models.count) models (\(versions) versions), \(warnings.count) warnings")
    }
}
