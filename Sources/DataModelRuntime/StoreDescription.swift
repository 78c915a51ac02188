import Foundation

/// Where a container keeps its objects.
public enum StoreDescription: Sendable, Hashable {
    /// A private in-memory SQLite database, gone with the container.
    case inMemory
    /// An SQLite file in Core Data's layout, created with the schema on first open.
    case sqlite(at: URL)
    /// A PostgreSQL database, through libpq: `url` is a `postgresql://` URL as libpq takes it (host or socket
    /// directory, port, database, user, `sslmode` …). The same tables as the SQLite layout, with PostgreSQL's types
    /// (`datamodelgen schema --dialect postgres`), created on first open when the database (its `search_path`'s
    /// first schema) has none. See "Running on PostgreSQL" in the README.
    case postgres(url: URL)
}

/// How a ``PersistentContainer`` opens its store, as Core Data's `NSPersistentStoreDescription`: its type, its
/// file, and whether an earlier model version's store is migrated.
///
/// ```swift
/// let container = PersistentContainer(name: "Company")
/// container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Company.sqlite"))]
/// // or, for tests: container.persistentStoreDescriptions.first?.type = .inMemory
/// try container.loadPersistentStores()
/// ```
///
/// A reference type, as Core Data's: `container.persistentStoreDescriptions.first?.url = …` changes the container's.
public final class PersistentStoreDescription: CustomStringConvertible {
    /// A kind of store: an open set of names, as Core Data's store types, so that other kinds can join.
    public struct StoreType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The type's name (`SQLite`, `InMemory`, as Core Data's store type names).
        public let rawValue: String
        /// Creates a store type from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// An SQLite file at ``PersistentStoreDescription/url`` in Core Data's layout.
        public static let sqlite = StoreType(rawValue: "SQLite")
        /// A private in-memory SQLite database, gone with the container (Core Data's `NSInMemoryStoreType`).
        public static let inMemory = StoreType(rawValue: "InMemory")
        /// A PostgreSQL database at ``PersistentStoreDescription/url`` (a `postgresql://` URL).
        public static let postgres = StoreType(rawValue: "PostgreSQL")
        public var description: String { rawValue }
    }

    /// The kind of store; ``StoreType/sqlite`` by default.
    public var type: StoreType
    /// The store file (of an SQLite store). `/dev/null`, Core Data's way of asking for a store that is never
    /// written, opens an in-memory store; a `postgresql://` URL opens that PostgreSQL database.
    public var url: URL?
    /// Whether a store an earlier model version wrote is migrated when it is opened (`true`, as in Core Data).
    public var shouldMigrateStoreAutomatically = true
    /// Whether the migration is inferred from the two versions (`true`, as in Core Data). The runtime migrates only
    /// what it can infer (it reads no mapping models): with `false`, such a store is refused with
    /// ``StoreError/migrationRequired(path:from:to:)``.
    public var shouldInferMappingModelAutomatically = true
    /// The most connections a PostgreSQL store opens for background contexts (``PersistentContainer/newBackgroundContext()``,
    /// ``PersistentContainer/performBackgroundTask(_:)``), besides the view context's: opened as needed and handed out
    /// in turn, so a container holds at most `connectionPoolMaxSize + 1` server sessions. `0`: background contexts
    /// share the view context's connection. Core Data's counterpart is the `NSPersistentStoreConnectionPoolMaxSizeKey`
    /// option; SQLite and in-memory stores have one connection and ignore it.
    public var connectionPoolMaxSize = PersistentStoreDescription.defaultConnectionPoolMaxSize
    /// 4: the pool size unless a description sets another.
    public static let defaultConnectionPoolMaxSize = 4

    /// A description of the SQLite store at `url`.
    public init(url: URL) {
        type = .sqlite
        self.url = url
    }

    /// A description of an SQLite store whose file is set later (``url``), or of another type (``type``).
    public init() {
        type = .sqlite
        url = nil
    }

    /// The description of `store`.
    public convenience init(_ store: StoreDescription) {
        switch store {
        case .inMemory:
            self.init()
            type = .inMemory
        case .sqlite(let url):
            self.init(url: url)
        case .postgres(let url):
            self.init(url: url)
            type = .postgres
        }
    }

    /// The store it describes, or ``StoreError/unsupportedStore(_:)`` for a type the runtime does not have or an
    /// SQLite store without a file.
    public func storeDescription() throws(StoreError) -> StoreDescription {
        switch type {
        case .inMemory:
            return .inMemory
        case .sqlite:
            guard let url else { throw .unsupportedStore("an SQLite store description without a url") }
            // A `postgresql://` URL names a PostgreSQL database, whatever the type says: Core Data code that sets
            // `persistentStoreDescriptions.first?.url` runs on PostgreSQL by that line alone.
            if let scheme = url.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" {
                return .postgres(url: url)
            }
            return url.path == "/dev/null" ? .inMemory : .sqlite(at: url)
        case .postgres:
            guard let url else { throw .unsupportedStore("a PostgreSQL store description without a url") }
            return .postgres(url: url)
        default:
            throw .unsupportedStore("store type '\(type.rawValue)' (the runtime has SQLite, InMemory and PostgreSQL)")
        }
    }

    public var description: String {
        "<PersistentStoreDescription type: \(type)\(url.map { ", url: \($0.path)" } ?? "")>"
    }
}

/// Core Data's name of the SQLite store type (`description.type = NSSQLiteStoreType`).
public let NSSQLiteStoreType = PersistentStoreDescription.StoreType.sqlite
/// Core Data's name of the in-memory store type (`description.type = NSInMemoryStoreType`).
public let NSInMemoryStoreType = PersistentStoreDescription.StoreType.inMemory
