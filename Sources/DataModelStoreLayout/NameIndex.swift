/// Names in insertion order, each found by its position through a hash of its UTF-8 bytes.
///
/// The layout looks names up by the tens of thousands (entities, properties, columns, table and
/// index names); `Dictionary<String, Int>` pays for a seeded SipHash per lookup, this table for
/// an FNV-1a pass over the bytes and a comparison of the probed names. Open addressing with linear
/// probing, at most half full.
///
/// ```swift
/// var index = NameIndex()
/// index.insert("name")          // (inserted: true, position: 0)
/// index.insert("name")          // (inserted: false, position: 0)
/// index.position(of: "name")    // 0
/// ```
struct NameIndex: Sendable, Hashable {
    /// The names, in insertion order: `names[position(of: name)] == name`.
    private(set) var names: [String] = []
    /// Per slot, the position of the name there plus one; 0 marks an empty slot.
    private var slots: [Int32] = []

    /// Creates an index with room for `capacity` names before it grows.
    init(capacity: Int = 0) {
        names.reserveCapacity(capacity)
        if capacity > 0 { slots = [Int32](repeating: 0, count: Self.slotCount(for: capacity)) }
    }

    /// The number of names.
    var count: Int { names.count }

    /// The position of `name`, or nil when it was never inserted.
    func position(of name: String) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if names[entry - 1] == name { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `name` at the next position unless it is already there; returns its position either way.
    @discardableResult
    mutating func insert(_ name: String) -> (inserted: Bool, position: Int) {
        if (names.count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            if names[entry - 1] == name { return (false, entry - 1) }
            slot = (slot + 1) & mask
        }
        names.append(name)
        slots[slot] = Int32(truncatingIfNeeded: names.count)
        return (true, names.count - 1)
    }

    private mutating func grow() {
        var slots = [Int32](repeating: 0, count: Self.slotCount(for: names.count + 1))
        let mask = slots.count - 1
        for (position, name) in names.enumerated() {
            var slot = Self.hash(name) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: position + 1)
        }
        self.slots = slots
    }

    /// A power of two at least twice `count` (and at least 8).
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots < count * 2 { slots *= 2 }
        return slots
    }

    /// FNV-1a over the UTF-8 bytes, mixed so that the low bits spread well.
    private static func hash(_ name: String) -> Int {
        if let hash = name.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0) }) { return hash }
        return Array(name.utf8).withUnsafeBufferPointer { hash(bytes: $0) }
    }

    private static func hash(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}
