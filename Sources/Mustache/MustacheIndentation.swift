/// Re-indentation of block content, done at compile time.
///
/// A block's content loses its *intrinsic* indentation (that of its first line) where it is
/// defined, and gains the indentation of the slot it fills where it is rendered.
enum MustacheIndentation {
    /// The indentation of the first line of `nodes`, or nil when they do not start a line.
    static func leadingIndentation(of nodes: [MustacheNode]) -> String? {
        for (index, node) in nodes.enumerated() {
            switch node {
            case .lineStart:
                guard index + 1 < nodes.count, case .text(let text) = nodes[index + 1] else { return "" }
                return leadingWhitespace(of: text)
            case .partial(let partial):
                return partial.indentation
            case .parent(let parent):
                return parent.indentation
            case .block(let block):
                if let indentation = block.lineIndentation ?? leadingIndentation(of: block.content) {
                    return indentation
                }
            case .section(let section):
                if let indentation = leadingIndentation(of: section.children) {
                    return indentation
                }
            case .text, .variable:
                return nil
            }
        }
        return nil
    }

    /// Returns `nodes` with `prefix` removed from the start of every line (as far as each line
    /// starts with it), including the indentation of standalone partials, parents and slots.
    static func removing(_ prefix: String, from nodes: [MustacheNode]) -> [MustacheNode] {
        guard !prefix.isEmpty else { return nodes }
        var result = nodes
        for index in result.indices {
            switch result[index] {
            case .lineStart:
                if index + 1 < result.count, case .text(let text) = result[index + 1] {
                    result[index + 1] = .text(removing(prefix, from: text))
                }
            case .partial(var partial):
                partial.indentation = partial.indentation.map { removing(prefix, from: $0) }
                result[index] = .partial(partial)
            case .parent(var parent):
                parent.indentation = parent.indentation.map { removing(prefix, from: $0) }
                result[index] = .parent(parent)
            case .block(var block):
                if let indentation = block.lineIndentation {
                    block.lineIndentation = removing(prefix, from: indentation)
                } else {
                    block.content = removing(prefix, from: block.content)
                }
                result[index] = .block(block)
            case .section(var section):
                section.children = removing(prefix, from: section.children)
                result[index] = .section(section)
            case .text, .variable:
                break
            }
        }
        return result
    }

    /// Removes the longest common prefix of `text` and `prefix` from `text`.
    private static func removing(_ prefix: String, from text: String) -> String {
        var count = 0
        for (scalar, expected) in zip(text.unicodeScalars, prefix.unicodeScalars) {
            guard scalar == expected else { break }
            count += 1
        }
        return count == 0 ? text : String(Substring(text.unicodeScalars.dropFirst(count)))
    }

    private static func leadingWhitespace(of text: String) -> String {
        String(Substring(text.unicodeScalars.prefix(while: { $0 == " " || $0 == "\t" })))
    }
}
