/// Splits a template source into tokens, applying set-delimiter tags as it goes.
struct MustacheScanner {
    /// The source's UTF-8 bytes.
    let bytes: [UInt8]
    private let path: String
    private var position = 0
    private var textStart = 0
    private var line = 1
    private var lineStart = 0
    private var openingDelimiter: [UInt8]
    private var closingDelimiter: [UInt8]
    private var tokens: [MustacheToken] = []

    /// Creates a scanner for a template source that starts with `delimiters`; `path` is used in errors.
    init(source: String, path: String, delimiters: MustacheDelimiters = .default) {
        self.bytes = Array(source.utf8)
        self.path = path
        self.openingDelimiter = delimiters.opening
        self.closingDelimiter = delimiters.closing
    }

    /// Returns the tokens of the whole source.
    mutating func scan() throws(MustacheError) -> [MustacheToken] {
        while position < bytes.count {
            if matches(openingDelimiter, at: position) {
                flushText()
                try scanTag()
                textStart = position
                continue
            }
            switch bytes[position] {
            case ASCII.newline:
                scanNewline(length: 1)
            case ASCII.carriageReturn where position + 1 < bytes.count && bytes[position + 1] == ASCII.newline:
                scanNewline(length: 2)
            default:
                position += 1
            }
        }
        flushText()
        return tokens
    }

    // MARK: - Text

    private mutating func flushText() {
        guard textStart < position else { return }
        tokens.append(MustacheToken(kind: .text(string(textStart..<position))))
        textStart = position
    }

    private mutating func scanNewline(length: Int) {
        flushText()
        tokens.append(MustacheToken(kind: .newline(string(position..<position + length))))
        position += length
        line += 1
        lineStart = position
        textStart = position
    }

    // MARK: - Tags

    private mutating func scanTag() throws(MustacheError) {
        let start = position
        let location = currentLocation(at: start)
        var contentStart = start + openingDelimiter.count
        let (kind, sigilLength) =
            contentStart < bytes.count ? Self.kind(ofSigil: bytes[contentStart]) : (.variable(escapes: true), 0)
        contentStart += sigilLength
        let terminator = self.terminator(
            for: kind, sigil: sigilLength > 0 ? bytes[start + openingDelimiter.count] : nil)
        guard let end = firstIndex(of: terminator, from: contentStart) else {
            throw MustacheError(
                .syntax, at: location,
                message: "unclosed tag: expected '\(String(decoding: terminator, as: UTF8.self))'")
        }
        position = end + terminator.count
        countLines(in: start..<position)
        let content = Self.normalized(Self.trimmed(string(contentStart..<end)))
        var tag = MustacheTag(kind: kind, content: content, location: location)
        tag.sourceRange = start..<position
        if kind == .section {
            tag.delimiters = MustacheDelimiters(opening: openingDelimiter, closing: closingDelimiter)
        }
        try finishTag(tag)
    }

    private mutating func finishTag(_ tag: MustacheTag) throws(MustacheError) {
        switch tag.kind {
        case .comment:
            break
        case .delimiters:
            try setDelimiters(from: tag)
        case .variable, .section, .invertedSection, .close, .partial, .parent, .block:
            try Self.validateName(of: tag)
        }
        tokens.append(MustacheToken(kind: .tag(tag)))
    }

    private static func kind(ofSigil sigil: UInt8) -> (MustacheTag.Kind, sigilLength: Int) {
        switch sigil {
        case ASCII.openingBrace, ASCII.ampersand: (.variable(escapes: false), 1)
        case ASCII.hash: (.section, 1)
        case ASCII.caret: (.invertedSection, 1)
        case ASCII.slash: (.close, 1)
        case ASCII.exclamationMark: (.comment, 1)
        case ASCII.greaterThan: (.partial, 1)
        case ASCII.lessThan: (.parent, 1)
        case ASCII.dollar: (.block, 1)
        case ASCII.equals: (.delimiters, 1)
        default: (.variable(escapes: true), 0)
        }
    }

    /// The bytes that end a tag: the closing delimiter, preceded by `}` for a triple mustache and
    /// by `=` for a set-delimiter tag.
    private func terminator(for kind: MustacheTag.Kind, sigil: UInt8?) -> [UInt8] {
        switch kind {
        case .variable where sigil == ASCII.openingBrace: [ASCII.closingBrace] + closingDelimiter
        case .delimiters: [ASCII.equals] + closingDelimiter
        default: closingDelimiter
        }
    }

    private mutating func setDelimiters(from tag: MustacheTag) throws(MustacheError) {
        let parts = tag.content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard parts.count == 2 else {
            throw MustacheError(
                .syntax, at: tag.location,
                message:
                    "invalid set-delimiters tag '\(tag.displayText)': expected two delimiters separated by whitespace"
            )
        }
        openingDelimiter = Array(parts[0].utf8)
        closingDelimiter = Array(parts[1].utf8)
    }

    private static func validateName(of tag: MustacheTag) throws(MustacheError) {
        let name = tag.content.hasPrefix("*") ? tag.content.dropFirst() : Substring(tag.content)
        if name.isEmpty {
            throw MustacheError(.syntax, at: tag.location, message: "missing name in tag '\(tag.displayText)'")
        }
        if name.unicodeScalars.contains(where: isWhitespace) {
            throw MustacheError(
                .syntax, at: tag.location,
                message: "invalid name '\(tag.content)' in tag '\(tag.displayText)': names cannot contain whitespace")
        }
    }

    // MARK: - Helpers

    private func matches(_ delimiter: [UInt8], at index: Int) -> Bool {
        guard index + delimiter.count <= bytes.count else { return false }
        for offset in delimiter.indices where bytes[index + offset] != delimiter[offset] {
            return false
        }
        return true
    }

    private func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if matches(needle, at: index) { return index }
            index += 1
        }
        return nil
    }

    private mutating func countLines(in range: Range<Int>) {
        for index in range where bytes[index] == ASCII.newline {
            line += 1
            lineStart = index + 1
        }
    }

    private func currentLocation(at index: Int) -> MustacheSourceLocation {
        var column = 1
        for byte in bytes[lineStart..<index] where byte & 0xC0 != 0x80 {
            column += 1
        }
        return MustacheSourceLocation(path: path, line: line, column: column)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// Removes the whitespace a dynamic name may have after its asterisk: `* name` is `*name`.
    private static func normalized(_ content: String) -> String {
        guard content.hasPrefix("*") else { return content }
        return "*" + trimmed(String(Substring(content.unicodeScalars.dropFirst())))
    }
}

/// The ASCII bytes the scanner looks for.
enum ASCII {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let openingBrace = UInt8(ascii: "{")
    static let closingBrace = UInt8(ascii: "}")
    static let ampersand = UInt8(ascii: "&")
    static let hash = UInt8(ascii: "#")
    static let caret = UInt8(ascii: "^")
    static let slash = UInt8(ascii: "/")
    static let exclamationMark = UInt8(ascii: "!")
    static let greaterThan = UInt8(ascii: ">")
    static let lessThan = UInt8(ascii: "<")
    static let dollar = UInt8(ascii: "$")
    static let equals = UInt8(ascii: "=")
}
