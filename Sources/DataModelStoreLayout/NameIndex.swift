/// Names in insertion order, each found by its position through a hash of its UTF-8 bytes.
///
/// The layout looks names up by the tens of thousands (entities, properties, columns, table and
/// index names); `Dictionary<String, Int>` pays for a seeded SipHash per lookup, this table for
/// a word-at-a-time pass over the bytes (``NameHash``) and, usually, one comparison of names.
/// Open addressing with linear probing, at most half full; each slot keeps part of its name's
/// hash, so probing past other names rarely compares strings.
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
    /// Per slot, 0 when empty, else ``HashSlot/entry(hash:position:)`` of the name there.
    private var slots: [UInt64] = []

    /// Creates an index with room for `capacity` names before it grows.
    init(capacity: Int = 0) {
        names.reserveCapacity(capacity)
        if capacity > 0 { slots = [UInt64](repeating: 0, count: HashSlot.slotCount(for: capacity)) }
    }

    /// The number of names.
    var count: Int { names.count }

    /// The position of `name`, or nil when it was never inserted.
    func position(of name: String) -> Int? {
        position(of: name, hash: NameHash.hash(name))
    }

    /// The position of `name`, whose ``NameHash/hash(_:)`` is `hash`.
    func position(of name: String, hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        switch HashSlot.probe(hash, in: slots, matches: { names[$0] == name }) {
        case .found(let position): return position
        case .free: return nil
        }
    }

    /// Adds `name` at the next position unless it is already there; returns its position either way.
    @discardableResult
    mutating func insert(_ name: String) -> (inserted: Bool, position: Int) {
        insert(name, hash: NameHash.hash(name))
    }

    /// ``insert(_:)`` for a name whose ``NameHash/hash(_:)`` is `hash`.
    @discardableResult
    mutating func insert(_ name: String, hash: UInt64) -> (inserted: Bool, position: Int) {
        if (names.count + 1) * 2 > slots.count { grow() }
        switch HashSlot.probe(hash, in: slots, matches: { names[$0] == name }) {
        case .found(let position): return (false, position)
        case .free(let slot): slots[slot] = HashSlot.entry(hash: hash, position: names.count)
        }
        names.append(name)
        return (true, names.count - 1)
    }

    private mutating func grow() {
        slots = HashSlot.replaced(slots, slotCount: HashSlot.slotCount(for: names.count + 1))
    }
}

/// The slots of the layout's open-addressing tables: a table of `UInt64`, a power of two long,
/// where 0 marks an empty slot and an entry holds the high 32 bits of its name's hash (the tag)
/// above a position plus one.
///
/// The first slot probed comes from the tag's low bits too, so an entry alone says where it
/// goes in a table of any size: tables grow, or are extended by copying, without hashing names
/// again.
enum HashSlot {
    /// A power of two at least twice `count` (and at least 8).
    @inline(__always)
    static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots < count * 2 { slots *= 2 }
        return slots
    }

    /// The first slot to probe for a hash or an entry.
    @inline(__always)
    static func start(_ value: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: value >> 32) & mask
    }

    /// The entry for `position` of a name hashing to `hash`; never 0.
    @inline(__always)
    static func entry(hash: UInt64, position: Int) -> UInt64 {
        (hash & 0xFFFF_FFFF_0000_0000) | UInt64(truncatingIfNeeded: position + 1)
    }

    /// The tag of a hash or of an entry.
    @inline(__always)
    static func tag(_ value: UInt64) -> UInt64 {
        value & 0xFFFF_FFFF_0000_0000
    }

    /// The position an entry holds.
    @inline(__always)
    static func position(_ entry: UInt64) -> Int {
        Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
    }

    /// What a probe found: the position held by a matching entry, or the free slot where the probe
    /// ended (where an entry for the hash goes).
    enum Probe {
        case found(position: Int)
        case free(slot: Int)
    }

    /// Walks `slots` from `hash`'s start to the first entry with `hash`'s tag whose position `matches`,
    /// or to the first free slot. `slots` must not be empty.
    @inline(__always)
    static func probe(_ hash: UInt64, in slots: [UInt64], matches: (Int) -> Bool) -> Probe {
        let mask = slots.count - 1
        let wanted = tag(hash)
        var slot = start(hash, mask: mask)
        while true {
            let entry = slots[slot]
            if entry == 0 { return .free(slot: slot) }
            if tag(entry) == wanted && matches(position(entry)) { return .found(position: position(entry)) }
            slot = (slot + 1) & mask
        }
    }

    /// Puts `entry` in the first free slot from its start.
    @inline(__always)
    static func place(_ entry: UInt64, in slots: inout [UInt64]) {
        let mask = slots.count - 1
        var slot = start(entry, mask: mask)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// A table of `slotCount` slots holding the entries of `slots`.
    static func replaced(_ slots: [UInt64], slotCount: Int) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: slotCount)
        for entry in slots where entry != 0 { place(entry, in: &result) }
        return result
    }
}

/// Hashes of names' UTF-8 bytes, eight bytes at a time, for the layout's hash tables.
///
/// Not seeded: the tables never decide an output order, only whether and where a name is found.
enum NameHash {
    /// A hash of `name`'s bytes.
    @inline(__always)
    static func hash(_ name: String) -> UInt64 {
        hash(name, wordMask: ~0)
    }

    /// A hash equal for names that differ only in the case of ASCII letters (``equalIgnoringASCIICase(_:_:)``).
    @inline(__always)
    static func caseInsensitiveHash(_ name: String) -> UInt64 {
        // Clearing bit 5 of every byte maps `a`…`z` onto `A`…`Z` (and merges some other pairs of
        // bytes, which only costs a comparison).
        hash(name, wordMask: 0xDFDF_DFDF_DFDF_DFDF)
    }

    /// `hash` mixed with an entity number: the key of a property in a table of every entity's
    /// properties.
    @inline(__always)
    static func combine(_ hash: UInt64, _ number: Int) -> UInt64 {
        finalize(hash ^ (UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// Whether `a` and `b` are the same bytes once ASCII letters are upper-cased, as SQLite
    /// compares identifiers.
    static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let equal = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second in equalIgnoringASCIICase(first, second) }
        }
        if let equal = equal ?? nil { return equal }
        let first = Array(a.utf8)
        let second = Array(b.utf8)
        return first.withUnsafeBufferPointer { x in second.withUnsafeBufferPointer { y in equalIgnoringASCIICase(x, y) }
        }
    }

    private static func equalIgnoringASCIICase(
        _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        for index in first.indices {
            let x = first[index]
            let y = second[index]
            if x != y {
                let lower = x | 0x20
                guard x ^ y == 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
            }
        }
        return true
    }

    @inline(__always)
    private static func hash(_ name: String, wordMask: UInt64) -> UInt64 {
        if let hash = name.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0, wordMask: wordMask) }) {
            return hash
        }
        return Array(name.utf8).withUnsafeBufferPointer { hash(bytes: $0, wordMask: wordMask) }
    }

    @inline(__always)
    private static func hash(bytes: UnsafeBufferPointer<UInt8>, wordMask: UInt64) -> UInt64 {
        let count = bytes.count
        var hash = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: count)
        guard let base = bytes.baseAddress else { return finalize(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= count {
            hash = mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & wordMask)
            offset += 8
        }
        let tail = count - offset
        if tail > 0 {
            // The last one to seven bytes, in at most three loads.
            var word: UInt64 = 0
            var shift: UInt64 = 0
            if tail & 4 != 0 {
                word = UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                shift = 32
                offset += 4
            }
            if tail & 2 != 0 {
                word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) << shift
                shift += 16
                offset += 2
            }
            if tail & 1 != 0 {
                word |= UInt64(base[offset]) << shift
            }
            hash = mix(hash, word & wordMask)
        }
        return finalize(hash)
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return (product << 29) | (product >> 35)
    }

    /// MurmurHash3's finalizer: every bit of the input affects the low bits used to pick a slot.
    @inline(__always)
    private static func finalize(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }
}
