/// The identity map of a context: objects by ID, in an open-addressing hash table.
///
/// A `Dictionary<ObjectID, ManagedObject>` spends most of a bulk insert rehashing with
/// SipHash; primary keys are already well-spread integers, so a multiplicative hash and linear
/// probing do the same job several times faster.
struct ObjectTable {
    private var slots: [ManagedObject?] = Array(repeating: nil, count: 64)
    private var mask = 63
    private(set) var count = 0
    /// Slots emptied by removals, which still end probe chains as if occupied.
    private var tombstones: [Bool] = Array(repeating: false, count: 64)
    private var tombstoneCount = 0

    private static func hash(_ id: ObjectID) -> Int {
        let mixed = UInt64(bitPattern: id.primaryKey) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: id.entityNumber) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 17)
    }

    subscript(id: ObjectID) -> ManagedObject? {
        var index = Self.hash(id) & mask
        while true {
            guard let object = slots[index] else {
                if !tombstones[index] { return nil }
                index = (index + 1) & mask
                continue
            }
            if object.objectID == id { return object }
            index = (index + 1) & mask
        }
    }

    /// Adds `object` under its ID, replacing any object with the same ID.
    mutating func insert(_ object: ManagedObject) {
        if (count + tombstoneCount + 1) * 4 > slots.count * 3 { rehash() }
        let id = object.objectID
        var index = Self.hash(id) & mask
        var firstFree: Int?
        while true {
            guard let existing = slots[index] else {
                if tombstones[index] {
                    if firstFree == nil { firstFree = index }
                    index = (index + 1) & mask
                    continue
                }
                let target = firstFree ?? index
                slots[target] = object
                if tombstones[target] {
                    tombstones[target] = false
                    tombstoneCount -= 1
                }
                count += 1
                return
            }
            if existing.objectID == id {
                slots[index] = object
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Removes the object with `id`.
    mutating func remove(_ id: ObjectID) {
        var index = Self.hash(id) & mask
        while true {
            guard let existing = slots[index] else {
                if !tombstones[index] { return }
                index = (index + 1) & mask
                continue
            }
            if existing.objectID == id {
                slots[index] = nil
                tombstones[index] = true
                tombstoneCount += 1
                count -= 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Every object, in table order.
    var objects: [ManagedObject] {
        slots.compactMap { $0 }
    }

    /// Rebuilds the table without tombstones, twice as large when it is more than half full.
    private mutating func rehash() {
        let old = slots
        let size = (count + 1) * 2 > old.count ? old.count * 2 : old.count
        slots = Array(repeating: nil, count: size)
        tombstones = Array(repeating: false, count: size)
        tombstoneCount = 0
        mask = size - 1
        count = 0
        for case let object? in old { insert(object) }
    }
}
