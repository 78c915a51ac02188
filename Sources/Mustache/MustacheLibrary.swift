/// A set of compiled templates, found by name, and the options used to render them.
///
/// Templates render with the library's templates as their partials and parents. Each template is
/// compiled once, when it is added, however many times it is rendered or included.
///
/// ```swift
/// var library = MustacheLibrary(options: .codeGeneration)
/// try library.add(source: "{{#items}}{{>item}}{{/items}}", name: "list")
/// try library.add(source: "- {{name}}\n", name: "item")
/// let text = try library.render("list", with: ["items": [["name": "a"], ["name": "b"]]])
/// ```
public struct MustacheLibrary: Sendable {
    /// The options every render through this library uses.
    public var options: MustacheRenderOptions
    private var templates: [String: MustacheTemplate] = [:]

    /// Creates an empty library.
    public init(options: MustacheRenderOptions = .specification) {
        self.options = options
    }

    /// Creates a library of compiled templates, found by their names; a later template replaces
    /// an earlier one with the same name.
    public init(templates: [MustacheTemplate], options: MustacheRenderOptions = .specification) {
        self.options = options
        for template in templates {
            add(template)
        }
    }

    /// Creates a library by compiling template sources, keyed by name; each name is also the path.
    ///
    /// - Throws: The first syntax error, in the order of the sorted names.
    public init(sources: [String: String], options: MustacheRenderOptions = .specification) throws(MustacheError) {
        self.options = options
        for name in sources.keys.sorted() {
            try add(source: sources[name] ?? "", name: name)
        }
    }

    /// The names of the library's templates, sorted.
    public var templateNames: [String] {
        templates.keys.sorted()
    }

    /// The template with a name, if the library has one.
    public subscript(name: String) -> MustacheTemplate? {
        templates[name]
    }

    /// Adds a compiled template under its name, replacing any template with that name.
    public mutating func add(_ template: MustacheTemplate) {
        templates[template.name] = template
    }

    /// Compiles a template source and adds it under `name`, replacing any template with that name.
    ///
    /// - Parameter path: The path reported in errors; defaults to `name`.
    public mutating func add(source: String, name: String, path: String? = nil) throws(MustacheError) {
        add(try MustacheTemplate(source, name: name, path: path))
    }

    /// Renders the template named `name` with a context.
    ///
    /// - Throws: A `MustacheError` of kind `.unknownTemplate` when the library has no such
    ///   template, or any error rendering raises.
    public func render(_ name: String, with context: some MustacheRepresentable) throws(MustacheError) -> String {
        try render(name, with: context.mustacheValue)
    }

    /// Renders the template named `name` with a context value; dictionary and array literals of
    /// mixed types become `MustacheValue`s.
    public func render(_ name: String, with context: MustacheValue) throws(MustacheError) -> String {
        guard let template = templates[name] else {
            throw MustacheError(.unknownTemplate, path: name, line: 1, column: 1, message: "unknown template '\(name)'")
        }
        return try render(template, with: context)
    }

    /// Renders a template with a context, resolving its partials and parents in this library.
    public func render(_ template: MustacheTemplate, with context: some MustacheRepresentable) throws(MustacheError)
        -> String
    {
        try render(template, with: context.mustacheValue)
    }

    /// Renders a template with a context value, resolving its partials and parents in this library.
    public func render(_ template: MustacheTemplate, with context: MustacheValue) throws(MustacheError) -> String {
        try MustacheRenderer.render(template, context: context, library: self)
    }

    /// Renders the template named `name` with a stack of contexts, the last one innermost: names
    /// resolve in the innermost context that has them, as if each were a section inside the previous.
    ///
    /// Lets a caller share one outer context between many renders without copying it into each inner one.
    public func render(_ name: String, withContexts contexts: [MustacheValue]) throws(MustacheError) -> String {
        guard let template = templates[name] else {
            throw MustacheError(.unknownTemplate, path: name, line: 1, column: 1, message: "unknown template '\(name)'")
        }
        return try MustacheRenderer.render(template, contexts: contexts, library: self)
    }

    /// Renders the template named `name` with a stack of contexts, like
    /// ``render(_:withContexts:)``, returning the text's UTF-8 bytes (for writing to a file without a
    /// string in between).
    public func renderUTF8(_ name: String, withContexts contexts: [MustacheValue]) throws(MustacheError) -> [UInt8] {
        guard let template = templates[name] else {
            throw MustacheError(.unknownTemplate, path: name, line: 1, column: 1, message: "unknown template '\(name)'")
        }
        return try MustacheRenderer.renderUTF8(template, contexts: contexts, library: self)
    }

    /// Errors for every partial or parent tag that names a template the library does not have,
    /// ordered by template name and then by position; empty when every name resolves.
    ///
    /// Dynamic names (`{{>*name}}`) depend on the context and are not checked.
    public func unresolvedReferences() -> [MustacheError] {
        var errors: [MustacheError] = []
        for name in templateNames {
            guard let template = templates[name] else { continue }
            for reference in template.references where templates[reference.name] == nil {
                errors.append(
                    MustacheError(
                        .unknownTemplate, at: reference.location, message: "unknown partial '\(reference.name)'"))
            }
        }
        return errors
    }
}
