import DataModel
import DataModelTemplates
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Remembers the last `generate` into an output directory, so an unchanged re-run returns at once.
///
/// A record is kept per output directory in the user's cache directory (`$DATAMODELGEN_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/datamodelgen`, else `~/.cache/datamodelgen`), never in the project. It holds a
/// fingerprint of everything the output depends on (the tool's version, the options, every file of the
/// model bundle, the config, the templates) and the size and modification time of every file written.
/// A re-run whose fingerprint matches and whose files are all exactly as left is skipped, replaying the
/// diagnostics of the run that wrote them. Anything else (a changed input, a file edited or removed,
/// `--check`, `--dry-run`, `--no-cache`, an unwritable cache) takes the full path.
struct GenerationCache {
    struct Entry: Codable, Equatable {
        var path: String
        var size: Int64
        var modified: Int64
    }

    struct Record: Codable {
        var fingerprint: String
        var files: [Entry]
        var diagnostics: [Diagnostic]
    }

    let recordPath: String
    let outputDirectory: String
    let fingerprint: String

    /// A cache for generating into `output` with inputs fingerprinted from `parts` and `files`; nil when
    /// there is no usable cache directory or an input cannot be read.
    init?(output: String, parts: [String], files: [String]) {
        guard let directory = Self.cacheDirectory() else { return nil }
        let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
        var hasher = FNV1a()
        hasher.add(CommandLineTool.version)
        for part in parts { hasher.add(part) }
        for name in DefaultTemplates.names { hasher.add(DefaultTemplates.source(named: name) ?? "") }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { return nil }
            hasher.add(file)
            hasher.add(data)
        }
        var keyHasher = FNV1a()
        keyHasher.add(absolute)
        recordPath = directory + "/" + keyHasher.hex + ".json"
        outputDirectory = output
        fingerprint = hasher.hex
    }

    /// The recorded run, when it matches the inputs and every file it wrote is untouched.
    func validRecord() -> Record? {
        guard let data = FileManager.default.contents(atPath: recordPath),
            let record = try? JSONDecoder().decode(Record.self, from: data), record.fingerprint == fingerprint
        else { return nil }
        for entry in record.files where Self.entry(for: entry.path, in: outputDirectory) != entry {
            return nil
        }
        return record
    }

    /// Records a successful run that left `paths` (relative to the output directory).
    func store(paths: [String], diagnostics: [Diagnostic]) {
        let entries = paths.compactMap { Self.entry(for: $0, in: outputDirectory) }
        guard entries.count == paths.count else { return }
        let record = Record(fingerprint: fingerprint, files: entries, diagnostics: diagnostics)
        guard let data = try? JSONEncoder().encode(record) else { return }
        try? AtomicFileWriter.store(String(decoding: data, as: UTF8.self), at: recordPath)
    }

    /// Every file under `path` when it is a directory (sorted), else the file itself.
    static func inputFiles(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [path] }
        guard isDirectory.boolValue else { return [path] }
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let full = path + "/" + relative
            var entryIsDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue
            {
                files.append(full)
            }
        }
        return files.sorted()
    }

    private static func entry(for relative: String, in directory: String) -> Entry? {
        var info = stat()
        guard stat(directory + "/" + relative, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return Entry(path: relative, size: Int64(info.st_size), modified: modified)
    }

    private static func cacheDirectory() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let explicit = environment["DATAMODELGEN_CACHE_DIR"], !explicit.isEmpty {
            base = explicit
        } else if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            base = xdg + "/datamodelgen"
        } else if let home = environment["HOME"], !home.isEmpty {
            base = home + "/.cache/datamodelgen"
        } else {
            return nil
        }
        do {
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        return base
    }
}

/// The 64-bit FNV-1a hash, for fingerprints (not for security).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ data: Data) {
        data.withUnsafeBytes { buffer in
            var hash = value
            for byte in buffer {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            value = hash
        }
        add(separator: UInt8(truncatingIfNeeded: data.count))
    }

    mutating func add(_ text: String) {
        var hash = value
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value = hash
        add(separator: 0xFF)
    }

    private mutating func add(separator: UInt8) {
        value = (value ^ UInt64(separator)) &* 0x100_0000_01b3
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
