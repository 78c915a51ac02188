import Foundation

/// The identity of a managed object's row: which store, which entity, which primary key.
///
/// Sendable: hand it to another context and ask for the object there with
/// ``ManagedObjectContext/existingObject(with:)``. Objects get their permanent ID when they
/// are inserted; it does not change when they are saved.
public struct ObjectID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The store the object belongs to (one per ``PersistentContainer``).
    let storeNumber: Int
    /// `Z_ENT`: the object's entity number.
    public let entityNumber: Int
    /// `Z_PK`: the row's primary key.
    public let primaryKey: Int64
    /// The entity name (looked up: an ID is three integers, cheap to copy and to drop).
    public var entityName: String { EntityNames.name(store: storeNumber, entity: entityNumber) }

    init(storeNumber: Int, entityNumber: Int, primaryKey: Int64) {
        self.storeNumber = storeNumber
        self.entityNumber = entityNumber
        self.primaryKey = primaryKey
    }

    /// Equal when store, entity and primary key are.
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entityNumber == rhs.entityNumber && lhs.storeNumber == rhs.storeNumber
    }

    /// Hashes store, entity and primary key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(entityNumber)
        hasher.combine(storeNumber)
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
