/// An object's attribute values and relationship values, in one allocation.
///
/// A fetched object used to carry two arrays (its attribute values and its relationship
/// values): two allocations and two deallocations per row on top of the object itself. Here
/// both live in one buffer, attributes first, relationships after them.
///
/// Copy-on-write, like the arrays it replaces: a snapshot (``ManagedObject/snapshot``) or a
/// ``StoredRow`` shares the buffer until either side changes. Indices are the entity's attribute
/// and relationship indices; an index out of range traps, as an array's does. Empty values (a
/// fault's) need no buffer at all.
struct ObjectValues {
    private var storage: ObjectValueStorage?

    /// No values: a fault's, until its row is read.
    init() { storage = nil }

    /// Values copied from lists (cold paths: defaults, merges, conflicts).
    init(attributes: [PrimitiveValue], relationships: [RelationshipValue]) {
        self.init(attributeCount: attributes.count, relationshipCount: relationships.count) {
            target, targetRelationships in
            for (index, value) in attributes.enumerated() { (target + index).initialize(to: value) }
            for (index, value) in relationships.enumerated() { (targetRelationships + index).initialize(to: value) }
        }
    }

    /// Values built in place: `body` gets room for `attributeCount` attribute values and
    /// `relationshipCount` relationship values and must initialize every one of them (it is
    /// not called when both counts are 0).
    @inline(__always)
    init(
        attributeCount: Int, relationshipCount: Int,
        initializingWith body: (
            _ attributes: UnsafeMutablePointer<PrimitiveValue>, _ relationships: UnsafeMutablePointer<RelationshipValue>
        ) -> Void
    ) {
        guard attributeCount > 0 || relationshipCount > 0 else {
            storage = nil
            return
        }
        let storage = ObjectValueStorage.make(attributeCount: attributeCount, relationshipCount: relationshipCount)
        storage.withRegions(body)
        self.storage = storage
    }

    /// How many attribute values there are (0 for a fault).
    var attributeCount: Int { storage?.counts.attributeCount ?? 0 }
    /// How many relationship values there are (0 for a fault).
    var relationshipCount: Int { storage?.counts.relationshipCount ?? 0 }
    /// The valid attribute indices.
    var attributeIndices: Range<Int> { 0..<attributeCount }
    /// The valid relationship indices.
    var relationshipIndices: Range<Int> { 0..<relationshipCount }
    /// Whether there are no values at all (a fault's).
    var isEmpty: Bool { storage == nil }

    /// The value of attribute `index`.
    subscript(attribute index: Int) -> PrimitiveValue {
        get {
            guard let storage else { preconditionFailure("attribute index out of range") }
            return storage.withRegions { attributes, _ in
                precondition(index >= 0 && index < storage.counts.attributeCount, "attribute index out of range")
                return attributes[index]
            }
        }
        set {
            makeUnique()
            guard let storage else { preconditionFailure("attribute index out of range") }
            storage.withRegions { attributes, _ in
                precondition(index >= 0 && index < storage.counts.attributeCount, "attribute index out of range")
                attributes[index] = newValue
            }
        }
    }

    /// The value of relationship `index`.
    subscript(relationship index: Int) -> RelationshipValue {
        get {
            guard let storage else { preconditionFailure("relationship index out of range") }
            return storage.withRegions { _, relationships in
                precondition(index >= 0 && index < storage.counts.relationshipCount, "relationship index out of range")
                return relationships[index]
            }
        }
        set {
            makeUnique()
            guard let storage else { preconditionFailure("relationship index out of range") }
            storage.withRegions { _, relationships in
                precondition(index >= 0 && index < storage.counts.relationshipCount, "relationship index out of range")
                relationships[index] = newValue
            }
        }
    }

    /// The value of attribute `index`, or `.null` when there is no such attribute (a fault's
    /// empty values): one read of the buffer, without copying the buffer reference.
    @inline(__always)
    func attributeIfPresent(_ index: Int) -> PrimitiveValue {
        guard let storage else { return .null }
        return storage.withRegions { attributes, _ in
            index >= 0 && index < storage.counts.attributeCount ? attributes[index] : .null
        }
    }

    /// Whether relationship `index` is a to-many not loaded yet (read in place, no copy).
    func isToManyFault(_ index: Int) -> Bool {
        guard let storage else { return false }
        return storage.withRegions { _, relationships in
            precondition(index >= 0 && index < storage.counts.relationshipCount, "relationship index out of range")
            if case .toManyFault = relationships[index] { return true }
            return false
        }
    }

    /// Whether relationship `index` is a loaded to-many (read in place, no copy).
    func isLoadedToMany(_ index: Int) -> Bool {
        guard let storage, index >= 0 && index < storage.counts.relationshipCount else { return false }
        return storage.withRegions { _, relationships in
            if case .toMany = relationships[index] { return true }
            return false
        }
    }

    /// Whether the loaded to-many `index` holds `id`, read in place (no copy of the list);
    /// `nil` when relationship `index` holds no loaded list.
    func toManyContains(_ index: Int, _ id: ObjectID) -> Bool? {
        guard let storage else { return nil }
        return storage.withRegions { _, relationships in
            precondition(index >= 0 && index < storage.counts.relationshipCount, "relationship index out of range")
            guard case .toMany(let list) = relationships[index] else { return nil }
            return list.contains(id)
        }
    }

    /// Calls `body` with the loaded to-many list of relationship `index`, mutated in place: the
    /// list is moved out of the buffer and back, so its storage stays uniquely referenced and
    /// is not copied. Returns `nil` without calling `body` when there is no loaded list.
    mutating func modifyToMany<Result>(_ index: Int, _ body: (inout ObjectIDList) -> Result) -> Result? {
        guard relationshipIndices.contains(index) else { return nil }
        makeUnique()
        guard let storage else { return nil }
        return storage.withRegions { _, relationships in
            let slot = relationships + index
            guard case .toMany = slot.pointee else { return nil }
            guard case .toMany(var list) = slot.move() else { preconditionFailure("checked just above") }
            defer { slot.initialize(to: .toMany(list)) }
            return body(&list)
        }
    }

    /// The attribute values, as a list.
    var attributes: [PrimitiveValue] { attributeIndices.map { self[attribute: $0] } }
    /// The relationship values, as a list.
    var relationships: [RelationshipValue] { relationshipIndices.map { self[relationship: $0] } }

    /// Copies the buffer when another value shares it.
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage), let shared = storage else { return }
        storage = shared.copy()
    }
}

/// The counts at the head of an ``ObjectValueStorage``.
struct ObjectValueCounts {
    let attributeCount: Int
    let relationshipCount: Int
}

/// The buffer of ``ObjectValues``: a header with the counts, then `attributeCount`
/// ``PrimitiveValue``s, then `relationshipCount` ``RelationshipValue``s.
///
/// The buffer's elements are declared as `PrimitiveValue`s; enough of them are allocated after
/// the attributes to hold the relationships, and that region is bound to `RelationshipValue`
/// once, when the buffer is made. Both types are 8-byte aligned and `PrimitiveValue`'s stride is
/// a multiple of 8, so the region starts aligned. Only ``withRegions(_:)`` hands out pointers,
/// each bounded by its count.
final class ObjectValueStorage: ManagedBuffer<ObjectValueCounts, PrimitiveValue> {
    /// The number of `PrimitiveValue` elements that hold `count` relationship values.
    private static func relationshipElements(_ count: Int) -> Int {
        let stride = MemoryLayout<PrimitiveValue>.stride
        return (count * MemoryLayout<RelationshipValue>.stride + stride - 1) / stride
    }

    /// A buffer with room for the counts given, its values not initialized yet.
    static func make(attributeCount: Int, relationshipCount: Int) -> ObjectValueStorage {
        let buffer = create(minimumCapacity: attributeCount + relationshipElements(relationshipCount)) { _ in
            ObjectValueCounts(attributeCount: attributeCount, relationshipCount: relationshipCount)
        }
        // safe: `create` called on this subclass makes an instance of it.
        let storage = unsafeDowncast(buffer, to: ObjectValueStorage.self)
        storage.withUnsafeMutablePointerToElements { elements in
            _ = UnsafeMutableRawPointer(elements + attributeCount).bindMemory(
                to: RelationshipValue.self, capacity: relationshipCount)
        }
        return storage
    }

    /// The counts, read through a pointer (the `header` property would check exclusivity at run time).
    var counts: ObjectValueCounts {
        withUnsafeMutablePointerToHeader { $0.pointee }
    }

    /// Calls `body` with the attribute values and the relationship values.
    @inline(__always)
    func withRegions<Result>(
        _ body: (UnsafeMutablePointer<PrimitiveValue>, UnsafeMutablePointer<RelationshipValue>) -> Result
    ) -> Result {
        withUnsafeMutablePointers { header, elements in
            let relationships = UnsafeMutableRawPointer(elements + header.pointee.attributeCount)
                .assumingMemoryBound(to: RelationshipValue.self)
            return body(elements, relationships)
        }
    }

    /// A buffer holding copies of these values.
    func copy() -> ObjectValueStorage {
        let counts = counts
        let copy = Self.make(attributeCount: counts.attributeCount, relationshipCount: counts.relationshipCount)
        withRegions { attributes, relationships in
            copy.withRegions { targetAttributes, targetRelationships in
                // One value at a time, in code specialized for each type: `initialize(from:count:)`
                // would go through the runtime's generic array copy.
                for index in 0..<counts.attributeCount { (targetAttributes + index).initialize(to: attributes[index]) }
                for index in 0..<counts.relationshipCount {
                    (targetRelationships + index).initialize(to: relationships[index])
                }
            }
        }
        return copy
    }

    deinit {
        let counts = counts
        withRegions { attributes, relationships in
            // One value at a time, in code specialized for each type: `deinitialize(count:)`
            // would go through the runtime's generic array destruction.
            for index in 0..<counts.attributeCount { _ = (attributes + index).move() }
            for index in 0..<counts.relationshipCount { _ = (relationships + index).move() }
        }
    }
}
