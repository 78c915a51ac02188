import Foundation

/// The identity map of a context: objects by ID.
///
/// The objects themselves live in a dense list (``members``); the two indexes over it hold plain
/// integers (an object's place in the list), so growing them moves integers only, with no
/// reference counting and without reading any object, and dropping the table releases exactly
/// the objects.
///
/// **Direct index.** Primary keys of a Core Data store are small, dense integers (each table
/// counts from 1), so most IDs are found without hashing: per entity number, an array of 32-bit
/// places indexed by the primary key itself (``directPlaces``). A lookup is two bounds checks and
/// one read; rows that come in key order (every fetch ends its `ORDER BY` with `Z_PK`, inserted
/// objects get ever larger keys) fill it sequentially, one cache line per 16 objects. An entity's
/// array grows by doubling while its keys stay dense enough (at most 8 slots per object of the
/// entity beyond the first 2¹⁷ slots: 4 to 32 bytes an object).
///
/// **Hash index**, for the rest (negative or sparse keys, entity numbers beyond 4,096): an
/// open-addressing table of 8-byte slots, a multiplicative hash and linear probing over a table
/// at most half full; a slot whose hash matches is confirmed against its object's ID, and
/// removal shifts entries back, so there are no tombstones. An ID lives in exactly one index: the
/// direct one when its key was inside its entity's array when it was added. A key the direct index
/// does not hold is looked up in the hash index too, but only while that index holds anything.
struct ObjectTable: ~Copyable {
    /// One slot of the hash index.
    private struct Slot {
        /// The low 32 bits of the ID's ``hash(_:_:)``: its home slot in any table of up to 2³²
        /// slots (growing never reads objects), and a filter before the ID is compared.
        var hash: UInt32
        /// The object's place in ``members``, plus one; 0 marks an empty slot.
        var member: Int32
    }

    /// Where an object not in the table would go: see ``find(_:orVacancy:)``.
    struct Vacancy {
        fileprivate var slot = -1
        fileprivate var generation = -1
        fileprivate var primaryKey: Int64 = 0
        fileprivate var entityNumber: Int32 = 0
    }

    /// Every registered object, in insertion order (a removal moves the last one into the gap).
    private var members = ObjectList()
    /// Per entity number, the place in ``members`` plus one (0: none) of the object with each primary key below the
    /// entity's capacity.
    private var direct = DirectPlaces()
    private var slots = [Slot](repeating: Slot(hash: 0, member: 0), count: 64)
    private var mask = 63
    /// How many objects the hash index holds.
    private var hashedCount = 0
    /// Changes with every change to the indexes, so a ``Vacancy`` found before one is not used after it.
    private var generation = 0

    /// The ``Vacancy`` slot of an ID that goes to the direct index.
    private static let directSlot = -2
    /// Entity numbers below this get a direct index.
    private static let directEntities = 1 << 12
    /// An entity's direct array grows to this many slots whatever its density.
    private static let directFreeSlots = 1 << 17
    /// Beyond ``directFreeSlots``, at most this many slots per object of the entity.
    private static let directSlotsPerObject = 8

    var count: Int { members.count }

    /// How many low bits of a primary key pick the slot within its run (16 keys).
    private static let runBits = 4

    /// The home slot of a key in the hash index, before masking: consecutive primary keys of an
    /// entity get consecutive slots, in runs of 16 that the hash scatters (keys that are not
    /// consecutive scatter as with a plain hash).
    @inline(__always)
    private static func hash(_ primaryKey: Int64, _ entityNumber: Int) -> Int {
        let key = UInt64(bitPattern: primaryKey)
        let run = (key >> UInt64(runBits)) ^ (UInt64(truncatingIfNeeded: entityNumber) &* 0xC2B2_AE3D_27D4_EB4F)
        let scattered = (run &* 0x9E37_79B9_7F4A_7C15) >> 24
        return Int(truncatingIfNeeded: scattered << UInt64(runBits) | key & (1 << UInt64(runBits) - 1))
    }

    // MARK: The direct index

    /// The place plus one of `id` in the direct index (0: none there), or `nil` when the direct index does not cover
    /// its key now.
    @inline(__always)
    private func directPlace(of id: ObjectID) -> Int32? {
        direct.place(entity: id.entityNumber, key: id.primaryKey)
    }

    /// Whether `id` can go to the direct index, after growing its entity's array when its density allows.
    private mutating func makeDirectRoom(for id: ObjectID) -> Bool {
        let entity = id.entityNumber
        let key = id.primaryKey
        guard entity >= 0 && entity < Self.directEntities && key >= 0 else { return false }
        let (capacity, objects) = direct.capacityAndCount(entity: entity)
        if key < Int64(capacity) { return true }
        let limit = max(Self.directFreeSlots, Self.directSlotsPerObject * (objects + 1))
        guard key < Int64(limit) else { return false }
        var size = max(capacity * 2, 64)
        while Int64(size) <= key { size *= 2 }
        direct.grow(entity: entity, to: min(size, limit))
        return true
    }

    /// Records `place` (plus one; 0 clears) for `id`, whose key the direct index covers.
    @inline(__always)
    private mutating func setDirectPlace(_ place: Int32, of id: ObjectID) {
        direct.setPlace(place, entity: id.entityNumber, key: Int(id.primaryKey))
    }

    // MARK: The hash index

    /// The slot holding `id`, or `nil`.
    @inline(__always)
    private func slotIndex(of id: ObjectID) -> Int? {
        guard hashedCount > 0 else { return nil }
        let found = probe(id)
        return slots[found].member == 0 ? nil : found
    }

    /// The slot holding `id`, or the empty slot that ends its probe chain.
    @inline(__always)
    private func probe(_ id: ObjectID) -> Int {
        let hash = Self.hash(id.primaryKey, id.entityNumber)
        let tag = UInt32(truncatingIfNeeded: hash)
        var index = hash & mask
        while true {
            let slot = slots[index]
            if slot.member == 0 { return index }
            if slot.hash == tag && members[Int(slot.member) - 1].objectID == id { return index }
            index = (index + 1) & mask
        }
    }

    /// The slot holding `id` or the empty one where it would go, after growing the table when
    /// one more object would fill it more than half (so the empty slot stays right).
    @inline(__always)
    private mutating func probeWithRoom(for id: ObjectID) -> Int {
        if (hashedCount + 1) * 2 > slots.count { grow() }
        return probe(id)
    }

    /// Puts `slot` in the first free slot of its probe chain.
    @inline(__always)
    private mutating func place(_ slot: Slot) {
        var index = Int(slot.hash) & mask
        while slots[index].member != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Doubles the hash index, or quadruples a large one.
    private mutating func grow() {
        generation &+= 1
        let old = slots
        let factor = old.count >= 1 << 12 ? 4 : 2
        // Masks stay below 2³², within the 32 bits of the hash each slot keeps.
        slots = [Slot](repeating: Slot(hash: 0, member: 0), count: old.count * factor)
        mask = slots.count - 1
        for slot in old where slot.member != 0 { place(slot) }
    }

    /// Removes the entry of slot `hole`, shifting later entries of its chain back.
    private mutating func clearSlot(_ hole: Int) {
        var hole = hole
        // Backward-shift deletion: later entries of the chain move into the hole when their
        // home slot does not lie between the hole and them.
        slots[hole].member = 0
        hashedCount -= 1
        var next = (hole + 1) & mask
        while slots[next].member != 0 {
            let moved = slots[next]
            let home = Int(moved.hash) & mask
            if (hole - home) & mask < (next - home) & mask {
                slots[hole] = moved
                slots[next].member = 0
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    // MARK: Operations

    /// The object registered under `id`; or `nil`, with `vacancy` set to where an object
    /// with that ID would go, for ``fill(_:with:)``: one lookup for a lookup that is followed by
    /// an insertion.
    // Inlined into the row loops (a fetch's, a to-many load's), as is `fill(_:with:)`; their rare paths stay calls.
    // Two calls per row cost about 30 instructions: 0.6 M of a 20,000-row fetch or traversal.
    @inline(__always)
    mutating func find(_ id: ObjectID, orVacancy vacancy: inout Vacancy) -> ManagedObject? {
        if let place = directPlace(of: id) {
            if place != 0 { return members[Int(place) - 1] }
            if hashedCount == 0 {
                vacancy = Vacancy(
                    slot: Self.directSlot, generation: generation, primaryKey: id.primaryKey,
                    entityNumber: Int32(truncatingIfNeeded: id.entityNumber))
                return nil
            }
        }
        if let object = self[hashed: id] { return object }
        if makeDirectRoom(for: id) {
            vacancy = Vacancy(
                slot: Self.directSlot, generation: generation, primaryKey: id.primaryKey,
                entityNumber: Int32(truncatingIfNeeded: id.entityNumber))
            return nil
        }
        let index = probeWithRoom(for: id)
        vacancy = Vacancy(
            slot: index, generation: generation, primaryKey: id.primaryKey,
            entityNumber: Int32(truncatingIfNeeded: id.entityNumber))
        return nil
    }

    /// Adds `object` where ``find(_:orVacancy:)`` said it would go. When the table changed
    /// since, or `vacancy` was found for another ID, this is an ``insert(_:)``.
    @inline(__always)
    mutating func fill(_ vacancy: Vacancy, with object: ManagedObject) {
        let id = object.objectID
        guard vacancy.generation == generation, vacancy.primaryKey == id.primaryKey,
            vacancy.entityNumber == Int32(truncatingIfNeeded: id.entityNumber)
        else {
            insert(object)
            return
        }
        append(object, id, slot: vacancy.slot)
    }

    /// The object registered under `id`, or `nil`.
    subscript(id: ObjectID) -> ManagedObject? {
        if let place = directPlace(of: id), place != 0 { return members[Int(place) - 1] }
        return self[hashed: id]
    }

    /// The object the hash index holds under `id`, or `nil`.
    private subscript(hashed id: ObjectID) -> ManagedObject? {
        guard let index = slotIndex(of: id) else { return nil }
        return members[Int(slots[index].member) - 1]
    }

    /// Adds `object` under its ID, replacing any object with the same ID.
    mutating func insert(_ object: ManagedObject) {
        let id = object.objectID
        if let place = directPlace(of: id) {
            if place != 0 {
                members[Int(place) - 1] = object
                return
            }
            if hashedCount == 0 {
                append(object, id, slot: Self.directSlot)
                return
            }
        }
        if let index = slotIndex(of: id) {
            members[Int(slots[index].member) - 1] = object
            return
        }
        append(object, id, slot: makeDirectRoom(for: id) ? Self.directSlot : probeWithRoom(for: id))
    }

    /// Appends `object` to ``members`` and records it in the direct index (`slot` is ``directSlot``, its key covered)
    /// or in the empty hash slot `slot` of its probe chain.
    @inline(__always)
    private mutating func append(_ object: ManagedObject, _ id: ObjectID, slot: Int) {
        members.append(object)
        // Fewer than 2³¹ objects: the count fits an `Int32`.
        let place = Int32(truncatingIfNeeded: members.count)
        if slot == Self.directSlot {
            setDirectPlace(place, of: id)
        } else {
            slots[slot] = Slot(
                hash: UInt32(truncatingIfNeeded: Self.hash(id.primaryKey, id.entityNumber)), member: place)
            hashedCount += 1
        }
        generation &+= 1
    }

    /// Points the index entry of `id` (registered) at `place` (plus one).
    private mutating func moveEntry(of id: ObjectID, to place: Int32) {
        if let current = directPlace(of: id), current != 0 {
            setDirectPlace(place, of: id)
        } else if let index = slotIndex(of: id) {
            slots[index].member = place
        }
    }

    /// Removes the object with `id`.
    mutating func remove(_ id: ObjectID) {
        let position: Int
        if let place = directPlace(of: id), place != 0 {
            position = Int(place) - 1
            setDirectPlace(0, of: id)
        } else if let hole = slotIndex(of: id) {
            position = Int(slots[hole].member) - 1
            clearSlot(hole)
        } else {
            return
        }
        generation &+= 1
        // Fill the member's place with the last member, and point that one's entry at it.
        let last = members.count - 1
        if position != last {
            moveEntry(of: members[last].objectID, to: Int32(truncatingIfNeeded: position + 1))
            members.swapAt(position, last)
        }
        members.removeLast()
    }

    /// Every object, in insertion order.
    var objects: [ManagedObject] {
        members.array
    }

    /// Lets every object go, as the context goes; `shared` is what its objects share, still held by the context.
    /// The objects referenced elsewhere outlive it: they keep `shared` alive from now on, counted at once.
    mutating func removeAll(sharing shared: ContextShared) {
        members.removeAll(sharing: shared)
        self = ObjectTable()
    }
}

/// The direct index of an ``ObjectTable``: per entity number, a buffer of 32-bit places indexed by primary key, and
/// how many it holds. Owned buffers (no copy-on-write checks on the path of every fetched row); not copyable.
private struct DirectPlaces: ~Copyable {
    private struct Entity {
        var places: UnsafeMutablePointer<Int32>?
        var capacity = 0
        var count = 0
    }

    private var entities: UnsafeMutablePointer<Entity>
    private var entityCapacity = 0

    init() { entities = .allocate(capacity: 0) }

    deinit {
        for entity in 0..<entityCapacity { free(entities[entity].places) }
        entities.deinitialize(count: entityCapacity)
        entities.deallocate()
    }

    /// The place plus one recorded for `key` (0: none), or `nil` when `entity`'s buffer does not cover `key`.
    @inline(__always)
    func place(entity: Int, key: Int64) -> Int32? {
        guard entity >= 0 && entity < entityCapacity else { return nil }
        let record = entities[entity]
        guard key >= 0 && key < Int64(record.capacity), let places = record.places else { return nil }
        return places[Int(key)]
    }

    /// The capacity of `entity`'s buffer and how many places it holds (0 and 0 for an entity without one).
    func capacityAndCount(entity: Int) -> (capacity: Int, count: Int) {
        guard entity >= 0 && entity < entityCapacity else { return (0, 0) }
        return (entities[entity].capacity, entities[entity].count)
    }

    /// Records `place` (0 clears) for `key`, which `entity`'s buffer covers.
    @inline(__always)
    mutating func setPlace(_ place: Int32, entity: Int, key: Int) {
        precondition(entity >= 0 && entity < entityCapacity, "direct index entity out of range")
        let record = entities + entity
        guard let places = record.pointee.places, key >= 0 && key < record.pointee.capacity else {
            preconditionFailure("direct index key out of range")
        }
        let old = places[key]
        places[key] = place
        record.pointee.count += (place != 0 ? 1 : 0) - (old != 0 ? 1 : 0)
    }

    /// Grows `entity`'s buffer (and the list of entities) so it covers keys below `capacity`, new places empty.
    mutating func grow(entity: Int, to capacity: Int) {
        precondition(entity >= 0, "direct index entity out of range")
        if entity >= entityCapacity {
            let newCapacity = max(entity + 1, entityCapacity * 2, 8)
            let larger = UnsafeMutablePointer<Entity>.allocate(capacity: newCapacity)
            larger.moveInitialize(from: entities, count: entityCapacity)
            (larger + entityCapacity).initialize(repeating: Entity(), count: newCapacity - entityCapacity)
            entities.deallocate()
            entities = larger
            entityCapacity = newCapacity
        }
        let record = entities + entity
        let old = record.pointee.capacity
        guard capacity > old else { return }
        // Zeroed by `calloc`: a large buffer comes as fresh pages that are zero without being written, so a few
        // objects with large keys (a context that looks up one object by ID) touch a page or two of it, not all.
        guard let raw = calloc(capacity, MemoryLayout<Int32>.stride) else {
            preconditionFailure("out of memory for the identity map's direct index")
        }
        let places = raw.bindMemory(to: Int32.self, capacity: capacity)
        if let current = record.pointee.places {
            places.update(from: current, count: old)
            free(current)
        }
        record.pointee.places = places
        record.pointee.capacity = capacity
    }
}

/// The objects of an ``ObjectTable``, owned, in a growable buffer: an append is a capacity check, a store and a count
/// (`ContiguousArray<ManagedObject>.append` makes four calls out of line, about 100 instructions, once per fetched
/// row). Not copyable: exactly one owner releases the objects.
///
/// An object that leaves the list while it may live on keeps what its context shares alive itself from then on
/// (``ManagedObject/sharesContextFromNowOn()``): in the list, the context keeps it alive for the object.
private struct ObjectList: ~Copyable {
    private var base: UnsafeMutablePointer<ManagedObject>
    private var capacity = 16
    private(set) var count = 0

    init() { base = .allocate(capacity: 16) }

    deinit {
        // A context empties its identity map before it lets go of what its objects share (``removeAll(sharing:)``);
        // a list that is not a context's identity map holds objects that their context's map holds too.
        // One release per object, made here: `deinitialize(count:)` destroyed them through the runtime's generic array
        // destroy, a value-witness call per object.
        for index in 0..<count { (base + index).deinitialize(count: 1) }
        base.deallocate()
    }

    /// Lets every object go (see ``ObjectTable/removeAll(sharing:)``). Those referenced elsewhere become sharers of
    /// `shared`; the others go here, without touching `shared`'s count. One pass over the objects (each is read once,
    /// a fetch's objects are far more than the caches hold), with one atomic operation before and one after: every
    /// object is counted first, so that a survivor released on another thread as soon as the list lets go of it
    /// cannot take the count to zero, and those that did not survive are uncounted at the end. An object is judged by
    /// its strong references: a `weak` or `unowned` one loaded on another thread meanwhile would not keep it counted,
    /// which is one more reason objects stay on their context's queue (they are not `Sendable`).
    mutating func removeAll(sharing shared: ContextShared) {
        guard count > 0 else { return }
        shared.addSharers(count)
        var uncounted = 0
        for index in 0..<count {
            let object = base + index
            if object.pointee.sharesContext || isKnownUniquelyReferenced(&object.pointee) {
                uncounted += 1
            } else {
                object.pointee.sharesContext = true
            }
            object.deinitialize(count: 1)
        }
        count = 0
        ContextShared.removeSharers(uncounted, from: .passUnretained(shared))
    }

    subscript(position: Int) -> ManagedObject {
        @inline(__always) get {
            precondition(position >= 0 && position < count, "object list index out of range")
            return base[position]
        }
        @inline(__always) set {
            precondition(position >= 0 && position < count, "object list index out of range")
            if base[position] !== newValue { base[position].sharesContextFromNowOn() }
            base[position] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ object: ManagedObject) {
        if count == capacity { grow() }
        (base + count).initialize(to: object)
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<ManagedObject>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Exchanges the objects at `first` and `second`.
    mutating func swapAt(_ first: Int, _ second: Int) {
        precondition(first >= 0 && first < count && second >= 0 && second < count, "object list index out of range")
        guard first != second else { return }
        let object = (base + first).move()
        (base + first).moveInitialize(from: base + second, count: 1)
        (base + second).initialize(to: object)
    }

    mutating func removeLast() {
        precondition(count > 0, "removeLast of an empty object list")
        count -= 1
        (base + count).move().sharesContextFromNowOn()
    }

    /// The objects, in order.
    var array: [ManagedObject] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }
}
