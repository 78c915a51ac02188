import DataModelStoreLayout
import Foundation
import PostgresKit

// The places where the predicate translator's SQL differs between SQLite and PostgreSQL, so one
// translation (`PredicateTranslation.swift`, `FormatPredicateTranslation.swift`) writes either with
// exactly Swift's semantics (see `Docs/Runtime.md`, "PostgreSQL store"):
//
// - Booleans: SQLite's `0` / `1`, PostgreSQL's `FALSE` / `TRUE` (its `BOOLEAN` columns and conditions).
// - Null-safe equality: SQLite's `IS` / `IS NOT`, PostgreSQL's `IS NOT DISTINCT FROM` / `IS DISTINCT FROM`.
// - Strings compare as Swift's `String` (canonical equivalence, code-point order of the NFC form): SQLite
//   through the `DM_SWIFT` collation, PostgreSQL with the NFC `COLLATE "C"` on both sides, as its sorts do (a
//   column's ASCII values, their own NFC, are not normalized: ``PostgresSQL/normalized(_:)``).
// - String matching (`starts(with:)`, `contains`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`): SQLite calls
//   Swift's own functions (`dm_*`); PostgreSQL matches the NFC text with a regular expression that also checks
//   the grapheme boundaries at the match's ends (``PostgresStringMatching``), exact when the needle's ends are
//   characters whose boundaries that check decides, a superset otherwise (checked again in memory); a column's
//   ASCII values are matched by a `LIKE` of the needle instead, as exact.

extension PredicateSQLTranslator {
    var isPostgres: Bool { dialect == .postgres }

    /// A condition that always holds / never holds.
    var trueSQL: String { isPostgres ? "TRUE" : "1" }
    var falseSQL: String { isPostgres ? "FALSE" : "0" }

    /// `TRUE` / `FALSE` as a condition.
    func literal(_ value: Bool) -> String { value ? trueSQL : falseSQL }

    /// The null-safe equality operator (with spaces around it).
    func isOperator(negated: Bool) -> String {
        isPostgres
            ? (negated ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM ")
            : (negated ? " IS NOT " : " IS ")
    }

    /// `condition`, `NULL` read as false.
    func orFalse(_ condition: String) -> String {
        "COALESCE(" + condition + ", " + falseSQL + ")"
    }

    /// A Boolean value (a Bool attribute, a condition's value) as a condition: `IS 1` / `IS TRUE`.
    func isTrue(_ value: String) -> String {
        "(" + value + (isPostgres ? " IS TRUE)" : " IS 1)")
    }

    /// `a op b` for values of `type`, strings compared as Swift compares them: `constants` are the bound values
    /// on the other side (`nil` when both sides are expressions, or always for an ordering).
    func compare(
        _ a: SQLFragment, _ op: String, _ b: SQLFragment, _ type: SQLScalarType, constants: [PrimitiveValue]?
    ) -> SQLFragment {
        guard isPostgres else {
            return SQLFragment(a.sql + op + b.sql + collation(type, constants), a.arguments + b.arguments)
        }
        guard case .attribute(.string) = type, !Self.comparesBytewise(constants) else {
            return SQLFragment(a.sql + op + b.sql, a.arguments + b.arguments)
        }
        return SQLFragment(
            PostgresSQL.normalized(Self.typedText(a.sql)) + #" COLLATE "C""# + op
                + PostgresSQL.normalized(Self.typedText(b.sql)), a.arguments + b.arguments)
    }

    /// `value IN (?, …)` for the bound `values` of `type`.
    func inList(_ value: SQLFragment, _ type: SQLScalarType, _ values: [PrimitiveValue]) -> String {
        let marks = Array(repeating: "?", count: values.count)
        guard isPostgres else {
            return value.sql + collation(type, values) + " IN (" + marks.joined(separator: ", ") + ")"
        }
        guard case .attribute(.string) = type, !Self.comparesBytewise(values) else {
            return value.sql + " IN (" + marks.joined(separator: ", ") + ")"
        }
        return PostgresSQL.normalized(value.sql) + #" COLLATE "C" IN ("#
            + marks.map { PostgresSQL.normalized(Self.typedText($0)) }.joined(separator: ", ") + ")"
    }

    /// Whether every constant is a string whose equals in Swift all have its bytes (a plain `=` is exact).
    private static func comparesBytewise(_ constants: [PrimitiveValue]?) -> Bool {
        guard let constants else { return false }
        return constants.allSatisfy {
            if case .text(let text) = $0 { SwiftStringFunctions.comparesBytewise(text) } else { true }
        }
    }

    /// A parameter typed `TEXT` (PostgreSQL infers no type for a parameter only a function sees).
    static func typedText(_ sql: String) -> String {
        sql == "?" ? "CAST(? AS TEXT)" : sql
    }

    /// Whether `date` is stored as it is: PostgreSQL's `TIMESTAMPTZ` keeps microseconds, so a constant between
    /// two microseconds would compare rounded (such a comparison is evaluated in memory).
    func isExactlyStored(_ value: PrimitiveValue, _ type: SQLScalarType) -> Bool {
        guard isPostgres, case .attribute(.date) = type else { return true }
        let exact: Bool
        switch value {
        case .real(let seconds):
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            exact = PostgresText.timestamp(from: PostgresText.timestamp(date)) == date
        case .integer(let seconds):
            exact = abs(seconds) < 1 << 40
        default:
            exact = true
        }
        if !exact {
            _ = decline("a date between two microseconds (PostgreSQL's precision) is compared in memory")
        }
        return exact
    }

    /// `text` (a string value, `NULL`-able) matches the constant `needle` as `operation` (no folding options):
    /// `exact: false` when the SQL selects a superset. `nil` when it has no translation.
    func stringMatch(_ text: SQLFragment, _ operation: FormatStringMatching.Operation, _ needle: String) -> SQLTerm? {
        guard isPostgres else { return nil }
        let anchor: PostgresStringMatching.Anchor
        switch operation {
        case .beginsWith: anchor = .prefix
        case .endsWith: anchor = .suffix
        case .contains: anchor = .anywhere
        case .like:
            guard let pattern = PostgresStringMatching.likePattern(needle) else { return nil }
            return .condition(
                SQLFragment(
                    orFalse(PostgresSQL.normalized(text.sql) + #" COLLATE "C" LIKE ?"#),
                    text.arguments + [.text(pattern)]),
                exact: false)
        case .equal, .matches: return nil
        }
        let (pattern, exact) = PostgresStringMatching.regularExpression(needle, anchor)
        let regex = "normalize(" + text.sql + #", NFC) COLLATE "C" ~ ?"#
        guard PostgresSQL.isColumnReference(text.sql), text.arguments.isEmpty else {
            return .condition(SQLFragment(orFalse(regex), text.arguments + [.text(pattern)]), exact: exact)
        }
        // An ASCII value is its own NFC and its characters are its bytes: a `LIKE` of the needle, no normalizing and
        // no regular expression (see ``PostgresStringMatching/asciiLikePattern(_:_:)``).
        guard let like = PostgresStringMatching.asciiLikePattern(needle, anchor) else {
            return .condition(
                SQLFragment(
                    orFalse("CASE WHEN " + PostgresSQL.isASCII(text.sql) + " THEN FALSE ELSE " + regex + " END"),
                    [.text(pattern)]),
                exact: exact)
        }
        return .condition(
            SQLFragment(
                orFalse(
                    "CASE WHEN " + PostgresSQL.isASCII(text.sql) + " THEN " + text.sql + #" COLLATE "C" LIKE ? ELSE "#
                        + regex + " END"), [.text(like), .text(pattern)]),
            exact: exact)
    }

    /// `NSString`'s `length` of a text: its UTF-16 code units (a scalar above U+FFFF counts two).
    func utf16Length(_ text: SQLFragment) -> SQLFragment {
        guard isPostgres else {
            return SQLFragment(SwiftStringFunctions.utf16LengthFunction + "(" + text.sql + ")", text.arguments)
        }
        // Characters, plus one for each scalar outside the Basic Multilingual Plane.
        return SQLFragment(
            "(char_length(" + text.sql + ") + char_length(regexp_replace(" + text.sql
                + #", '[^\U00010000-\U0010FFFF]', '', 'g')))"#, text.arguments + text.arguments)
    }
}

/// String matching on PostgreSQL with Swift's `Character` semantics, as regular expressions over the NFC text.
///
/// Swift's `starts(with:)` / `contains` compare `Character`s (grapheme clusters, canonical equivalence). In NFC
/// (which composes only within a cluster) a match of characters is a match of bytes that begins and ends on
/// grapheme boundaries of the text. The expression matches the needle's NFC code points and asserts those
/// boundaries where the needle's end characters let one code point decide them:
/// - after a needle ending in a plain character (printable ASCII or Latin, U+0020…U+02FF): the next code point
///   of the text must not extend it — not an `Extend`, `SpacingMark` or `ZWJ` code point, the set Swift's own
///   segmentation joins to `"a"` (computed once from the standard library, so it is Swift's Unicode version);
/// - before a needle starting with such a character (not `©`/`®`, which an emoji sequence can join): the
///   previous code point must not be a `Prepend` one (computed the same way).
/// Any other end (a combining mark, a control, CR, emoji, Hangul jamo, regional indicators …) keeps the
/// plain byte match, a superset the fetch checks again in memory.
enum PostgresStringMatching {
    enum Anchor {
        case prefix, suffix, anywhere
    }

    /// The expression for `needle` and whether it is exact.
    static func regularExpression(_ needle: String, _ anchor: Anchor) -> (String, exact: Bool) {
        let scalars = Array(String(decoding: needle._nfcCodeUnits, as: UTF8.self).unicodeScalars)
        var pattern = anchor == .prefix ? "^" : ""
        var exact = true
        if anchor != .prefix, let first = scalars.first {
            if isPlainStart(first) {
                pattern += "(?<!" + prependClass + ")"
            } else {
                exact = false
            }
        }
        for scalar in scalars { pattern += escaped(scalar) }
        if anchor != .suffix, let last = scalars.last {
            if isPlainEnd(last) {
                pattern += "(?!" + extendingClass + ")"
            } else {
                exact = false
            }
        }
        if anchor == .suffix { pattern += "$" }
        return (pattern, exact)
    }

    /// The `LIKE` pattern matching `needle` at `anchor` in an ASCII text, `nil` when the needle's NFC is not ASCII
    /// (no ASCII text contains it).
    ///
    /// In ASCII text every character is one code point except `"\r\n"`, and no ASCII code point joins a plain
    /// character: so where the regular expression is exact (the needle's ends plain, never CR or LF) the byte match
    /// is exact too, and otherwise both select a superset.
    static func asciiLikePattern(_ needle: String, _ anchor: Anchor) -> String? {
        let nfc = String(decoding: needle._nfcCodeUnits, as: UTF8.self)
        guard nfc.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var pattern = anchor == .prefix ? "" : "%"
        for scalar in nfc.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { pattern += "\\" }
            pattern.unicodeScalars.append(scalar)
        }
        return anchor == .suffix ? pattern : pattern + "%"
    }

    /// A `LIKE` pattern selecting a superset of a format `LIKE` (`*` any run of characters, `?` one character,
    /// `\` escaping the next): `?` becomes `_%` (a character is one or more code points), literals their NFC.
    static func likePattern(_ pattern: String) -> String? {
        var result = ""
        var characters = Array(pattern)[...]
        while let character = characters.popFirst() {
            var literal = character
            if character == "\\", let next = characters.popFirst() {
                literal = next
            } else if character == "*" {
                result += "%"
                continue
            } else if character == "?" {
                result += "_%"
                continue
            }
            for scalar in String(decoding: String(literal)._nfcCodeUnits, as: UTF8.self).unicodeScalars {
                if scalar == "%" || scalar == "_" || scalar == "\\" { result += "\\" }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A plain character's code point: its grapheme boundaries depend on the neighbouring code point alone.
    private static func isPlainEnd(_ scalar: Unicode.Scalar) -> Bool {
        (0x20...0x7E).contains(scalar.value) || ((0xA0...0x2FF).contains(scalar.value) && scalar.value != 0xAD)
    }

    private static func isPlainStart(_ scalar: Unicode.Scalar) -> Bool {
        isPlainEnd(scalar) && scalar.value != 0xA9 && scalar.value != 0xAE
    }

    /// `scalar` as a regular-expression atom: ASCII letters and digits as they are, everything else escaped.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) {
            return String(scalar)
        }
        return hexEscape(value)
    }

    private static func hexEscape(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return value <= 0xFFFF
            ? "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            : "\\U" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The code points Swift joins to a preceding `"a"` (`Extend`, `SpacingMark`, `ZWJ`), as a bracket
    /// expression.
    static let extendingClass = bracket { String("a") + String($0) }

    /// The code points Swift joins to a following `"a"` (`Prepend`), as a bracket expression.
    static let prependClass = bracket { String($0) + "a" }

    /// Blocks of letters that join nothing (ideographs, Hangul syllables, private use, surrogates, Tangut,
    /// Khitan, cuneiform): skipped when the classes are computed.
    private static let plainBlocks: [ClosedRange<UInt32>] = [
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xD800...0xF8FF, 0x12000...0x1254F, 0x17000...0x18CFF,
    ]

    /// The code points `c` for which `joined(c)` is one character, as `[…]` with ranges. Planes 0 and 1 and the
    /// tag and variation-selector block (U+E0000…U+E0FFF) hold every such code point; the others are ideographs
    /// and private use. (Computed once per process, when PostgreSQL string matching is first translated.)
    private static func bracket(_ joined: (Unicode.Scalar) -> String) -> String {
        var ranges: [ClosedRange<UInt32>] = []
        var value: UInt32 = 0x80
        while value <= 0xE0FFF {
            if let block = plainBlocks.first(where: { $0.contains(value) }) {
                value = block.upperBound + 1
                continue
            }
            if value == 0x20000 { value = 0xE0000 }
            defer { value += 1 }
            guard let scalar = Unicode.Scalar(value), joined(scalar).count == 1 else { continue }
            if let last = ranges.last, last.upperBound + 1 == value {
                ranges[ranges.count - 1] = last.lowerBound...value
            } else {
                ranges.append(value...value)
            }
        }
        var text = "["
        for range in ranges {
            text += hexEscape(range.lowerBound)
            if range.upperBound != range.lowerBound { text += "-" + hexEscape(range.upperBound) }
        }
        // Never empty: a class that matches nothing.
        return ranges.isEmpty ? "[^\\u0001-\\U0010FFFF]" : text + "]"
    }
}
