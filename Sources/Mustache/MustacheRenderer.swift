/// Renders a compiled template by running its program's instructions and appending to one buffer of bytes.
///
/// The walk keeps its own stack of pending work instead of recursing, so no template or context,
/// however deeply nested, can overflow the thread's stack.
struct MustacheRenderer: ~Copyable {
    /// Work still to do, innermost last.
    private enum Work {
        /// Run instructions `range` of `programs[program]`, prefixing template lines with
        /// `indentations[indentation]`.
        case run(program: Int, range: Range<Int>, indentation: Int)
        /// Render a section's content once per remaining element of a list.
        case elements([MustacheValue], index: Int, program: Int, content: Range<Int>, indentation: Int)
        /// Pop the context pushed by a section.
        case popContext
        /// Leave a partial or overridden block.
        case leaveInclude
        /// Leave a parent template: drop its overrides.
        case leaveParent
        /// End a whole-line slot: make sure what it rendered ends with a line break.
        case finishLines(start: Int)
        /// End a section over a transform lambda: replace what its content rendered from `start` on with
        /// what the lambda makes of it.
        case transform(@Sendable (String) -> String, start: Int)
        /// End an escaped interpolation of a template lambda: HTML-escape what it rendered from `start` on.
        case escape(start: Int)
    }

    /// A context on the stack, with its object's key positions when it has a key table.
    private struct ContextFrame {
        let value: MustacheValue
        /// Holds the memory ``positionBase`` points to.
        private let positions: MustacheKeyPositions?
        /// The key positions of an object with a key table (see ``MustacheKeyPositions``), nil for
        /// any other context; valid for as long as the frame holds ``positions``.
        let positionBase: UnsafePointer<Int>?
        let positionCount: Int
        /// The object of ``value`` when it has a key table. Unowned, so that a lookup calls it without
        /// reference counting: ``value`` keeps it alive for as long as the frame exists.
        unowned(unsafe) let keyedObject: (any MustacheObject)?

        init(_ value: MustacheValue) {
            self.value = value
            if case .object(let object) = value, let table = object.mustacheKeyTable {
                positions = table.fixedPositions
                positionBase = UnsafePointer(table.fixedPositions.base)
                positionCount = table.fixedPositions.count
                keyedObject = object
            } else {
                positions = nil
                positionBase = nil
                positionCount = 0
                keyedObject = nil
            }
        }
    }

    /// The blocks one parent tag passes, with the program their content is in.
    private struct Overrides {
        var program: Int
        var arguments: [String: MustacheProgram.Block]
    }

    private let library: MustacheLibrary
    private let options: MustacheRenderOptions
    /// The UTF-8 bytes rendered so far; made a string once, at the end.
    private var output = MustacheOutputBuffer(capacity: 1 << 14)
    private var work: [Work] = []
    /// The programs of the templates this render has entered; work refers to them by position.
    private var programs: [MustacheProgram] = []
    /// Each indentation in use, as UTF-8 bytes; work refers to them by position, and 0 is no indentation.
    private var indentations: [[UInt8]] = [[]]
    /// The context stack; names resolve from the top (the end) down.
    private var contextStack: [ContextFrame]
    /// The blocks passed by the parent tags being rendered, outermost first.
    private var overrides: [Overrides] = []
    /// How many partials, parents, overridden blocks and lambda results are being rendered.
    private var depth = 0
    /// The templates lambdas returned in this render, compiled once each: their positions in ``programs``.
    private var lambdaPrograms: [LambdaTemplate: Int] = [:]

    /// A template a lambda returned, with the delimiters it starts with.
    private struct LambdaTemplate: Hashable {
        var source: String
        var delimiters: MustacheDelimiters
    }

    private init(library: MustacheLibrary, contexts: [MustacheValue]) {
        self.library = library
        self.options = library.options
        self.contextStack = contexts.map(ContextFrame.init)
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
        renderer.work.append(
            .run(program: renderer.register(template.program), range: 0..<template.program.count, indentation: 0))
        try renderer.run()
        return renderer.output.bytes
    }

    // MARK: - Work

    private mutating func run() throws(MustacheError) {
        while let next = work.popLast() {
            switch next {
            case .run(let program, let range, let indentation):
                try run(program, range, indentation: indentation)
            case .elements(let elements, let index, let program, let content, let indentation):
                renderElement(of: elements, at: index, program: program, content: content, indentation: indentation)
            case .popContext:
                contextStack.removeLast()
            case .leaveInclude:
                depth -= 1
            case .leaveParent:
                overrides.removeLast()
                depth -= 1
            case .finishLines(let start):
                if output.count > start, output.last != ASCII.newline { output.append(ASCII.newline) }
            case .transform(let transform, let start):
                let rendered = output.string(from: start)
                output.removeLast(output.count - start)
                appendUTF8(transform(rendered))
            case .escape(let start):
                let rendered = output.string(from: start)
                output.removeLast(output.count - start)
                appendEscapingHTML(rendered)
            }
        }
    }

    /// Runs instructions that only append text, and sections that render nothing, until one needs nested
    /// work; that one schedules its work on top of the rest of `range`.
    private mutating func run(
        _ programIndex: Int, _ range: Range<Int>, indentation: Int
    ) throws(MustacheError) {
        let program = programs[programIndex]
        var position = range.lowerBound
        let end = range.upperBound
        while position < end {
            let instruction = program.instructions[position]
            position += 1
            switch instruction {
            case .text(let start, let count):
                output.append(program.text(start: start, count: count))
            case .lineStart:
                if indentation != 0 { appendIndentation(indentation) }
            case .variable(let name, let escapes):
                let name = program.names[name]
                let base = work.count
                let scheduled: Bool
                if name.keys.count == 1 && !(escapes && options.escapesHTML) {
                    scheduled = try writeText(ofKeyAt: name.keys.lowerBound, in: program)
                } else {
                    scheduled = try append(resolve(name, in: program), escapes: escapes)
                }
                // A template lambda scheduled its rendering: the rest of the range follows it.
                if scheduled {
                    if position < end {
                        work.insert(
                            .run(program: programIndex, range: position..<end, indentation: indentation), at: base)
                    }
                    return
                }
            case .section(let name, let isInverted, let contentEnd):
                let sectionPosition = position - 1
                let content = position..<contentEnd
                position = contentEnd
                let value = resolve(program.names[name], in: program)
                guard !isInverted else {
                    if value.isTruthy { continue }
                    if position < end {
                        work.append(.run(program: programIndex, range: position..<end, indentation: indentation))
                    }
                    work.append(.run(program: programIndex, range: content, indentation: indentation))
                    return
                }
                guard value.isTruthy else { continue }
                if position < end {
                    work.append(.run(program: programIndex, range: position..<end, indentation: indentation))
                }
                switch value {
                case .array(let elements):
                    work.append(
                        .elements(elements, index: 0, program: programIndex, content: content, indentation: indentation)
                    )
                case .lambda(let lambda):
                    try schedule(
                        lambda, section: sectionPosition, of: programIndex, content: content, indentation: indentation)
                default:
                    push(value, program: programIndex, content: content, indentation: indentation)
                }
                return
            case .partial(let index):
                if position < end {
                    work.append(.run(program: programIndex, range: position..<end, indentation: indentation))
                }
                try schedule(program.partials[index], indentation: indentation)
                return
            case .parent(let index):
                let parent = program.parents[index]
                if parent.end < end {
                    work.append(.run(program: programIndex, range: parent.end..<end, indentation: indentation))
                }
                try schedule(parent, from: programIndex, indentation: indentation)
                return
            case .block(let index):
                let block = program.blocks[index]
                if block.content.upperBound < end {
                    work.append(
                        .run(program: programIndex, range: block.content.upperBound..<end, indentation: indentation))
                }
                try schedule(block, in: programIndex, indentation: indentation)
                return
            }
        }
    }

    private mutating func renderElement(
        of elements: [MustacheValue], at index: Int, program: Int, content: Range<Int>, indentation: Int
    ) {
        guard index < elements.count else { return }
        if index + 1 < elements.count {
            work.append(
                .elements(elements, index: index + 1, program: program, content: content, indentation: indentation))
        }
        push(elements[index], program: program, content: content, indentation: indentation)
    }

    /// Pushes `context` and schedules `content` to render in it, then the pop.
    private mutating func push(_ context: MustacheValue, program: Int, content: Range<Int>, indentation: Int) {
        contextStack.append(ContextFrame(context))
        work.append(.popContext)
        work.append(.run(program: program, range: content, indentation: indentation))
    }

    // MARK: - Lambdas

    /// Schedules a section over a lambda: a template lambda's result rendered in place of the section, or
    /// the section's content followed by the transform of what it rendered.
    private mutating func schedule(
        _ lambda: MustacheLambda, section position: Int, of programIndex: Int, content: Range<Int>, indentation: Int
    ) throws(MustacheError) {
        switch lambda.body {
        case .transform(let transform):
            work.append(.transform(transform, start: output.count))
            work.append(.run(program: programIndex, range: content, indentation: indentation))
        case .template(let body):
            guard let (text, rawText) = programs[programIndex].rawText(ofSectionAt: position) else { return }
            let template = body(text)
            try enter("lambda section", at: rawText.location)
            work.append(.leaveInclude)
            let location = rawText.location
            let program = try lambdaProgram(
                template, delimiters: rawText.delimiters,
                path: "\(location.path):\(location.line):\(location.column) (lambda)")
            work.append(
                .run(
                    program: program, range: lambdaRange(of: program, startingLine: rawText.startsAtLineStart),
                    indentation: indentation))
        }
    }

    /// Renders a lambda for an interpolation tag, escaping what it renders when the tag escapes. Returns
    /// whether it scheduled work (a template lambda's result, rendered like a partial) that must run before
    /// anything else is appended.
    private mutating func interpolate(_ lambda: MustacheLambda, escapes: Bool) throws(MustacheError) -> Bool {
        let escapes = escapes && options.escapesHTML
        switch lambda.body {
        case .transform(let transform):
            let text = transform("")
            if escapes { appendEscapingHTML(text) } else { appendUTF8(text) }
            return false
        case .template(let body):
            let template = body(nil)
            let location = MustacheSourceLocation(path: "lambda", line: 1, column: 1)
            try enter("lambda", at: location)
            let program = try lambdaProgram(template, delimiters: .default, path: location.path)
            if escapes { work.append(.escape(start: output.count)) }
            work.append(.leaveInclude)
            work.append(.run(program: program, range: lambdaRange(of: program, startingLine: false), indentation: 0))
            return true
        }
    }

    /// The position in ``programs`` of `template` compiled with `delimiters`, compiling it the first time.
    private mutating func lambdaProgram(
        _ template: String, delimiters: MustacheDelimiters, path: String
    ) throws(MustacheError) -> Int {
        let key = LambdaTemplate(source: template, delimiters: delimiters)
        if let index = lambdaPrograms[key] { return index }
        let compiled = try MustacheTemplate(template, name: path, path: path, delimiters: delimiters)
        programs.append(compiled.program)
        lambdaPrograms[key] = programs.count - 1
        return programs.count - 1
    }

    /// The instructions of a lambda's template to run: all of them, less the indentation of its first line
    /// when that line continues a line of the output.
    private func lambdaRange(of programIndex: Int, startingLine: Bool) -> Range<Int> {
        let program = programs[programIndex]
        guard !startingLine, program.count > 0, case .lineStart = program.instructions[0] else {
            return 0..<program.count
        }
        return 1..<program.count
    }

    // MARK: - Includes

    private mutating func schedule(_ partial: MustachePartial, indentation: Int) throws(MustacheError) {
        guard let template = try template(for: partial.reference, at: partial.location, kind: "partial") else {
            return
        }
        try enter(template.name, at: partial.location)
        work.append(.leaveInclude)
        let program = register(template.program)
        work.append(
            .run(
                program: program, range: 0..<template.program.count,
                indentation: self.indentation(indentation, adding: partial.indentation)))
    }

    private mutating func schedule(
        _ parent: MustacheProgram.Parent, from programIndex: Int, indentation: Int
    ) throws(MustacheError) {
        guard let template = try template(for: parent.reference, at: parent.location, kind: "parent template") else {
            return
        }
        try enter(template.name, at: parent.location)
        overrides.append(Overrides(program: programIndex, arguments: parent.arguments))
        work.append(.leaveParent)
        let program = register(template.program)
        work.append(
            .run(
                program: program, range: 0..<template.program.count,
                indentation: self.indentation(indentation, adding: parent.indentation)))
    }

    /// Schedules a slot: the content of the outermost parent tag that overrides it, or its
    /// default. A slot whose tags stand alone renders whole, indented lines.
    private mutating func schedule(
        _ block: MustacheProgram.Block, in programIndex: Int, indentation: Int
    ) throws(MustacheError) {
        var program = programIndex
        var content = block
        if let override = self.override(named: block.name) {
            try enter("$" + block.name, at: block.location)
            work.append(.leaveInclude)
            (program, content) = override
        }
        guard !content.content.isEmpty else { return }
        guard let lineIndentation = block.lineIndentation else {
            work.append(.run(program: program, range: content.content, indentation: indentation))
            return
        }
        let indentation = self.indentation(indentation, adding: lineIndentation)
        work.append(.finishLines(start: output.count))
        if !content.startsAtLineStart { appendIndentation(indentation) }
        work.append(.run(program: program, range: content.content, indentation: indentation))
    }

    private func override(named name: String) -> (program: Int, block: MustacheProgram.Block)? {
        for frame in overrides {
            if let block = frame.arguments[name] { return (frame.program, block) }
        }
        return nil
    }

    /// The position of `program` in ``programs``, adding it the first time.
    private mutating func register(_ program: MustacheProgram) -> Int {
        if let index = programs.lastIndex(where: { $0 === program }) { return index }
        programs.append(program)
        return programs.count - 1
    }

    /// The position in ``indentations`` of `indentation` followed by `extra`; no extra (an inline tag)
    /// means no indentation at all.
    private mutating func indentation(_ indentation: Int, adding extra: String?) -> Int {
        guard let extra else { return 0 }
        guard !extra.isEmpty else { return indentation }
        indentations.append(indentations[indentation] + Array(extra.utf8))
        return indentations.count - 1
    }

    private mutating func appendIndentation(_ indentation: Int) {
        let bytes = indentations[indentation]
        bytes.withUnsafeBufferPointer { output.append($0) }
    }

    private mutating func enter(_ name: String, at location: MustacheSourceLocation) throws(MustacheError) {
        guard depth < options.maximumDepth else {
            throw MustacheError(
                .depthLimitExceeded, at: location,
                message: "rendering '\(name)' exceeds the nesting limit of \(options.maximumDepth) "
                    + "partials, parents, blocks and lambda results; is a template including itself?")
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
        case .bool, .array, .dictionary, .object, .null, .lambda: nil
        }
    }

    // MARK: - Values

    private func resolve(_ name: MustacheName) -> MustacheValue {
        switch name {
        case .implicitIterator:
            return contextStack.last?.value ?? .null
        case .path(let first, let rest):
            guard var value = lookUp(first) else { return .null }
            for component in rest {
                guard let next = value[component] else { return .null }
                value = next
            }
            return value
        }
    }

    /// The value of a name of `program`, like ``resolve(_:)``.
    private func resolve(_ name: MustacheProgram.Name, in program: MustacheProgram) -> MustacheValue {
        let keys = name.keys
        guard !keys.isEmpty else { return contextStack.last?.value ?? .null }
        guard var value = lookUp(keyAt: keys.lowerBound, in: program) else { return .null }
        var index = keys.lowerBound + 1
        while index < keys.upperBound {
            guard let next = value[program.keys[index]] else { return .null }
            value = next
            index += 1
        }
        return value
    }

    /// The value of `key` in the topmost context that is a dictionary or object containing it.
    private func lookUp(_ key: MustacheKey) -> MustacheValue? {
        var index = contextStack.count
        while index > 0 {
            index -= 1
            // The subscript reads the context in place, without copying it out of the stack.
            if let value = contextStack[index].value[key] { return value }
        }
        return nil
    }

    /// The next frame below frame `index` that may hold the key numbered `number`: one without a key table
    /// (position -1, asked by name), or one whose table has the key (its position). Frames whose table lacks
    /// the key are skipped without a call.
    @inline(__always)
    private func nextFrame(holding number: Int, below index: Int) -> (frame: Int, position: Int)? {
        contextStack.withUnsafeBufferPointer { frames -> (frame: Int, position: Int)? in
            var index = index
            while index > 0 {
                index -= 1
                guard let positions = frames[index].positionBase else { return (index, -1) }
                guard number < frames[index].positionCount else { continue }
                let position = positions[number]
                if position >= 0 { return (index, position) }
            }
            return nil
        }
    }

    /// The value of `program.keys[keyIndex]` in the topmost context that contains it, like
    /// ``lookUp(_:)``.
    private func lookUp(keyAt keyIndex: Int, in program: MustacheProgram) -> MustacheValue? {
        let number = program.keyNumbers[keyIndex]
        var index = contextStack.count
        while let (frame, position) = nextFrame(holding: number, below: index) {
            index = frame
            if position < 0 {
                if let value = contextStack[frame].value[program.keys[keyIndex]] { return value }
            } else if let object = contextStack[frame].keyedObject,
                let value = object.mustacheValue(atKeyPosition: position)
            {
                return value
            }
        }
        return nil
    }

    /// Renders the unescaped value of `program.keys[keyIndex]`, like appending ``lookUp(keyAt:in:)``'s
    /// value, but lets an object with a key table write its text straight into the output. Returns whether
    /// a lambda scheduled work (see ``append(_:escapes:)``).
    private mutating func writeText(ofKeyAt keyIndex: Int, in program: MustacheProgram) throws(MustacheError) -> Bool {
        let number = program.keyNumbers[keyIndex]
        var index = contextStack.count
        while let (frame, position) = nextFrame(holding: number, below: index) {
            index = frame
            if position < 0 {
                guard let value = contextStack[frame].value[program.keys[keyIndex]] else { continue }
                return try append(value, escapes: false)
            }
            guard let object = contextStack[frame].keyedObject else { continue }
            switch object.writeMustacheText(atKeyPosition: position, to: &output) {
            case .written: return false
            case .absent: continue
            case .notText:
                guard let value = object.mustacheValue(atKeyPosition: position) else { continue }
                return try append(value, escapes: false)
            }
        }
        return false
    }

    /// Appends an interpolated value. Returns whether it scheduled work instead (a template lambda, whose
    /// result renders like a partial): the caller then stops and lets that work run first.
    private mutating func append(_ value: MustacheValue, escapes: Bool) throws(MustacheError) -> Bool {
        switch value {
        case .string(let text):
            if escapes && options.escapesHTML {
                appendEscapingHTML(text)
            } else {
                appendUTF8(text)
            }
        case .bool, .int, .double, .array, .dictionary, .object, .null:
            appendUTF8(value.interpolatedText)
        case .lambda(let lambda):
            return try interpolate(lambda, escapes: escapes)
        }
        return false
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

    /// Appends a string's bytes with one copy; a native string's bytes, small or large, are read in place.
    private mutating func appendUTF8(_ text: String) {
        output.append(text)
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"")
    }
}
