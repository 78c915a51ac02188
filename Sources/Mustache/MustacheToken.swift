/// A lexical element of a template: text within a line, a line break, or a tag.
struct MustacheToken: Sendable {
    /// What the token is.
    enum Kind: Sendable {
        /// Literal text that contains no line break.
        case text(String)
        /// A line break: `\n` or `\r\n`.
        case newline(String)
        /// A tag.
        case tag(MustacheTag)
    }

    /// What the token is.
    var kind: Kind

    /// Whether the token is a line break.
    var isNewline: Bool {
        if case .newline = kind { return true }
        return false
    }
}

/// A tag as written in the template, with what the standalone-line pass learned about it.
struct MustacheTag: Sendable {
    /// The kind of a tag, given by its sigil.
    enum Kind: Sendable, Equatable {
        /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (not escaped).
        case variable(escapes: Bool)
        /// `{{#name}}`.
        case section
        /// `{{^name}}`.
        case invertedSection
        /// `{{/name}}`.
        case close
        /// `{{! comment }}`.
        case comment
        /// `{{>name}}`.
        case partial
        /// `{{<name}}`.
        case parent
        /// `{{$name}}`.
        case block
        /// `{{=<% %>=}}`.
        case delimiters

        /// Whether a line holding only tags of this kind and whitespace is removed from the output.
        var canStandAlone: Bool {
            switch self {
            case .variable: false
            case .section, .invertedSection, .close, .comment, .partial, .parent, .block, .delimiters: true
            }
        }

        /// Whether a standalone tag of this kind indents the template it includes.
        var includesTemplate: Bool {
            switch self {
            case .partial, .parent: true
            case .variable, .section, .invertedSection, .close, .comment, .block, .delimiters: false
            }
        }

        /// The sigil that introduces the kind, for messages.
        var sigil: String {
            switch self {
            case .variable(let escapes): escapes ? "" : "&"
            case .section: "#"
            case .invertedSection: "^"
            case .close: "/"
            case .comment: "!"
            case .partial: ">"
            case .parent: "<"
            case .block: "$"
            case .delimiters: "="
            }
        }
    }

    /// The kind of the tag.
    var kind: Kind
    /// The tag's content without its sigil and surrounding whitespace.
    var content: String
    /// Where the tag starts.
    var location: MustacheSourceLocation
    /// Whether the tag stands alone on its line (with only whitespace and other such tags).
    var isStandalone = false
    /// For a standalone tag, the whitespace that began its line.
    var indentation = ""
    /// The UTF-8 offsets of the whole tag, delimiters included, in the template's source.
    var sourceRange: Range<Int> = 0..<0
    /// The delimiters in force where the tag is (set for section tags only: a lambda section renders
    /// what it returns with them).
    var delimiters = MustacheDelimiters.default

    /// The tag as it would be written with the default delimiters, for messages.
    var displayText: String {
        "{{\(kind.sigil)\(content)}}"
    }
}

/// The opening and closing delimiters of tags, `{{` and `}}` unless a set-delimiters tag changed them.
struct MustacheDelimiters: Sendable, Hashable {
    var opening: [UInt8]
    var closing: [UInt8]

    /// `{{` and `}}`.
    static let `default` = MustacheDelimiters(opening: Array("{{".utf8), closing: Array("}}".utf8))
}
