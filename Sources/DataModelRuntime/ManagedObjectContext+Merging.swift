import Foundation
import SQLiteKit

extension ManagedObjectContext {
    // MARK: Merging other contexts' changes

    /// Brings the objects this context holds up to date with `changes` saved elsewhere:
    /// deleted rows leave the context (and the relationships that named them), updated objects
    /// take the stored values with this context's unsaved changes kept on top, and loaded
    /// to-many relationships reload. Observers of every changed property are notified.
    ///
    /// Contexts with ``automaticallyMergesChangesFromParent`` do this by themselves; call it
    /// for the IDs of a ``BatchResult`` or of changes received another way.
    public func mergeChanges(_ changes: StoreChanges) {
        operation { merge(changes) }
    }

    /// Core Data's `mergeChanges(fromContextDidSave:)`: merges what another context's
    /// ``didSaveObjectsNotification`` says it saved, as ``mergeChanges(_:)`` does. A notification this context
    /// posted itself, or one that is not a context's, changes nothing.
    ///
    /// Contexts of one container already merge each other's saves when ``automaticallyMergesChangesFromParent`` is
    /// on; this is for ported code that merges by hand.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        guard (notification.object as? ManagedObjectContext) !== self, let changes = ContextChanges(notification)
        else { return }
        mergeChanges(StoreChanges(inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted))
    }

    /// Core Data's `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`: merges the changes
    /// `changes` describes into each of `contexts`, as ``mergeChanges(_:)`` does. The keys are
    /// ``NSInsertedObjectsKey``, ``NSUpdatedObjectsKey`` and ``NSDeletedObjectsKey`` (or their ``NotificationKey``s),
    /// each with a collection of ``ObjectID``s (an array, a set) — a ``BatchResult``'s IDs, or what another process
    /// sent; other keys are ignored, and a value that is not a collection of IDs stops the program, as Core Data
    /// raises.
    ///
    /// ```swift
    /// let result = try context.execute(BatchDeleteRequest(fetchRequest: request, resultType: .objectIDs))
    /// ManagedObjectContext.mergeChanges(
    ///     fromRemoteContextSave: [NSDeletedObjectsKey: result.objectIDs], into: [otherContext])
    /// ```
    public static func mergeChanges(
        fromRemoteContextSave changes: [AnyHashable: Any], into contexts: [ManagedObjectContext]
    ) {
        func ids(_ key: NotificationKey) -> Set<ObjectID> {
            guard let value = changes[key.rawValue] ?? changes[key] else { return [] }
            if let set = value as? Set<ObjectID> { return set }
            if let array = value as? [ObjectID] { return Set(array) }
            if let any = value as? [Any], let array = any as? [ObjectID] { return Set(array) }
            preconditionFailure(
                "mergeChanges(fromRemoteContextSave:into:): '\(key.rawValue)' holds a \(type(of: value)), "
                    + "not ObjectIDs")
        }
        var merged = StoreChanges(
            inserted: ids(.insertedObjects), updated: ids(.updatedObjects), deleted: ids(.deletedObjects))
        merged.updated.subtract(merged.deleted)
        guard !merged.isEmpty else { return }
        for context in contexts { context.mergeChanges(merged) }
    }

    /// Merges what waits in the inbox (called between operations and on property access).
    func mergeWaitingChanges() {
        let waiting = inbox.take()
        guard !waiting.isEmpty else { return }
        var combined = StoreChanges()
        for changes in waiting {
            combined.inserted.formUnion(changes.inserted)
            combined.updated.formUnion(changes.updated)
            combined.deleted.formUnion(changes.deleted)
        }
        combined.updated.subtract(combined.deleted)
        operationDepth += 1
        defer { operationDepth -= 1 }
        merge(combined)
    }

    /// Merges from a property access of one of this context's objects, unless an operation runs.
    final func mergeWaitingChangesIfIdle() {
        guard operationDepth == 0 else { return }
        coordinator.locked { mergeWaitingChanges() }
    }

    private func merge(_ changes: StoreChanges) {
        for id in changes.deleted {
            guard let object = registered[id], !object.isInserted else { continue }
            forget(object)
        }
        if !changes.deleted.isEmpty { removeReferences(to: changes.deleted) }
        for id in changes.updated {
            guard let object = registered[id], !object.isFault, !object.isInvalid, !object.isInserted else { continue }
            refreshFromStore(object, keepingChanges: true)
        }
        // To-many lists change with their owners: the saving context marked every owner whose
        // list gained or lost an object as updated (inverse maintenance), and refreshing an
        // updated owner whose version moved turns its lists back into faults. Lists of
        // relationships without an inverse lose deleted objects above.
        reportMerge(changes)
    }

    /// Removes an object another context deleted: it becomes invalid, its changes are dropped.
    private func forget(_ object: ManagedObject) {
        object.willChangeAllObserved()
        unregister(object)
        object.didChangeAllObserved()
    }

    /// Clears to-ones naming `ids` and removes `ids` from loaded to-many lists (and snapshots).
    private func removeReferences(to ids: Set<ObjectID>) {
        let deletedEntities = Set(ids.map(\.entityNumber))
        for object in registered.objects where !object.isFault && !object.isInvalid {
            // An object holding its fetched row in fields has no loaded to-many, and its to-ones lead to entities
            // without sub-entities: unless one of them leads to an entity whose objects were deleted, it names none
            // of them, and is left holding its fields.
            if object.holdsFields, !object.entityRuntime.hasToOne(intoAnyOf: deletedEntities) { continue }
            for relationship in object.entityRuntime.relationships {
                let index = relationship.index
                guard object.values.relationshipIndices.contains(index) else { continue }
                switch object.values[relationship: index] {
                case .toOne(let id?) where ids.contains(id):
                    object.willChangeObserved(relationship: index)
                    object.values[relationship: index] = .toOne(nil)
                    if object.snapshot != nil { object.snapshot?[relationship: index] = .toOne(nil) }
                    object.didChangeObserved(relationship: index)
                case .toMany(var list) where list.ids.contains(where: ids.contains):
                    object.willChangeObserved(relationship: index)
                    for id in ids where list.contains(id) { list.remove(id) }
                    object.values[relationship: index] = .toMany(list)
                    if case .toMany(var committed)? = object.snapshot?[relationship: index] {
                        for id in ids where committed.contains(id) { committed.remove(id) }
                        object.snapshot?[relationship: index] = .toMany(committed)
                    }
                    object.didChangeObserved(relationship: index)
                default:
                    continue
                }
            }
        }
    }

    // MARK: Refreshing

    /// Updates `object` from the store.
    ///
    /// With `mergeChanges` false, the object's unsaved changes are discarded and it becomes a
    /// fault (its values are read again on the next access). With `mergeChanges` true, it
    /// takes the stored values and its unsaved changes are applied on top. An object inserted
    /// and not saved yet is left alone; one whose row another context deleted leaves the
    /// context. Observers of the object's properties are notified.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard object.context === self, !object.isInvalid else { return }
        forgetFetchedProperties(of: object)
        guard !object.isInserted else { return }
        operation {
            if mergeChanges {
                if object.isFault { return }
                refreshFromStore(object, keepingChanges: true)
            } else {
                guard !object.isFault || object.isUpdated else { return }
                let faults = !object.isDeleted && !object.isFault && object.entityRuntime.callsLifecycleMethods
                if faults { object.willTurnIntoFault() }
                object.willChangeAllObserved()
                object.snapshot = nil
                object.isUpdated = false
                if !object.isDeleted {
                    object.values = ObjectValues()
                    object.isFault = true
                }
                object.didChangeAllObserved()
                if faults { object.didTurnIntoFault() }
            }
        }
    }

    /// Refreshes every registered object (see ``refresh(_:mergeChanges:)``).
    public func refreshAllObjects() {
        operation {
            for object in registered.objects { refresh(object, mergeChanges: true) }
        }
    }

    /// Reads `object`'s row and applies it; a missing row removes the object.
    private func refreshFromStore(_ object: ManagedObject, keepingChanges: Bool) {
        guard let row = (try? storedRow(of: object)) ?? nil else {
            if object.isDeleted { return }
            forget(object)
            removeReferences(to: [object.objectID])
            return
        }
        apply(row, to: object, keepingChanges: keepingChanges)
    }

    /// Makes `row` the object's committed state; with `keepingChanges`, the properties the
    /// context changed keep their unsaved values (and their committed state, against which
    /// join-table rows are written).
    func apply(_ row: StoredRow, to object: ManagedObject, keepingChanges: Bool) {
        let snapshot = keepingChanges ? object.snapshot : nil
        // Attributes and relationships as the object will hold them, and its committed state.
        var values = row.values
        var committed = row.values
        let rowUnchanged = row.version == object.version
        for index in values.relationshipIndices where object.values.relationshipIndices.contains(index) {
            let current = object.values[relationship: index]
            if let snapshot, current != snapshot[relationship: index] {
                values[relationship: index] = current
                committed[relationship: index] = snapshot[relationship: index]
            } else if rowUnchanged, case .toMany = current {
                // Nothing else can have changed a loaded list when the row did not move on.
                values[relationship: index] = current
                committed[relationship: index] = current
            }
        }
        if let snapshot {
            for index in values.attributeIndices
            where object.values.attributeIndices.contains(index)
                && object.values[attribute: index] != snapshot[attribute: index]
            {
                values[attribute: index] = object.values[attribute: index]
            }
        }
        object.replaceObserved(values)
        object.version = row.version
        if snapshot != nil {
            object.snapshot = committed
        } else {
            object.snapshot = nil
            object.isUpdated = false
        }
    }

    // MARK: Conflicts

    /// Describes `objects` against the store and resolves them by ``mergePolicy``; throws
    /// ``MergeConflict`` under ``MergePolicy/error`` (or when conflicts persist).
    func resolveConflicts(_ objects: [ManagedObject], lastAttempt: Bool) throws {
        var rows: [StoredRow?] = []
        for object in objects { rows.append(try storedRow(of: object)) }
        if mergePolicy == .error || lastAttempt {
            throw MergeConflict(conflicts: zip(objects, rows).map { describeConflict($0, row: $1) })
        }
        for (object, row) in zip(objects, rows) {
            guard let row else {
                // Deleted by another context: the deletion wins under every policy.
                forget(object)
                removeReferences(to: [object.objectID])
                continue
            }
            if object.isDeleted {
                if mergePolicy == .rollback {
                    object.isDeleted = false
                    object.snapshot = nil
                    apply(row, to: object, keepingChanges: false)
                } else {
                    object.version = row.version
                }
                continue
            }
            switch mergePolicy {
            case .error:
                continue
            case .overwrite:
                // Committed state := the store's row, so the update writes every column that differs.
                object.version = row.version
                // The store's attributes and to-ones; the committed to-manys.
                var committed = row.values
                if let snapshot = object.snapshot {
                    for index in committed.relationshipIndices where snapshot.relationshipIndices.contains(index) {
                        if case .toOne = row.values[relationship: index] { continue }
                        committed[relationship: index] = snapshot[relationship: index]
                    }
                }
                object.snapshot = committed
            case .rollback:
                object.snapshot = nil
                object.isUpdated = false
                apply(row, to: object, keepingChanges: false)
            case .mergeByPropertyObjectTrump:
                apply(row, to: object, keepingChanges: true)
            case .mergeByPropertyStoreTrump:
                // What the store changed since the object was read replaces this context's value.
                guard let snapshot = object.snapshot else {
                    apply(row, to: object, keepingChanges: false)
                    continue
                }
                var values = object.values
                for index in values.attributeIndices where row.values[attribute: index] != snapshot[attribute: index] {
                    values[attribute: index] = row.values[attribute: index]
                }
                for index in values.relationshipIndices where row.values.relationshipIndices.contains(index) {
                    if case .toOne = row.values[relationship: index],
                        row.values[relationship: index] != snapshot[relationship: index]
                    {
                        values[relationship: index] = row.values[relationship: index]
                    }
                }
                object.replaceObserved(values)
                object.version = row.version
                // The store's attributes; the relationships as committed before.
                var committed = snapshot
                for index in committed.attributeIndices where row.values.attributeIndices.contains(index) {
                    committed[attribute: index] = row.values[attribute: index]
                }
                object.snapshot = committed
            }
        }
    }

    private func describeConflict(_ object: ManagedObject, row: StoredRow?) -> MergeConflict.Conflict {
        let entity = object.entityRuntime
        let snapshot = object.snapshot
        var changed: [String] = []
        var storeChanged: [String] = []
        for (index, attribute) in entity.attributes.enumerated() where !attribute.isTransient {
            let committed = snapshot?[attribute: index]
            if object.isDeleted
                || (object.values.attributeIndices.contains(index) && object.values[attribute: index] != committed)
            {
                changed.append(attribute.name)
            }
            if let row, let committed, row.values[attribute: index] != committed { storeChanged.append(attribute.name) }
        }
        for relationship in entity.relationships where !relationship.description.isTransient {
            let index = relationship.index
            let committed = snapshot?[relationship: index]
            if object.isDeleted
                || (object.values.relationshipIndices.contains(index) && object.values[relationship: index] != committed
                    && object.values[relationship: index] != .toManyFault && committed != .toManyFault)
            {
                changed.append(relationship.name)
            }
            if let row, let committed, case .toOne = row.values[relationship: index],
                row.values[relationship: index] != committed
            {
                storeChanged.append(relationship.name)
            }
        }
        return MergeConflict.Conflict(
            objectID: object.objectID, entityName: entity.name, changedProperties: changed,
            storeChangedProperties: storeChanged, oldVersion: object.version, newVersion: row?.version)
    }
}
