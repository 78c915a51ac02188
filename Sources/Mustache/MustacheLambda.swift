/// A function a template calls: the value of ``MustacheValue/lambda(_:)``.
///
/// Two kinds, after the specification's optional lambdas module and GRMustache's rendering functions:
///
/// - A **template lambda** (``init(_:)``) returns a template. For `{{lambda}}` it is called with nil; its
///   result is rendered with the default delimiters against the current context, then interpolated
///   (HTML-escaped unless the tag is `{{{lambda}}}` or `{{&lambda}}`). For `{{#lambda}}…{{/lambda}}` it is
///   called with the section's raw, unrendered text; its result is rendered with the delimiters in force at
///   the section's opening tag and replaces the section. This is what the specification requires.
/// - A **transform lambda** (``transform(_:)``) receives text already rendered. For
///   `{{#lambda}}…{{/lambda}}` the section's content is rendered against the current context first (its
///   `{{name}}` tags escaped as usual) and the lambda's result replaces it as is; for `{{lambda}}` it is
///   called with the empty string and its result is interpolated (escaped like any value). This is what a
///   helper that formats what a template renders (case changes, wrapping) needs.
///
/// Every occurrence calls the lambda again; results are never cached. A lambda is truthy, so an inverted
/// section over one renders nothing, and it never becomes a context. Two lambda values are equal only
/// when they are the same instance.
///
/// ```swift
/// let context: MustacheValue = [
///     "name": "world",
///     "bold": .lambda(MustacheLambda { text in "<b>\(text ?? "")</b>" }),
///     "shout": .lambda(.transform { $0.uppercased() }),
/// ]
/// try MustacheTemplate("{{#bold}}{{name}}{{/bold}} {{#shout}}{{name}}{{/shout}}").render(with: context)
/// // "<b>world</b> WORLD"
/// ```
public final class MustacheLambda: Sendable, Hashable {
    /// What the lambda does.
    enum Body: Sendable {
        /// Returns a template to render; called with the raw section text, or nil for an interpolation.
        case template(@Sendable (String?) -> String)
        /// Returns the replacement of text already rendered (the empty string for an interpolation).
        case transform(@Sendable (String) -> String)
    }

    let body: Body

    /// A template lambda: `body` gets the raw text of the section it is called for, or nil for an
    /// interpolation (`{{lambda}}`), and returns a template that is rendered in its place.
    public init(_ body: @escaping @Sendable (_ sectionText: String?) -> String) {
        self.body = .template(body)
    }

    private init(body: Body) {
        self.body = body
    }

    /// A transform lambda: `transform` gets the section's content rendered against the current context
    /// (the empty string for an interpolation) and returns the text that replaces it, not rendered again.
    public static func transform(_ transform: @escaping @Sendable (_ renderedText: String) -> String) -> MustacheLambda
    {
        MustacheLambda(body: .transform(transform))
    }

    public static func == (lhs: MustacheLambda, rhs: MustacheLambda) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension MustacheLambda: MustacheRepresentable {
    /// The lambda as a lambda value.
    public var mustacheValue: MustacheValue { .lambda(self) }
}
