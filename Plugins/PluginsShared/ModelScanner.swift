import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the plugins need to know about a model before the generator runs, read with a quick XML scan.
///
/// The generator itself (`datamodelgen`) does the real parsing and validation; plugins cannot link it, so this
/// scan reads only what decides the generated file names: the current version, and each entity's name,
/// `representedClassName` and `codeGenerationType`. `generate --expect-output` checks the prediction.
struct ScannedModel {
    /// The model's name: the bundle or version directory name without its extension.
    var name: String
    /// Every file whose change must re-run the generator: each version's `contents` and `.xccurrentversion`.
    var inputFiles: [URL]
    /// The entities of the current version, in file order; nil when the version could not be read or scanned
    /// (the generator then reports the problem).
    var entities: [ScannedEntity]?
}

/// One `<entity>` of a model, as far as file naming is concerned.
struct ScannedEntity: Equatable {
    /// How Xcode generates code for an entity.
    enum CodeGeneration: Equatable {
        case classAndProperties
        case propertiesOnly
        case manual
    }

    var name: String
    var representedClassName: String?
    var codeGeneration: CodeGeneration

    /// The class name: `representedClassName` without a module prefix (`MyApp.Person`, `.Person`), else the name.
    var className: String {
        guard let represented = representedClassName, !represented.isEmpty else { return name }
        guard let dot = represented.lastIndex(of: ".") else { return represented }
        let tail = represented[represented.index(after: dot)...]
        return tail.isEmpty ? name : String(tail)
    }
}

enum ModelScanner {
    static let currentVersionFileName = ".xccurrentversion"

    /// Scans the model at `url` (a `.xcdatamodeld` bundle or a `.xcdatamodel` directory).
    ///
    /// - Parameter versionName: the version a config pins (`modelVersion`), else the current one is used.
    static func scan(_ url: URL, versionName: String?) -> ScannedModel {
        let fileName = url.lastPathComponent
        let name = stripExtension(fileName)
        guard fileName.hasSuffix(".xcdatamodeld") else {
            let contents = url.appendingPathComponent("contents")
            return ScannedModel(
                name: name, inputFiles: existing([contents]), entities: scanEntities(in: contents))
        }
        let versions = versionNames(in: url)
        let current = url.appendingPathComponent(currentVersionFileName)
        let inputs = existing([current] + versions.map { url.appendingPathComponent($0 + ".xcdatamodel/contents") })
        let chosen = chooseVersion(versions, pinned: versionName, current: current)
        let entities = chosen.flatMap {
            scanEntities(in: url.appendingPathComponent($0 + ".xcdatamodel/contents"))
        }
        return ScannedModel(name: name, inputFiles: inputs, entities: entities)
    }

    /// The version the generator uses: the pinned one, else the one `.xccurrentversion` names, else the newest.
    static func chooseVersion(_ versions: [String], pinned: String?, current: URL) -> String? {
        if let pinned { return versions.contains(stripExtension(pinned)) ? stripExtension(pinned) : nil }
        if let named = currentVersionName(current), versions.contains(named) { return named }
        return versions.last
    }

    /// The version names (without `.xcdatamodel`) in a bundle, oldest first in natural order.
    static func versionNames(in bundle: URL) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []
        return entries.filter { $0.hasSuffix(".xcdatamodel") }.map(stripExtension).sorted(by: naturalOrder)
    }

    static func stripExtension(_ name: String) -> String {
        for suffix in [".xcdatamodeld", ".xcdatamodel"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }

    /// Natural order: runs of digits compare as numbers (`Model 9` before `Model 10`).
    static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = runs(lhs)
        let right = runs(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (Int(a), Int(b)) {
            case let (x?, y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
        return left.count != right.count ? left.count < right.count : lhs < rhs
    }

    private static func runs(_ text: String) -> [String] {
        var runs: [String] = []
        var current = ""
        var inDigits = false
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty, isDigit != inDigits {
                runs.append(current)
                current = ""
            }
            current.append(character)
            inDigits = isDigit
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    private static func currentVersionName(_ url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path), !data.isEmpty,
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let dictionary = plist as? [String: Any],
            let name = dictionary["_XCCurrentVersionName"] as? String, !name.isEmpty
        else { return nil }
        return stripExtension(name)
    }

    private static func existing(_ urls: [URL]) -> [URL] {
        urls.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The `<model>/<entity>` elements of a `contents` file, or nil when it cannot be read or parsed.
    static func scanEntities(in contents: URL) -> [ScannedEntity]? {
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
    var entities: [ScannedEntity] = []
    private var path: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if elementName == "entity", path == ["model"] {
            let codeGeneration: ScannedEntity.CodeGeneration
            switch attributes["codeGenerationType"] {
            case "class": codeGeneration = .classAndProperties
            case "category": codeGeneration = .propertiesOnly
            default: codeGeneration = .manual
            }
            entities.append(
                ScannedEntity(
                    name: attributes["name"] ?? "", representedClassName: attributes["representedClassName"],
                    codeGeneration: codeGeneration))
        }
        path.append(elementName)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = path.popLast()
    }
}
