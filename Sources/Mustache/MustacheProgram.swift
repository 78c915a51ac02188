/// A compiled template's node tree flattened into one array of instructions, the form the renderer walks.
///
/// Every instruction is a plain value (offsets and indices, no references), so stepping through a template
/// copies no strings or boxes and costs no reference counting. A section, parent or block keeps its content
/// in the instructions right after it and records where that content ends; all literal text is one
/// contiguous run of UTF-8 bytes, appended to the output without any conversion.
///
/// Unchecked `Sendable`: every property is a constant set in `init`, and the text bytes are never written
/// after it.
final class MustacheProgram: @unchecked Sendable {
    /// One step of a program.
    enum Instruction: Sendable {
        /// Append `count` bytes of ``text`` from `start`.
        case text(start: Int, count: Int)
        /// The start of a template line: append the current indentation.
        case lineStart
        /// Interpolate ``names``[`name`].
        case variable(name: Int, escapes: Bool)
        /// A section over ``names``[`name`]; its content runs up to `end`, where the program continues.
        case section(name: Int, isInverted: Bool, end: Int)
        /// Include ``partials``[`index`].
        case partial(Int)
        /// Render the parent template of ``parents``[`index`]; the program continues at its `end`.
        case parent(Int)
        /// Fill the slot ``blocks``[`index`]; the program continues at its content's end.
        case block(Int)
    }

    /// A parent tag: the template it names and the blocks it passes, whose content is in this program.
    struct Parent: Sendable {
        var reference: MustacheTemplateReference
        var arguments: [String: Block]
        var indentation: String?
        var location: MustacheSourceLocation
        /// Where the program continues after the tag.
        var end: Int
    }

    /// A slot or an overriding block, with its content as a range of this program's instructions.
    struct Block: Sendable {
        var name: String
        var content: Range<Int>
        var lineIndentation: String?
        var startsAtLineStart: Bool
        var location: MustacheSourceLocation
    }

    /// A name tags look up: the range of its components in ``keys``; empty for the implicit iterator (`.`).
    struct Name: Sendable {
        var keys: Range<Int>
    }

    let instructions: [Instruction]
    let names: [Name]
    /// The components of every name, in order.
    let keys: [MustacheKey]
    /// The number of each of ``keys``, read by lookups without copying the key.
    let keyNumbers: [Int]
    let partials: [MustachePartial]
    let parents: [Parent]
    let blocks: [Block]
    /// The unrendered text of each section that is not inverted, by the position of its instruction; read
    /// only when a section's value is a lambda.
    let rawTexts: [Int: MustacheRawText]
    /// The template's source, which ``rawTexts`` refer to.
    private let source: [UInt8]
    /// The literal text of every text instruction; allocated once, freed with the program, never mutated.
    private let textBase: UnsafeMutablePointer<UInt8>
    private let textCount: Int

    /// Flattens `nodes`, compiled from `source`.
    init(_ nodes: [MustacheNode], source: [UInt8]) {
        var builder = Builder()
        builder.emit(nodes)
        rawTexts = builder.rawTexts
        self.source = builder.rawTexts.isEmpty ? [] : source
        instructions = builder.instructions
        names = builder.names
        keys = builder.keys
        keyNumbers = builder.keys.map(\.number)
        partials = builder.partials
        parents = builder.parents
        blocks = builder.blocks
        textCount = builder.text.count
        textBase = .allocate(capacity: max(textCount, 1))
        builder.text.withUnsafeBufferPointer { bytes in
            if let source = bytes.baseAddress { textBase.initialize(from: source, count: bytes.count) }
        }
    }

    deinit {
        textBase.deallocate()
    }

    /// The number of instructions.
    var count: Int { instructions.count }

    /// The bytes of a text instruction.
    func text(start: Int, count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: textBase + start, count: count)
    }

    /// The unrendered text of the section whose instruction is at `position`.
    func rawText(ofSectionAt position: Int) -> (text: String, MustacheRawText)? {
        guard let rawText = rawTexts[position], rawText.range.upperBound <= source.count else { return nil }
        return (String(decoding: source[rawText.range], as: UTF8.self), rawText)
    }

    /// Appends nodes as instructions, content right after the instruction that owns it.
    private struct Builder {
        var instructions: [Instruction] = []
        var text: [UInt8] = []
        var names: [Name] = []
        var keys: [MustacheKey] = []
        var partials: [MustachePartial] = []
        var parents: [Parent] = []
        var blocks: [Block] = []
        var rawTexts: [Int: MustacheRawText] = [:]

        mutating func emit(_ nodes: [MustacheNode]) {
            for node in nodes {
                emit(node)
            }
        }

        private mutating func emit(_ node: MustacheNode) {
            switch node {
            case .text(let literal):
                let start = text.count
                text.append(contentsOf: literal.utf8)
                instructions.append(.text(start: start, count: text.count - start))
            case .lineStart:
                instructions.append(.lineStart)
            case .variable(let name, let escapes):
                instructions.append(.variable(name: add(name), escapes: escapes))
            case .section(let section):
                let name = add(section.name)
                let position = instructions.count
                instructions.append(.lineStart)  // Replaced once the content's end is known.
                if let rawText = section.rawText { rawTexts[position] = rawText }
                emit(section.children)
                instructions[position] = .section(name: name, isInverted: section.isInverted, end: instructions.count)
            case .partial(let partial):
                partials.append(partial)
                instructions.append(.partial(partials.count - 1))
            case .parent(let parent):
                let position = instructions.count
                instructions.append(.lineStart)  // Replaced once the arguments are emitted.
                var arguments: [String: Block] = [:]
                // Sorted, so that the same template always compiles to the same instructions.
                for name in parent.arguments.keys.sorted() {
                    guard let argument = parent.arguments[name] else { continue }
                    arguments[name] = emitBlock(argument)
                }
                parents.append(
                    Parent(
                        reference: parent.reference, arguments: arguments, indentation: parent.indentation,
                        location: parent.location, end: instructions.count))
                instructions[position] = .parent(parents.count - 1)
            case .block(let block):
                let position = instructions.count
                instructions.append(.lineStart)  // Replaced once the content is emitted.
                blocks.append(emitBlock(block))
                instructions[position] = .block(blocks.count - 1)
            }
        }

        /// Adds `name` to ``names``; returns its position.
        private mutating func add(_ name: MustacheName) -> Int {
            let start = keys.count
            switch name {
            case .implicitIterator:
                break
            case .path(let first, let rest):
                keys.append(first)
                keys.append(contentsOf: rest)
            }
            names.append(Name(keys: start..<keys.count))
            return names.count - 1
        }

        private mutating func emitBlock(_ block: MustacheBlock) -> Block {
            let start = instructions.count
            emit(block.content)
            return Block(
                name: block.name, content: start..<instructions.count, lineIndentation: block.lineIndentation,
                startsAtLineStart: block.startsAtLineStart, location: block.location)
        }
    }
}
