/// An error raised while compiling or rendering a Mustache template.
///
/// Every error carries the path of the template it concerns and a 1-based line and column, so it
/// prints in the `path:line:column: error: message` form that editors and build tools recognize.
///
/// ```swift
/// do {
///     _ = try MustacheTemplate("{{#items}}", name: "list", path: "Templates/list.mustache")
/// } catch {
///     print(error)  // Templates/list.mustache:1:1: error: unclosed section '{{#items}}'
/// }
/// ```
public struct MustacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category of a Mustache error.
    public enum Kind: String, Sendable, Equatable {
        /// The template source is malformed: an unclosed tag or section, a mismatched closing tag,
        /// an invalid tag name or invalid delimiters.
        case syntax
        /// A partial or parent template could not be found and the render options require it.
        case unknownTemplate
        /// Partials, parents or blocks were nested deeper than the render options allow.
        case depthLimitExceeded
    }

    /// The category of the error.
    public let kind: Kind
    /// The path of the template the error concerns.
    public let path: String
    /// The 1-based line of the offending tag.
    public let line: Int
    /// The 1-based column of the offending tag.
    public let column: Int
    /// A human-readable explanation of the problem.
    public let message: String

    /// Creates an error at a position in a template.
    public init(_ kind: Kind, path: String, line: Int, column: Int, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// The error formatted as `path:line:column: error: message`.
    public var description: String {
        "\(path):\(line):\(column): error: \(message)"
    }

    init(_ kind: Kind, at location: MustacheSourceLocation, message: String) {
        self.init(kind, path: location.path, line: location.line, column: location.column, message: message)
    }
}

/// A position in a template's source, used for error reporting.
struct MustacheSourceLocation: Sendable, Equatable {
    /// The path of the template.
    var path: String
    /// The 1-based line.
    var line: Int
    /// The 1-based column, counted in Unicode scalars.
    var column: Int
}
