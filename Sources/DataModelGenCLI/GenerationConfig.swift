import DataModel
import DataModelNaming
import FoundationEssentials

/// The options of `datamodelgen.json`, a file next to the model (or given with `--config`): its keys are
/// declared once, in ``ModelNaming/Config``, which the plugins read too.
typealias GenerationConfig = ModelNaming.Config

extension ModelNaming.Config {
    /// Reads the config at `path`; relative paths inside become relative to its directory. Syntax errors and
    /// values of the wrong type are ``ConfigFailure``s at their line and column.
    static func load(_ path: String) throws -> GenerationConfig {
        try loadReporting(path).config
    }

    /// Reads the config at `path` as ``load(_:)`` does, with a warning for each key the file has that no
    /// version of the tool reads (a misspelt key would otherwise be ignored without a word).
    static func loadReporting(_ path: String) throws -> (config: GenerationConfig, warnings: [Diagnostic]) {
        let data: Data
        switch FileReading.read(path, limit: 1 << 20) {
        case .success(let read): data = read
        case .failure(.notRegularFile(let kind)):
            throw IOFailure(path: path, message: "cannot read the config file: it is \(kind), not a regular file")
        case .failure(.tooLarge):
            throw IOFailure(path: path, message: "cannot read the config file: it is larger than 1 MiB")
        case .failure(.unreadable(let reason)):
            throw IOFailure(path: path, message: "cannot read the config file: \(reason)")
        }
        let scan: ConfigFileScanner.Scan
        switch ConfigFileScanner.scan(Array(data)) {
        case .success(let scanned): scan = scanned
        case .failure(let error):
            throw ConfigFailure(path: path, position: error.position, message: "invalid JSON: \(error.message)")
        }
        guard scan.isObject else {
            throw ConfigFailure(
                path: path, position: .init(line: 1, column: 1),
                message: "the config must be a JSON object, such as { \"flavor\": \"runtime\" }")
        }
        var config: GenerationConfig
        do {
            config = try JSONDecoder().decode(GenerationConfig.self, from: data)
        } catch {
            let (key, message) = describe(error)
            throw ConfigFailure(
                path: path, position: key.flatMap(scan.position(of:)) ?? .init(line: 1, column: 1), message: message)
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        let warnings = scan.keys.filter { !known.contains($0.name) }.map { key in
            var message = "unknown key '\(key.name)' is ignored"
            if let best = NameSuggestion.closest(to: key.name, among: CodingKeys.allCases.map(\.rawValue)) {
                message += "; did you mean '\(best)'?"
            }
            return Diagnostic(
                .warning, message, rule: "unknown-config-key",
                at: SourceLocation(file: path, line: key.position.line, column: key.position.column))
        }
        let base = PathName.deletingLastComponent(path)
        config.templates = config.templates.map { resolve($0, base: base) }
        config.output = config.output.map { resolve($0, base: base) }
        return (config, warnings)
    }

    /// The path of the config next to the model at `modelPath`, if there is one.
    static func path(nextTo modelPath: String) -> String? {
        var trimmed = modelPath
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let path = PathName.joined(PathName.deletingLastComponent(trimmed), fileName)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private static func resolve(_ path: String, base: String) -> String {
        path.hasPrefix("/") || base.isEmpty ? path : PathName.joined(base, path)
    }

    /// The top-level key a decoding error is about, and what to tell the user.
    private static func describe(_ error: any Error) -> (key: String?, message: String) {
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            let key = context.codingPath.first?.stringValue
            let expected =
                type == Bool.self ? "true or false" : type == String.self ? "a string in double quotes" : "\(type)"
            return (key, "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' must be \(expected)")
        case DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let key = context.codingPath.first?.stringValue
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (key, path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)")
        default: return (nil, "invalid config file: \(error)")
        }
    }
}

/// A config file that `generate` cannot use: reported at the line and column of the problem, or of the key whose
/// value is wrong (usage error, exit code 2).
struct ConfigFailure: Error, CustomStringConvertible {
    /// The config file.
    var path: String
    /// Where the problem is; `nil` for the key's position, looked up when printed.
    var position: ConfigFileScanner.Position?
    /// The key whose value is wrong, when the problem is a value.
    var key: String?
    var message: String

    /// A problem at a known position.
    init(path: String, position: ConfigFileScanner.Position, message: String) {
        self.path = path
        self.position = position
        self.message = message
    }

    /// A problem with the value of `key`.
    init(path: String, key: String, message: String) {
        self.path = path
        self.key = key
        self.message = message
    }

    var description: String {
        let at = position ?? location(of: key) ?? .init(line: 1, column: 1)
        return "\(path):\(at.line):\(at.column): error: \(message) [invalid-config]"
    }

    private func location(of key: String?) -> ConfigFileScanner.Position? {
        guard let key, case .success(let data) = FileReading.read(path, limit: 1 << 20),
            case .success(let scan) = ConfigFileScanner.scan(Array(data))
        else { return nil }
        return scan.position(of: key)
    }
}
