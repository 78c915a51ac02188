/// Compiles a template source into a tree of nodes.
///
/// Compilation runs in three stages: the scanner splits the source into tokens, the standalone
/// pass removes standalone lines, and the parser nests the tokens into sections, parents and
/// blocks, recording where each line starts so partials can be indented at render time.
struct MustacheParser {
    /// The result of compiling a template.
    struct Output: Sendable {
        /// The template's top-level nodes.
        var nodes: [MustacheNode]
        /// The templates the source names in partial and parent tags, with where it names them.
        var references: [(name: String, location: MustacheSourceLocation)]
        /// The source's UTF-8 bytes, which the raw text of sections (``MustacheSection/rawText``) refers to.
        var source: [UInt8]
    }

    /// The deepest nesting of sections, parents and blocks a template may have.
    static let maximumNesting = 100

    private var stack = [MustacheContainer(openingTag: nil)]
    private var atLineStart = true
    private var references: [(name: String, location: MustacheSourceLocation)] = []
    /// The source's UTF-8 bytes.
    private let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Compiles `source`, whose tags start with `delimiters`; `path` is used in errors.
    static func parse(
        _ source: String, path: String, delimiters: MustacheDelimiters = .default
    ) throws(MustacheError) -> Output {
        var scanner = MustacheScanner(source: source, path: path, delimiters: delimiters)
        let tokens = MustacheStandaloneLines.apply(to: try scanner.scan())
        var parser = MustacheParser(bytes: scanner.bytes)
        for token in tokens {
            try parser.consume(token)
        }
        return try parser.finish()
    }

    // MARK: - Tokens

    private mutating func consume(_ token: MustacheToken) throws(MustacheError) {
        switch token.kind {
        case .text(let text):
            startLineIfNeeded()
            stack[stack.count - 1].appendText(text)
        case .newline(let newline):
            stack[stack.count - 1].appendText(newline)
            atLineStart = true
        case .tag(let tag):
            try consume(tag)
        }
    }

    private mutating func consume(_ tag: MustacheTag) throws(MustacheError) {
        switch tag.kind {
        case .comment, .delimiters:
            break
        case .variable(let escapes):
            startLineIfNeeded()
            append(.variable(MustacheName(tag.content), escapes: escapes))
        case .partial:
            if !tag.isStandalone { startLineIfNeeded() }
            recordReference(in: tag)
            let partial = MustachePartial(
                reference: Self.reference(in: tag), indentation: Self.indentation(of: tag), location: tag.location)
            append(.partial(partial))
        case .section, .invertedSection, .parent, .block:
            if !tag.isStandalone { startLineIfNeeded() }
            try open(tag)
        case .close:
            try close(tag)
        }
    }

    /// Marks the start of a line the first time the line produces output.
    private mutating func startLineIfNeeded() {
        guard atLineStart else { return }
        atLineStart = false
        append(.lineStart)
    }

    private mutating func append(_ node: MustacheNode) {
        stack[stack.count - 1].append(node)
    }

    // MARK: - Nesting

    private mutating func open(_ tag: MustacheTag) throws(MustacheError) {
        guard stack.count <= Self.maximumNesting else {
            throw MustacheError(
                .syntax, at: tag.location,
                message: "'\(tag.displayText)' is nested too deeply (at most \(Self.maximumNesting) levels)")
        }
        if case .parent = tag.kind {
            recordReference(in: tag)
        }
        stack.append(MustacheContainer(openingTag: tag))
    }

    private mutating func close(_ tag: MustacheTag) throws(MustacheError) {
        guard stack.count > 1, let openingTag = stack[stack.count - 1].openingTag else {
            throw MustacheError(
                .syntax, at: tag.location, message: "unexpected closing tag '\(tag.displayText)': no section is open")
        }
        guard openingTag.content == tag.content else {
            let location = openingTag.location
            throw MustacheError(
                .syntax, at: tag.location,
                message: "mismatched closing tag '\(tag.displayText)': expected '{{/\(openingTag.content)}}' "
                    + "to close '\(openingTag.displayText)' from line \(location.line), column \(location.column)")
        }
        var container = stack.removeLast()
        let children = container.finishedNodes()
        switch openingTag.kind {
        case .section, .invertedSection:
            let isInverted = openingTag.kind == .invertedSection
            var section = MustacheSection(
                name: MustacheName(openingTag.content), isInverted: isInverted, children: children)
            if !isInverted { section.rawText = rawText(from: openingTag, to: tag) }
            append(.section(section))
        case .parent:
            let parent = MustacheParent(
                reference: Self.reference(in: openingTag), arguments: container.arguments,
                indentation: Self.indentation(of: openingTag), location: openingTag.location)
            append(.parent(parent))
        case .block:
            closeBlock(openingTag, closingTag: tag, content: children)
        case .variable, .close, .comment, .partial, .delimiters:
            break
        }
    }

    private mutating func closeBlock(_ openingTag: MustacheTag, closingTag: MustacheTag, content: [MustacheNode]) {
        if case .parent? = stack[stack.count - 1].openingTag?.kind {
            stack[stack.count - 1].arguments[openingTag.content] = Self.makeArgument(openingTag, content: content)
        } else {
            append(.block(Self.makeSlot(openingTag, closingTag: closingTag, content: content)))
        }
    }

    private mutating func finish() throws(MustacheError) -> Output {
        if stack.count > 1, let openingTag = stack[stack.count - 1].openingTag {
            throw MustacheError(
                .syntax, at: openingTag.location,
                message: "unclosed \(Self.describe(openingTag.kind)) '\(openingTag.displayText)': "
                    + "expected '{{/\(openingTag.content)}}' before the end of the template")
        }
        return Output(nodes: stack[0].finishedNodes(), references: references, source: bytes)
    }

    /// The unrendered text between a section's tags, for a lambda: from the end of the opening tag to the
    /// start of the closing one, without the lines of tags that stand alone (the opening tag's line break
    /// and the closing tag's indentation), as the content renders without them.
    private func rawText(from openingTag: MustacheTag, to closingTag: MustacheTag) -> MustacheRawText {
        var start = openingTag.sourceRange.upperBound
        if openingTag.isStandalone {
            while start < bytes.count, bytes[start] != ASCII.newline { start += 1 }
            start = min(start + 1, bytes.count)
        }
        var end = closingTag.sourceRange.lowerBound
        if closingTag.isStandalone {
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") {
                end -= 1
            }
        }
        return MustacheRawText(
            range: start..<max(start, end), delimiters: openingTag.delimiters,
            startsAtLineStart: openingTag.isStandalone, location: openingTag.location)
    }

    // MARK: - Node construction

    /// Remembers the template a partial or parent tag names, for `MustacheLibrary.unresolvedReferences()`.
    private mutating func recordReference(in tag: MustacheTag) {
        guard case .named(let name) = Self.reference(in: tag) else { return }
        references.append((name, tag.location))
    }

    private static func reference(in tag: MustacheTag) -> MustacheTemplateReference {
        guard tag.content.hasPrefix("*") else { return .named(tag.content) }
        return .dynamic(MustacheName(String(tag.content.dropFirst())))
    }

    private static func indentation(of tag: MustacheTag) -> String? {
        tag.isStandalone ? tag.indentation : nil
    }

    /// A block inside a parent tag: content that overrides the parent's slot. Its intrinsic
    /// indentation is removed when its opening tag stands alone.
    private static func makeArgument(_ tag: MustacheTag, content: [MustacheNode]) -> MustacheBlock {
        var content = content
        if tag.isStandalone, let intrinsic = MustacheIndentation.leadingIndentation(of: content) {
            content = MustacheIndentation.removing(intrinsic, from: content)
        }
        return MustacheBlock(
            name: tag.content, content: content, lineIndentation: nil, startsAtLineStart: tag.isStandalone,
            location: tag.location)
    }

    /// A block outside a parent tag: a slot. When both of its tags stand alone, it renders whole
    /// lines, indented like its default content (or like its opening tag when it has none).
    private static func makeSlot(_ tag: MustacheTag, closingTag: MustacheTag, content: [MustacheNode]) -> MustacheBlock
    {
        var block = MustacheBlock(
            name: tag.content, content: content, lineIndentation: nil, startsAtLineStart: tag.isStandalone,
            location: tag.location)
        guard tag.isStandalone, closingTag.isStandalone else { return block }
        guard !content.isEmpty else {
            block.lineIndentation = tag.indentation
            return block
        }
        let intrinsic = MustacheIndentation.leadingIndentation(of: content) ?? ""
        block.content = MustacheIndentation.removing(intrinsic, from: content)
        block.lineIndentation = intrinsic
        return block
    }

    private static func describe(_ kind: MustacheTag.Kind) -> String {
        switch kind {
        case .invertedSection: "inverted section"
        case .parent: "parent"
        case .block: "block"
        case .section, .variable, .close, .comment, .partial, .delimiters: "section"
        }
    }
}

/// A tag being parsed whose closing tag has not been seen yet (or the template's root).
private struct MustacheContainer {
    /// The opening tag; nil for the root.
    var openingTag: MustacheTag?
    /// For a parent tag, the blocks defined directly inside it.
    var arguments: [String: MustacheBlock] = [:]
    private var nodes: [MustacheNode] = []
    private var pendingText = ""

    init(openingTag: MustacheTag?) {
        self.openingTag = openingTag
    }

    mutating func appendText(_ text: String) {
        pendingText += text
    }

    mutating func append(_ node: MustacheNode) {
        flushText()
        nodes.append(node)
    }

    mutating func finishedNodes() -> [MustacheNode] {
        flushText()
        return nodes
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        nodes.append(.text(pendingText))
        pendingText = ""
    }
}
