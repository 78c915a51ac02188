import Foundation

/// Finds the Xcode data models among a target's files.
///
/// SwiftPM on Linux lists a `.xcdatamodeld` bundle (or a bare `.xcdatamodel` directory) as one file of unknown
/// type; other hosts may list the files inside it one by one (`Model.xcdatamodeld/Model.xcdatamodel/contents`).
/// Both become the same model path: the outermost `.xcdatamodeld`, else the `.xcdatamodel` directory.
enum ModelLocator {
    /// The distinct model paths among `files`, sorted.
    static func models(among files: [URL]) -> [URL] {
        var found: Set<String> = []
        for file in files {
            if let model = modelPath(containing: file.standardizedFileURL.path) { found.insert(model) }
        }
        return found.sorted().map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The model that `path` is, or is inside of, if any.
    static func modelPath(containing path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        for suffix in [ModelNaming.bundleExtension, ModelNaming.versionExtension] {
            if let index = components.firstIndex(where: { $0.hasSuffix(suffix) && $0.count > suffix.count }) {
                return components[...index].joined(separator: "/")
            }
        }
        return nil
    }
}
