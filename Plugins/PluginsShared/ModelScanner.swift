import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the plugins need to know about a model before the generator runs, read with a quick XML scan.
///
/// The generator itself (`datamodelgen`) does the real parsing and validation; plugins cannot link it (nor
/// libxml2), so this scan reads only the facts that decide the generated file names — the versions, and each
/// entity's name, `representedClassName` and `codeGenerationType` — and hands them to ``ModelNaming`` (the
/// generator's own naming code), which names the files. `generate --expect-output` checks the prediction.
struct ScannedModel {
    /// The model's name: the bundle or version directory name without its extension.
    var name: String
    /// Every file whose change must re-run the generator: each version's `contents` and `.xccurrentversion`.
    var inputFiles: [URL]
    /// The entities of the chosen version, in file order; nil when the version could not be read or scanned
    /// (the generator then reports the problem).
    var entities: [ModelNaming.EntityFacts]?
}

enum ModelScanner {
    /// Scans the model at `url` (a `.xcdatamodeld` bundle or a `.xcdatamodel` directory).
    ///
    /// - Parameter versionName: the version a config pins (`modelVersion`), else the current one is used.
    static func scan(_ url: URL, versionName: String?) -> ScannedModel {
        let fileName = url.lastPathComponent
        let name = ModelNaming.modelName(fileName: fileName)
        guard fileName.hasSuffix(ModelNaming.bundleExtension) else {
            let contents = url.appendingPathComponent("contents")
            return ScannedModel(name: name, inputFiles: existing([contents]), entities: scanEntities(in: contents))
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let versions = ModelNaming.versionNames(amongEntries: entries)
        let current = url.appendingPathComponent(ModelNaming.currentVersionFileName)
        let contents = { (version: String) in
            url.appendingPathComponent(version + ModelNaming.versionExtension).appendingPathComponent("contents")
        }
        let chosen = ModelNaming.chosenVersion(
            among: versions, pinned: versionName, current: currentVersionName(current))
        return ScannedModel(
            name: name, inputFiles: existing([current] + versions.map(contents)),
            entities: chosen.flatMap { scanEntities(in: contents($0)) })
    }

    /// The version `.xccurrentversion` names, if it can be read: read as the generator reads it when it has
    /// the shape Xcode writes, else by the property-list parser.
    private static func currentVersionName(_ url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path), !data.isEmpty else { return nil }
        if let text = String(data: data, encoding: .utf8),
            let value = ModelNaming.currentVersionValue(xcodeShapedText: text)
        {
            return ModelNaming.modelName(fileName: value)
        }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let dictionary = plist as? [String: Any],
            let name = dictionary["_XCCurrentVersionName"] as? String, !name.isEmpty
        else { return nil }
        return ModelNaming.modelName(fileName: name)
    }

    private static func existing(_ urls: [URL]) -> [URL] {
        urls.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The `<model>/<entity>` elements of a `contents` file, or nil when it cannot be read or parsed.
    static func scanEntities(in contents: URL) -> [ModelNaming.EntityFacts]? {
        guard let data = FileManager.default.contents(atPath: contents.path) else { return nil }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let collector = EntityCollector()
        parser.delegate = collector
        guard parser.parse() else { return nil }
        return collector.entities
    }
}

/// Collects `<entity>` elements that are children of the root `<model>`.
private final class EntityCollector: NSObject, XMLParserDelegate {
    var entities: [ModelNaming.EntityFacts] = []
    private var path: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if elementName == "entity", path == ["model"] {
            entities.append(
                ModelNaming.EntityFacts(
                    name: attributes["name"] ?? "", representedClassName: attributes["representedClassName"],
                    codeGeneration: ModelNaming.CodeGeneration(attributeValue: attributes["codeGenerationType"])))
        }
        path.append(elementName)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = path.popLast()
    }
}
