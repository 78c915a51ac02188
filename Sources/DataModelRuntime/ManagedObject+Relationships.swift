import Foundation

// MARK: - Relationship accessors (generated code calls these)

extension ManagedObject {
    /// The destination of the to-one relationship `key`.
    public final func toOne<T: ManagedObject>(for key: String) -> T? {
        guard let relationship = relationship(key) else { return nil }
        willAccess(property: entityRuntime.attributes.count + relationship.index)
        guard case .toOne(let id)? = relationshipValue(relationship), let id else { return nil }
        return context?.object(for: id) as? T
    }

    /// Sets the to-one relationship `key`, keeping its inverse.
    public final func setToOne<T: ManagedObject>(_ value: T?, for key: String) {
        // The relationship borrowed for the call (its entity owns it): no retain and release per set.
        guard let reference = relationshipReference(key) else { return }
        reference._withUnsafeGuaranteedRef { relationship in
            guard !relationship.isToMany else { return }
            guard let value else {
                if case .toOne(let id)? = relationshipValue(relationship), let id, let old = context?.object(for: id) {
                    unlink(old, via: relationship)
                }
                return
            }
            guard accepts(value) else { return }
            link(value, via: relationship, at: nil)
        }
    }

    /// The destinations of the unordered to-many relationship `key`.
    @inlinable
    public final func toManySet<T: ManagedObject>(for key: String) -> Set<T> {
        // Inlined into generated code: the set is built for the concrete class, the objects moved into it from
        // the runtime's buffer (no array, no retain and release per object), cast once per call when they are all
        // of one class that is a `T`.
        let objects = collectDestinations(key)
        let count = objects.count
        var result = Set<T>(minimumCapacity: count)
        let base = objects.base
        if objects.areAll(T.self) {
            for index in 0..<count {
                // safe: every object is of the one class `areAll` checked is a `T`. `update(with:)`, not `insert`:
                // it returns the member it replaced (none: the objects are distinct), where `insert` returns the
                // member after inserting, retained, for the caller to release.
                result.update(with: unsafeDowncast((base + index).move(), to: T.self))
            }
        } else {
            for index in 0..<count {
                if let typed = (base + index).move() as? T { result.insert(typed) }
            }
        }
        objects.markMoved()
        return result
    }

    /// Replaces the destinations of the unordered to-many relationship `key`, keeping inverses.
    public final func setToManySet<T: ManagedObject>(_ values: Set<T>, for key: String) {
        replaceDestinations(key, with: Array(values))
    }

    /// The destinations of the ordered to-many relationship `key`, in order.
    @inlinable
    public final func toManyArray<T: ManagedObject>(for key: String) -> [T] {
        // As `toManySet(for:)`: the objects moved out of the runtime's buffer, cast once when they can be.
        let objects = collectDestinations(key)
        let count = objects.count
        var result: [T] = []
        result.reserveCapacity(count)
        let base = objects.base
        if objects.areAll(T.self) {
            for index in 0..<count {
                // safe: every object is of the one class `areAll` checked is a `T`.
                result.append(unsafeDowncast((base + index).move(), to: T.self))
            }
        } else {
            for index in 0..<count {
                if let typed = (base + index).move() as? T { result.append(typed) }
            }
        }
        objects.markMoved()
        return result
    }

    /// The destination objects of relationship `key`, in order, observation told of the access (key paths,
    /// derived attributes, the Xcode shapes).
    final func destinationObjects(_ key: String) -> [ManagedObject] {
        collectDestinations(key).take()
    }

    /// The destination objects of relationship `key`, in order, in a buffer the inlined accessors move them out
    /// of, observation told of the access.
    @usableFromInline
    final func collectDestinations(_ key: String) -> DestinationObjects {
        let objects = DestinationObjects()
        guard let relationship = relationship(key) else { return objects }
        willAccess(property: entityRuntime.attributes.count + relationship.index)
        collectDestinations(relationship, into: objects)
        return objects
    }

    /// Replaces the destinations of the ordered to-many relationship `key`, keeping inverses and
    /// the given order (repeated objects count once).
    public final func setToManyArray<T: ManagedObject>(_ values: [T], for key: String) {
        replaceDestinations(key, with: values)
    }

    /// Adds `value` to the to-many relationship `key` (at the end when ordered).
    public final func addObject(_ value: ManagedObject, to key: String) {
        guard let relationship = relationship(key), relationship.isToMany, accepts(value) else { return }
        link(value, via: relationship, at: nil)
    }

    /// Adds each of `values` to the to-many relationship `key`.
    public final func addObjects<S: Sequence>(_ values: S, to key: String) where S.Element: ManagedObject {
        for value in values { addObject(value, to: key) }
    }

    /// Removes `value` from the to-many relationship `key`.
    public final func removeObject(_ value: ManagedObject, from key: String) {
        guard let relationship = relationship(key), relationship.isToMany else { return }
        unlink(value, via: relationship)
    }

    /// Removes each of `values` from the to-many relationship `key`.
    public final func removeObjects<S: Sequence>(_ values: S, from key: String) where S.Element: ManagedObject {
        for value in values { removeObject(value, from: key) }
    }

    /// Inserts `value` at `index` of the ordered relationship `key` (moving it when present).
    public final func insertObject(_ value: ManagedObject, at index: Int, into key: String) {
        guard let relationship = relationship(key), relationship.isToMany, accepts(value) else { return }
        if list(relationship)?.contains(value.objectID) == true { unlink(value, via: relationship) }
        link(value, via: relationship, at: index)
    }

    /// Inserts `values` at `indexes` of the ordered relationship `key`, like `NSMutableOrderedSet`.
    public final func insertObjects<S: Sequence>(_ values: S, at indexes: IndexSet, into key: String)
    where S.Element: ManagedObject {
        for (value, index) in zip(values, indexes) { insertObject(value, at: index, into: key) }
    }

    /// Removes the object at `index` of the ordered relationship `key`; out of range does nothing.
    public final func removeObject(at index: Int, from key: String) {
        guard let relationship = relationship(key), let ids = list(relationship)?.ids, ids.indices.contains(index),
            let value = context?.object(for: ids[index])
        else { return }
        unlink(value, via: relationship)
    }

    /// Removes the objects at `indexes` of the ordered relationship `key`.
    public final func removeObjects(at indexes: IndexSet, from key: String) {
        guard let relationship = relationship(key), let ids = list(relationship)?.ids else { return }
        let values = indexes.filter { ids.indices.contains($0) }.compactMap { context?.object(for: ids[$0]) }
        for value in values { unlink(value, via: relationship) }
    }

    /// Replaces the object at `index` of the ordered relationship `key` with `value`.
    public final func replaceObject(at index: Int, with value: ManagedObject, in key: String) {
        guard let relationship = relationship(key), let ids = list(relationship)?.ids, ids.indices.contains(index),
            accepts(value)
        else { return }
        if ids[index] == value.objectID { return }
        if let old = context?.object(for: ids[index]) { unlink(old, via: relationship) }
        insertObject(value, at: index, into: key)
    }

    /// Replaces the objects at `indexes` of the ordered relationship `key` with `values`.
    public final func replaceObjects(at indexes: IndexSet, with values: [ManagedObject], in key: String) {
        for (index, value) in zip(indexes, values) { replaceObject(at: index, with: value, in: key) }
    }
}

// MARK: - Inverse maintenance

extension ManagedObject {
    final func relationship(_ key: String) -> RelationshipRuntime? {
        // The entity borrowed, not retained and released per lookup: `shared` keeps it alive.
        entityReference._withUnsafeGuaranteedRef { $0.relationship(named: key) }
    }

    /// The relationship `key`; stops the program when the entity has none, as ``value(forKey:)`` does.
    final func relationshipOrStop(_ key: String) -> RelationshipRuntime {
        guard let relationship = relationship(key) else {
            preconditionFailure(KeyValueError.unknownKey(entity: entityRuntime.name, key: key).description)
        }
        return relationship
    }

    /// ``relationship(_:)``, not retained: the entity's runtime owns its relationships, and `shared` keeps the
    /// entity alive.
    @inline(__always)
    final func relationshipReference(_ key: String) -> Unmanaged<RelationshipRuntime>? {
        entityReference._withUnsafeGuaranteedRef { entity in
            guard let index = entity.relationshipIndex(named: key) else { return nil }
            return entity.relationships.withUnsafeBufferPointer { Unmanaged.passUnretained($0[index]) }
        }
    }

    /// Whether `value` may be related to this object: same context, not invalid.
    private func accepts(_ value: ManagedObject) -> Bool {
        // The same as `context != nil && value.context === context`, without loading (and retaining) the
        // context twice: a context's objects share its `ContextShared`, one per context.
        guard !isDetached, !value.isDetached, value.sharedReference.toOpaque() == sharedReference.toOpaque(),
            withShared({ $0.hasContext }), !value.isInvalid
        else {
            preconditionFailure("cannot relate \(self) to \(value): they belong to different contexts")
        }
        return true
    }

    /// The relationship's loaded value (firing the object's fault and the relationship's fault).
    final func relationshipValue(_ relationship: RelationshipRuntime) -> RelationshipValue? {
        guard loadRelationship(relationship) else { return nil }
        return values[relationship: relationship.index]
    }

    /// Fires the object's fault and the relationship's fault; whether the object has the
    /// relationship's value.
    @inline(__always)
    final func loadRelationship(_ relationship: RelationshipRuntime) -> Bool {
        // Loaded already (every change of a relationship asks first, and it mostly is): no call.
        let index = relationship.index
        if !isFault, values.relationshipIndices.contains(index), !values.isToManyFault(index) { return true }
        return loadRelationship(relationship, collecting: nil)
    }

    /// ``loadRelationship(_:)``; when it reads a to-many from the store and `objects` is not `nil`, the
    /// destination objects are appended to it in the list's order (see
    /// ``ManagedObjectContext/loadToMany(_:of:collecting:)``).
    final func loadRelationship(_ relationship: RelationshipRuntime, collecting objects: DestinationObjects?) -> Bool {
        if isFault { fireFaultIfNeeded() }
        guard values.relationshipIndices.contains(relationship.index) else { return false }
        if values.isToManyFault(relationship.index) {
            let loaded = context?.loadToMany(relationship, of: self, collecting: objects) ?? ObjectIDList()
            values[relationship: relationship.index] = .toMany(loaded)
            if snapshot != nil, case .toManyFault? = snapshot?[relationship: relationship.index] {
                snapshot?[relationship: relationship.index] = .toMany(loaded)
            }
        }
        return true
    }

    /// Whether the to-many `relationship` holds `id` (loading it first), without copying the
    /// list; `nil` when it is not a loaded to-many.
    final func listContains(_ relationship: RelationshipRuntime, _ id: ObjectID) -> Bool? {
        guard loadRelationship(relationship) else { return nil }
        return values.toManyContains(relationship.index, id)
    }

    /// Mutates a loaded to-many in place (without copying its storage when nothing else holds it).
    final func mutateList(_ relationship: RelationshipRuntime, _ body: (inout ObjectIDList) -> Void) {
        guard values.isLoadedToMany(relationship.index) else { return }
        willChangeObserved(relationship: relationship.index)
        _ = values.modifyToMany(relationship.index, body)
        didChangeObserved(relationship: relationship.index)
    }

    final func list(_ relationship: RelationshipRuntime) -> ObjectIDList? {
        guard case .toMany(let list)? = relationshipValue(relationship) else { return nil }
        return list
    }

    /// The destination objects of relationship `key`, in order.
    final func destinations(_ key: String) -> [ManagedObject] {
        guard let relationship = relationship(key) else { return [] }
        let objects = DestinationObjects()
        collectDestinations(relationship, into: objects)
        return objects.take()
    }

    /// Appends the destination objects of `relationship`, in order, to `objects` (which must be empty).
    final func collectDestinations(_ relationship: RelationshipRuntime, into objects: DestinationObjects) {
        guard let context else { return }
        // A to-many read from the store hands over the objects it registered: no second lookup of each.
        guard loadRelationship(relationship, collecting: relationship.isToMany ? objects : nil) else { return }
        switch values[relationship: relationship.index] {
        case .toOne(let id):
            if let id, let object = context.object(for: id) { objects.append(object) }
        case .toMany(let list):
            if objects.count == list.count { return }
            // Read another way (or a load that left objects out): each ID looked up.
            objects.removeAll()
            objects.reserve(list.count)
            for id in list.ids {
                if let object = context.object(for: id) { objects.append(object) }
            }
        case .toManyFault: return
        }
    }

    private func replaceDestinations(_ key: String, with values: [ManagedObject]) {
        guard let relationship = relationship(key), relationship.isToMany, let current = list(relationship) else {
            return
        }
        for value in values { _ = accepts(value) }
        let newIDs = Set(values.map(\.objectID))
        for id in current.ids where !newIDs.contains(id) {
            if let old = context?.object(for: id) { unlink(old, via: relationship) }
        }
        for value in values { link(value, via: relationship, at: nil) }
        if relationship.isOrdered, let updated = list(relationship) {
            var seen: Set<ObjectID> = []
            let order = values.map(\.objectID).filter { seen.insert($0).inserted }
            if order != updated.ids {
                willChange()
                var reordered = updated
                reordered.reorder(order)
                setRelationshipValue(.toMany(reordered), at: relationship.index)
            }
        }
    }

    /// Relates `value` through `relationship` (inserting at `index` for ordered ones) and
    /// updates the inverse on `value` and on any object `value` leaves.
    final func link(_ value: ManagedObject, via relationship: RelationshipRuntime, at index: Int?) {
        if relationship.isToMany {
            guard listContains(relationship, value.objectID) == false else { return }
            willChange()
            mutateList(relationship) {
                if let index { $0.insert(value.objectID, at: index) } else { $0.append(value.objectID) }
            }
        } else {
            // Read and written in place (no `RelationshipValue` built and copied through the slot).
            let slot = relationship.index
            guard loadRelationship(relationship), values.holdsToOne(slot) else { return }
            let oldID = values.toOneID(slot)
            guard oldID != value.objectID else { return }
            if let oldID, let old = context?.object(for: oldID) { unlink(old, via: relationship) }
            willChange()
            if isObserved {
                setRelationshipValue(.toOne(value.objectID), at: slot)
            } else {
                values.setToOne(slot, value.objectID)
            }
        }
        if let inverseIndex = relationship.inverseIndex { value.attachInverse(self, at: inverseIndex) }
    }

    /// Unrelates `value` from `relationship` and removes this object from `value`'s inverse.
    final func unlink(_ value: ManagedObject, via relationship: RelationshipRuntime) {
        if relationship.isToMany {
            guard listContains(relationship, value.objectID) == true else { return }
            willChange()
            mutateList(relationship) { $0.remove(value.objectID) }
        } else {
            guard case .toOne(let id)? = relationshipValue(relationship), id == value.objectID else { return }
            willChange()
            setRelationshipValue(.toOne(nil), at: relationship.index)
        }
        if let inverseIndex = relationship.inverseIndex,
            value.entityRuntime.relationships.indices.contains(inverseIndex)
        {
            value.detachInverse(self, via: value.entityRuntime.relationships[inverseIndex])
        }
    }

    /// ``attachInverse(_:via:)`` for the relationship at `inverseIndex`, when there is one.
    ///
    /// An inserted object's loaded to-many, with nothing to record (no snapshot, no undo, no observer), takes
    /// `source` straight away: the list's own membership test is the only one, and the relationship's runtime is
    /// not looked up (an employee's two to-ones of the insert benchmark each append to such a list).
    @inline(__always)
    private func attachInverse(_ source: ManagedObject, at inverseIndex: Int) {
        if !isFault, isInserted, !isObserved, !withShared({ $0.recordsUndo }), values.isLoadedToMany(inverseIndex) {
            // Not in the list yet: `link` got here because the source's side did not name this object (see
            // `ObjectIDList.appendDistinct`).
            _ = values.modifyToMany(inverseIndex) { $0.appendDistinct(source.objectID) }
            return
        }
        let relationships = entityRuntime.relationships
        guard relationships.indices.contains(inverseIndex) else { return }
        attachInverse(source, via: relationships[inverseIndex])
    }

    /// The inverse side of ``link(_:via:at:)``: `source` joins this object's `relationship`; a
    /// to-one first leaves its previous destination's to-many.
    private func attachInverse(_ source: ManagedObject, via relationship: RelationshipRuntime) {
        if relationship.isToMany {
            guard loadRelationship(relationship) else { return }
            if isInserted, !isObserved, !withShared({ $0.recordsUndo }) || context == nil {
                // Nothing to record (see ``attachInverse(_:at:)``).
                _ = values.modifyToMany(relationship.index) { $0.append(source.objectID) }
                return
            }
            guard values.toManyContains(relationship.index, source.objectID) == false else { return }
            willChange()
            mutateList(relationship) { $0.append(source.objectID) }
        } else {
            guard case .toOne(let oldID)? = relationshipValue(relationship), oldID != source.objectID else { return }
            if let oldID, let old = context?.object(for: oldID), let back = relationship.inverseIndex,
                old.entityRuntime.relationships.indices.contains(back)
            {
                old.detachRaw(self, via: old.entityRuntime.relationships[back])
            }
            willChange()
            setRelationshipValue(.toOne(source.objectID), at: relationship.index)
        }
    }

    /// The inverse side of ``unlink(_:via:)``.
    private func detachInverse(_ source: ManagedObject, via relationship: RelationshipRuntime) {
        detachRaw(source, via: relationship)
    }

    /// Removes `value` from `relationship` without touching any inverse.
    final func detachRaw(_ value: ManagedObject, via relationship: RelationshipRuntime) {
        if relationship.isToMany {
            guard listContains(relationship, value.objectID) == true else { return }
            willChange()
            mutateList(relationship) { $0.remove(value.objectID) }
        } else {
            guard case .toOne(let id)? = relationshipValue(relationship), id == value.objectID else { return }
            willChange()
            setRelationshipValue(.toOne(nil), at: relationship.index)
        }
    }
}

/// The destination objects of one relationship read, in order: an owned buffer the runtime appends them to
/// (retaining each once) and the inlined accessors move them out of (into the `Set` or array they return), so a
/// to-many read builds no intermediate `[ManagedObject]` (an append with its uniqueness and capacity calls, a retain
/// and a release per object). It also notes whether all its objects are of one class, so an accessor casts once per
/// read instead of once per object.
@usableFromInline
final class DestinationObjects {
    /// The objects: `count` initialized ones from `base` on (the accessors read both once, after the runtime is
    /// done appending).
    @usableFromInline @exclusivity(unchecked) var base: UnsafeMutablePointer<ManagedObject>
    @usableFromInline @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) private var capacity: Int
    /// The class of every object so far (`nil` while there is none, or once two classes were seen).
    @exclusivity(unchecked) private var commonClass: ManagedObject.Type?
    @exclusivity(unchecked) private var isMixed = false

    init() {
        capacity = 16
        base = .allocate(capacity: 16)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Appends `object` (retained once, by the buffer).
    @inline(__always)
    func append(_ object: ManagedObject) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: object)
        count += 1
        // The class's metadata, compared by address: one load and one comparison per object.
        let type = Swift.type(of: object)
        if type != commonClass {
            if commonClass == nil, !isMixed { commonClass = type } else { isMixed = true; commonClass = nil }
        }
    }

    /// Makes room for `minimumCapacity` objects.
    func reserve(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    @inline(never)
    private func grow(to newCapacity: Int) {
        let larger = UnsafeMutablePointer<ManagedObject>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }

    /// Drops every object.
    func removeAll() {
        base.deinitialize(count: count)
        count = 0
        commonClass = nil
        isMixed = false
    }

    /// Whether every object is of one class, and that class is a `T` (or there is no object): then each can be
    /// downcast to `T` without a check. Decided once per read.
    @usableFromInline
    func areAll<T: ManagedObject>(_ type: T.Type) -> Bool {
        guard !isMixed else { return false }
        guard let commonClass else { return true }
        return commonClass is T.Type
    }

    /// Notes that the accessor moved every object out (`count` of them from `base`): the buffer no longer holds
    /// them.
    @usableFromInline
    func markMoved() {
        count = 0
    }

    /// The objects as an array (moved, not copied); the buffer is empty after.
    func take() -> [ManagedObject] {
        guard count > 0 else { return [] }
        let taken = count
        count = 0
        let source = base
        return [ManagedObject](unsafeUninitializedCapacity: taken) { target, initialized in
            for index in 0..<taken { target.initializeElement(at: index, to: (source + index).move()) }
            initialized = taken
        }
    }
}
