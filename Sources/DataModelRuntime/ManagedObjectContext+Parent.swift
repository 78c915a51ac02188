import Foundation

/// Core Data's context concurrency types. This runtime has no context queues (a context belongs to the
/// isolation domain that uses it), so none is needed: see ``ManagedObjectContext/init(parent:)``.
public enum ConcurrencyType: Sendable {
    /// Core Data's main-queue context.
    case mainQueueConcurrencyType
    /// Core Data's private-queue context.
    case privateQueueConcurrencyType
}

extension ManagedObjectContext {
    /// A child context of `parent`: Core Data's scratch pad for an edit the user may cancel.
    ///
    /// ```swift
    /// let editor = ManagedObjectContext(parent: container.viewContext)
    /// let draft = try #require(editor.object(with: employee.objectID) as? EmployeeEntity)
    /// draft.name = "Ada"
    /// try editor.save()                   // into viewContext, not the store
    /// try container.viewContext.save()    // now the store
    /// ```
    ///
    /// The child reads its objects from the parent: faults, to-many relationships and fetches see the parent's
    /// objects with their unsaved changes. ``save()`` validates the child's changes and hands them to the
    /// parent (insertions, attribute and relationship changes with their inverses and order, deletions with
    /// their delete rules), where they are unsaved changes until the parent saves; the parent's observers are
    /// notified as for any change. Dropping the child, ``rollback()`` or ``reset()`` leaves the parent as it
    /// was. Objects have the same ``ObjectID`` in both (IDs are permanent from insertion on). A child can be the
    /// parent of another child.
    ///
    /// The child belongs to the parent's isolation domain (it holds the parent). Uniqueness constraints are
    /// checked when the changes reach the store; batch requests executed on a child go to the store, as in
    /// Core Data.
    public convenience init(parent: ManagedObjectContext) {
        self.init(coordinator: parent.coordinator, parent: parent)
    }

    /// Core Data's `init(concurrencyType:)` followed by setting `parent` or `persistentStoreCoordinator`.
    @available(
        *, unavailable,
        message:
            "contexts have no queues here: use ManagedObjectContext(parent: context) for a child context, container.newBackgroundContext() for a context on the store"
    )
    public convenience init(concurrencyType: ConcurrencyType) {
        preconditionFailure("unavailable")
    }

    /// Core Data's `obtainPermanentIDs(for:)`: nothing to do, every object's ``ManagedObject/objectID`` is
    /// permanent from its insertion on (``ObjectID/isTemporaryID`` is always `false`).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {}

    // MARK: Reading through the parent

    /// The parent's state of the object `id` for a child: its values with the parent's unsaved changes, or
    /// `nil` when the parent has no such object (never saved, or deleted there).
    func rowForChild(_ id: ObjectID) -> StoredRow? {
        guard let object = try? existingObjectInOperation(with: id) else { return nil }
        return StoredRow(values: object.values, version: object.version)
    }

    /// A child's to-many relationship as the parent holds it, without the objects the child deleted.
    func toManyThroughParent(
        _ parent: ManagedObjectContext, _ relationship: RelationshipRuntime, of object: ManagedObject
    ) -> ObjectIDList {
        guard let owner = try? parent.existingObjectInOperation(with: object.objectID),
            let list = owner.list(relationship)
        else { return ObjectIDList() }
        guard deletedList.contains(where: { $0.isDeleted }) else { return list }
        return ObjectIDList(distinct: list.ids.filter { registered[$0]?.isDeleted != true })
    }

    /// A child's fetch: the parent's objects (with its unsaved changes), corrected by this context's own
    /// unsaved changes and evaluated, sorted and windowed here.
    func fetchThroughParent<T: ManagedObject>(_ parent: ManagedObjectContext, _ request: FetchRequest<T>)
        throws(StoreError) -> [T]
    {
        let entity = try self.entity(of: request)
        let base = request.copy()
        base.relationshipKeyPathsForPrefetching = []
        base.fetchBatchSize = nil
        base.includesPendingChanges = true
        guard request.includesPendingChanges && hasChanges else {
            return try parent.fetchInOperation(base).compactMap { self.object(for: $0.objectID) as? T }
        }
        let conditions = try resolve(request.conditions, in: entity)
        // The parent narrows by the predicate when its answer depends only on each object's own values (the
        // objects this context changed are added below); otherwise it hands over every object of the entity.
        let plan = try predicatePlan(for: request, entity: entity)
        base.sortDescriptors = []
        base.fetchLimit = nil
        base.fetchOffset = nil
        if request.predicate != nil && plan.translated?.usesRelationships != false { base.predicate = nil }
        var objects: [T] = []
        var included = Set<ObjectID>()
        for candidate in try parent.fetchInOperation(base) {
            guard let object = self.object(for: candidate.objectID) as? T, !object.isDeleted, !object.isInvalid
            else { continue }
            included.insert(object.objectID)
            objects.append(object)
        }
        for object in insertedList where object.isInserted && matches(object, entity: entity, request: request) {
            if let typed = object as? T { objects.append(typed) }
        }
        for object in updatedList
        where object.isUpdated && !object.isDeleted && matches(object, entity: entity, request: request)
            && included.insert(object.objectID).inserted
        {
            if let typed = object as? T { objects.append(typed) }
        }
        objects = objects.filter { object in conditions.allSatisfy { $0.matches(object) } }
        return try Self.evaluatedInMemory(
            objects, request: request, evaluatesPredicate: true, offset: max(request.fetchOffset ?? 0, 0),
            limit: request.fetchLimit.map { max($0, 0) })
    }

    /// A child's ``explain(_:)``: the parent's plan, which the child's fetch runs, unless the child's own
    /// unsaved changes make it evaluate in memory over what the parent hands over.
    func explainThroughParent<T: ManagedObject>(_ parent: ManagedObjectContext, _ request: FetchRequest<T>)
        throws(StoreError) -> FetchExplanation
    {
        let explanation = try parent.explain(request)
        guard request.includesPendingChanges && hasChanges else { return explanation }
        let entity = try self.entity(of: request)
        let plan = try predicatePlan(for: request, entity: entity)
        let narrowed = request.predicate == nil || plan.translated?.usesRelationships == false
        return FetchExplanation(
            path: narrowed && explanation.path != .memory ? .sqlThenMemory : .memory,
            whereClause: explanation.whereClause, predicateSQL: explanation.predicateSQL,
            arguments: explanation.arguments, reason: "the child context's unsaved changes are checked in memory")
    }

    // MARK: Saving into the parent

    /// A child's save: its validated changes become the parent's unsaved changes, and the child's objects
    /// take them as their committed state.
    func pushChanges(into parent: ManagedObjectContext, deleted: [ManagedObject], discarded: [ManagedObject]) {
        let pushed = changesBeforePush(deleted: deleted, into: parent)
        defer { reportPush(pushed, into: parent) }
        parent.operation { parent.absorb(inserted: insertedList, updated: updatedList, deleted: deleted) }
        for object in insertedList {
            object.isInserted = false
            object.snapshot = nil
        }
        for object in updatedList {
            object.isUpdated = false
            object.snapshot = nil
        }
        for object in deleted { unregister(object) }
        for object in discarded { unregister(object) }
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        noteSaveForUndo()
    }

    /// Applies a child's changes to this context's objects: insertions (same IDs), changed attributes, the
    /// relationships that changed (inverses kept, ordered lists in the child's order), then deletions (delete
    /// rules applied here). Observers of this context's objects are notified.
    private func absorb(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        var changed: [(child: ManagedObject, object: ManagedObject)] = []
        for child in inserted {
            let entity = child.entityRuntime
            if let stale = registered[child.objectID] { unregister(stale) }
            let object = entity.objectType.init(
                ObjectSeed(entity: entity, objectID: child.objectID, context: self, isFault: false, isRegistered: true))
            object.values = ObjectValues(
                attributes: child.values.attributes,
                relationships: entity.relationships.map { $0.isToMany ? .toMany(ObjectIDList()) : .toOne(nil) })
            register(inserted: object)
            changed.append((child, object))
        }
        for child in updated {
            guard let object = try? existingObjectInOperation(with: child.objectID) else { continue }
            let snapshot = child.snapshot
            for index in child.values.attributeIndices where object.values.attributeIndices.contains(index) {
                let value = child.values[attribute: index]
                if let snapshot, snapshot.attributeIndices.contains(index), snapshot[attribute: index] == value {
                    continue
                }
                guard object.values[attribute: index] != value else { continue }
                object.setAttributeValue(value, at: index)
            }
            changed.append((child, object))
        }
        for (child, object) in changed { absorbRelationships(of: child, into: object) }
        for child in deleted {
            guard let object = registered[child.objectID] ?? (try? existingObjectInOperation(with: child.objectID))
            else { continue }
            delete(object)
        }
    }

    /// Sets each relationship of `object` that changed in `child` to the child's destinations.
    private func absorbRelationships(of child: ManagedObject, into object: ManagedObject) {
        for relationship in child.entityRuntime.relationships
        where child.values.relationshipIndices.contains(relationship.index) {
            let current = child.values[relationship: relationship.index]
            if !child.isInserted {
                guard let snapshot = child.snapshot, snapshot.relationshipIndices.contains(relationship.index),
                    snapshot[relationship: relationship.index] != current
                else { continue }
            }
            switch current {
            case .toOne(let id):
                if let id {
                    guard let destination = self.object(for: id), !destination.isDeleted else { continue }
                    object.link(destination, via: relationship, at: nil)
                } else if case .toOne(let old?)? = object.relationshipValue(relationship),
                    let destination = self.object(for: old)
                {
                    object.unlink(destination, via: relationship)
                }
            case .toMany(let list):
                guard let existing = object.list(relationship) else { continue }
                for id in existing.ids where !list.contains(id) {
                    if let destination = self.object(for: id) { object.unlink(destination, via: relationship) }
                }
                for id in list.ids where object.listContains(relationship, id) == false {
                    guard let destination = self.object(for: id), !destination.isDeleted else { continue }
                    object.link(destination, via: relationship, at: nil)
                }
                if relationship.isOrdered, let now = object.list(relationship), now.ids != list.ids,
                    Set(now.ids) == Set(list.ids)
                {
                    object.willChange()
                    var reordered = now
                    reordered.reorder(list.ids)
                    object.setRelationshipValue(.toMany(reordered), at: relationship.index)
                }
            case .toManyFault:
                continue
            }
        }
    }
}

extension ManagedObject {
    /// Sets attribute `index` (marking the object changed, notifying observers).
    final func setAttributeValue(_ value: PrimitiveValue, at index: Int) {
        willChange()
        guard values.attributeIndices.contains(index) else { return }
        willChangeObserved(property: index)
        values[attribute: index] = value
        didChangeObserved(property: index)
    }
}
