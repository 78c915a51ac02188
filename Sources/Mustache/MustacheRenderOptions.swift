/// Settings that control how a `MustacheLibrary` renders templates.
///
/// The defaults follow the Mustache specification. Code generators usually want
/// ``codeGeneration``: no HTML escaping, and an error for a partial that does not exist.
public struct MustacheRenderOptions: Sendable, Equatable {
    /// Whether `{{name}}` escapes `&`, `<`, `>` and `"` as HTML entities.
    ///
    /// `{{{name}}}` and `{{&name}}` never escape.
    public var escapesHTML: Bool
    /// Whether a partial or parent template that is not in the library is an error instead of
    /// rendering as the empty string.
    public var throwsOnUnknownTemplate: Bool
    /// How deeply partials, parents and overridden blocks may nest before rendering fails; this
    /// stops a template that includes itself unconditionally.
    public var maximumDepth: Int

    /// Creates render options.
    public init(escapesHTML: Bool = true, throwsOnUnknownTemplate: Bool = false, maximumDepth: Int = 100) {
        self.escapesHTML = escapesHTML
        self.throwsOnUnknownTemplate = throwsOnUnknownTemplate
        self.maximumDepth = maximumDepth
    }

    /// The behavior the Mustache specification requires: HTML escaping, unknown partials render
    /// as the empty string.
    public static let specification = MustacheRenderOptions()

    /// Settings for generating source code: no HTML escaping, unknown partials are errors.
    public static let codeGeneration = MustacheRenderOptions(escapesHTML: false, throwsOnUnknownTemplate: true)
}
