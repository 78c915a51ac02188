/// The identity map of a context: objects by ID, in an open-addressing hash table.
///
/// A `Dictionary<ObjectID, ManagedObject>` spends most of a bulk insert rehashing with
/// SipHash; primary keys are already well-spread integers, so a multiplicative hash, linear
/// probing over a table at most half full do the same job several times faster.
///
/// The objects themselves live in a dense list (``members``); the table's slots hold plain
/// integers (the primary key, the entity number and the object's place in the list). Growing
/// the table then moves integers only, with no reference counting, and dropping it releases
/// exactly the objects, not one optional per slot. Removal uses backward shifting, so there are
/// no tombstones.
struct ObjectTable {
    /// One slot of the table.
    private struct Slot {
        /// The object's primary key.
        var primaryKey: Int64
        /// The object's entity number (part of the hash, kept here so growing never reads objects).
        var entityNumber: Int32
        /// The object's place in ``members``, plus one; 0 marks an empty slot.
        var member: Int32
    }

    /// Every registered object, in insertion order (a removal moves the last one into the gap).
    private var members: ContiguousArray<ManagedObject> = []
    private var slots = [Slot](repeating: Slot(primaryKey: 0, entityNumber: 0, member: 0), count: 64)
    private var mask = 63

    var count: Int { members.count }

    @inline(__always)
    private static func hash(_ primaryKey: Int64, _ entityNumber: Int) -> Int {
        let mixed = UInt64(bitPattern: primaryKey) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: entityNumber)
        return Int(truncatingIfNeeded: mixed >> 20)
    }

    /// The slot holding `id`, or `nil`.
    @inline(__always)
    private func slotIndex(of id: ObjectID) -> Int? {
        var index = Self.hash(id.primaryKey, id.entityNumber) & mask
        while true {
            let slot = slots[index]
            if slot.member == 0 { return nil }
            if slot.primaryKey == id.primaryKey && members[Int(slot.member) - 1].objectID == id { return index }
            index = (index + 1) & mask
        }
    }

    subscript(id: ObjectID) -> ManagedObject? {
        guard let index = slotIndex(of: id) else { return nil }
        return members[Int(slots[index].member) - 1]
    }

    /// Adds `object` under its ID, replacing any object with the same ID.
    mutating func insert(_ object: ManagedObject) {
        let id = object.objectID
        if let index = slotIndex(of: id) {
            members[Int(slots[index].member) - 1] = object
            return
        }
        insertNew(object)
    }

    /// Adds `object`, which the caller just looked up and did not find (no second probe for it).
    mutating func insertNew(_ object: ManagedObject) {
        let id = object.objectID
        if (members.count + 1) * 2 > slots.count { grow() }
        // Table sizes are powers of two far below 2³¹ slots: the count fits an `Int32`.
        members.append(object)
        place(
            Slot(
                primaryKey: id.primaryKey, entityNumber: Int32(truncatingIfNeeded: id.entityNumber),
                member: Int32(members.count)))
    }

    /// Puts `slot` in the first free slot of its probe chain.
    @inline(__always)
    private mutating func place(_ slot: Slot) {
        var index = Self.hash(slot.primaryKey, Int(slot.entityNumber)) & mask
        while slots[index].member != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Removes the object with `id`.
    mutating func remove(_ id: ObjectID) {
        guard var hole = slotIndex(of: id) else { return }
        let position = Int(slots[hole].member) - 1
        // Backward-shift deletion: later entries of the chain move into the hole when their
        // home slot does not lie between the hole and them.
        slots[hole].member = 0
        var next = (hole + 1) & mask
        while slots[next].member != 0 {
            let moved = slots[next]
            let home = Self.hash(moved.primaryKey, Int(moved.entityNumber)) & mask
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
        for object in members { body(object) }
    }

    /// Every object, in insertion order.
    var objects: [ManagedObject] {
        Array(members)
    }

    /// Doubles the table, or quadruples a large one (a fetch of many rows then moves its slots half as often).
    private mutating func grow() {
        let old = slots
        let factor = old.count >= 1 << 12 ? 4 : 2
        slots = [Slot](repeating: Slot(primaryKey: 0, entityNumber: 0, member: 0), count: old.count * factor)
        mask = slots.count - 1
        for slot in old where slot.member != 0 { place(slot) }
    }
}
