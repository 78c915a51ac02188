import DataModelStore
import Foundation
import SQLiteKit

/// A store's Binary attributes with external storage, as Core Data keeps them (``ExternalBinaryData``): how
/// their columns are read and written, and the store's external-data folder.
///
/// Reading is transparent: a row's value is decoded when the row is read (fetch, fault, prefetch, to-many load,
/// conflict snapshot), so objects, `value(forKey:)`, snapshots and in-memory predicates only ever see the bytes.
/// A reference to a file that is missing or unreadable reads as `nil` (the attribute has no value; nothing
/// crashes); ``PersistentContainer/missingExternalDataFiles()`` lists such references.
///
/// Writing (at save): values up to ``threshold`` bytes, and every value of an in-memory store, go into the column
/// behind the `0x01` marker; larger ones into a new file (temporary file + rename, before the SQLite commit)
/// referenced by `0x02` and its name. A save that fails removes the files it wrote; the files of values a save
/// replaced or deleted are removed after its commit.
struct ExternalDataFiles: Sendable {
    /// The store's external-data folder; `nil` for an in-memory store.
    let directory: URL?
    /// Values of more bytes than this go to a file.
    let threshold: Int

    /// `needed`: whether the model has such attributes (working out the folder's URL costs more than the rest
    /// of a store's open, so a model without them never does).
    init(storePath: String, threshold: Int = ExternalBinaryData.defaultThreshold, needed: Bool = true) {
        directory = needed ? ExternalBinaryData.directory(forStoreAt: storePath) : nil
        self.threshold = threshold
    }

    /// Column `index` of the current row of `statement`, decoded.
    func read<Row: StoreRow>(_ statement: Row, at index: Int32) -> PrimitiveValue {
        guard let stored = statement.data(at: index) else {
            // A text value (a store edited by hand) reads as its bytes.
            return statement.string(at: index).map { .blob(Data($0.utf8)) } ?? .null
        }
        return decode(stored)
    }

    /// The value a stored form stands for; `.null` when its file is missing.
    func decode(_ stored: Data) -> PrimitiveValue {
        ExternalBinaryData.value(of: stored, directory: directory).map { .blob($0) } ?? .null
    }

    /// Whether a value of `count` bytes goes to a file.
    func writesFile(forCount count: Int) -> Bool { directory != nil && count > threshold }

    /// The stored form of a value that stays in the column.
    func inlineForm(_ value: PrimitiveValue) -> PrimitiveValue {
        switch value {
        case .blob(let data): .blob(ExternalBinaryData.inline(data))
        case .text(let text): .blob(ExternalBinaryData.inline(Data(text.utf8)))
        case .null, .integer, .real: value
        }
    }
}

/// The files one save (one attempt of it) writes and makes obsolete.
final class ExternalDataWrites {
    let files: ExternalDataFiles
    /// The stored form (`0x02` + name) of each value written to a file, by object and attribute index.
    private var references: [ObjectIdentifier: [Int: Data]] = [:]
    /// Files written by this attempt: removed when it fails.
    private(set) var written: [String] = []
    /// Files of values replaced or deleted: removed after the commit.
    private(set) var obsolete: [String] = []

    init(files: ExternalDataFiles) {
        self.files = files
    }

    /// Writes the large values of `objects` (inserted, or changed since their snapshot) to files.
    func writeLargeValues(of objects: [ManagedObject]) throws(StoreError) {
        for object in objects {
            let entity = object.entityRuntime
            guard !entity.externalAttributes.isEmpty else { continue }
            for (index, _) in entity.externalAttributes {
                guard object.values.attributeIndices.contains(index),
                    case .blob(let data) = object.values[attribute: index], files.writesFile(forCount: data.count)
                else { continue }
                // An update writes only its changed columns (when it can tell them: see `writeUpdates`).
                if !object.isInserted, entity.updateColumns.count <= 64, let snapshot = object.snapshot,
                    snapshot.attributeIndices.contains(index),
                    snapshot[attribute: index] == object.values[attribute: index]
                {
                    continue
                }
                guard let directory = files.directory else { continue }
                do {
                    let name = try ExternalBinaryData.writeFile(data, in: directory)
                    written.append(name)
                    references[ObjectIdentifier(object), default: [:]][index] = ExternalBinaryData.reference(
                        toFile: name)
                } catch {
                    throw .externalDataFailed(path: directory.path, reason: "\(error)")
                }
            }
        }
    }

    /// The stored form of `object`'s attribute `index`: its file reference, or the value behind the inline marker.
    func storedForm(of object: ManagedObject, attribute index: Int) -> PrimitiveValue {
        if let reference = references[ObjectIdentifier(object)]?[index] { return .blob(reference) }
        return files.inlineForm(object.values[attribute: index])
    }

    /// Records the files referenced by the stored row `primaryKey` of `entity` in the columns `attributes` (all
    /// external ones when `nil`): the row is about to be updated or deleted.
    func recordReplaced(
        _ entity: EntityRuntime, primaryKey: Int64, attributes: Set<Int>?, database: StoreConnection
    ) throws(StoreError) {
        guard let sql = entity.selectExternalColumnsSQL else { return }
        let statement = try database.cachedStatement(sql)
        defer { statement.resetIgnoringErrors() }
        try statement.bind(primaryKey, at: 1)
        guard try statement.step() == .row else { return }
        for (offset, attribute) in entity.externalAttributes.enumerated()
        where attributes?.contains(attribute.index) ?? true {
            if let stored = statement.data(at: Int32(offset)), let name = ExternalBinaryData.referencedFile(in: stored)
            {
                obsolete.append(name)
            }
        }
    }

    /// The attempt failed (rolled back): its files go.
    func discardWritten() {
        ExternalBinaryData.removeFiles(written, in: files.directory)
        written = []
        references = [:]
        obsolete = []
    }

    /// The save committed: the files of replaced and deleted values go.
    func removeObsolete() {
        ExternalBinaryData.removeFiles(obsolete, in: files.directory)
        obsolete = []
    }
}
