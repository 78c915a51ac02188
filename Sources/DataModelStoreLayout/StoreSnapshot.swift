/// What a store on disk holds, as far as telling its model version goes: its tables' columns, its
/// `Z_PRIMARYKEY` entity rows, and the entity version hashes the runtime writes into its metadata (absent in stores
/// Core Data wrote). Whoever opens the store reads it (the runtime, `datamodelgen migrate`); comparing it with
/// layouts is pure.
public struct StoreSnapshot: Sendable, Hashable {
    /// One column as `PRAGMA table_info` reports it.
    public struct Column: Sendable, Hashable {
        /// The column name.
        public var name: String
        /// The declared type, as written in `CREATE TABLE`.
        public var declaredType: String

        /// Creates a column.
        public init(name: String, declaredType: String) {
            self.name = name
            self.declaredType = declaredType
        }
    }

    /// One `Z_PRIMARYKEY` row.
    public struct EntityRow: Sendable, Hashable {
        /// `Z_ENT`.
        public var number: Int
        /// `Z_NAME`.
        public var name: String
        /// `Z_SUPER`.
        public var superentityNumber: Int

        /// Creates a row.
        public init(number: Int, name: String, superentityNumber: Int) {
            self.number = number
            self.name = name
            self.superentityNumber = superentityNumber
        }
    }

    /// The columns of every table, by table name.
    public var tables: [String: [Column]]
    /// `Z_PRIMARYKEY`'s rows, by entity number.
    public var entityRows: [EntityRow]
    /// The entity version hashes the runtime recorded when it created or migrated the store, or nil.
    public var versionHashes: [String: String]?
    /// The names of the store's indexes (nil when they were not read). They do not decide the version
    /// (``differences(from:)``); ``StoreLayout/attributeIndexRepair(existing:droppingStale:dialect:)`` compares them.
    public var indexNames: Set<String>?

    /// Creates a snapshot.
    public init(
        tables: [String: [Column]], entityRows: [EntityRow], versionHashes: [String: String]?,
        indexNames: Set<String>? = nil
    ) {
        self.tables = tables
        self.entityRows = entityRows
        self.versionHashes = versionHashes
        self.indexNames = indexNames
    }

    /// How the store differs from `layout`, one line each; empty when a store of the layout's model can use it.
    ///
    /// Columns are read and written by name: every column of the layout must exist with the same type affinity;
    /// column order, the spelling of the declared type, extra columns and indexes (another Core Data version's
    /// leftovers) do not matter. The layout's entity rows must all be in `Z_PRIMARYKEY`, numbered as laid out;
    /// rows of entities outside the model (Core Data's persistent history, numbered from 16001) may follow.
    public func differences(from layout: StoreLayout) -> [String] {
        var differences: [String] = []
        for table in layout.tables {
            guard let found = tables[table.name], !found.isEmpty else {
                differences.append("table \(table.name) is missing")
                continue
            }
            var affinity: [String: String] = [:]
            affinity.reserveCapacity(found.count)
            for column in found { affinity[column.name] = Self.affinity(column.declaredType) }
            if table.columns.contains(where: { affinity[$0.name] != Self.affinity($0.type.rawValue) }) {
                differences.append(
                    "table \(table.name) has columns ("
                        + found.map { "\($0.name) \($0.declaredType)" }
                        .joined(separator: ", ") + "), the model expects ("
                        + table.columns.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", ") + ")")
            }
        }
        guard differences.isEmpty else { return differences }
        return entityRowDifferences(from: layout)
    }

    /// How `Z_PRIMARYKEY`'s rows differ from `layout`'s (the second half of ``differences(from:)``; a PostgreSQL
    /// store compares its columns' types its own way).
    public func entityRowDifferences(from layout: StoreLayout) -> [String] {
        var differences: [String] = []
        let expected = layout.primaryKeyRows.map { "\($0.entityNumber)|\($0.name)|\($0.superentityNumber)" }
        let modelNumbers = Set(layout.primaryKeyRows.map(\.entityNumber))
        let all = entityRows.sorted { $0.number < $1.number }
        let found = all.filter { modelNumbers.contains($0.number) || $0.number < 16_000 }
            .map { "\($0.number)|\($0.name)|\($0.superentityNumber)" }
        if found != expected {
            differences.append(
                "Z_PRIMARYKEY has entities ["
                    + all.map { "\($0.number)|\($0.name)|\($0.superentityNumber)" }
                    .joined(separator: ", ") + "], the model expects [" + expected.joined(separator: ", ") + "]")
        }
        return differences
    }

    /// Which of `versions` (oldest first) wrote the store: the one whose version hashes the store recorded (when
    /// the store has its layout too; otherwise none); for a store without recorded hashes (Core Data wrote it), the
    /// newest whose layout the store has. Nil when none matches, and for recorded hashes that are none of `versions`'.
    public func recognizedVersion(among versions: [LayoutModel]) throws(StoreLayoutError) -> Int? {
        var cache = LayoutCache(versions: versions)
        return try recognizedVersion(among: versions, layouts: &cache)
    }

    /// ``recognizedVersion(among:)`` with the versions' layouts computed at most once, shared with the caller (which
    /// may have some already, and needs them again for the plan).
    public func recognizedVersion(among versions: [LayoutModel], layouts: inout LayoutCache) throws(StoreLayoutError)
        -> Int?
    {
        if let versionHashes, !versionHashes.isEmpty {
            for index in versions.indices.reversed() where layouts.hashes(index) == versionHashes {
                return differences(from: try layouts.layout(index)).isEmpty ? index : nil
            }
            // A version none of these is (a newer one, or the model changed without a new version): its tables may
            // hold everything an older version reads, but the older version must not take the store for its own
            // (Core Data refuses an incompatible model too).
            return nil
        }
        for index in versions.indices.reversed() where differences(from: try layouts.layout(index)).isEmpty {
            return index
        }
        return nil
    }

    /// Why the store is not of the version whose layout is `layout` and whose entity version hashes are `hashes`, one
    /// line each: ``differences(from:)``, and how the recorded hashes differ when the store has some.
    public func mismatch(with layout: StoreLayout, hashes: [String: String]) -> [String] {
        var lines = differences(from: layout)
        if let versionHashes, !versionHashes.isEmpty, versionHashes != hashes {
            lines += Self.versionHashDifferences(recorded: versionHashes, expected: hashes)
        }
        return lines
    }

    /// How a store's `recorded` entity version hashes differ from a model version's `expected` ones, one line per
    /// entity, and a last line saying what that means.
    public static func versionHashDifferences(recorded: [String: String], expected: [String: String]) -> [String] {
        var lines: [String] = []
        for name in Set(recorded.keys).union(expected.keys).sorted() where recorded[name] != expected[name] {
            switch (recorded[name], expected[name]) {
            case (nil, _): lines.append("entity \(name) is not in the store")
            case (_, nil): lines.append("the store has entity \(name), which the model lacks")
            default: lines.append("entity \(name) differs")
            }
        }
        lines.append(
            "the store was written by a version of the model that is neither this one nor one of its earlier versions "
                + "(a newer version, or the model was changed without adding a version)")
        return lines
    }

    /// SQLite's type affinity of a declared column type (section 3.1 of its datatype rules).
    public static func affinity(_ declared: String) -> String {
        // ASCII bytes, case folded as they are read: no uppercased copy, no generic substring search (this runs for
        // every column each time a store is opened).
        var type = declared
        return type.withUTF8 { bytes -> String in
            func contains(_ pattern: StaticString) -> Bool {
                let count = pattern.utf8CodeUnitCount
                guard bytes.count >= count else { return false }
                let needle = pattern.utf8Start
                for start in 0...(bytes.count - count) {
                    var index = 0
                    while index < count {
                        var byte = bytes[start + index]
                        if byte >= 0x61 && byte <= 0x7A { byte -= 0x20 }
                        if byte != needle[index] { break }
                        index += 1
                    }
                    if index == count { return true }
                }
                return false
            }
            if contains("INT") { return "INTEGER" }
            if contains("CHAR") || contains("CLOB") || contains("TEXT") { return "TEXT" }
            if bytes.isEmpty || contains("BLOB") { return "BLOB" }
            if contains("REAL") || contains("FLOA") || contains("DOUB") { return "REAL" }
            return "NUMERIC"
        }
    }
}

/// The store layouts of a list of model versions, each computed the first time it is asked for.
public struct LayoutCache: Sendable {
    private let versions: [LayoutModel]
    private var layouts: [Int: StoreLayout]
    private var versionHashes: [Int: [String: String]]

    /// A cache of `versions`' layouts and version hashes, starting with those `known` (by version index).
    public init(
        versions: [LayoutModel], known: [Int: StoreLayout] = [:], knownHashes: [Int: [String: String]] = [:]
    ) {
        self.versions = versions
        self.layouts = known
        self.versionHashes = knownHashes
    }

    /// The version hashes of version `index` (``LayoutModel/versionHashes``).
    public mutating func hashes(_ index: Int) -> [String: String] {
        if let hashes = versionHashes[index] { return hashes }
        let hashes = versions[index].versionHashes
        versionHashes[index] = hashes
        return hashes
    }

    /// The layout of version `index`.
    public mutating func layout(_ index: Int) throws(StoreLayoutError) -> StoreLayout {
        if let layout = layouts[index] { return layout }
        let layout = try StoreLayout(model: versions[index])
        layouts[index] = layout
        return layout
    }
}

extension LayoutModel {
    /// A version hash per entity: 16 hex digits of a 64-bit FNV-1a hash over what decides how the entity is stored
    /// (name, parent, abstract, and each own property's name, type or destination, and flags), the same on every
    /// platform. Stored in a store's metadata, it tells which model version wrote the store.
    public var versionHashes: [String: String] {
        // The bytes hashed are the lines below; they are fed to the hash as they are made, not built into a text.
        var hashes: [String: String] = [:]
        for entity in entities {
            var hash = FNV1a()
            hash.add("entity ")
            hash.add(entity.name)
            hash.add(" parent ")
            hash.add(entity.parentName ?? "")
            hash.add(" abstract ")
            hash.add(entity.isAbstract)
            hash.add("\n")
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
                hash.add("attribute ")
                hash.add(attribute.name)
                hash.add(" ")
                hash.add(attribute.type.rawValue)
                hash.add(" transient ")
                hash.add(attribute.isTransient)
                hash.add(" optional ")
                hash.add(attribute.isOptional)
                // Appended only when set, so the hashes of models without it stay as they were.
                if attribute.allowsExternalBinaryDataStorage { hash.add(" external") }
                hash.add("\n")
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                hash.add("relationship ")
                hash.add(relationship.name)
                hash.add(" ")
                hash.add(relationship.destinationName)
                hash.add(" inverse ")
                hash.add(relationship.inverseName ?? "")
                hash.add(" toMany ")
                hash.add(relationship.isToMany)
                hash.add(" ordered ")
                hash.add(relationship.isOrdered)
                hash.add(" transient ")
                hash.add(relationship.isTransient)
                hash.add("\n")
            }
            for constraint in entity.uniquenessConstraints {
                hash.add("unique ")
                hash.add(constraint.joined(separator: ","))
                hash.add("\n")
            }
            for index in entity.fetchIndexes {
                hash.add("index ")
                hash.add(index.name)
                hash.add(" ")
                for (offset, element) in index.elements.enumerated() {
                    if offset > 0 { hash.add(",") }
                    hash.add(element.property)
                    hash.add(" ")
                    hash.add(element.isAscending)
                }
                hash.add("\n")
            }
            let digits = String(hash.value, radix: 16)
            hashes[entity.name] = String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hashes
    }
}

/// 64-bit FNV-1a over UTF-8 text, Booleans as `true` / `false`.
private struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ flag: Bool) { add(flag ? "true" : "false") }

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }
}
