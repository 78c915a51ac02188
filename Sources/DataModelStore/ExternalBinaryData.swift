import Foundation

/// Core Data's stored form of a Binary attribute with *Allows External Storage*
/// (`allowsExternalBinaryDataStorage="YES"`), shared by the runtime and store migration.
///
/// The column never holds the bare bytes. It holds a marker byte and then:
/// - `0x01` ``inlineMarker``: the bytes themselves (small values);
/// - `0x02` ``externalMarker``: the ASCII name of a file (a UUID string, written NUL-terminated; read with or
///   without the NUL) in the store's external-data folder, ``directory(forStoreAt:)``:
///   `.<store file name without extension>_SUPPORT/_EXTERNAL_DATA/` beside the store file.
///
/// A value whose first byte is neither marker (a store written before the attribute allowed external storage)
/// reads as its bytes unchanged (``Stored/unmarked(_:)``).
public enum ExternalBinaryData {
    /// The first byte of a value stored in the column.
    public static let inlineMarker: UInt8 = 0x01
    /// The first byte of a reference to a file in the external-data folder.
    public static let externalMarker: UInt8 = 0x02
    /// Values of more bytes than this are written to a file (128 KiB). Core Data does not document its own
    /// threshold (measured between about 100 KB and 1 MB over the years); any threshold reads back the same, since
    /// the marker says where each value is.
    public static let defaultThreshold = 128 * 1024

    /// What a column of the external-storage form holds.
    public enum Stored: Sendable, Hashable {
        /// `0x01` and the bytes.
        case inline(Data)
        /// `0x02` and the name of a file in the external-data folder.
        case external(fileName: String)
        /// No marker: the bytes as they are.
        case unmarked(Data)
    }

    /// Reads a stored value.
    public static func parse(_ stored: Data) -> Stored {
        guard let first = stored.first else { return .unmarked(stored) }
        switch first {
        case inlineMarker:
            return .inline(Data(stored.dropFirst()))
        case externalMarker:
            // The name, up to a NUL (Core Data writes one) or the end, surrounding blanks ignored.
            let bytes = stored.dropFirst().prefix { $0 != 0 }
            let name = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .external(fileName: name)
        default:
            return .unmarked(stored)
        }
    }

    /// `0x01` followed by `bytes`.
    public static func inline(_ bytes: Data) -> Data {
        var stored = Data(capacity: bytes.count + 1)
        stored.append(inlineMarker)
        stored.append(bytes)
        return stored
    }

    /// `0x02` followed by the file name's ASCII and a NUL, as Core Data writes it.
    public static func reference(toFile name: String) -> Data {
        var stored = Data([externalMarker])
        stored.append(contentsOf: Array(name.utf8))
        stored.append(0)
        return stored
    }

    /// The external-data folder of the store file at `path`: `.<name without extension>_SUPPORT/_EXTERNAL_DATA`
    /// beside it; `nil` for an in-memory store (`""` or `":memory:"`).
    public static func directory(forStoreAt path: String) -> URL? {
        guard !path.isEmpty, path != ":memory:" else { return nil }
        let store = URL(fileURLWithPath: path)
        let name = store.deletingPathExtension().lastPathComponent
        return store.deletingLastPathComponent()
            .appendingPathComponent("." + name + "_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// Whether `name` can name a file of the folder: letters, digits, `-`, `_` and `.` (not leading), so a
    /// store's bytes can never point outside the folder.
    public static func isValidFileName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, name.first != "." else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }

    /// The file of an external reference, or `nil` when the name is not a valid file name or there is no folder.
    public static func file(named name: String, in directory: URL?) -> URL? {
        guard let directory, isValidFileName(name) else { return nil }
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// The bytes a stored value stands for: the inline bytes, the file's contents, or the unmarked bytes; `nil`
    /// when the file is missing or unreadable (or the name is invalid).
    public static func value(of stored: Data, directory: URL?) -> Data? {
        switch parse(stored) {
        case .inline(let bytes), .unmarked(let bytes):
            return bytes
        case .external(let name):
            guard let file = file(named: name, in: directory) else { return nil }
            return try? Data(contentsOf: file)
        }
    }

    /// The name of the file a stored value refers to, if it is a reference.
    public static func referencedFile(in stored: Data) -> String? {
        if case .external(let name) = parse(stored), isValidFileName(name) { return name }
        return nil
    }

    /// Writes `bytes` to a new file of `directory` (created when missing) atomically: a temporary file in the same
    /// folder, flushed, then renamed. Returns the file's name (a new UUID string).
    public static func writeFile(_ bytes: Data, in directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let temporary = directory.appendingPathComponent(".tmp-" + name, isDirectory: false)
        let target = directory.appendingPathComponent(name, isDirectory: false)
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            try FileManager.default.moveItem(at: temporary, to: target)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return name
    }

    /// Removes the files `names` of `directory`, ignoring those already gone.
    public static func removeFiles(_ names: some Sequence<String>, in directory: URL?) {
        for name in names {
            guard let file = file(named: name, in: directory) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }
}
