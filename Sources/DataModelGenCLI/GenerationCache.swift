import DataModel
import DataModelTemplates
import FoundationEssentials

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
            // Read as the loader reads (a large model file is mapped, not copied); any file over the loader's
            // limit is not a model it would load, and then there is no cache.
            guard case .success(let data) = FileReading.read(file, limit: XMLParsingLimits.default.maximumBytes) else {
                return nil
            }
            hasher.add(file)
            hasher.add(data)
        }
        var keyHasher = FNV1a()
        keyHasher.add(absolute)
        recordPath = directory + "/" + keyHasher.hex + ".record"
        outputDirectory = output
        fingerprint = hasher.hex
    }

    /// The recorded run, when it matches the inputs and every file it wrote is untouched.
    func validRecord() -> Record? {
        guard let data = FileManager.default.contents(atPath: recordPath), let record = Self.decode(data),
            record.fingerprint == fingerprint
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
        store(entries: entries, diagnostics: diagnostics)
    }

    /// Records a successful run that left the files of `entries` (paths relative to the output directory),
    /// whose sizes and modification times the writer read as it wrote them.
    func store(entries: [Entry], diagnostics: [Diagnostic]) {
        guard let text = Self.encode(Record(fingerprint: fingerprint, files: entries, diagnostics: diagnostics))
        else { return }
        try? AtomicFileWriter.store(text, at: recordPath)
    }

    private static let header = "datamodelgen-cache 2"

    /// The record as lines: the header, the fingerprint, the diagnostics as one JSON line, then
    /// `size<TAB>modified<TAB>path` per file (plain text: a JSON list of thousands of files took
    /// most of a no-change run to decode). `nil` when a path holds a tab or a line break.
    static func encode(_ record: Record) -> String? {
        guard let diagnostics = try? JSONEncoder().encode(record.diagnostics) else { return nil }
        var text = header + "\n" + record.fingerprint + "\n" + String(decoding: diagnostics, as: UTF8.self) + "\n"
        for entry in record.files {
            guard !entry.path.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return nil }
            text += String(entry.size) + "\t" + String(entry.modified) + "\t" + entry.path + "\n"
        }
        return text
    }

    static func decode(_ data: Data) -> Record? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Record? in
            // Lines as byte ranges, scanned once (no per-byte `Data` access).
            var lines: [Range<Int>] = []
            var start = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
                lines.append(start..<index)
                start = index + 1
            }
            if start < bytes.count { lines.append(start..<bytes.count) }
            func text(_ range: Range<Int>) -> String {
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            func number(_ range: Range<Int>) -> Int64? {
                guard !range.isEmpty else { return nil }
                var value: Int64 = 0
                var negative = false
                for index in range {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "-") && index == range.lowerBound {
                        negative = true
                        continue
                    }
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    value = product + Int64(byte - UInt8(ascii: "0"))
                }
                return negative ? -value : value
            }
            guard lines.count >= 3, text(lines[0]) == header,
                let diagnostics = try? JSONDecoder().decode(
                    [Diagnostic].self, from: Data(UnsafeRawBufferPointer(rebasing: bytes[lines[2]])))
            else { return nil }
            var files: [Entry] = []
            files.reserveCapacity(lines.count - 3)
            for line in lines.dropFirst(3) where !line.isEmpty {
                guard let firstTab = line.first(where: { bytes[$0] == UInt8(ascii: "\t") }),
                    let secondTab = (firstTab + 1..<line.upperBound).first(where: { bytes[$0] == UInt8(ascii: "\t") }),
                    let size = number(line.lowerBound..<firstTab), let modified = number(firstTab + 1..<secondTab)
                else { return nil }
                files.append(Entry(path: text(secondTab + 1..<line.upperBound), size: size, modified: modified))
            }
            return Record(fingerprint: text(lines[1]), files: files, diagnostics: diagnostics)
        }
    }

    /// Every file under `path` when it is a directory (sorted), else the file itself.
    static func inputFiles(at path: String) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [path] }
        guard isDirectory else { return [path] }
        var files: [String] = []
        for relative in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
            let full = path + "/" + relative
            var entryIsDirectory = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory {
                files.append(full)
            }
        }
        return files.sorted()
    }

    private static func entry(for relative: String, in directory: String) -> Entry? {
        var info = stat()
        guard stat(directory + "/" + relative, &info) == 0 else { return nil }
        return Entry(path: relative, size: Int64(info.st_size), modified: modificationTime(info))
    }

    /// A file's modification time in nanoseconds, as the record keeps it.
    static func modificationTime(_ info: stat) -> Int64 {
        #if canImport(Darwin)
            Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
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

/// A 64-bit fingerprint hash (FNV-1a for strings, a word-wise multiply-shift for file contents); not for security.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds `data` eight bytes at a time (a model file is megabytes): each word is mixed in with
    /// a multiply and a shift, the tail byte by byte.
    mutating func add(_ data: Data) {
        data.withUnsafeBytes { buffer in
            var hash = value
            let words = buffer.count / 8
            for index in 0..<words {
                let word = buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            for byte in buffer[(words * 8)...] {
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
