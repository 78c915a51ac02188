/// One element of a compiled template; the renderer walks a tree of these.
///
/// Indirect, so that copying a node while rendering retains one box rather than every field of its payload.
indirect enum MustacheNode: Sendable {
    /// Literal text, emitted as is.
    case text(String)
    /// The start of a template line: emits the current indentation (of a standalone partial,
    /// parent or block) before the line's content.
    case lineStart
    /// An interpolation tag; `escapes` is false for `{{{name}}}` and `{{&name}}`.
    case variable(MustacheName, escapes: Bool)
    /// A section (`{{#name}}`) or inverted section (`{{^name}}`).
    case section(MustacheSection)
    /// A partial tag (`{{>name}}` or `{{>*name}}`).
    case partial(MustachePartial)
    /// A parent tag (`{{<name}}` or `{{<*name}}`) with the blocks it overrides.
    case parent(MustacheParent)
    /// A block tag (`{{$name}}`) outside a parent tag: a slot with default content.
    case block(MustacheBlock)
}

/// A name used to look a value up in the context stack.
enum MustacheName: Sendable, Equatable {
    /// `.`: the top of the context stack.
    case implicitIterator
    /// A dotted name, split at its periods; the first component is looked up through the whole
    /// context stack, the others inside the previous result.
    case path(first: MustacheKey, rest: [MustacheKey])

    /// Parses a tag's name: `.` is the implicit iterator, anything else a dotted name.
    init(_ text: String) {
        if text == "." {
            self = .implicitIterator
            return
        }
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self = .path(
            first: MustacheKey(components.first ?? text), rest: components.dropFirst().map { MustacheKey($0) })
    }
}

/// A section or inverted section and the nodes it wraps.
struct MustacheSection: Sendable {
    /// The value that decides whether, and how often, the section renders.
    var name: MustacheName
    /// Whether this is an inverted section (`{{^name}}`).
    var isInverted: Bool
    /// The wrapped nodes.
    var children: [MustacheNode]
    /// Where the unrendered text of a (not inverted) section is, for a lambda it may call.
    var rawText: MustacheRawText?
}

/// The unrendered text of a section and how to render what a lambda makes of it.
struct MustacheRawText: Sendable {
    /// The UTF-8 offsets of the text in the template's source.
    var range: Range<Int>
    /// The delimiters in force at the section's opening tag.
    var delimiters: MustacheDelimiters
    /// Whether the text starts a line: the opening tag stands alone on its line.
    var startsAtLineStart: Bool
    /// Where the opening tag is, for errors.
    var location: MustacheSourceLocation
}

/// How a partial or parent tag names the template it includes.
enum MustacheTemplateReference: Sendable, Equatable {
    /// A fixed template name: `{{>name}}`.
    case named(String)
    /// A dynamic name, read from the context at render time: `{{>*name}}`.
    case dynamic(MustacheName)
}

/// A partial tag.
struct MustachePartial: Sendable {
    /// The template to include.
    var reference: MustacheTemplateReference
    /// The indentation of a standalone tag, prepended to every line of the partial; nil when the
    /// tag is inline.
    var indentation: String?
    /// Where the tag is, for errors.
    var location: MustacheSourceLocation
}

/// A parent tag and the blocks it passes to its parent template.
struct MustacheParent: Sendable {
    /// The parent template.
    var reference: MustacheTemplateReference
    /// The blocks defined directly inside the tag, by name; they override the parent's blocks.
    var arguments: [String: MustacheBlock]
    /// The indentation of a standalone tag; nil when the tag is inline.
    var indentation: String?
    /// Where the tag is, for errors.
    var location: MustacheSourceLocation
}

/// A block: either a slot in a template (with default content) or, inside a parent tag, the
/// content that replaces the parent's slot of the same name.
struct MustacheBlock: Sendable {
    /// The block's name.
    var name: String
    /// The block's content, with its intrinsic indentation removed.
    var content: [MustacheNode]
    /// For a slot whose tags stand alone on their lines, the indentation its content is rendered
    /// with; such a slot renders whole lines. Nil for an inline slot and for overriding content.
    var lineIndentation: String?
    /// Whether the content begins at the start of a line (its opening tag stands alone).
    var startsAtLineStart: Bool
    /// Where the opening tag is, for errors.
    var location: MustacheSourceLocation
}
