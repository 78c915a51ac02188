import DataModelNaming
import DataModelStoreLayout
import FoundationEssentials

// String helpers of the validator that other targets use too: trimming, type references, regular
// expressions.
extension Validator {
    /// Whether `pattern` is a regular expression Core Data could use (it evaluates them with ICU).
    ///
    /// Swift's regex parser reads ICU's syntax; what it refuses is wrong there too, except the
    /// ICU features it does not implement yet (lookbehind, the `u` and `w` modes), which it
    /// reports as "not currently supported", and groups nested 63 to 99 deep, which ICU takes and
    /// it does not: those patterns are accepted, not judged. A few
    /// patterns that ICU refuses and Swift reads as literal text (a lone `{` or `}`) are accepted.
    public static func isRegularExpression(_ pattern: String) -> Bool {
        // ICU refuses groups or sets nested 100 deep; Swift's parser recurses into each nested set
        // and runs out of stack on a few thousand, so such a pattern never reaches it.
        guard nestingDepth(of: pattern) < 100 else { return false }
        do {
            _ = try Regex(pattern)
            return true
        } catch {
            // Features Swift's parser lacks, and groups nested deeper than its limit (62; ICU's is 99).
            let reason = String(describing: error)
            return reason.contains("not currently supported") || reason.contains("too deeply nested")
        }
    }

    /// How deeply the groups `(…)` and sets `[…]` of a regular expression nest (an escaped character
    /// and `\Q…\E` quoted text open nothing; inside a set, only `[` opens, a nested set).
    static func nestingDepth(of pattern: String) -> Int {
        var depth = 0
        var deepest = 0
        var sets = 0
        var bytes = pattern.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.next() else { break }
                guard escaped == UInt8(ascii: "Q") else { continue }
                // Quoted text runs to `\E` or the end.
                var previous: UInt8 = 0
                while let quoted = bytes.next() {
                    if previous == UInt8(ascii: "\\") && quoted == UInt8(ascii: "E") { break }
                    previous = quoted
                }
            case UInt8(ascii: "["):
                sets += 1
                depth += 1
            case UInt8(ascii: "]") where sets > 0:
                sets -= 1
                depth -= 1
            case UInt8(ascii: "(") where sets == 0:
                depth += 1
            case UInt8(ascii: ")") where sets == 0:
                depth = max(depth - 1, 0)
            default:
                break
            }
            deepest = max(deepest, depth)
        }
        return deepest
    }

    /// `text` without the spaces and tabs at its ends, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` trims them: general category Zs and U+0009. Text that
    /// starts and ends with an ASCII character other than a space or tab (the usual case) is returned
    /// as it is, without a look at its scalars.
    public static func trimmingWhitespace(_ text: String) -> String {
        trimming(text) { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// `text` without the white space and line breaks at its ends, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` trims them: general categories Z*, U+000A to
    /// U+000D and U+0085 (and the tab, which Foundation's set holds too).
    public static func trimmingWhitespaceAndNewlines(_ text: String) -> String {
        trimming(text) { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x85: return true
            default:
                switch scalar.properties.generalCategory {
                case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
                default: return false
                }
            }
        }
    }

    private static func trimming(_ text: String, _ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        func isPlainASCII(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte < 0x80 && byte > 0x20
        }
        if isPlainASCII(text.utf8.first) && isPlainASCII(text.utf8.last) { return text }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[start...last])
    }

    /// A Swift type as written in a `customClassName`: an optional leading `.` (Xcode's current module), then
    /// identifiers joined by `.`, with balanced `<…>` generic arguments, `[…]`/`[K: V]` collection sugar and
    /// `?`, separated by `,` `:` or spaces. Anything else (comments, quotes, newlines, `{`, `/`) would break the
    /// generated code.
    static func isTypeReference(_ text: String) -> Bool {
        let trimmed = trimmingWhitespace(text)
        // ASCII text (the usual case) is checked byte by byte; its characters are its bytes, but for "\r\n", which
        // is refused either way.
        let ascii = trimmed.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            bytes.allSatisfy { $0 < 0x80 } ? isASCIITypeReference(bytes) : nil
        }
        if case let result?? = ascii { return result }
        return isTypeReference(characters: trimmed)
    }

    /// ``isTypeReference(_:)`` for trimmed ASCII text, on its bytes.
    private static func isASCIITypeReference(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_")
        }
        func endsType(_ byte: UInt8) -> Bool {
            isWordByte(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "?")
        }
        func isOne(_ byte: UInt8, of set: StaticString) -> Bool {
            set.withUTF8Buffer { $0.contains(byte) }
        }
        var index = 0
        while index < bytes.count && bytes[index] == UInt8(ascii: ".") { index += 1 }
        var stack: [UInt8] = []
        var wordStart: Int?
        var previous = UInt8(ascii: ",")  // the last byte that is not a space
        var spaced = false
        func wordIsName(endingAt end: Int) -> Bool {
            guard let start = wordStart else { return true }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            return ModelNaming.isIdentifier(word) && !ModelNaming.nonTypeKeywords.contains(word)
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if isWordByte(byte) {
                // A name starts a type or follows `.`, `<`, `[`, `,` or `:` (so `Foo Bar` and `Foo<A>B` are refused).
                if wordStart == nil {
                    if !isOne(previous, of: "<[,:.") || (spaced && previous == UInt8(ascii: ".")) { return false }
                    wordStart = index
                }
                previous = byte
                spaced = false
                continue
            }
            guard wordIsName(endingAt: index) else { return false }
            wordStart = nil
            if byte == UInt8(ascii: " ") {
                spaced = true
                continue
            }
            let ends = endsType(previous)
            switch byte {
            case UInt8(ascii: "<"): guard ends, !spaced else { return false }
            case UInt8(ascii: "["): guard isOne(previous, of: "<[,:") else { return false }
            case UInt8(ascii: ">"): guard ends, stack.last == UInt8(ascii: "<") else { return false }
            case UInt8(ascii: "]"): guard ends, stack.last == UInt8(ascii: "[") else { return false }
            case UInt8(ascii: "."): guard ends, !spaced else { return false }
            case UInt8(ascii: ","), UInt8(ascii: ":"): guard ends, !stack.isEmpty else { return false }
            case UInt8(ascii: "?"): guard ends, !spaced else { return false }
            default: return false
            }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "["): stack.append(byte)
            case UInt8(ascii: ">"), UInt8(ascii: "]"): _ = stack.popLast()
            default: break
            }
            previous = byte
            spaced = false
        }
        return wordIsName(endingAt: bytes.count) && endsType(previous) && stack.isEmpty
    }

    /// ``isTypeReference(_:)`` for trimmed text, character by character.
    static func isTypeReference(characters trimmed: String) -> Bool {
        var body = Substring(trimmed)
        while body.first == "." { body.removeFirst() }
        var stack: [Character] = []
        var word = ""
        var previous: Character = ","  // the last character that is not a space
        var spaced = false
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
        func wordIsName() -> Bool {
            word.isEmpty || (ModelNaming.isIdentifier(word) && !ModelNaming.nonTypeKeywords.contains(word))
        }
        for character in body {
            if isWordCharacter(character) {
                // A name starts a type or follows `.`, `<`, `[`, `,` or `:` (so `Foo Bar` and `Foo<A>B` are refused).
                if word.isEmpty, !"<[,:.".contains(previous) || (spaced && previous == ".") { return false }
                word.append(character)
                previous = character
                spaced = false
                continue
            }
            guard wordIsName() else { return false }
            word = ""
            if character == " " {
                spaced = true
                continue
            }
            let endsType = isWordCharacter(previous) || previous == ">" || previous == "]" || previous == "?"
            switch character {
            case "<": guard endsType, !spaced else { return false }
            case "[": guard "<[,:".contains(previous) else { return false }
            case ">": guard endsType, stack.last == "<" else { return false }
            case "]": guard endsType, stack.last == "[" else { return false }
            case ".": guard endsType, !spaced else { return false }
            case ",", ":": guard endsType, !stack.isEmpty else { return false }
            case "?": guard endsType, !spaced else { return false }
            default: return false
            }
            switch character {
            case "<", "[": stack.append(character)
            case ">", "]": _ = stack.popLast()
            default: break
            }
            previous = character
            spaced = false
        }
        let endsType = isWordCharacter(previous) || previous == ">" || previous == "]" || previous == "?"
        return wordIsName() && endsType && stack.isEmpty
    }
}
