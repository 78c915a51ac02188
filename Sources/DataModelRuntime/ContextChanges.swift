import Foundation
import Synchronization

/// What one event changed in a context's objects, by object ID: a save, a merge of other contexts' changes
/// (``ManagedObjectContext/mergeChanges(_:)``, ``ManagedObjectContext/automaticallyMergesChangesFromParent``,
/// a batch request), a ``ManagedObjectContext/rollback()`` or a ``ManagedObjectContext/reset()``.
///
/// A context reports one change set per event to every observer: ``ManagedObjectContext/changes`` (an
/// `AsyncSequence`), `NotificationCenter` notifications when ``ManagedObjectContext/postsChangeNotifications``
/// is on, and the ``FetchedResultsController``s over it. Object IDs cross isolation domains; objects do not, so
/// a change set names IDs only (``ManagedObjectContext/object(with:)`` gives the object in the context's domain).
public struct ContextChanges: Sendable, Hashable, CustomStringConvertible {
    /// The event that changed the objects.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        /// ``ManagedObjectContext/save()`` wrote the context's changes to the store.
        case save
        /// The context merged changes other contexts (or a batch request) saved.
        case merge
        /// ``ManagedObjectContext/rollback()`` discarded unsaved changes.
        case rollback
        /// ``ManagedObjectContext/reset()`` forgot every object.
        case reset
        /// A child context (``ManagedObjectContext/init(parent:)``) saved into this context: the changes are this
        /// context's unsaved changes now. (The child reports its own ``save``.)
        case childSave
    }

    /// What happened.
    public var event: Event
    /// Objects that were inserted: saved insertions; rows other contexts inserted (merge); deletions a rollback
    /// undid (the objects are back).
    public var inserted: Set<ObjectID>
    /// Objects whose values or relationships changed: saved updates; rows other contexts updated (merge);
    /// updates a rollback undid (the objects have their saved values again).
    public var updated: Set<ObjectID>
    /// Objects that left: saved deletions; rows other contexts deleted (merge); insertions a rollback undid.
    public var deleted: Set<ObjectID>
    /// Objects whose values were read again from the store without being changed by this context. No event fills
    /// it yet (``ManagedObjectContext/refresh(_:mergeChanges:)`` reports nothing); it is here for Core Data's
    /// `refreshedObjects` key.
    public var refreshed: Set<ObjectID>
    /// Whether every object the context held became invalid (``ManagedObjectContext/reset()``): observers must
    /// fetch again.
    public var invalidatedAllObjects: Bool

    public init(
        event: Event, inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [],
        refreshed: Set<ObjectID> = [], invalidatedAllObjects: Bool = false
    ) {
        self.event = event
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidatedAllObjects = invalidatedAllObjects
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && !invalidatedAllObjects
    }

    /// Every ID the change set names.
    public var allObjectIDs: Set<ObjectID> { inserted.union(updated).union(deleted).union(refreshed) }

    public var description: String {
        "\(event): \(inserted.count) inserted, \(updated.count) updated, \(deleted.count) deleted, "
            + "\(refreshed.count) refreshed" + (invalidatedAllObjects ? ", all objects invalidated" : "")
    }

    /// The change set a notification carries (``ManagedObjectContext/didChangeObjectsNotification`` and its
    /// siblings), or `nil` for another notification.
    public init?(_ notification: Notification) {
        guard let changes = notification.userInfo?[ManagedObjectContext.NotificationKey.changes] as? ContextChanges
        else { return nil }
        self = changes
    }
}

// MARK: - Observers

/// An observer a context calls synchronously, in its own isolation domain, after each event (the
/// fetched results controllers). Held weakly.
protocol ContextChangeObserver: AnyObject {
    func contextDidChange(_ changes: ContextChanges)
}

/// A context's observers: internal ones (weak), `AsyncSequence` subscribers, and whether notifications are posted.
final class ContextChangeObservers {
    private struct WeakObserver {
        weak var observer: (any ContextChangeObserver)?
    }

    private var observers: [WeakObserver] = []
    let streams = ChangeStreams<ContextChanges>()
    var postsNotifications = false

    /// Whether anyone listens: when nobody does, the context builds no change sets.
    var isActive: Bool { !observers.isEmpty || postsNotifications || streams.hasSubscribers }

    func add(_ observer: any ContextChangeObserver) {
        observers.removeAll { $0.observer == nil || $0.observer === observer }
        observers.append(WeakObserver(observer: observer))
    }

    func remove(_ observer: any ContextChangeObserver) {
        observers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    /// The live internal observers, dropping the released ones.
    func liveObservers() -> [any ContextChangeObserver] {
        observers.removeAll { $0.observer == nil }
        return observers.compactMap(\.observer)
    }
}

/// The continuations of `changes` streams (a context's, a controller's); their termination may come from any
/// thread.
final class ChangeStreams<Element: Sendable>: Sendable {
    private let state = Mutex<(next: Int, continuations: [Int: AsyncStream<Element>.Continuation])>((0, [:]))
    private let count = Atomic<Int>(0)

    var hasSubscribers: Bool { count.load(ordering: .acquiring) > 0 }

    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let key = state.withLock { state in
            let key = state.next
            state.next += 1
            state.continuations[key] = continuation
            return key
        }
        count.add(1, ordering: .releasing)
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(key) }
        return stream
    }

    private func unsubscribe(_ key: Int) {
        let removed = state.withLock { $0.continuations.removeValue(forKey: key) != nil }
        if removed { count.subtract(1, ordering: .releasing) }
    }

    func yield(_ changes: Element) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(changes) }
    }

    /// Ends every stream (the owner is going away).
    func finish() {
        let continuations = state.withLock { state in
            let values = Array(state.continuations.values)
            state.continuations.removeAll()
            return values
        }
        count.store(0, ordering: .releasing)
        for continuation in continuations { continuation.finish() }
    }

    deinit { finish() }
}

// MARK: - Public API

extension ManagedObjectContext {
    /// Posted after every event that changed the context's objects (save, merge, rollback, reset), when
    /// ``postsChangeNotifications`` is on: Core Data's `NSManagedObjectContext.didChangeObjectsNotification`.
    /// The notification's `object` is the context; its `userInfo` holds `Set<ObjectID>`s under
    /// ``NotificationKey/insertedObjects``, ``NotificationKey/updatedObjects``, ``NotificationKey/deletedObjects``,
    /// ``NotificationKey/refreshedObjects``, `true` under ``NotificationKey/invalidatedAllObjects`` after a reset,
    /// and the whole ``ContextChanges`` under ``NotificationKey/changes`` (read it with
    /// ``ContextChanges/init(_:)``).
    ///
    /// Unlike Core Data, the sets hold object IDs, not objects: objects belong to the context's isolation domain,
    /// and a notification may be observed elsewhere. The notification is posted synchronously, on the thread that
    /// runs the context's operation.
    public static let didChangeObjectsNotification = Notification.Name("ManagedObjectContextObjectsDidChange")
    /// Posted after a save wrote the context's changes (Core Data's `didSaveObjectsNotification`), with the same
    /// `userInfo` as ``didChangeObjectsNotification``, which follows it.
    public static let didSaveObjectsNotification = Notification.Name("ManagedObjectContextDidSave")
    /// Posted after the context merged changes saved elsewhere (Core Data's
    /// `didMergeChangesObjectIDsNotification`), with the same `userInfo` as ``didChangeObjectsNotification``,
    /// which follows it.
    public static let didMergeChangesObjectIDsNotification = Notification.Name(
        "ManagedObjectContextDidMergeChangesObjectIDs")

    /// The `userInfo` keys of the context's notifications (Core Data's names and raw values). The entries are there
    /// under each key and under its raw value (`"inserted"` …, the string Core Data's notifications are keyed by;
    /// ``NSInsertedObjectsKey`` and its siblings name them), except ``changes``, under its key only.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `Set<ObjectID>`: the inserted objects.
        public static let insertedObjects = NotificationKey(rawValue: "inserted")
        /// `Set<ObjectID>`: the updated objects.
        public static let updatedObjects = NotificationKey(rawValue: "updated")
        /// `Set<ObjectID>`: the deleted objects.
        public static let deletedObjects = NotificationKey(rawValue: "deleted")
        /// `Set<ObjectID>`: the refreshed objects.
        public static let refreshedObjects = NotificationKey(rawValue: "refreshed")
        /// `Bool`: every object was invalidated (a reset).
        public static let invalidatedAllObjects = NotificationKey(rawValue: "invalidatedAll")
        /// ``ContextChanges``: the whole change set.
        public static let changes = NotificationKey(rawValue: "changes")
    }

    /// The change sets of every later event of this context (save, merge, rollback, reset), as an
    /// `AsyncSequence`; each access starts a new subscription, which ends when its iteration ends or the context
    /// goes away.
    ///
    /// ```swift
    /// let changes = context.changes
    /// Task {
    ///     for await change in changes where change.event == .save { print(change.inserted.count) }
    /// }
    /// ```
    ///
    /// The sequence is `Sendable` (change sets hold object IDs only), so it can be consumed in any task; events
    /// are buffered until read.
    public var changes: AsyncStream<ContextChanges> { changeObservers.streams.subscribe() }

    /// Whether the context posts ``didChangeObjectsNotification`` (and ``didSaveObjectsNotification`` /
    /// ``didMergeChangesObjectIDsNotification``) on `NotificationCenter.default`. Off by default: building the
    /// sets of IDs costs a hash per changed object on every save, which a context nobody observes should not pay.
    public var postsChangeNotifications: Bool {
        get { changeObservers.postsNotifications }
        set { changeObservers.postsNotifications = newValue }
    }

    // MARK: Reporting (the hooks the context's operations call)

    /// Whether a change set would reach anyone.
    var reportsChanges: Bool { changeObservers.isActive }

    /// Reports one event's change set to every observer, in this order: internal observers (the controllers),
    /// `changes` subscribers, notifications.
    func reportChanges(_ changes: @autoclosure () -> ContextChanges) {
        guard changeObservers.isActive else { return }
        let changes = changes()
        guard !changes.isEmpty else { return }
        for observer in changeObservers.liveObservers() { observer.contextDidChange(changes) }
        if changeObservers.streams.hasSubscribers { changeObservers.streams.yield(changes) }
        if changeObservers.postsNotifications { postNotifications(for: changes) }
    }

    /// Reports what a save wrote.
    func reportSave(_ changes: StoreChanges) {
        reportChanges(
            ContextChanges(event: .save, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted)
        )
    }

    /// Reports what a merge brought.
    func reportMerge(_ changes: StoreChanges) {
        reportChanges(
            ContextChanges(
                event: .merge, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted))
    }

    /// What a rollback is about to undo (taken before it runs), or `nil` when nobody observes the context.
    func changesBeforeRollback() -> ContextChanges? {
        guard changeObservers.isActive else { return nil }
        var changes = ContextChanges(event: .rollback)
        for object in insertedList where object.isInserted || object.wasInsertedWhenDeleted {
            changes.deleted.insert(object.objectID)
        }
        for object in deletedList where !object.isInvalid {
            if object.wasInsertedWhenDeleted {
                changes.deleted.insert(object.objectID)
            } else if object.isDeleted {
                changes.inserted.insert(object.objectID)
            }
        }
        for object in updatedList where object.isUpdated && !object.isDeleted && !object.isInvalid {
            changes.updated.insert(object.objectID)
        }
        return changes
    }

    /// What a child's save is about to hand its parent (taken before it runs), or `nil` when nobody observes
    /// either context.
    func changesBeforePush(deleted: [ManagedObject], into parent: ManagedObjectContext) -> StoreChanges? {
        guard changeObservers.isActive || parent.changeObservers.isActive else { return nil }
        return StoreChanges(
            inserted: Set(insertedList.lazy.map(\.objectID)), updated: Set(updatedList.lazy.map(\.objectID)),
            deleted: Set(deleted.lazy.map(\.objectID)))
    }

    /// Reports a child's save: to the child as a save, to the parent as a child save.
    func reportPush(_ changes: StoreChanges?, into parent: ManagedObjectContext) {
        guard let changes else { return }
        reportSave(changes)
        parent.reportChanges(
            ContextChanges(
                event: .childSave, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted))
    }

    /// Reports a finished rollback.
    func reportRollback(_ changes: ContextChanges?) {
        guard let changes else { return }
        reportChanges(changes)
    }

    /// Reports a reset.
    func reportReset() {
        reportChanges(ContextChanges(event: .reset, invalidatedAllObjects: true))
    }

    func addChangeObserver(_ observer: any ContextChangeObserver) { changeObservers.add(observer) }
    func removeChangeObserver(_ observer: any ContextChangeObserver) { changeObservers.remove(observer) }

    private func postNotifications(for changes: ContextChanges) {
        var info: [AnyHashable: Any] = [:]
        // Under each key twice: the typed key, and its raw value, the string Core Data's notifications use (ported
        // code reads `userInfo[NSInsertedObjectsKey]` or `userInfo[….insertedObjects.rawValue]`).
        func set(_ key: NotificationKey, _ value: Any) {
            info[key] = value
            info[key.rawValue] = value
        }
        set(.insertedObjects, changes.inserted)
        set(.updatedObjects, changes.updated)
        set(.deletedObjects, changes.deleted)
        set(.refreshedObjects, changes.refreshed)
        info[NotificationKey.changes] = changes
        if changes.invalidatedAllObjects { set(.invalidatedAllObjects, true) }
        let center = NotificationCenter.default
        switch changes.event {
        case .save: center.post(name: Self.didSaveObjectsNotification, object: self, userInfo: info)
        case .merge: center.post(name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: info)
        case .rollback, .reset, .childSave: break
        }
        center.post(name: Self.didChangeObjectsNotification, object: self, userInfo: info)
    }
}

/// Core Data's `userInfo` key of a context notification's inserted objects (the raw value of
/// ``ManagedObjectContext/NotificationKey/insertedObjects``); the sets hold ``ObjectID``s.
public let NSInsertedObjectsKey = ManagedObjectContext.NotificationKey.insertedObjects.rawValue
/// Core Data's `userInfo` key of a context notification's updated objects.
public let NSUpdatedObjectsKey = ManagedObjectContext.NotificationKey.updatedObjects.rawValue
/// Core Data's `userInfo` key of a context notification's deleted objects.
public let NSDeletedObjectsKey = ManagedObjectContext.NotificationKey.deletedObjects.rawValue
/// Core Data's `userInfo` key of a context notification's refreshed objects.
public let NSRefreshedObjectsKey = ManagedObjectContext.NotificationKey.refreshedObjects.rawValue
/// Core Data's `userInfo` key set after a reset.
public let NSInvalidatedAllObjectsKey = ManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue
