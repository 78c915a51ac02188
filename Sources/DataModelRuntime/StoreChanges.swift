import Foundation
import Synchronization

/// What one save or batch request changed in the store, by object ID.
///
/// Contexts whose ``ManagedObjectContext/automaticallyMergesChangesFromParent`` is set receive
/// the changes of every other context's save on the same store; any context can merge changes
/// by hand with ``ManagedObjectContext/mergeChanges(_:)`` (the IDs of a batch request's
/// ``BatchResult``, for example).
public struct StoreChanges: Sendable, Hashable {
    /// Rows that were inserted.
    public var inserted: Set<ObjectID>
    /// Rows whose values or relationships changed.
    public var updated: Set<ObjectID>
    /// Rows that were deleted.
    public var deleted: Set<ObjectID>

    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Where the store coordinator leaves other contexts' changes for a merging context, which
/// takes them in its own isolation domain: at its next fetch, count, save, `existingObject`,
/// or property access.
final class ChangeInbox: @unchecked Sendable {  // safe: `pending` is only touched under `lock`
    /// A pthread-based lock (which the thread sanitizer understands) around the list.
    private let lock = NSLock()
    private var pending: [StoreChanges] = []
    private let flag = Atomic<Bool>(false)

    /// Whether changes wait (a cheap check, made on every property access).
    var hasPending: Bool { flag.load(ordering: .acquiring) }

    func post(_ changes: StoreChanges) {
        lock.lock()
        defer { lock.unlock() }
        pending.append(changes)
        flag.store(true, ordering: .releasing)
    }

    /// The waiting changes, oldest first; the inbox is empty afterwards.
    func take() -> [StoreChanges] {
        lock.lock()
        defer { lock.unlock() }
        let taken = pending
        pending.removeAll()
        flag.store(false, ordering: .releasing)
        return taken
    }
}

/// How ``ManagedObjectContext/save()`` resolves conflicts with changes other contexts saved
/// since an object was read (detected with `Z_OPT`, the row's version).
///
/// The names and meanings are Core Data's merge policies. In every policy but ``error``, a row
/// another context deleted stays deleted: the object leaves the context and its unsaved changes
/// are dropped.
public enum MergePolicy: Sendable, Hashable, CaseIterable {
    /// The save fails with a ``MergeConflict`` naming every conflicting object and property;
    /// nothing is written. The default.
    case error
    /// Property by property: what this context changed wins; every other property takes the
    /// store's value.
    case mergeByPropertyObjectTrump
    /// Property by property: what the other context changed wins; properties only this
    /// context changed keep its values.
    case mergeByPropertyStoreTrump
    /// This context's version of each conflicting object replaces the store's entirely.
    case overwrite
    /// The store's version wins: this context's changes to conflicting objects are discarded
    /// (a conflicting deletion is undone) and the objects take the store's values.
    case rollback
}

/// ``MergePolicy/error`` by Core Data's name: with the four below, `context.mergePolicy =
/// NSMergeByPropertyObjectTrumpMergePolicy` and its siblings compile as they are.
public let NSErrorMergePolicy = MergePolicy.error
/// ``MergePolicy/mergeByPropertyObjectTrump`` by Core Data's name.
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// ``MergePolicy/mergeByPropertyStoreTrump`` by Core Data's name.
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// ``MergePolicy/overwrite`` by Core Data's name.
public let NSOverwriteMergePolicy = MergePolicy.overwrite
/// ``MergePolicy/rollback`` by Core Data's name.
public let NSRollbackMergePolicy = MergePolicy.rollback

/// Why a save was refused: objects this context changed were changed or deleted by another
/// context since they were read, and the context's ``ManagedObjectContext/mergePolicy`` is
/// ``MergePolicy/error``. Nothing was written; the context keeps its changes.
public struct MergeConflict: Error, Sendable, CustomStringConvertible {
    /// One object in conflict.
    public struct Conflict: Sendable, Hashable, CustomStringConvertible {
        /// The object.
        public let objectID: ObjectID
        /// Its entity name.
        public let entityName: String
        /// Properties this context changed (or every stored property, for a deletion).
        public let changedProperties: [String]
        /// Properties whose stored values changed since the object was read (empty when the
        /// row was deleted).
        public let storeChangedProperties: [String]
        /// `Z_OPT` when the object was read.
        public let oldVersion: Int64
        /// `Z_OPT` in the store now; `nil` when another context deleted the row.
        public let newVersion: Int64?

        /// Whether another context deleted the row.
        public var isDeletedInStore: Bool { newVersion == nil }

        /// Every property named by either side, sorted.
        public var properties: [String] { Set(changedProperties + storeChangedProperties).sorted() }

        public var description: String {
            let store =
                newVersion.map { version in
                    "store version \(version) changed [" + storeChangedProperties.joined(separator: ", ") + "]"
                } ?? "deleted in the store"
            return "\(entityName) \(objectID): version \(oldVersion), changed ["
                + changedProperties.joined(separator: ", ") + "]; " + store
        }
    }

    /// Every conflicting object, in the order the save met them.
    public let conflicts: [Conflict]

    /// All conflicts, one per line.
    public var description: String {
        "merge conflict (\(conflicts.count) object\(conflicts.count == 1 ? "" : "s")):\n"
            + conflicts.map { "  " + $0.description }.joined(separator: "\n")
    }
}
