import Foundation

/// The identity of a managed object's row: which store, which entity, which primary key.
///
/// Sendable: hand it to another context and ask for the object there with
/// ``ManagedObjectContext/existingObject(with:)``. Objects get their permanent ID when they
/// are inserted; it does not change when they are saved.
public struct ObjectID: Hashable, Sendable, Codable, CustomStringConvertible {
    // Stored as 32-bit numbers, so an ID takes 16 bytes, not 24: every object, every to-one
    // value and every element of a to-many list holds one.
    private let store: Int32
    private let entity: Int32
    /// `Z_PK`: the row's primary key.
    public let primaryKey: Int64

    /// The store the object belongs to (one per ``PersistentContainer``).
    var storeNumber: Int { Int(store) }
    /// `Z_ENT`: the object's entity number.
    public var entityNumber: Int { Int(entity) }
    /// Core Data's `isTemporaryID`: always `false`, an object's ID is permanent from its insertion on (an
    /// inserted object has its primary key, not yet its row).
    public var isTemporaryID: Bool { false }
    /// The entity name (looked up: an ID is three integers, cheap to copy and to drop).
    public var entityName: String { EntityNames.name(store: storeNumber, entity: entityNumber) }

    /// Store and entity numbers are small: stores are counted per process, entities per
    /// model, and callers check an entity number against the model first. One that does not
    /// fit 32 bits becomes -1, which names no entity.
    init(storeNumber: Int, entityNumber: Int, primaryKey: Int64) {
        self.store = Int32(exactly: storeNumber) ?? -1
        self.entity = Int32(exactly: entityNumber) ?? -1
        self.primaryKey = primaryKey
    }

    /// Equal when store, entity and primary key are.
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entity == rhs.entity && lhs.store == rhs.store
    }

    /// Hashes store, entity and primary key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(entity)
        hasher.combine(store)
    }

    private enum CodingKeys: String, CodingKey {
        case storeNumber, entityNumber, primaryKey
    }

    /// Decodes the three numbers; a store or entity number outside 32 bits is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        store = try container.decode(Int32.self, forKey: .storeNumber)
        entity = try container.decode(Int32.self, forKey: .entityNumber)
        primaryKey = try container.decode(Int64.self, forKey: .primaryKey)
    }

    /// Encodes `storeNumber`, `entityNumber` and `primaryKey`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .storeNumber)
        try container.encode(entity, forKey: .entityNumber)
        try container.encode(primaryKey, forKey: .primaryKey)
    }

    /// `x-datamodel://<store>/<Entity>/p<pk>`, Core Data's URI shape.
    public var description: String {
        "x-datamodel://\(storeNumber)/\(entityName)/p\(primaryKey)"
    }
}

/// The entity names of every open store, by store number, for ``ObjectID/entityName``.
enum EntityNames {
    private static let table = NameTable()

    static func register(_ entityNames: [String], store: Int) {
        table.register(entityNames, store: store)
    }

    static func name(store: Int, entity: Int) -> String {
        table.name(store: store, entity: entity)
    }

    /// Guarded by a pthread-based lock, which the thread sanitizer understands.
    private final class NameTable: @unchecked Sendable {  // safe: `names` is only touched under `lock`
        private let lock = NSLock()
        private var names: [Int: [String]] = [:]

        func register(_ entityNames: [String], store: Int) {
            lock.lock()
            defer { lock.unlock() }
            names[store] = entityNames
        }

        func name(store: Int, entity: Int) -> String {
            lock.lock()
            defer { lock.unlock() }
            guard let list = names[store], list.indices.contains(entity - 1) else { return "Entity\(entity)" }
            return list[entity - 1]
        }
    }
}
