import DataModel
import DataModelNaming
import FoundationEssentials

/// The options of `datamodelgen.json`, a file next to the model (or given with `--config`): its keys are
/// declared once, in ``ModelNaming/Config``, which the plugins read too.
typealias GenerationConfig = ModelNaming.Config

extension ModelNaming.Config {
    /// Reads the config at `path`; relative paths inside become relative to its directory.
    static func load(_ path: String) throws -> GenerationConfig {
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
        var config: GenerationConfig
        do {
            config = try JSONDecoder().decode(GenerationConfig.self, from: data)
        } catch {
            throw IOFailure(path: path, message: "invalid config file: \(describe(error))")
        }
        let base = PathName.deletingLastComponent(path)
        config.templates = config.templates.map { resolve($0, base: base) }
        config.output = config.output.map { resolve($0, base: base) }
        return config
    }

    /// The config next to the model at `modelPath`, if there is one.
    static func discover(nextTo modelPath: String) throws -> GenerationConfig? {
        guard let path = path(nextTo: modelPath) else { return nil }
        return try load(path)
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

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            return key.isEmpty ? context.debugDescription : "'\(key)': \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}

/// A value of the config file that `generate` cannot use: reported at the key's line and column (usage error,
/// exit code 2).
struct ConfigFailure: Error, CustomStringConvertible {
    /// The config file.
    var path: String
    /// The key whose value is wrong.
    var key: String
    var message: String

    var description: String {
        let (line, column) = location()
        return "\(path):\(line):\(column): error: \(message) [invalid-config]"
    }

    /// The 1-based line and column (in UTF-8 bytes, as compilers count) of `"key"` in the file, or 1:1 when it
    /// cannot be found.
    private func location() -> (Int, Int) {
        guard case .success(let data) = FileReading.read(path, limit: 1 << 20) else { return (1, 1) }
        let text = String(decoding: data, as: UTF8.self)
        var line = 1
        for lineText in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let range = lineText.firstRange(of: "\"\(key)\"") {
                return (line, lineText.utf8.distance(from: lineText.startIndex, to: range.lowerBound) + 1)
            }
            line += 1
        }
        return (1, 1)
    }
}
