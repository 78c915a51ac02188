import DataModelNaming
import FoundationEssentials

/// A model read from disk: the chosen version's IR plus what was learned while loading it.
public struct LoadedModel: Sendable {
    /// The parsed model version.
    public var model: ObjectModel
    /// Warnings (and, after validation, errors) about the input.
    public var diagnostics: [Diagnostic]
    /// The path of the `contents` file that was parsed, as given by the user.
    public var contentsPath: String
    /// The path the user gave.
    public var inputPath: String
    /// The names of every version in the bundle, in natural order (one entry for a bare version).
    public var availableVersions: [String]
    /// Every file whose change should trigger regeneration (contents files, `.xccurrentversion`).
    public var inputFiles: [String]
}

/// Finds and reads Xcode data models on disk: `.xcdatamodeld` bundles, `.xcdatamodel` directories
/// and bare `contents` files.
public enum ModelLoader {
    /// The file inside a bundle that names the current version.
    public static let currentVersionFileName = ModelNaming.currentVersionFileName

    /// Loads one version of the model at `path`.
    ///
    /// For a bundle, the version is `versionName` when given, else the one `.xccurrentversion` names, else the
    /// only version or the newest in natural order (`Model 10` after `Model 9`), with a warning.
    public static func load(
        path: String, versionName: String? = nil, limits: XMLParsingLimits = .default
    ) throws(ModelLoadingError) -> LoadedModel {
        let fileManager = FileManager.default
        var isDirectory = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ioError("no such file or directory", path: path)
        }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        if let versionName, !(isDirectory && trimmed.hasSuffix(ModelNaming.bundleExtension)) {
            throw ModelLoadingError(
                .invalidModel,
                [
                    .error(
                        "a model version ('\(versionName)') can only be chosen in a .xcdatamodeld bundle",
                        rule: .unknownModelVersion, at: SourceLocation(file: path))
                ])
        }
        if !isDirectory {
            let parent = PathName.deletingLastComponent(trimmed)
            let parentName = PathName.lastComponent(parent)
            let isVersionContents = parentName.hasSuffix(ModelNaming.versionExtension)
            let versionName = isVersionContents ? stripExtension(parentName) : stripExtension(lastComponent(trimmed))
            var modelName = versionName
            let grandparent = PathName.lastComponent(PathName.deletingLastComponent(parent))
            if isVersionContents, grandparent.hasSuffix(ModelNaming.bundleExtension) {
                modelName = stripExtension(grandparent)
            }
            return try loadContents(
                at: trimmed, inputPath: path, modelName: modelName, versionName: versionName,
                versions: [versionName], extraInputs: [], warnings: [], limits: limits)
        }
        if trimmed.hasSuffix(ModelNaming.bundleExtension) {
            return try loadBundle(at: trimmed, inputPath: path, versionName: versionName, limits: limits)
        }
        let name = stripExtension(lastComponent(trimmed))
        return try loadVersionDirectory(
            at: trimmed, inputPath: path, modelName: name, versionName: name, versions: [name], extraInputs: [],
            warnings: [], limits: limits)
    }

    /// Loads every version of the model at `path` (one for anything but a bundle), in natural order.
    public static func loadAllVersions(path: String, limits: XMLParsingLimits = .default) throws(ModelLoadingError)
        -> [LoadedModel]
    {
        try loadVersions(path: path, limits: limits).versions
    }

    /// Loads every version of the model at `path`, in natural order, and tells which is the chosen one (`versionName`,
    /// or the current one); each version is read once.
    public static func loadVersions(
        path: String, versionName: String? = nil, limits: XMLParsingLimits = .default
    ) throws(ModelLoadingError) -> (versions: [LoadedModel], chosen: Int) {
        let chosen = try load(path: path, versionName: versionName, limits: limits)
        var models: [LoadedModel] = []
        for version in chosen.availableVersions {
            models.append(
                version == chosen.model.versionName
                    ? chosen : try load(path: path, versionName: version, limits: limits))
        }
        let index = models.firstIndex { $0.model.versionName == chosen.model.versionName }
        return index.map { (models, $0) } ?? ([chosen], 0)
    }

    // MARK: Bundles

    private static func loadBundle(
        at path: String, inputPath: String, versionName: String?, limits: XMLParsingLimits
    ) throws(ModelLoadingError) -> LoadedModel {
        let modelName = stripExtension(lastComponent(path))
        let versions = versionDirectories(in: path)
        let currentFile = path + "/" + currentVersionFileName
        var warnings: [Diagnostic] = []
        var extraInputs: [String] = []
        let hasCurrentFile = FileManager.default.fileExists(atPath: currentFile)
        if hasCurrentFile { extraInputs.append(currentFile) }
        guard !versions.isEmpty else {
            if FileManager.default.fileExists(atPath: path + "/elements") {
                throw legacyError(path: path)
            }
            throw ModelLoadingError(
                .invalidModel,
                [
                    .error(
                        "model bundle contains no .xcdatamodel version", rule: .noModelVersion,
                        at: SourceLocation(file: path))
                ])
        }
        let chosen: String
        if let versionName {
            guard let wanted = ModelNaming.chosenVersion(among: versions, pinned: versionName, current: nil) else {
                throw ModelLoadingError(
                    .invalidModel,
                    [
                        .error(
                            "model version '\(stripExtension(versionName))' not found; the bundle has: \(versions.joined(separator: ", "))",
                            rule: .unknownModelVersion, at: SourceLocation(file: path))
                    ])
            }
            chosen = wanted
        } else {
            let named = hasCurrentFile ? currentVersionName(currentFile, warnings: &warnings) : nil
            chosen =
                ModelNaming.chosenVersion(among: versions, pinned: nil, current: named) ?? versions[versions.count - 1]
            if chosen != named {
                let reason: String
                if let named {
                    reason = "\(currentVersionFileName) names '\(named)', which does not exist"
                } else if hasCurrentFile {
                    reason = "\(currentVersionFileName) names no version"
                } else {
                    reason = "the bundle has no \(currentVersionFileName)"
                }
                let choice = versions.count == 1 ? "its only version" : "the newest version"
                warnings.append(
                    .warning(
                        "\(reason); using \(choice), '\(chosen)'", rule: .currentVersion,
                        at: SourceLocation(file: hasCurrentFile ? currentFile : path)))
            }
        }
        return try loadVersionDirectory(
            at: path + "/" + chosen + ModelNaming.versionExtension, inputPath: inputPath, modelName: modelName,
            versionName: chosen,
            versions: versions, extraInputs: extraInputs, warnings: warnings, limits: limits)
    }

    /// The version names (without `.xcdatamodel`) in a bundle, in natural order.
    public static func versionDirectories(in bundlePath: String) -> [String] {
        ModelNaming.versionNames(amongEntries: (try? FileManager.default.contentsOfDirectory(atPath: bundlePath)) ?? [])
    }

    private static func currentVersionName(_ path: String, warnings: inout [Diagnostic]) -> String? {
        let data: Data
        switch FileReading.read(path, limit: 1 << 20) {
        case .success(let read): data = read
        case .failure(let failure):
            let reason: String
            switch failure {
            case .tooLarge: reason = "is larger than 1 MiB"
            case .notRegularFile(let kind): reason = "is \(kind), not a regular file"
            case .unreadable(let message): reason = "cannot be read (\(message))"
            }
            warnings.append(
                .warning(
                    "\(currentVersionFileName) \(reason); ignoring it", rule: .currentVersion,
                    at: SourceLocation(file: path)))
            return nil
        }
        return currentVersionName(inFileContents: data, path: path, warnings: &warnings)
    }

    /// The version a `.xccurrentversion` file's bytes name (without `.xcdatamodel`), or `nil` when it names none;
    /// a file that is not a property list adds a warning located at `path`. Any bytes are safe to pass.
    public static func currentVersionName(inFileContents data: Data, path: String, warnings: inout [Diagnostic])
        -> String?
    {
        // The file as Xcode writes it is read directly; anything else goes through the property-list parser.
        if let name = CurrentVersionFile.plainName(in: data) { return stripExtension(name) }
        let trimmed = Validator.trimmingWhitespaceAndNewlines(String(decoding: data, as: UTF8.self))
        if trimmed.isEmpty { return nil }
        guard CurrentVersionFile.isShallow(data),
            let file = try? PropertyListDecoder().decode(CurrentVersionPropertyList.self, from: data)
        else {
            warnings.append(
                .warning(
                    "\(currentVersionFileName) is not a property list; ignoring it", rule: .currentVersion,
                    at: SourceLocation(file: path, line: 1, column: 1)))
            return nil
        }
        guard let name = file.name, !name.isEmpty else { return nil }
        return stripExtension(name)
    }

    // MARK: Versions

    private static func loadVersionDirectory(
        at path: String, inputPath: String, modelName: String, versionName: String, versions: [String],
        extraInputs: [String], warnings: [Diagnostic], limits: XMLParsingLimits
    ) throws(ModelLoadingError) -> LoadedModel {
        let contents = path + "/contents"
        guard FileManager.default.fileExists(atPath: contents) else {
            if FileManager.default.fileExists(atPath: path + "/elements") {
                throw legacyError(path: path)
            }
            var message = "'\(lastComponent(path))' has no 'contents' file: it is not an Xcode data model version"
            // A bundle whose extension was lost (copied or renamed): its versions are there, only the name is wrong.
            let versions = versionDirectories(in: path)
            if let first = versions.first {
                message +=
                    "; it holds \(versions.count == 1 ? "the version" : "versions") '\(first)\(ModelNaming.versionExtension)'"
                    + (versions.count > 1 ? " and \(versions.count - 1) more" : "")
                    + ", so it looks like a model bundle: name it '\(lastComponent(path))\(ModelNaming.bundleExtension)'"
            }
            throw ModelLoadingError(
                .invalidModel, [.error(message, rule: .missingContents, at: SourceLocation(file: path))])
        }
        return try loadContents(
            at: contents, inputPath: inputPath, modelName: modelName, versionName: versionName, versions: versions,
            extraInputs: extraInputs, warnings: warnings, limits: limits)
    }

    private static func loadContents(
        at path: String, inputPath: String, modelName: String, versionName: String, versions: [String],
        extraInputs: [String], warnings: [Diagnostic], limits: XMLParsingLimits
    ) throws(ModelLoadingError) -> LoadedModel {
        let data = try readFile(path, limits: limits)
        do {
            let (model, diagnostics) = try ModelParser.parse(
                data, file: path, modelName: modelName, versionName: versionName, limits: limits)
            return LoadedModel(
                model: model, diagnostics: warnings + diagnostics, contentsPath: path, inputPath: inputPath,
                availableVersions: versions, inputFiles: [path] + extraInputs)
        } catch {
            throw ModelLoadingError(error.kind, warnings + error.diagnostics)
        }
    }

    private static func readFile(_ path: String, limits: XMLParsingLimits) throws(ModelLoadingError) -> Data {
        switch FileReading.read(path, limit: limits.maximumBytes) {
        case .success(let data): return data
        case .failure(.tooLarge(let size)):
            throw ModelLoadingError(
                .invalidModel,
                [
                    .error(
                        "file is \(size) bytes, larger than the limit of \(limits.maximumBytes) bytes",
                        rule: .fileTooLarge, at: SourceLocation(file: path))
                ])
        case .failure(.notRegularFile(let kind)):
            throw ioError("cannot read the file: it is \(kind), not a regular file", path: path)
        case .failure(.unreadable(let reason)):
            throw ioError("cannot read the file: \(reason)", path: path)
        }
    }

    private static func legacyError(path: String) -> ModelLoadingError {
        ModelLoadingError(
            .invalidModel,
            [
                .error(
                    "this model is in the pre-2011 binary format (elements/layout files, no contents); open it in a current Xcode and save it to convert it",
                    rule: .legacyBinaryFormat, at: SourceLocation(file: path))
            ])
    }

    private static func ioError(_ message: String, path: String) -> ModelLoadingError {
        ModelLoadingError(.io, [.error(message, rule: .ioError, at: SourceLocation(file: path))])
    }

    // MARK: Names

    static func lastComponent(_ path: String) -> String { PathName.lastComponent(path) }

    static func stripExtension(_ name: String) -> String { ModelNaming.modelName(fileName: name) }
}

/// Reads `.xccurrentversion` in the one shape Xcode writes, without a property-list parser (whose first use
/// costs more than loading a small model):
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
/// <plist version="1.0">
/// <dict>
///     <key>_XCCurrentVersionName</key>
///     <string>Model 2.xcdatamodel</string>
/// </dict>
/// </plist>
/// ```
enum CurrentVersionFile {
    /// Property lists nested deeper than this are not read: the property-list parser recurses once
    /// per level, and a file nested thousands deep would run it out of stack. Xcode's file is 2 deep.
    static let maximumDepth = 64

    /// Whether `data` is a property list shallow enough to hand to the parser: for a binary one,
    /// few enough objects (its nesting cannot exceed their count); for text, elements (or, in the
    /// old text format, brackets) nested at most ``maximumDepth`` deep. Anything that looks like
    /// nesting counts, inside comments too, so the count errs on the deep side only.
    static func isShallow(_ data: Data) -> Bool {
        if data.starts(with: Array("bplist".utf8)) {
            // The trailer's last 32 bytes hold the object count as a big-endian 64-bit number at 8.
            guard data.count >= 40 else { return false }
            let count = data.suffix(24).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return count <= UInt64(maximumDepth)
        }
        var depth = 0
        var previous: UInt8 = 0
        for byte in data {
            switch byte {
            case UInt8(ascii: "/") where previous == UInt8(ascii: "<"):
                depth -= 2  // `</`: the `<` counted one level in, the element closes one
            case UInt8(ascii: ">") where previous == UInt8(ascii: "/"):
                depth -= 1  // `/>`
            case UInt8(ascii: "?"), UInt8(ascii: "!"):
                if previous == UInt8(ascii: "<") { depth -= 1 }  // declarations and comments open nothing
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
            if depth > maximumDepth { return false }
            depth = max(depth, 0)
            previous = byte
        }
        return true
    }

    /// The version name of a file of exactly that shape (see ``ModelNaming/currentVersionValue(xcodeShapedText:)``),
    /// as written; nil for anything else, which the caller then hands to the property-list parser.
    static func plainName(in data: Data) -> String? {
        String(validating: data, as: UTF8.self).flatMap(ModelNaming.currentVersionValue(xcodeShapedText:))
    }
}

/// `.xccurrentversion` read as a property list: a dictionary whose `_XCCurrentVersionName` names the
/// current version. A name that is not a string counts as no name, as does a missing one.
private struct CurrentVersionPropertyList: Decodable {
    let name: String?

    private enum CodingKeys: String, CodingKey {
        case name = "_XCCurrentVersionName"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
    }
}
