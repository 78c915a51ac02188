/// A compiled Mustache template: parse once, render many times.
///
/// Compiling checks the syntax and builds a node tree, so rendering never re-parses. Partials and
/// parents are resolved by name through a `MustacheLibrary` when the template renders.
///
/// ```swift
/// let template = try MustacheTemplate("Hello {{name}}!", name: "greeting")
/// let text = try template.render(with: ["name": "World"])  // "Hello World!"
/// ```
public struct MustacheTemplate: Sendable {
    /// The name partial and parent tags use for this template.
    public let name: String
    /// The path reported in errors about this template.
    public let path: String
    /// The compiled instructions.
    let program: MustacheProgram
    /// The templates named by this template's partial and parent tags, with where they are named.
    let references: [(name: String, location: MustacheSourceLocation)]

    /// Compiles a template.
    ///
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: The name other templates use to include this one.
    ///   - path: The path reported in errors; defaults to `name`.
    /// - Throws: A `MustacheError` of kind `.syntax` locating the first syntax error.
    public init(_ source: String, name: String = "template", path: String? = nil) throws(MustacheError) {
        try self.init(source, name: name, path: path ?? name, delimiters: .default)
    }

    /// Compiles a template whose tags start with `delimiters`: what a lambda returns.
    init(_ source: String, name: String, path: String, delimiters: MustacheDelimiters) throws(MustacheError) {
        let output = try MustacheParser.parse(source, path: path, delimiters: delimiters)
        self.name = name
        self.path = path
        self.program = MustacheProgram(output.nodes, source: output.source)
        self.references = output.references
    }

    /// The names of the templates this template's partial and parent tags include, sorted;
    /// dynamic names (`{{>*name}}`) are not included.
    public var referencedTemplateNames: [String] {
        Set(references.map(\.name)).sorted()
    }

    /// Renders the template with a context, resolving partials and parents in `library` and
    /// using its options.
    public func render(
        with context: some MustacheRepresentable, library: MustacheLibrary = MustacheLibrary()
    ) throws(MustacheError) -> String {
        try render(with: context.mustacheValue, library: library)
    }

    /// Renders the template with a context value, resolving partials and parents in `library` and
    /// using its options; dictionary and array literals of mixed types become `MustacheValue`s.
    public func render(with context: MustacheValue, library: MustacheLibrary = MustacheLibrary()) throws(MustacheError)
        -> String
    {
        try MustacheRenderer.render(self, context: context, library: library)
    }
}
