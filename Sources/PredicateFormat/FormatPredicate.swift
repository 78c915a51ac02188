/// A predicate of the Core Data / Foundation predicate format language, as a typed tree.
///
/// Create one from a format string, with arguments substituted at parse time:
///
/// ```swift
/// let predicate = try FormatPredicate(format: "(id.length > 0 AND id == %@) OR (name == %@)", "A-1", "Ada")
/// print(predicate)  // (id.length > 0 AND id == "A-1") OR name == "Ada"
/// ```
///
/// The parser normalizes what Foundation treats as the same: `NONE p` is `NOT ANY p` (``not(_:)`` of a
/// comparison with ``FormatComparison/Modifier/any``), `SOME` is `ANY`, and a chain `a AND b AND c` is one
/// ``and(_:)`` of three (parentheses keep their own group). ``description`` prints the canonical form,
/// which parses back to an equal value.
public indirect enum FormatPredicate: Hashable, Sendable {
    /// `TRUEPREDICATE`.
    case truePredicate
    /// `FALSEPREDICATE`.
    case falsePredicate
    /// A comparison of two expressions, such as `name BEGINSWITH[cd] "a"` or `ANY employees.age > 30`.
    case comparison(FormatComparison)
    /// `NOT p` / `!p`.
    case not(FormatPredicate)
    /// `a AND b AND …` / `&&`: true when all of the predicates are (at least two from the parser).
    case and([FormatPredicate])
    /// `a OR b OR …` / `||`: true when any of the predicates is (at least two from the parser).
    case or([FormatPredicate])
}

/// A comparison predicate: `[modifier] left operator[options] right`.
public struct FormatComparison: Hashable, Sendable {
    /// The left-hand expression.
    public var left: FormatExpression
    /// The operator.
    public var `operator`: Operator
    /// The right-hand expression.
    public var right: FormatExpression
    /// `ANY`, `ALL` or none: how a to-many left-hand side is compared.
    public var modifier: Modifier
    /// The string options (`[c]`, `[d]`, `[n]`).
    public var options: Options

    /// Creates a comparison.
    public init(
        _ left: FormatExpression, _ operator: Operator, _ right: FormatExpression, modifier: Modifier = .direct,
        options: Options = []
    ) {
        self.left = left
        self.operator = `operator`
        self.right = right
        self.modifier = modifier
        self.options = options
    }

    /// A comparison operator.
    public enum Operator: String, Hashable, Sendable, CaseIterable {
        /// `==` or `=`.
        case equalTo = "=="
        /// `!=` or `<>`.
        case notEqualTo = "!="
        /// `<`.
        case lessThan = "<"
        /// `<=` or `=<`.
        case lessThanOrEqualTo = "<="
        /// `>`.
        case greaterThan = ">"
        /// `>=` or `=>`.
        case greaterThanOrEqualTo = ">="
        /// `BETWEEN`: the right-hand side is a two-element collection `{low, high}`; both bounds included.
        case between = "BETWEEN"
        /// `IN`: the left-hand side is an element of the right-hand collection (or a substring of the
        /// right-hand string).
        case `in` = "IN"
        /// `CONTAINS`: the left-hand collection contains the right-hand value, or the left-hand string
        /// contains the right-hand string.
        case contains = "CONTAINS"
        /// `BEGINSWITH`.
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`.
        case endsWith = "ENDSWITH"
        /// `LIKE`: `?` matches one character and `*` any number.
        case like = "LIKE"
        /// `MATCHES`: an ICU regular expression matching the whole left-hand string.
        case matches = "MATCHES"
    }

    /// How the left-hand side is compared when it is a collection.
    public enum Modifier: String, Hashable, Sendable, CaseIterable {
        /// No modifier: the values are compared directly.
        case direct = ""
        /// `ANY` / `SOME`: true when the comparison holds for at least one element. (`NONE` is `NOT ANY`.)
        case any = "ANY"
        /// `ALL`: true when the comparison holds for every element.
        case all = "ALL"
    }

    /// String comparison options, written in brackets after the operator: `[c]`, `[d]`, `[cd]`, `[n]`.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The options' bits: 1 `c`, 2 `d`, 4 `n` (Foundation's values).
        public let rawValue: UInt8
        /// Creates options from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `c`: case-insensitive.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `d`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `n`: the strings are already normalized (a performance hint that supersedes `c` and `d`).
        public static let normalized = Options(rawValue: 4)

        /// The letters in printing order.
        static let letters: [(Character, Options)] = [
            ("c", .caseInsensitive), ("d", .diacriticInsensitive), ("n", .normalized),
        ]

        /// The options as written between the brackets (`"cd"`), empty for none.
        public var letterCode: String {
            String(Options.letters.compactMap { contains($0.1) ? $0.0 : nil })
        }
    }
}

extension FormatPredicate {
    /// Parses a predicate format string, substituting the format arguments in order.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate(format: "%K BEGINSWITH[c] %@", "name", "a")
    /// ```
    ///
    /// - Throws: ``PredicateFormatError`` with the column of the problem: a syntax error, an argument of
    ///   the wrong kind for its specifier, too few or too many arguments, or nesting deeper than
    ///   ``PredicateFormatParser/maximumNestingDepth``.
    public init(format: String, _ arguments: any PredicateValueConvertible...) throws(PredicateFormatError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a predicate format string with an array of format arguments, like
    /// `NSPredicate(format:argumentArray:)`.
    public init(format: String, argumentArray: [any PredicateValueConvertible]) throws(PredicateFormatError) {
        var parser = try PredicateFormatParser(format: format, arguments: argumentArray.map(\.predicateValue))
        self = try parser.parsePredicate()
    }
}

extension FormatExpression {
    /// Parses an expression format string (as `NSExpression(format:)` does), substituting the format
    /// arguments in order: `"employees.@count"`, `"lowercase:(name)"`, `"now()"`.
    public init(format: String, _ arguments: any PredicateValueConvertible...) throws(PredicateFormatError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an expression format string with an array of format arguments.
    public init(format: String, argumentArray: [any PredicateValueConvertible]) throws(PredicateFormatError) {
        var parser = try PredicateFormatParser(format: format, arguments: argumentArray.map(\.predicateValue))
        self = try parser.parseStandaloneExpression()
    }
}
