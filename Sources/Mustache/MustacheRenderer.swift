/// Renders a compiled template by walking its nodes and appending to one string.
///
/// The walk keeps its own stack of pending work instead of recursing, so no template or context,
/// however deeply nested, can overflow the thread's stack.
struct MustacheRenderer: ~Copyable {
    /// Work still to do, innermost last.
    private enum Work {
        /// Render `nodes` from `index` on, prefixing template lines with `indentation`.
        case nodes([MustacheNode], index: Int, indentation: String)
        /// Render a section's children once per remaining element of a list.
        case elements([MustacheValue], index: Int, children: [MustacheNode], indentation: String)
        /// Pop the context pushed by a section.
        case popContext
        /// Leave a partial or overridden block.
        case leaveInclude
        /// Leave a parent template: drop its overrides.
        case leaveParent
        /// End a whole-line slot: make sure what it rendered ends with a line break.
        case finishLines(start: Int)
    }

    private let library: MustacheLibrary
    private let options: MustacheRenderOptions
    /// The UTF-8 bytes rendered so far; made a string once, at the end.
    private var output = MustacheOutputBuffer(capacity: 1 << 14)
    private var work: [Work] = []
    /// The context stack; names resolve from the top (the end) down.
    private var contextStack: [MustacheValue]
    /// The blocks passed by the parent tags being rendered, outermost first.
    private var overrides: [[String: MustacheBlock]] = []
    /// How many partials, parents and overridden blocks are being rendered.
    private var depth = 0

    private init(library: MustacheLibrary, contexts: [MustacheValue]) {
        self.library = library
        self.options = library.options
        self.contextStack = contexts
    }

    /// Renders `template` with `context`, resolving partials and parents in `library`.
    static func render(
        _ template: MustacheTemplate, context: MustacheValue, library: MustacheLibrary
    ) throws(MustacheError) -> String {
        try render(template, contexts: [context], library: library)
    }

    /// Renders `template` with a stack of contexts (the last is the innermost), resolving partials and
    /// parents in `library`.
    static func render(
        _ template: MustacheTemplate, contexts: [MustacheValue], library: MustacheLibrary
    ) throws(MustacheError) -> String {
        String(decoding: try renderUTF8(template, contexts: contexts, library: library), as: UTF8.self)
    }

    /// Renders `template` with a stack of contexts to UTF-8 bytes, without making a string of them.
    static func renderUTF8(
        _ template: MustacheTemplate, contexts: [MustacheValue], library: MustacheLibrary
    ) throws(MustacheError) -> [UInt8] {
        var renderer = MustacheRenderer(library: library, contexts: contexts)
        renderer.work.append(.nodes(template.nodes, index: 0, indentation: ""))
        try renderer.run()
        return renderer.output.bytes
    }

    // MARK: - Work

    private mutating func run() throws(MustacheError) {
        while let next = work.popLast() {
            switch next {
            case .nodes(let nodes, let index, let indentation):
                try render(nodes, from: index, indentation: indentation)
            case .elements(let elements, let index, let children, let indentation):
                renderElement(of: elements, at: index, children: children, indentation: indentation)
            case .popContext:
                contextStack.removeLast()
            case .leaveInclude:
                depth -= 1
            case .leaveParent:
                overrides.removeLast()
                depth -= 1
            case .finishLines(let start):
                if output.count > start, output.last != ASCII.newline { output.append(ASCII.newline) }
            }
        }
    }

    /// Renders nodes that only append text, until one needs nested work; that node schedules its
    /// work on top of the rest of `nodes`.
    private mutating func render(_ nodes: [MustacheNode], from start: Int, indentation: String) throws(MustacheError) {
        var index = start
        while index < nodes.count {
            let node = nodes[index]
            index += 1
            switch node {
            case .text(let text):
                appendUTF8(text)
            case .lineStart:
                if !indentation.isEmpty { appendUTF8(indentation) }
            case .variable(let name, let escapes):
                append(resolve(name), escapes: escapes)
            case .section, .partial, .parent, .block:
                if index < nodes.count { work.append(.nodes(nodes, index: index, indentation: indentation)) }
                try schedule(node, indentation: indentation)
                return
            }
        }
    }

    private mutating func schedule(_ node: MustacheNode, indentation: String) throws(MustacheError) {
        switch node {
        case .section(let section):
            schedule(section, indentation: indentation)
        case .partial(let partial):
            try schedule(partial, indentation: indentation)
        case .parent(let parent):
            try schedule(parent, indentation: indentation)
        case .block(let block):
            try schedule(block, indentation: indentation)
        case .text, .lineStart, .variable:
            break
        }
    }

    private mutating func schedule(_ section: MustacheSection, indentation: String) {
        let value = resolve(section.name)
        guard !section.isInverted else {
            if !value.isTruthy { work.append(.nodes(section.children, index: 0, indentation: indentation)) }
            return
        }
        switch value {
        case .array(let elements):
            work.append(.elements(elements, index: 0, children: section.children, indentation: indentation))
        case .string, .bool, .int, .double, .dictionary, .object, .null:
            if value.isTruthy { push(value, rendering: section.children, indentation: indentation) }
        }
    }

    private mutating func renderElement(
        of elements: [MustacheValue], at index: Int, children: [MustacheNode], indentation: String
    ) {
        guard index < elements.count else { return }
        if index + 1 < elements.count {
            work.append(.elements(elements, index: index + 1, children: children, indentation: indentation))
        }
        push(elements[index], rendering: children, indentation: indentation)
    }

    /// Pushes `context` and schedules `nodes` to render in it, then the pop.
    private mutating func push(_ context: MustacheValue, rendering nodes: [MustacheNode], indentation: String) {
        contextStack.append(context)
        work.append(.popContext)
        work.append(.nodes(nodes, index: 0, indentation: indentation))
    }

    private mutating func schedule(_ partial: MustachePartial, indentation: String) throws(MustacheError) {
        guard let template = try template(for: partial.reference, at: partial.location, kind: "partial") else {
            return
        }
        try enter(template.name, at: partial.location)
        work.append(.leaveInclude)
        let indentation = partial.indentation.map { indentation + $0 } ?? ""
        work.append(.nodes(template.nodes, index: 0, indentation: indentation))
    }

    private mutating func schedule(_ parent: MustacheParent, indentation: String) throws(MustacheError) {
        guard let template = try template(for: parent.reference, at: parent.location, kind: "parent template") else {
            return
        }
        try enter(template.name, at: parent.location)
        overrides.append(parent.arguments)
        work.append(.leaveParent)
        let indentation = parent.indentation.map { indentation + $0 } ?? ""
        work.append(.nodes(template.nodes, index: 0, indentation: indentation))
    }

    /// Schedules a slot: the content of the outermost parent tag that overrides it, or its
    /// default. A slot whose tags stand alone renders whole, indented lines.
    private mutating func schedule(_ block: MustacheBlock, indentation: String) throws(MustacheError) {
        let override = self.override(named: block.name)
        if override != nil {
            try enter("$" + block.name, at: block.location)
            work.append(.leaveInclude)
        }
        let content = override ?? block
        guard !content.content.isEmpty else { return }
        guard let lineIndentation = block.lineIndentation else {
            work.append(.nodes(content.content, index: 0, indentation: indentation))
            return
        }
        let indentation = indentation + lineIndentation
        work.append(.finishLines(start: output.count))
        if !content.startsAtLineStart { appendUTF8(indentation) }
        work.append(.nodes(content.content, index: 0, indentation: indentation))
    }

    private func override(named name: String) -> MustacheBlock? {
        for frame in overrides {
            if let block = frame[name] { return block }
        }
        return nil
    }

    private mutating func enter(_ name: String, at location: MustacheSourceLocation) throws(MustacheError) {
        guard depth < options.maximumDepth else {
            throw MustacheError(
                .depthLimitExceeded, at: location,
                message: "rendering '\(name)' exceeds the nesting limit of \(options.maximumDepth) "
                    + "partials, parents and blocks; is a template including itself?")
        }
        depth += 1
    }

    // MARK: - Templates

    private func template(
        for reference: MustacheTemplateReference, at location: MustacheSourceLocation, kind: String
    ) throws(MustacheError) -> MustacheTemplate? {
        let name: String
        switch reference {
        case .named(let fixedName):
            name = fixedName
        case .dynamic(let dynamicName):
            guard let resolvedName = Self.templateName(from: resolve(dynamicName)) else { return nil }
            name = resolvedName
        }
        if let template = library[name] { return template }
        guard !options.throwsOnUnknownTemplate else {
            throw MustacheError(.unknownTemplate, at: location, message: "unknown \(kind) '\(name)'")
        }
        return nil
    }

    private static func templateName(from value: MustacheValue) -> String? {
        switch value {
        case .string(let name): name.isEmpty ? nil : name
        case .int, .double: value.interpolatedText
        case .bool, .array, .dictionary, .object, .null: nil
        }
    }

    // MARK: - Values

    private func resolve(_ name: MustacheName) -> MustacheValue {
        switch name {
        case .implicitIterator:
            return contextStack.last ?? .null
        case .path(let first, let rest):
            guard var value = lookUp(first) else { return .null }
            for component in rest {
                guard let next = value[component] else { return .null }
                value = next
            }
            return value
        }
    }

    /// The value of `key` in the topmost context that is a dictionary containing it.
    private func lookUp(_ key: MustacheKey) -> MustacheValue? {
        var index = contextStack.count
        while index > 0 {
            index -= 1
            switch contextStack[index] {
            case .dictionary(let entries):
                if let value = entries[key.name] { return value }
            case .object(let object):
                if let value = object.mustacheValue(for: key) { return value }
            default:
                continue
            }
        }
        return nil
    }

    private mutating func append(_ value: MustacheValue, escapes: Bool) {
        switch value {
        case .string(let text):
            if escapes && options.escapesHTML {
                appendEscapingHTML(text)
            } else {
                appendUTF8(text)
            }
        case .bool, .int, .double, .array, .dictionary, .object, .null:
            appendUTF8(value.interpolatedText)
        }
    }

    /// Appends `text` with `&`, `<`, `>` and `"` escaped; they are ASCII, so no byte of a longer
    /// UTF-8 sequence is ever one of them.
    private mutating func appendEscapingHTML(_ text: String) {
        guard text.utf8.contains(where: Self.needsEscaping) else {
            appendUTF8(text)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append("&amp;")
            case UInt8(ascii: "<"): output.append("&lt;")
            case UInt8(ascii: ">"): output.append("&gt;")
            case UInt8(ascii: "\""): output.append("&quot;")
            default: output.append(byte)
            }
        }
    }

    /// Appends a string's bytes with one copy.
    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { output.append($0) }
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"")
    }
}
