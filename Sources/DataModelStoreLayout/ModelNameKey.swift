/// The order Core Data sorts names in: case-insensitively, then by exact spelling.
///
/// Observed for entity numbering (`ABCDUnknownProperty` = 30 before `ABCDURLAddress` = 31 in
/// macOS's AddressBook store); used for every other name sort too (chosen). Folding is to lower
/// case, so `_` sorts before letters.
///
/// ASCII names (the usual case) compare their first eight folded bytes as one integer, then, when
/// those tie, byte by byte; other names compare `lowercased()` strings, then the names.
struct ModelNameKey: Comparable {
    /// The first eight bytes of the folded name, big-endian, zero-padded (ASCII names only).
    let prefix: UInt64
    let isASCII: Bool
    let name: String

    init(_ name: String) {
        self.name = name
        let scan =
            name.utf8.withContiguousStorageIfAvailable(Self.scan)
            ?? Array(name.utf8).withUnsafeBufferPointer(
                Self.scan)
        self.prefix = scan.prefix
        self.isASCII = scan.isASCII
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (prefix: UInt64, isASCII: Bool) {
        var prefix: UInt64 = 0
        var shift: UInt64 = 56
        var combined: UInt8 = 0
        for (index, byte) in bytes.enumerated() {
            combined |= byte
            if index < 8 {
                prefix |= UInt64(folded(byte)) << shift
                shift &-= 8
            }
        }
        return (prefix, combined < 0x80)
    }

    /// An ASCII byte lower-cased.
    @inline(__always)
    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    static func < (lhs: ModelNameKey, rhs: ModelNameKey) -> Bool {
        compare(lhs, rhs) < 0
    }

    static func == (lhs: ModelNameKey, rhs: ModelNameKey) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Negative when `lhs` sorts first, positive when `rhs` does, 0 for equal names.
    static func compare(_ lhs: ModelNameKey, _ rhs: ModelNameKey) -> Int {
        guard lhs.isASCII && rhs.isASCII else { return compareFolded(lhs.name, rhs.name) }
        if lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix ? -1 : 1 }
        return compare(lhs.name, rhs.name, bothASCII: true)
    }

    /// ``compare(_:_:)`` for two names, `bothASCII` when both are ASCII.
    static func compare(_ lhs: String, _ rhs: String, bothASCII: Bool) -> Int {
        guard bothASCII else { return compareFolded(lhs, rhs) }
        let order = lhs.utf8.withContiguousStorageIfAvailable { first in
            rhs.utf8.withContiguousStorageIfAvailable { second in compareASCII(first, second) }
        }
        if let order = order ?? nil { return order }
        return compareFolded(lhs, rhs)
    }

    /// Folded bytes first, then the bytes themselves; for ASCII this is how `String` orders the
    /// folded names and then the names.
    private static func compareASCII(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        let common = min(first.count, second.count)
        for index in 0..<common {
            let x = folded(first[index])
            let y = folded(second[index])
            if x != y { return x < y ? -1 : 1 }
        }
        if first.count != second.count { return first.count < second.count ? -1 : 1 }
        for index in 0..<common where first[index] != second[index] {
            return first[index] < second[index] ? -1 : 1
        }
        return 0
    }

    /// The general comparison: `lowercased()` names, then the names.
    private static func compareFolded(_ lhs: String, _ rhs: String) -> Int {
        let lhsFolded = foldedName(lhs)
        let rhsFolded = foldedName(rhs)
        if lhsFolded != rhsFolded { return lhsFolded < rhsFolded ? -1 : 1 }
        return lhs == rhs ? 0 : lhs < rhs ? -1 : 1
    }

    /// `name.lowercased()`, without a new string for ASCII names that have no upper-case letter.
    private static func foldedName(_ name: String) -> String {
        var hasUpperCase = false
        let isASCII = UTF8Scan.allSatisfy(name) { byte in
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUpperCase = true }
            return byte < 0x80
        }
        guard isASCII else { return name.lowercased() }
        guard hasUpperCase else { return name }
        return String(decoding: name.utf8.map(folded), as: UTF8.self)
    }
}

/// Puts items in ``ModelNameKey`` order of their names, ties (equal names) in the order given,
/// with one reusable buffer for all the sorts of a stage.
///
/// Sorting moves only integers: each entry keeps its name's eight-byte prefix, and names are
/// looked at again only when prefixes tie.
///
/// ```swift
/// var sorter = ModelNameSorter()
/// sorter.sort(count: names.count) { names[$0] }
/// for rank in 0..<sorter.count { use(names[sorter.item(at: rank)]) }
/// ```
struct ModelNameSorter {
    private struct Entry {
        let prefix: UInt64
        let item: Int
        /// The entry's place in the order given.
        let sequence: Int32
        let isASCII: Bool
    }

    private var entries: [Entry] = []

    /// The number of items the last sort ordered.
    var count: Int { entries.count }

    /// The item at `rank` in the last sort's order.
    func item(at rank: Int) -> Int { entries[rank].item }

    /// Orders items `0..<count` by their names, ascending or descending.
    mutating func sort(count: Int, descending: Bool = false, name: (Int) -> String) {
        sort(items: 0..<count, descending: descending, name: name)
    }

    /// Orders `items` by their names, ascending or descending.
    mutating func sort<Items: Sequence<Int>>(items: Items, descending: Bool = false, name: (Int) -> String) {
        entries.removeAll(keepingCapacity: true)
        for item in items {
            let key = ModelNameKey(name(item))
            entries.append(
                Entry(
                    prefix: key.prefix, item: item, sequence: Int32(truncatingIfNeeded: entries.count),
                    isASCII: key.isASCII))
        }
        guard entries.count > 1 else { return }
        let sign = descending ? -1 : 1
        entries.sort { first, second in
            if first.isASCII && second.isASCII && first.prefix != second.prefix {
                return (first.prefix < second.prefix) != descending
            }
            let order =
                ModelNameKey.compare(
                    name(first.item), name(second.item), bothASCII: first.isASCII && second.isASCII) * sign
            return order != 0 ? order < 0 : first.sequence < second.sequence
        }
    }
}
