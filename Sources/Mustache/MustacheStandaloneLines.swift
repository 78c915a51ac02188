/// Applies Mustache's standalone-line rule to a token stream, at compile time.
///
/// A line that holds nothing but whitespace and one tag that renders no text of its own (a
/// section, closing, comment, set-delimiter, partial, parent or block tag) is *standalone*: its
/// whitespace and line break are removed, and the tag remembers the line's indentation so
/// partials and blocks can indent what they include. As the inheritance specification requires,
/// a line may also hold several parent and block tags (such as `{{<parent}}{{$block}}` or
/// `{{/block}}{{/parent}}`) and still stand alone.
struct MustacheStandaloneLines {
    /// The kinds of the sections, parents and blocks open at the current token.
    private var openKinds: [MustacheTag.Kind] = []

    /// Returns the tokens with the whitespace and line breaks of standalone lines removed.
    static func apply(to tokens: [MustacheToken]) -> [MustacheToken] {
        var pass = MustacheStandaloneLines()
        var result: [MustacheToken] = []
        result.reserveCapacity(tokens.count)
        var lineStart = tokens.startIndex
        while lineStart < tokens.endIndex {
            let lineEnd = endOfLine(in: tokens, from: lineStart)
            let line = tokens[lineStart..<lineEnd]
            if let indentation = pass.standaloneIndentation(of: line) {
                appendStandalone(line, indentation: indentation, to: &result)
            } else {
                result.append(contentsOf: line)
            }
            lineStart = lineEnd
        }
        return result
    }

    /// The index just past the line break that ends the line starting at `start`.
    private static func endOfLine(in tokens: [MustacheToken], from start: Int) -> Int {
        var index = start
        while index < tokens.endIndex {
            let isNewline = tokens[index].isNewline
            index += 1
            if isNewline { break }
        }
        return index
    }

    /// The indentation of a standalone line, or nil when the line is not standalone.
    private mutating func standaloneIndentation(of line: ArraySlice<MustacheToken>) -> String? {
        var indentation = ""
        var isBlank = true
        var tags: [MustacheTag.Kind] = []
        var inheritanceTagCount = 0
        for token in line {
            switch token.kind {
            case .newline:
                continue
            case .text(let text):
                isBlank = isBlank && Self.isBlank(text)
                if tags.isEmpty { indentation += text }
            case .tag(let tag):
                if isInheritanceTag(tag.kind) { inheritanceTagCount += 1 }
                track(tag.kind)
                tags.append(tag.kind)
            }
        }
        guard isBlank, let first = tags.first, first.canStandAlone else { return nil }
        let isSingleTag = tags.count == 1
        let isInheritanceLine = inheritanceTagCount == tags.count && tags.filter { $0 == .parent }.count <= 1
        return isSingleTag || isInheritanceLine ? indentation : nil
    }

    /// Whether a tag opens or closes a parent or a block.
    private func isInheritanceTag(_ kind: MustacheTag.Kind) -> Bool {
        switch kind {
        case .parent, .block: true
        case .close: openKinds.last == .parent || openKinds.last == .block
        case .variable, .section, .invertedSection, .comment, .partial, .delimiters: false
        }
    }

    /// Keeps track of the open sections, parents and blocks, so closing tags can be classified.
    private mutating func track(_ kind: MustacheTag.Kind) {
        switch kind {
        case .section, .invertedSection, .parent, .block: openKinds.append(kind)
        case .close: _ = openKinds.popLast()
        case .variable, .comment, .partial, .delimiters: break
        }
    }

    private static func appendStandalone(
        _ line: ArraySlice<MustacheToken>, indentation: String, to result: inout [MustacheToken]
    ) {
        for token in line {
            guard case .tag(var tag) = token.kind else { continue }
            tag.isStandalone = true
            tag.indentation = indentation
            result.append(MustacheToken(kind: .tag(tag)))
        }
    }

    private static func isBlank(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}
