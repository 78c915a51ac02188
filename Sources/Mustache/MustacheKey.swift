/// A name a template looks up, resolved once when the template compiles.
///
/// A key carries a fingerprint of its name computed once, so a ``MustacheKeyTable`` answers a lookup
/// without hashing the name again; templates keep one key per tag instead of a string.
///
/// ```swift
/// let key = MustacheKey("className")
/// table[key]  // the value stored under "className"
/// ```
public struct MustacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The name.
    public let name: String
    /// A seedless hash of the name's UTF-8 bytes, the same in every process.
    public let fingerprint: UInt64

    /// Creates a key for `name`.
    public init(_ name: String) {
        self.name = name
        self.fingerprint = Self.fingerprint(of: name)
    }

    public var description: String { name }

    public static func == (lhs: MustacheKey, rhs: MustacheKey) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
    }

    /// FNV-1a over the UTF-8 bytes, mixed so that the low bits spread well.
    static func fingerprint(of name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}

/// A fixed list of names, each looked up by ``MustacheKey`` to its position without hashing.
///
/// Meant for the static key tables of ``MustacheObject`` types; ``KeyedMustacheObject`` does the
/// lookups for objects whose keys are an enum's cases.
public struct MustacheKeyTable: Sendable {
    private struct Slot: Sendable {
        var key: MustacheKey
        var index: Int
    }

    /// Open addressing with linear probing; the capacity is a power of two at least twice the count.
    private let slots: [Slot?]
    private let mask: Int

    /// Creates a table of `names`; a repeated name keeps its first position.
    public init(_ names: [String]) {
        var capacity = 4
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = [Slot?](repeating: nil, count: capacity)
        let mask = capacity - 1
        for (position, name) in names.enumerated() {
            let key = MustacheKey(name)
            var index = Int(truncatingIfNeeded: key.fingerprint) & mask
            var isNew = true
            while let slot = slots[index] {
                if slot.key == key {
                    isNew = false
                    break
                }
                index = (index + 1) & mask
            }
            if isNew { slots[index] = Slot(key: key, index: position) }
        }
        self.slots = slots
        self.mask = mask
    }

    /// The position of `key`'s name in the table's names, or nil when it is not one of them.
    public subscript(key: MustacheKey) -> Int? {
        var index = Int(truncatingIfNeeded: key.fingerprint) & mask
        while let slot = slots[index] {
            if slot.key.fingerprint == key.fingerprint && slot.key.name == key.name { return slot.index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The position of `name` in the table's names, or nil when it is not one of them.
    public subscript(name: String) -> Int? {
        self[MustacheKey(name)]
    }
}

/// A ``MustacheObject`` whose keys are the cases of an `Int` enum, answered through a static
/// ``MustacheKeyTable``: the object only says what each case's value is.
///
/// ```swift
/// final class ItemObject: KeyedMustacheObject {
///     enum Key: Int, CaseIterable { case name, type }
///     static let keys = makeKeys()
///     func value(for known: Key) -> MustacheValue? {
///         switch known { case .name: return .string(name); case .type: return .string(type) }
///     }
/// }
/// ```
public protocol KeyedMustacheObject: MustacheObject {
    /// The keys, in the order of their raw values (0, 1, 2, …).
    associatedtype Key: RawRepresentable & CaseIterable where Key.RawValue == Int
    /// The table of ``Key``'s case names: `makeKeys()`.
    static var keys: MustacheKeyTable { get }
    /// The value of one key, or nil for none.
    func value(for known: Key) -> MustacheValue?
}

extension KeyedMustacheObject {
    /// The key table of ``Key``'s case names, for ``keys``.
    public static func makeKeys() -> MustacheKeyTable {
        MustacheKeyTable(Key.allCases.map { "\($0)" })
    }

    // Inlinable: each conforming type gets the lookup specialized for its own `Key`.
    @inlinable
    public func mustacheValue(forKey key: String) -> MustacheValue? {
        mustacheValue(for: MustacheKey(key))
    }

    @inlinable
    public func mustacheValue(for key: MustacheKey) -> MustacheValue? {
        guard let index = Self.keys[key], let known = Key(rawValue: index) else { return nil }
        return value(for: known)
    }
}
