import DataModelStoreLayout
import FoundationEssentials

// Identifier checks of a validation run.
extension ValidationRun {
    func checkIdentifier(_ name: String, kind: String, location: SourceLocation, uppercase: Bool) {
        guard !name.isEmpty else { return }  // reported by the parser
        guard Self.isIdentifier(name) else {
            error(
                "\(kind) name '\(name)' is not a valid identifier (letters, digits and '_', not starting with a digit)",
                .invalidIdentifier, location)
            return
        }
    }

    /// Letters, digits and `_`, not starting with a digit (ASCII fast path, Unicode letters allowed).
    static func isIdentifier(_ name: String) -> Bool {
        let isASCIIIdentifier =
            name.utf8.withContiguousStorageIfAvailable(isASCIIIdentifier) ?? isASCIIIdentifier(Array(name.utf8))
        if isASCIIIdentifier { return true }
        var isFirst = true
        for scalar in name.unicodeScalars {
            let value = scalar.value
            let ok: Bool
            if value < 0x80 {
                let isLetter = (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) || value == 0x5F
                let isDigit = value >= 0x30 && value <= 0x39
                ok = isLetter || (!isFirst && isDigit)
            } else {
                // Letters first (combining marks only after the start, as Swift allows), then letters,
                // marks and digits.
                ok = isFirst ? Self.isLetter(scalar) : Self.isAlphanumeric(scalar)
            }
            if !ok { return false }
            isFirst = false
        }
        return !isFirst
    }

    /// Whether `bytes` are ASCII letters, digits and `_`, not starting with a digit, and not empty.
    static func isASCIIIdentifier(_ bytes: some Collection<UInt8>) -> Bool {
        var first = true
        for byte in bytes {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            if !(isLetter || (!first && byte >= 0x30 && byte <= 0x39)) { return false }
            first = false
        }
        return !first
    }

    func isPlainName(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "_" || Self.isAlphanumeric($0) }
    }

    /// A letter: Unicode general category L*.
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    /// What Foundation's `CharacterSet.alphanumerics` holds: general categories L*, M* and N*.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            true
        default: false
        }
    }
}
