/// The identity map of a context: objects by ID, in an open-addressing hash table.
///
/// A `Dictionary<ObjectID, ManagedObject>` spends most of a bulk insert rehashing with
/// SipHash; primary keys are already well-spread integers, so a multiplicative hash, linear
/// probing over an inline array of keys, and a table at most half full do the same job several
/// times faster.
struct ObjectTable {
    /// The primary key of each slot's object (meaningless for empty slots).
    private var keys: [Int64] = Array(repeating: 0, count: 64)
    private var slots: [ManagedObject?] = Array(repeating: nil, count: 64)
    /// Slots emptied by removals, which still continue probe chains.
    private var tombstones: [Bool] = Array(repeating: false, count: 64)
    private var mask = 63
    private var tombstoneCount = 0
    private(set) var count = 0

    @inline(__always)
    private static func hash(_ primaryKey: Int64, _ entityNumber: Int) -> Int {
        let mixed = UInt64(bitPattern: primaryKey) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: entityNumber)
        return Int(truncatingIfNeeded: mixed >> 20)
    }

    subscript(id: ObjectID) -> ManagedObject? {
        var index = Self.hash(id.primaryKey, id.entityNumber) & mask
        while true {
            if let object = slots[index] {
                if keys[index] == id.primaryKey && object.objectID == id { return object }
            } else if !tombstones[index] {
                return nil
            }
            index = (index + 1) & mask
        }
    }

    /// Adds `object` under its ID, replacing any object with the same ID.
    mutating func insert(_ object: ManagedObject) {
        if (count + tombstoneCount + 1) * 2 > slots.count { rehash() }
        let id = object.objectID
        var index = Self.hash(id.primaryKey, id.entityNumber) & mask
        var firstFree: Int?
        while true {
            if let existing = slots[index] {
                if keys[index] == id.primaryKey && existing.objectID == id {
                    slots[index] = object
                    return
                }
            } else if tombstones[index] {
                if firstFree == nil { firstFree = index }
            } else {
                let target = firstFree ?? index
                if tombstones[target] {
                    tombstones[target] = false
                    tombstoneCount -= 1
                }
                keys[target] = id.primaryKey
                slots[target] = object
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Removes the object with `id`.
    mutating func remove(_ id: ObjectID) {
        var index = Self.hash(id.primaryKey, id.entityNumber) & mask
        while true {
            if let existing = slots[index] {
                if keys[index] == id.primaryKey && existing.objectID == id {
                    slots[index] = nil
                    tombstones[index] = true
                    tombstoneCount += 1
                    count -= 1
                    return
                }
            } else if !tombstones[index] {
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Calls `body` with every object, in table order, without building an array.
    func forEach(_ body: (ManagedObject) -> Void) {
        for slot in slots {
            if let object = slot { body(object) }
        }
    }

    /// Every object, in table order.
    var objects: [ManagedObject] {
        slots.compactMap { $0 }
    }

    /// Rebuilds the table without tombstones, twice as large when it is more than a quarter
    /// full. Objects are moved, not copied: no reference counting per object.
    private mutating func rehash() {
        let size = (count + 1) * 4 > slots.count ? slots.count * 2 : slots.count
        var oldSlots: [ManagedObject?] = Array(repeating: nil, count: size)
        swap(&oldSlots, &slots)
        let oldKeys = keys
        keys = Array(repeating: 0, count: size)
        tombstones = Array(repeating: false, count: size)
        tombstoneCount = 0
        mask = size - 1
        let mask = self.mask
        slots.withUnsafeMutableBufferPointer { target in
            keys.withUnsafeMutableBufferPointer { targetKeys in
                oldSlots.withUnsafeMutableBufferPointer { source in
                    for index in source.indices {
                        let moved = source.moveElement(from: index)
                        source.initializeElement(at: index, to: nil)
                        guard let object = moved else { continue }
                        let primaryKey = oldKeys[index]
                        var slot = Self.hash(primaryKey, object.objectID.entityNumber) & mask
                        while target[slot] != nil { slot = (slot + 1) & mask }
                        targetKeys[slot] = primaryKey
                        target[slot] = consume object
                    }
                }
            }
        }
    }
}
