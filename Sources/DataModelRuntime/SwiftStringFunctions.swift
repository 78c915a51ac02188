import DataModelStoreLayout
import SQLiteKit

/// Swift's string semantics inside SQLite, so string predicates run in SQL with the answers
/// `Predicate.evaluate` gives: Swift compares `Character`s under canonical equivalence
/// (`"\u{212A}"`, KELVIN SIGN, equals `"K"`; `"e\u{301}"` equals `"é"`; `"\r\n"` is one
/// character), SQLite compares bytes.
///
/// Registered on every connection the runtime opens:
/// - collation `DM_SWIFT`: `String`'s `==` and `<`;
/// - collation `DM_SWIFT_ORDER`: the order of `dm_swift_order`'s keys, for sorts that keep their first rows;
/// - `dm_starts_with(text, prefix)`: `text.starts(with: prefix)`;
/// - `dm_contains(text, needle)`: `text.contains(needle)`;
/// - `dm_utf16_length(text)`: `text.utf16.count`, a format predicate's `length` (`NSString`'s);
/// - `dm_swift_order(text)`: a sort key: comparing keys by bytes (SQLite's `BINARY`) orders
///   texts as `String`'s `<` does, so a sort of every row takes SQLite's fast sorter path instead of
///   calling a collation for every comparison.
///
/// ASCII text takes a byte-wise fast path wherever bytes and characters agree.
enum SwiftStringFunctions {
    static let collation = "DM_SWIFT"

    /// ` COLLATE "DM_SWIFT"`: what follows an expression to compare or sort it with ``collation``.
    static let collateClause = " COLLATE " + SQLQuoting.identifier(collation)

    /// The collation sorts use: the order of ``orderKey(_:)``'s keys (see ``compareOrderKeys(_:_:)``).
    static let orderCollation = "DM_SWIFT_ORDER"

    static func register(on database: Database) throws(SQLiteError) {
        try database.createCollation(collation, compare)
        try database.createCollation(orderCollation, compareOrderKeys)
        try database.createTextPredicate("dm_starts_with", startsWith)
        try database.createTextPredicate("dm_contains", contains)
        // ASCII text is its own key: SQLite copies it without calling into Swift (the sort of a fetch calls the
        // function for every row).
        try database.createASCIIPreservingTextFunction(orderKeyFunction, orderKey)
        try database.createTextIntegerFunction(utf16LengthFunction, utf16Length)
        // Format predicates' string operators (`dm_fp_<operation>_<options>`).
        try FormatStringMatching.register(on: database)
    }

    /// The SQL function returning ``utf16Length(_:)``.
    static let utf16LengthFunction = "dm_utf16_length"

    /// The number of UTF-16 code units of `text` (valid UTF-8: one per scalar, two for scalars above U+FFFF, which
    /// take four bytes); invalid bytes count as Swift's decoding repairs them.
    static func utf16Length(_ text: SQLiteText) -> Int64 {
        if isASCII(text) { return Int64(text.count) }
        guard isValidUTF8(text) else { return Int64(string(text).utf16.count) }
        var count: Int64 = 0
        for byte in text where byte & 0xC0 != 0x80 { count += byte >= 0xF0 ? 2 : 1 }
        return count
    }

    private static func isValidUTF8(_ text: SQLiteText) -> Bool {
        var iterator = text.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The SQL function returning ``orderKey(_:)``.
    static let orderKeyFunction = "dm_swift_order"

    /// How an `ORDER BY` term sorts a text expression as `String`'s `<` does.
    enum Ordering {
        /// By ``orderKey(_:)``: computed once for every row sorted, then compared by bytes without calling back.
        /// For a sort of every row.
        case key
        /// By ``orderCollation``, the keys' order: called at each comparison, with no key made per row. For a sort
        /// that keeps only its first rows (`LIMIT`): once it holds them, SQLite compares each further row once,
        /// with the last row kept, and most rows go no further, so a key made and copied for every row costs more
        /// than those comparisons.
        case collation

        /// The term sorting `expression` (text) this way, without its direction.
        func term(_ expression: String) -> String {
            switch self {
            case .key: SwiftStringFunctions.orderKeyFunction + "(" + expression + ")"
            // A collation orders text only: a blob another program stored in a string column sorts after every text
            // here, and among the texts by the key (which reads it as text). Casting to text cost 85 instructions a
            // row scanned.
            case .collation: expression + " COLLATE " + SQLQuoting.identifier(SwiftStringFunctions.orderCollation)
            }
        }

        /// The ordering for a sort whose SQL keeps the first `limit` rows, or all of them.
        init(limit: Int?) { self = limit == nil ? .key : .collation }
    }

    /// `text`'s bytes in canonical composition (NFC): `String`'s `<` is the lexicographic order
    /// of the NFC Unicode scalars of both sides, and UTF-8 bytes order as their scalars do, so
    /// comparing keys by bytes orders texts (and equates them) exactly as Swift does. ASCII text
    /// is its own NFC form: `nil`, the text unchanged.
    static func orderKey(_ text: SQLiteText) -> [UInt8]? {
        if isASCII(text) { return nil }
        // The standard library's own normalization, the one its comparison uses.
        return string(text)._nfcCodeUnits
    }

    /// Whether `string` needs no collation: every string equal to it in Swift has its exact
    /// bytes (ASCII without the three characters that have a non-ASCII canonical equivalent:
    /// `K` ← U+212A, `;` ← U+037E, `` ` `` ← U+1FEF).
    static func comparesBytewise(_ string: String) -> Bool {
        string.utf8.allSatisfy {
            $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`")
        }
    }

    @inline(__always)
    private static func isASCII(_ text: SQLiteText) -> Bool {
        for byte in text where byte >= 0x80 { return false }
        return true
    }

    private static func string(_ text: SQLiteText) -> String {
        String(decoding: text, as: UTF8.self)
    }

    static func compare(_ a: SQLiteText, _ b: SQLiteText) -> Int32 {
        if let order = orderByBytes(a, b) { return order }
        let x = string(a)
        let y = string(b)
        return x == y ? 0 : (x < y ? -1 : 1)
    }

    /// The order of two texts' ``orderKey(_:)`` keys, their NFC bytes: `String`'s `<` and `==` as the standard
    /// library documents them, and a total order. It is what sorts use, with the key or with this collation, and
    /// not ``compare(_:_:)``: the standard library's `<` answers `false` both ways for some texts that are not equal
    /// (`"e\u{301}"` and `"\u{E9}x"`), which no sort can follow.
    static func compareOrderKeys(_ a: SQLiteText, _ b: SQLiteText) -> Int32 {
        if let order = orderByBytes(a, b) { return order }
        // The equal bytes before the last ASCII byte ahead of the first difference normalize alike, and apart from
        // what follows (no composition or reordering crosses an ASCII character): only the rest is compared.
        var split = firstDifference(a, b, within: min(a.count, b.count)) - 1
        while split > 0 && a[split] >= 0x80 { split -= 1 }
        split = max(split, 0)
        let x = SQLiteText(rebasing: a[split...])
        let y = SQLiteText(rebasing: b[split...])
        // Text already in NFC, whatever surrounds it, is its own key: no normalization, no copy.
        if isStableNFC(x) && isStableNFC(y) {
            let index = firstDifference(x, y, within: min(x.count, y.count))
            if index < min(x.count, y.count) { return x[index] < y[index] ? -1 : 1 }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        }
        let xKey = orderKey(x) ?? Array(x)
        let yKey = orderKey(y) ?? Array(y)
        return xKey.lexicographicallyPrecedes(yKey) ? -1 : (xKey == yKey ? 0 : 1)
    }

    /// Whether `text` is in NFC whatever comes before or after it, by a conservative test: valid UTF-8 whose every
    /// scalar is a starter that is its own NFC form and that no mark composes with or reorders around unless the
    /// mark is there too (then the mark fails the test): ASCII, U+0080–U+02FF (Latin), Cyrillic without its
    /// combining marks, kana without the combining voicing marks, CJK ideographs and Hangul syllables. The collation
    /// compares such texts by their bytes (CJK names, say) instead of normalizing both at every comparison.
    private static func isStableNFC(_ text: SQLiteText) -> Bool {
        var index = 0
        let count = text.count
        while index < count {
            let lead = text[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            // Two- and three-byte scalars only (no overlong lead bytes); four-byte ones take the general path.
            let length: Int
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF:
                length = 2
                scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF:
                length = 3
                scalar = UInt32(lead & 0x0F)
            default: return false
            }
            guard index &+ length <= count else { return false }
            for offset in 1..<length {
                let byte = text[index &+ offset]
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            switch scalar {
            case 0x80...0x2FF, 0x400...0x482, 0x48A...0x4FF, 0x3040...0x3098, 0x309B...0x30FF, 0x4E00...0x9FFF,
                0xAC00...0xD7A3:
                index &+= length
            default: return false
            }
        }
        return true
    }

    /// The order of `a` and `b` when their bytes decide it, or `nil`: when the first difference (or the end of the
    /// shorter text) is an ASCII character not followed by a non-ASCII one. Nothing after it can compose with it,
    /// no composition ever ends in an ASCII character, and the equal bytes before it normalize alike.
    @inline(__always)
    private static func orderByBytes(_ a: SQLiteText, _ b: SQLiteText) -> Int32? {
        let common = min(a.count, b.count)
        let index = firstDifference(a, b, within: common)
        if index == common {
            if a.count == b.count { return 0 }
            let next = a.count > common ? a[common] : b[common]
            if next < 0x80 { return a.count < b.count ? -1 : 1 }
        } else if a[index] < 0x80 && b[index] < 0x80 && (index + 1 >= a.count || a[index + 1] < 0x80)
            && (index + 1 >= b.count || b[index + 1] < 0x80)
        {
            return a[index] < b[index] ? -1 : 1
        }
        return nil
    }

    /// The offset of the first byte where `a` and `b` differ, or `count` when their first `count` bytes are equal;
    /// compared eight bytes at a time (a sort calls the collation for every comparison).
    @inline(__always)
    private static func firstDifference(_ a: SQLiteText, _ b: SQLiteText, within count: Int) -> Int {
        guard count > 0, let left = a.baseAddress, let right = b.baseAddress else { return 0 }
        let x = UnsafeRawPointer(left)
        let y = UnsafeRawPointer(right)
        var index = 0
        while index &+ 8 <= count {
            let difference =
                UInt64(littleEndian: x.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                ^ UInt64(littleEndian: y.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // The lowest differing bit is in the first differing byte (the words read as little-endian).
            if difference != 0 { return index &+ difference.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < count && left[index] == right[index] { index &+= 1 }
        return index
    }

    static func startsWith(_ text: SQLiteText, _ prefix: SQLiteText) -> Bool {
        // Only the text's first `prefix.count + 1` bytes matter when they are ASCII: the
        // characters there are single bytes, and the byte after them is the start of a
        // character of its own (no combining mark, which is never ASCII, joins the last one).
        if prefix.count <= text.count && isASCII(prefix)
            && isASCII(SQLiteText(rebasing: text.prefix(prefix.count + 1)))
        {
            for index in prefix.indices where text[index] != prefix[index] { return false }
            // A final "\r" of the prefix is not the "\r\n" character of the text.
            if let last = prefix.last, last == UInt8(ascii: "\r"), text.count > prefix.count,
                text[prefix.count] == UInt8(ascii: "\n")
            {
                return false
            }
            return true
        }
        // Fewer ASCII characters than the prefix has.
        if prefix.count > text.count && isASCII(text) && isASCII(prefix) { return false }
        return sequenceStartsWith(string(text), string(prefix))
    }

    static func contains(_ text: SQLiteText, _ needle: SQLiteText) -> Bool {
        if isASCII(text) && isASCII(needle) && !needle.contains(UInt8(ascii: "\r"))
            && !needle.contains(UInt8(ascii: "\n"))
        {
            // Without CR or LF in the needle, a byte match is a character match.
            guard needle.count <= text.count else { return false }
            if needle.isEmpty { return true }
            let last = text.count - needle.count
            var start = 0
            while start <= last {
                var index = 0
                while index < needle.count && text[start + index] == needle[index] { index += 1 }
                if index == needle.count { return true }
                start += 1
            }
            return false
        }
        return collectionContains(string(text), string(needle))
    }
}

/// `Sequence.starts(with:)` by `Character`, as `PredicateExpressions.SequenceStartsWith` evaluates it.
private func sequenceStartsWith<Base: Sequence, Prefix: Sequence>(_ base: Base, _ prefix: Prefix) -> Bool
where Base.Element == Prefix.Element, Base.Element: Equatable {
    base.starts(with: prefix)
}

/// `Collection.contains(_:)` by `Character`, as `PredicateExpressions.CollectionContainsCollection` evaluates it.
private func collectionContains<Base: Collection, Other: Collection>(_ base: Base, _ other: Other) -> Bool
where Base.Element == Other.Element, Base.Element: Equatable {
    base.contains(other)
}
