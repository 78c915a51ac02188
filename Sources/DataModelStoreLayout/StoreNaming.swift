/// The naming rules of Core Data's SQLite store, in one place.
///
/// Every rule says whether it was seen in real stores (**observed**) or is this project's
/// decision where no evidence was found (**chosen**); `Docs/StoreLayout.md` lists the evidence.
public enum StoreNaming {
    /// A name upper-cased as Core Data does it (observed for ASCII: `sportCar` → `SPORTCAR`).
    ///
    /// Non-ASCII letters use Swift's locale-independent Unicode upper-casing, which is what
    /// Foundation's `-[NSString uppercaseString]` (the call Core Data makes) also does, e.g.
    /// `straße` → `STRASSE`, `café` → `CAFÉ` (chosen: not checked against a real store).
    public static func uppercased(_ name: String) -> String {
        // ASCII names (the usual case) are upper-cased byte by byte; those without a lower-case
        // letter are returned as they are.
        var hasLowerCase = false
        let isASCII = UTF8Scan.allSatisfy(name) { byte in
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { hasLowerCase = true }
            return byte < 0x80
        }
        guard isASCII else { return name.uppercased() }
        guard hasLowerCase else { return name }
        return String(decoding: name.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// `Z` + the upper-cased name: a root entity's table, or a property's column before any
    /// collision suffix (observed: `ZKIKCHAT`, `ZDATEUPDATED`).
    public static func zName(_ name: String) -> String {
        uppercasedASCII(name, entityNumber: nil) ?? StringConcat.concat("Z", uppercased(name))
    }

    /// `Z` + `name` upper-cased, or `Z_<entityNumber>` + `name` upper-cased, written straight
    /// into one new string, when `name` is ASCII (the usual case).
    private static func uppercasedASCII(_ name: String, entityNumber: Int?) -> String? {
        if let entityNumber, entityNumber < 0 { return nil }
        let digits = entityNumber.map(decimalDigitCount) ?? 0
        let result = name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            let count = 1 + (entityNumber == nil ? 0 : 1 + digits) + bytes.count
            var combined: UInt8 = 0
            let string = String(unsafeUninitializedCapacity: count) { buffer in
                guard let target = buffer.baseAddress else { return 0 }
                target[0] = UInt8(ascii: "Z")
                var index = 1
                if var number = entityNumber {
                    target[1] = UInt8(ascii: "_")
                    index = 2 + digits
                    for position in stride(from: index - 1, through: 2, by: -1) {
                        target[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: number % 10)
                        number /= 10
                    }
                }
                guard let source = bytes.baseAddress else { return index }
                for offset in 0..<bytes.count {
                    let byte = source[offset]
                    combined |= byte
                    target[index + offset] = byte &- UInt8(ascii: "a") < 26 ? byte &- 32 : byte
                }
                return index + bytes.count
            }
            return combined < 0x80 ? string : nil
        }
        return result ?? nil
    }

    /// The number of decimal digits of `number` (at least 1; `number` ≥ 0).
    private static func decimalDigitCount(_ number: Int) -> Int {
        var count = 1
        var rest = number
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// `Z<n>_<REL>` for a foreign key column `Z<REL>`: the destination's `Z_ENT` (observed:
    /// `ZOWNER` / `Z22_OWNER`). For a suffixed column (`ZACCOUNT1`) the suffix is kept
    /// (`Z14_ACCOUNT1`; chosen).
    public static func foreignEntityColumn(forForeignKey column: String, destinationNumber: Int) -> String {
        StringConcat.concat("Z", String(destinationNumber), "_", String(column.dropFirst()))
    }

    /// `Z_FOK_<REL>` for a foreign key column `Z<REL>`: the position in the inverse ordered
    /// to-many (observed: `ZTEMPLATE` / `Z_FOK_TEMPLATE`).
    public static func foreignOrderColumn(forForeignKey column: String) -> String {
        StringConcat.concat("Z_FOK_", String(column.dropFirst()))
    }

    /// `Z_<n><NAME>`: a join table or join column before any suffix (observed: `Z_1ARTISTS`).
    public static func joinName(entityNumber: Int, relationshipName: String) -> String {
        uppercasedASCII(relationshipName, entityNumber: entityNumber)
            ?? StringConcat.concat("Z_", String(entityNumber), uppercased(relationshipName))
    }

    /// `Z_FOK_<n><NAME>` for a join column `Z_<n><NAME>` (observed: `Z_3ASSETS` /
    /// `Z_FOK_3ASSETS`).
    public static func joinOrderColumn(forJoinColumn column: String) -> String {
        StringConcat.concat("Z_FOK_", String(column.dropFirst(2)))
    }

    /// `<TABLE>_<COLUMN>_INDEX`: Core Data's own single-column indexes (observed:
    /// `ZSFNOTE_ZPASSWORD_INDEX`, `ZSFNOTEFILE_Z_ENT_INDEX`).
    public static func columnIndex(table: String, column: String) -> String {
        StringConcat.concat(table, "_", column, "_INDEX")
    }

    /// `Z_<Entity>_<index>`: a fetch index, entity and index in model spelling (observed:
    /// `Z_Note_byTitle`, `Z_Cafe_byRoast` on the root table `ZPLACE`).
    public static func fetchIndex(entity: String, index: String) -> String {
        "Z_" + entity + "_" + index
    }

    /// `Z_<Entity>_UNIQUE_<a>_<b>`: a uniqueness constraint's index, names in model spelling.
    public static func uniquenessIndex(entity: String, properties: [String]) -> String {
        "Z_" + entity + "_UNIQUE_" + properties.joined(separator: "_")
    }

    /// The name a to-many relationship without inverse gives its synthesized inverse, which
    /// lives on the destination entity for join-table ownership and naming (chosen; it reproduces
    /// `Z_6ADMINSINVERSE (Z_6ADMINS, Z_6ADMINSINVERSE)`).
    public static func synthesizedInverseName(for relationshipName: String) -> String {
        relationshipName + "Inverse"
    }
}

/// Double-quoting of SQL identifiers and single-quoting of string literals.
public enum SQLQuoting {
    /// `name` as a double-quoted identifier, inner quotes doubled: `order` → `"order"`.
    public static func identifier(_ name: String) -> String {
        StringConcat.concat("\"", doubling("\"", byte: UInt8(ascii: "\""), in: name), "\"")
    }

    /// `text` as a single-quoted string literal, inner quotes doubled: `O'Neil` → `'O''Neil'`.
    public static func literal(_ text: String) -> String {
        StringConcat.concat("'", doubling("'", byte: UInt8(ascii: "'"), in: text), "'")
    }

    /// `text` with each `quote` doubled; `byte` is the quote's (ASCII) byte.
    private static func doubling(_ quote: Character, byte: UInt8, in text: String) -> String {
        // A text without the quote's byte has no quote character.
        var text = text
        let hasByte = text.withUTF8 { $0.contains(byte) }
        guard hasByte, text.contains(quote) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 2)
        for character in text {
            result.append(character)
            if character == quote { result.append(quote) }
        }
        return result
    }
}

/// Hands out unique names: the first claim of a name gets it unchanged, later claims get the
/// first free numeric suffix (`ZNAME`, `ZNAME1`, `ZNAME2` …; observed: `ZACCOUNT` …
/// `ZACCOUNT8`, `Z_2ARTISTS1`).
///
/// Names are compared with ASCII case folded, as SQLite compares identifiers. Claims are O(1)
/// amortized: the next suffix to try is remembered per base name.
struct NameRegistry {
    /// The names taken, in the order taken.
    private var names: [String] = []
    /// Per slot, 0 when empty, else ``HashSlot/entry(hash:position:)`` of a name taken.
    private var slots: [UInt64] = []
    private var nextSuffix: [String: Int] = [:]

    /// An empty registry with room for `capacity` names before it grows.
    init(capacity: Int = 0) {
        reset(capacity: capacity)
    }

    /// Forgets every name, keeping the storage, and makes room for `capacity` names.
    mutating func reset(capacity: Int) {
        names.removeAll(keepingCapacity: true)
        if !nextSuffix.isEmpty { nextSuffix.removeAll() }
        let wanted = HashSlot.slotCount(for: capacity)
        // Clearing a table much larger than needed would cost more than a new one.
        if slots.count >= wanted && slots.count <= 4 * wanted {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            slots = [UInt64](repeating: 0, count: wanted)
        }
    }

    /// Marks names as used without claiming them (e.g. `Z_PK`).
    mutating func reserve(_ names: String...) {
        for name in names { _ = take(name, hash: NameHash.caseInsensitiveHash(name)) }
    }

    /// `base`, or `base` + the first free suffix.
    mutating func claim(_ base: String) -> String {
        if take(base, hash: NameHash.caseInsensitiveHash(base)) { return base }
        var suffix = nextSuffix[base, default: 1]
        while true {
            let candidate = StringConcat.concat(base, String(suffix))
            if take(candidate, hash: NameHash.caseInsensitiveHash(candidate)) {
                nextSuffix[base] = suffix + 1
                return candidate
            }
            suffix += 1
        }
    }

    /// Takes `name` unless a name equal to it ignoring ASCII case is taken; returns whether it did.
    private mutating func take(_ name: String, hash: UInt64) -> Bool {
        if (names.count + 1) * 2 > slots.count { grow() }
        switch HashSlot.probe(hash, in: slots, matches: { NameHash.equalIgnoringASCIICase(names[$0], name) }) {
        case .found: return false
        case .free(let slot): slots[slot] = HashSlot.entry(hash: hash, position: names.count)
        }
        names.append(name)
        return true
    }

    private mutating func grow() {
        slots = HashSlot.replaced(slots, slotCount: HashSlot.slotCount(for: names.count + 1))
    }
}

/// Scans of a string's UTF-8 bytes through its contiguous storage (a tight loop rather than the
/// byte view's iterator).
package enum UTF8Scan {
    /// Whether any byte of `text` satisfies `predicate`.
    @inlinable
    package static func contains(_ text: String, where predicate: (UInt8) -> Bool) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: predicate) }) {
            return found
        }
        return text.utf8.contains(where: predicate)
    }

    /// Whether every byte of `text` satisfies `predicate`.
    @inlinable
    package static func allSatisfy(_ text: String, _ predicate: (UInt8) -> Bool) -> Bool {
        if let all = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(predicate) }) {
            return all
        }
        return text.utf8.allSatisfy(predicate)
    }
}

/// Joins a few strings with one allocation and one copy of each part, where `a + b + c` makes a
/// string per `+` and grows it.
package enum StringConcat {
    @inlinable
    package static func concat(_ a: String, _ b: String) -> String {
        concat(a, b, "", "", "")
    }

    @inlinable
    package static func concat(_ a: String, _ b: String, _ c: String) -> String {
        concat(a, b, c, "", "")
    }

    @inlinable
    package static func concat(_ a: String, _ b: String, _ c: String, _ d: String) -> String {
        concat(a, b, c, d, "")
    }

    @inlinable
    package static func concat(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String {
        let count = a.utf8.count + b.utf8.count + c.utf8.count + d.utf8.count + e.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = copy(a, into: buffer, at: 0)
            offset = copy(b, into: buffer, at: offset)
            offset = copy(c, into: buffer, at: offset)
            offset = copy(d, into: buffer, at: offset)
            return copy(e, into: buffer, at: offset)
        }
    }

    /// Copies `part`'s bytes into `buffer` at `offset`; returns the offset after them.
    @inlinable
    package static func copy(_ part: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let count = part.utf8.count
        guard count > 0, let target = buffer.baseAddress else { return offset }
        let copied = part.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let source = bytes.baseAddress else { return false }
            UnsafeMutableRawPointer(target + offset).copyMemory(from: source, byteCount: count)
            return true
        }
        if copied != true {
            var index = offset
            for byte in part.utf8 {
                target[index] = byte
                index += 1
            }
        }
        return offset + count
    }
}

/// Builds a string from many small pieces in one byte buffer, where `+=` on a string costs a
/// capacity check and a copy-on-write check per piece.
package struct StringBuilder {
    @usableFromInline var bytes: [UInt8] = []

    /// Creates a builder with room for `capacity` bytes.
    @inlinable
    package init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text`.
    @inlinable
    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The text built so far.
    @inlinable
    package var string: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
