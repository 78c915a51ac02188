/// The identity map of a context: objects by ID, in an open-addressing hash table.
///
/// A `Dictionary<ObjectID, ManagedObject>` spends most of a bulk insert rehashing with
/// SipHash; primary keys are already well-spread integers, so a multiplicative hash, linear
/// probing over a table at most half full do the same job several times faster.
///
/// The objects themselves live in a dense list (``members``); the table's slots hold plain
/// integers (32 bits of the ID's hash and the object's place in the list: 8 bytes, so a table
/// at most half full costs 16 to 64 bytes per object, not 32 to 128). Growing the table then
/// moves integers only, with no reference counting and without reading any object, and dropping
/// it releases exactly the objects, not one optional per slot. A slot whose hash matches is
/// confirmed against its object's ID. Removal uses backward shifting, so there are no
/// tombstones.
///
/// A context that only adds objects does not hash them until it looks one up. While nothing is
/// indexed, an object whose primary key is greater than every key of its entity so far cannot
/// repeat an ID already there (IDs of different entities always differ), so it is only appended
/// to ``members``: a fetch's rows come in primary key order (every fetch ends its `ORDER BY`
/// with `Z_PK`), and inserted objects get ever larger keys. The first operation that needs the
/// slots — a lookup, a key out of order, a removal — indexes every object once, which is the
/// work the additions would have done; a fetch that only reads its objects, or inserts that are
/// only saved, never pay it.
struct ObjectTable: ~Copyable {
    /// One slot of the table.
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
    private var slots = [Slot](repeating: Slot(hash: 0, member: 0), count: 64)
    private var mask = 63
    /// Changes with every change to the slots, so a ``Vacancy`` found before one is not used after it.
    private var generation = 0
    /// Whether every member is in the slots; until the first operation that needs them, none is.
    private var isIndexed = false
    /// While not ``isIndexed``: the greatest primary key of each entity number so far (`Int64.min` for none).
    private var greatestKeys: [Int64] = []

    /// The place of a ``Vacancy`` at the end of ``members``, for a table not indexed yet.
    private static let appendSlot = -2
    /// Entity numbers up to this many are tracked in ``greatestKeys``; an object of a larger one indexes the table.
    private static let trackedEntities = 1 << 12

    var count: Int { members.count }

    /// How many low bits of a primary key pick the slot within its run (16 keys).
    private static let runBits = 4

    /// The home slot of a key, before masking: consecutive primary keys of an entity get
    /// consecutive slots, in runs of 16 that the hash scatters.
    ///
    /// Rows mostly come in primary key order, so a fetch fills 16 slots (4 cache lines) in a
    /// row before it jumps, instead of touching a random cache line per row: with a table of
    /// megabytes, that miss was the largest single cost of materializing a row. Keys that
    /// are not consecutive scatter as with a plain hash; a run is a bucket of 16 slots, and
    /// even keys that all share their low bits fill a bucket at most half, on average, in a
    /// table at most half full.
    @inline(__always)
    private static func hash(_ primaryKey: Int64, _ entityNumber: Int) -> Int {
        let key = UInt64(bitPattern: primaryKey)
        let run = (key >> UInt64(runBits)) ^ (UInt64(truncatingIfNeeded: entityNumber) &* 0xC2B2_AE3D_27D4_EB4F)
        let scattered = (run &* 0x9E37_79B9_7F4A_7C15) >> 24
        return Int(truncatingIfNeeded: scattered << UInt64(runBits) | key & (1 << UInt64(runBits) - 1))
    }

    /// The slot holding `id`, or `nil` (the table is indexed).
    @inline(__always)
    private func slotIndex(of id: ObjectID) -> Int? {
        let found = probe(id)
        return slots[found].member == 0 ? nil : found
    }

    /// Whether an object with `id` can be appended without indexing: nothing is indexed yet, and its key is greater
    /// than every key of its entity so far (so no member has its ID).
    @inline(__always)
    private func isAppendable(_ id: ObjectID) -> Bool {
        guard !isIndexed else { return false }
        let entity = id.entityNumber
        guard entity >= 0 && entity < greatestKeys.count else { return entity >= 0 && entity < Self.trackedEntities }
        return id.primaryKey > greatestKeys[entity]
    }

    /// Appends `object`, which ``isAppendable(_:)`` allowed, without indexing it.
    @inline(__always)
    private mutating func append(_ object: ManagedObject, _ id: ObjectID) {
        let entity = id.entityNumber
        if entity >= greatestKeys.count {
            greatestKeys.append(contentsOf: repeatElement(Int64.min, count: entity + 1 - greatestKeys.count))
        }
        greatestKeys[entity] = id.primaryKey
        members.append(object)
        generation &+= 1
    }

    /// Puts every member in the slots, in a table sized for them at most half full (once: the table stays indexed).
    private mutating func indexAll() {
        guard !isIndexed else { return }
        isIndexed = true
        greatestKeys = []
        generation &+= 1
        guard !members.isEmpty else { return }
        var size = slots.count
        while members.count * 2 > size { size *= size >= 1 << 12 ? 4 : 2 }
        if size != slots.count {
            slots = [Slot](repeating: Slot(hash: 0, member: 0), count: size)
            mask = size - 1
        }
        for position in 0..<members.count {
            let id = members[position].objectID
            // Table sizes are powers of two far below 2³¹ slots: the count fits an `Int32`.
            place(
                Slot(
                    hash: UInt32(truncatingIfNeeded: Self.hash(id.primaryKey, id.entityNumber)),
                    member: Int32(position + 1)))
        }
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

    /// The object registered under `id`; or `nil`, with `vacancy` set to where an object
    /// with that ID would go, for ``fill(_:with:)``: one probe of the table for a lookup that
    /// is followed by an insertion.
    mutating func find(_ id: ObjectID, orVacancy vacancy: inout Vacancy) -> ManagedObject? {
        if !isIndexed {
            if isAppendable(id) {
                vacancy = Vacancy(
                    slot: Self.appendSlot, generation: generation, primaryKey: id.primaryKey,
                    entityNumber: Int32(truncatingIfNeeded: id.entityNumber))
                return nil
            }
            indexAll()
        }
        let index = probeWithRoom(for: id)
        let member = Int(slots[index].member)
        if member != 0 { return members[member - 1] }
        vacancy = Vacancy(
            slot: index, generation: generation, primaryKey: id.primaryKey,
            entityNumber: Int32(truncatingIfNeeded: id.entityNumber))
        return nil
    }

    /// Adds `object` where ``find(_:orVacancy:)`` said it would go. When the table changed
    /// since, or `vacancy` was found for another ID, this is an ``insert(_:)``.
    mutating func fill(_ vacancy: Vacancy, with object: ManagedObject) {
        let id = object.objectID
        guard vacancy.generation == generation, vacancy.primaryKey == id.primaryKey,
            vacancy.entityNumber == Int32(truncatingIfNeeded: id.entityNumber)
        else {
            insert(object)
            return
        }
        if vacancy.slot == Self.appendSlot {
            // `find` made this vacancy in a table not indexed yet, and nothing changed since.
            append(object, id)
            return
        }
        occupy(vacancy.slot, with: object)
    }

    /// The object registered under `id`, or `nil` (indexes the table first: see the type's description).
    subscript(id: ObjectID) -> ManagedObject? {
        mutating get {
            indexAll()
            return object(at: id)
        }
    }

    /// The object registered under `id` in the indexed table.
    private func object(at id: ObjectID) -> ManagedObject? {
        guard let index = slotIndex(of: id) else { return nil }
        return members[Int(slots[index].member) - 1]
    }

    /// Adds `object` under its ID, replacing any object with the same ID.
    mutating func insert(_ object: ManagedObject) {
        let id = object.objectID
        if isAppendable(id) {
            append(object, id)
            return
        }
        indexAll()
        let index = probeWithRoom(for: object.objectID)
        let member = Int(slots[index].member)
        if member != 0 {
            members[member - 1] = object
        } else {
            occupy(index, with: object)
        }
    }

    /// The slot holding `id` or the empty one where it would go, after growing the table when
    /// one more object would fill it more than half (so the empty slot stays right).
    @inline(__always)
    private mutating func probeWithRoom(for id: ObjectID) -> Int {
        if (members.count + 1) * 2 > slots.count { grow() }
        return probe(id)
    }

    /// Puts `object` in the empty slot `index` of its ID's probe chain.
    @inline(__always)
    private mutating func occupy(_ index: Int, with object: ManagedObject) {
        let id = object.objectID
        members.append(object)
        // Table sizes are powers of two far below 2³¹ slots: the count fits an `Int32`.
        slots[index] = Slot(
            hash: UInt32(truncatingIfNeeded: Self.hash(id.primaryKey, id.entityNumber)), member: Int32(members.count))
        generation &+= 1
    }

    /// Puts `slot` in the first free slot of its probe chain.
    @inline(__always)
    private mutating func place(_ slot: Slot) {
        generation &+= 1
        var index = Int(slot.hash) & mask
        while slots[index].member != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Removes the object with `id`.
    mutating func remove(_ id: ObjectID) {
        indexAll()
        guard var hole = slotIndex(of: id) else { return }
        generation &+= 1
        let position = Int(slots[hole].member) - 1
        // Backward-shift deletion: later entries of the chain move into the hole when their
        // home slot does not lie between the hole and them.
        slots[hole].member = 0
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
        // Fill the member's place with the last member, and point that one's slot at it.
        let last = members.count - 1
        if position != last {
            let lastObject = members[last]
            if let slot = slotIndex(of: lastObject.objectID) { slots[slot].member = Int32(position + 1) }
            members.swapAt(position, last)
        }
        members.removeLast()
    }

    /// Calls `body` with every object, in insertion order, without building an array.
    func forEach(_ body: (ManagedObject) -> Void) {
        members.forEach(body)
    }

    /// Every object, in insertion order.
    var objects: [ManagedObject] {
        members.array
    }

    /// Doubles the table, or quadruples a large one (a fetch of many rows then moves its slots half as often).
    private mutating func grow() {
        let old = slots
        let factor = old.count >= 1 << 12 ? 4 : 2
        // Masks stay below 2³², within the 32 bits of the hash each slot keeps.
        slots = [Slot](repeating: Slot(hash: 0, member: 0), count: old.count * factor)
        mask = slots.count - 1
        for slot in old where slot.member != 0 { place(slot) }
    }
}

/// The objects of an ``ObjectTable``, owned, in a growable buffer: an append is a capacity check, a store and a count
/// (`ContiguousArray<ManagedObject>.append` makes four calls out of line, about 100 instructions, once per fetched
/// row). Not copyable: exactly one owner releases the objects.
private struct ObjectList: ~Copyable {
    private var base: UnsafeMutablePointer<ManagedObject>
    private var capacity = 16
    private(set) var count = 0

    init() { base = .allocate(capacity: 16) }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    subscript(position: Int) -> ManagedObject {
        @inline(__always) get {
            precondition(position >= 0 && position < count, "object list index out of range")
            return base[position]
        }
        @inline(__always) set {
            precondition(position >= 0 && position < count, "object list index out of range")
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
        (base + count).deinitialize(count: 1)
    }

    /// Calls `body` with every object in order; `body` must not change the list.
    func forEach(_ body: (ManagedObject) -> Void) {
        for position in 0..<count { body(base[position]) }
    }

    /// The objects, in order.
    var array: [ManagedObject] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }
}
