/// The destinations of a loaded to-many relationship: IDs in order, with hashed membership.
///
/// The destinations of one relationship all live in one root table, so their primary keys are
/// distinct: membership is a set of primary keys (``PrimaryKeySet``), not of whole IDs.
///
/// One reference wide (copy-on-write, `nil` while empty): every relationship value of every
/// object is as wide as this list, so a list holding its two tables inline made each to-one
/// value 40 bytes instead of 24.
struct ObjectIDList: Equatable {
    /// The IDs and their membership index, shared between copies until one of them changes.
    ///
    /// A list read from the store (``init(distinct:)``) is indexed when it is first asked about membership or
    /// changed, not when it is read: a to-many that is only read (`department.employees`) never hashes its keys.
    /// The index is a cache of ``ids``, so building it inside storage that copies share changes nothing they see.
    private final class Storage {
        @exclusivity(unchecked) var ids: [ObjectID]
        /// The primary keys of `ids`, once ``isIndexed``.
        @exclusivity(unchecked) var members: PrimaryKeySet
        /// Whether ``members`` holds every ID of ``ids``; otherwise it is empty.
        @exclusivity(unchecked) var isIndexed: Bool

        init(ids: [ObjectID], members: PrimaryKeySet) {
            self.ids = ids
            self.members = members
            isIndexed = true
        }

        /// IDs known to be distinct, indexed on first use.
        init(unindexed ids: [ObjectID]) {
            self.ids = ids
            members = PrimaryKeySet()
            isIndexed = false
        }

        /// This storage, its ``members`` built first when it was not indexed yet.
        @inline(__always)
        func indexed() -> Storage {
            if !isIndexed { buildIndex() }
            return self
        }

        @inline(never)
        private func buildIndex() {
            var members = PrimaryKeySet(minimumCapacity: ids.count)
            for id in ids { members.insert(id.primaryKey) }
            self.members = members
            isIndexed = true
        }
    }

    private var storage: Storage?

    init() {}

    init(_ ids: [ObjectID]) {
        for id in ids { append(id) }
    }

    /// A list of IDs known to be distinct (rows of one query), indexed in one go when first asked about
    /// membership or changed.
    init(distinct ids: [ObjectID]) {
        guard !ids.isEmpty else { return }
        storage = Storage(unindexed: ids)
    }

    static func == (lhs: ObjectIDList, rhs: ObjectIDList) -> Bool { lhs.ids == rhs.ids }

    /// The IDs, in order.
    var ids: [ObjectID] { storage?.ids ?? [] }

    var count: Int { storage?.ids.count ?? 0 }

    /// Whether `id` is in the list (`id` must be of the relationship's destination hierarchy:
    /// membership is by primary key).
    func contains(_ id: ObjectID) -> Bool {
        storage?.indexed().members.contains(id.primaryKey) ?? false
    }

    func firstIndex(of id: ObjectID) -> Int? {
        guard let storage, storage.indexed().members.contains(id.primaryKey) else { return nil }
        return storage.ids.firstIndex(of: id)
    }

    /// Appends `id` unless present; whether it was added.
    @discardableResult
    mutating func append(_ id: ObjectID) -> Bool {
        // The storage is used in place (not returned and retained): this is every inverse to-many's append.
        if !isKnownUniquelyReferenced(&storage) { storage = copiedStorage() }
        // safe: `copiedStorage()` returns a storage, and a uniquely referenced one is not nil. Borrowed: this list
        // holds it.
        return Unmanaged.passUnretained(storage.unsafelyUnwrapped)._withUnsafeGuaranteedRef { unique in
            guard unique.indexed().members.insert(id.primaryKey) else { return false }
            unique.ids.append(id)
            return true
        }
    }

    /// Appends `id`, which the caller knows is not in the list: no membership test, and a list that is not indexed
    /// yet (one read from the store, or one filled only this way) stays so until it is first asked about
    /// membership or changed otherwise.
    ///
    /// For the inverse side of a link (``ManagedObject/link(_:via:at:)``): the source joins the inverse only when
    /// its own side did not name this object, and the two sides name each other or neither, so the source cannot
    /// be in the list yet. An inserted department's list of 20,000 employees then costs an array append per
    /// employee instead of a hash insert (and the set's growing) per employee.
    mutating func appendDistinct(_ id: ObjectID) {
        guard storage != nil else {
            storage = Storage(unindexed: [id])
            return
        }
        if !isKnownUniquelyReferenced(&storage) { storage = copiedStorage() }
        // safe: a uniquely referenced storage is not nil. Borrowed: this list holds it.
        Unmanaged.passUnretained(storage.unsafelyUnwrapped)._withUnsafeGuaranteedRef { unique in
            assert(!unique.isIndexed || !unique.members.contains(id.primaryKey), "\(id) is in the list already")
            if unique.isIndexed { unique.members.insert(id.primaryKey) }
            unique.ids.append(id)
        }
    }

    /// Inserts `id` at `index` (clamped) unless present; whether it was added.
    @discardableResult
    mutating func insert(_ id: ObjectID, at index: Int) -> Bool {
        let storage = uniqueStorage()
        guard storage.indexed().members.insert(id.primaryKey) else { return false }
        storage.ids.insert(id, at: min(max(index, 0), storage.ids.count))
        return true
    }

    /// Removes `id`; whether it was present.
    @discardableResult
    mutating func remove(_ id: ObjectID) -> Bool {
        guard let index = firstIndex(of: id) else { return false }
        let storage = uniqueStorage()
        storage.indexed().members.remove(id.primaryKey)
        storage.ids.remove(at: index)
        return true
    }

    /// Reorders to `order`, which must hold exactly the same IDs.
    mutating func reorder(_ order: [ObjectID]) {
        guard !order.isEmpty, order.count == count, Set(order) == Set(ids) else { return }
        uniqueStorage().ids = order
    }

    /// The storage, made first when the list is empty and copied first when another list shares it.
    private mutating func uniqueStorage() -> Storage {
        if isKnownUniquelyReferenced(&storage), let storage { return storage }
        let unique = copiedStorage()
        storage = unique
        return unique
    }

    /// A new storage holding this list's IDs (an empty one for an empty list).
    private func copiedStorage() -> Storage {
        guard let storage else { return Storage(ids: [], members: PrimaryKeySet()) }
        return storage.isIndexed ? Storage(ids: storage.ids, members: storage.members) : Storage(unindexed: storage.ids)
    }
}

/// A set of primary keys (positive integers): open addressing with linear probing and a
/// multiplicative hash, at most half full. Several times cheaper than `Set<ObjectID>`, whose
/// SipHash dominated bulk inserts that fill to-many relationships.
struct PrimaryKeySet {
    /// 0 marks an empty slot (primary keys start at 1); other non-positive keys live in `others`.
    private var slots: [Int64] = []
    private var others: Set<Int64> = []
    private(set) var count = 0

    init() {}

    init(minimumCapacity: Int) {
        var size = 8
        while size < minimumCapacity * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
    }

    @inline(__always)
    private static func hash(_ key: Int64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    func contains(_ key: Int64) -> Bool {
        guard key > 0 else { return others.contains(key) }
        guard !slots.isEmpty else { return false }
        let mask = slots.count - 1
        var index = Self.hash(key, mask: mask)
        while true {
            let slot = slots[index]
            if slot == key { return true }
            if slot == 0 { return false }
            index = (index + 1) & mask
        }
    }

    /// Adds `key`; whether it was not there yet.
    @discardableResult
    mutating func insert(_ key: Int64) -> Bool {
        guard key > 0 else {
            guard others.insert(key).inserted else { return false }
            count += 1
            return true
        }
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = Self.hash(key, mask: mask)
        while true {
            let slot = slots[index]
            if slot == key { return false }
            if slot == 0 {
                slots[index] = key
                count += 1
                return true
            }
            index = (index + 1) & mask
        }
    }

    /// Removes `key` (backward-shift deletion keeps every probe chain intact).
    mutating func remove(_ key: Int64) {
        guard key > 0 else {
            if others.remove(key) != nil { count -= 1 }
            return
        }
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var index = Self.hash(key, mask: mask)
        while slots[index] != key {
            if slots[index] == 0 { return }
            index = (index + 1) & mask
        }
        slots[index] = 0
        count -= 1
        var next = (index + 1) & mask
        while slots[next] != 0 {
            let moved = slots[next]
            let home = Self.hash(moved, mask: mask)
            // Move `moved` back into the hole when its home is not between the hole and it.
            let distanceToHole = (index - home) & mask
            let distanceToNext = (next - home) & mask
            if distanceToHole < distanceToNext {
                slots[index] = moved
                slots[next] = 0
                index = next
            }
            next = (next + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        // Quadrupled while small (fewer rehashes of a list that is being filled, as an inserted business's
        // employees are), doubled from 16,384 slots on.
        slots = Array(repeating: 0, count: max(8, old.count < 16_384 ? old.count * 4 : old.count * 2))
        let mask = slots.count - 1
        for key in old where key != 0 {
            var index = Self.hash(key, mask: mask)
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = key
        }
    }
}

/// A relationship's value in an object.
enum RelationshipValue: Equatable {
    /// A to-one: the destination's ID, or none.
    case toOne(ObjectID?)
    /// A to-many not loaded from the store yet (a relationship fault).
    case toManyFault
    /// A loaded to-many.
    case toMany(ObjectIDList)
}
