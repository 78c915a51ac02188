#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An error in a predicate or expression format string, or in its arguments or substitution variables.
///
/// It carries the format string and the 1-based line and column (counted in characters) of the
/// offending token, and prints in the `predicate:line:column: error: message` form:
///
/// ```swift
/// do {
///     _ = try FormatPredicate(format: "department == ")
/// } catch {
///     print(error)  // predicate:1:15: error: expected a value after '=='
/// }
/// ```
public struct PredicateFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of the error.
    public enum Kind: String, Hashable, Sendable {
        /// The format string is malformed: an unexpected or missing token, an unterminated string, a bad
        /// number or escape.
        case syntax
        /// The format string uses a construct this library does not support (index expressions,
        /// assignments, `UTI-CONFORMS-TO`, unknown functions or collection operators).
        case unsupported
        /// A format argument does not fit its specifier, or there are too few or too many arguments.
        case argument
        /// Parentheses, `NOT`s, function calls or operators nest deeper than the parser allows.
        case nestingTooDeep
        /// A substitution variable has no value.
        case missingVariable
    }

    /// The category of the error.
    public let kind: Kind
    /// What is wrong, without the location.
    public let message: String
    /// The format string the error is in (for a missing variable, the predicate's printed form).
    public let format: String
    /// The 1-based line of the offending token (lines end at each line feed, U+000A).
    public let line: Int
    /// The 1-based column of the offending token, in characters (one past the end for a problem at
    /// the end of the string).
    public let column: Int

    /// Creates an error at a position in a format string, given as an offset in Unicode scalars.
    init(_ kind: Kind, _ message: String, format: String, scalarOffset: Int) {
        self.kind = kind
        self.message = message
        self.format = format
        var line = 1
        var lineStart = format.unicodeScalars.startIndex
        var index = format.unicodeScalars.startIndex
        var remaining = scalarOffset
        while remaining > 0, index < format.unicodeScalars.endIndex {
            if format.unicodeScalars[index] == "\n" {
                line += 1
                lineStart = format.unicodeScalars.index(after: index)
            }
            index = format.unicodeScalars.index(after: index)
            remaining -= 1
        }
        self.line = line
        // Characters from the start of the line (String rounds a mid-character index down).
        self.column = format[lineStart..<index].count + 1
    }

    /// The error formatted as `predicate:line:column: error: message`.
    public var description: String {
        "predicate:\(line):\(column): error: \(message)"
    }

    /// The description followed by the offending line of the format string and a caret under the column.
    public var detailedDescription: String {
        let lines = format.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        let source = line - 1 < lines.count ? String(String.UnicodeScalarView(lines[line - 1])) : ""
        return description + "\n" + source + "\n" + String(repeating: " ", count: column - 1) + "^"
    }
}

/// `localizedDescription` is ``PredicateFormatError/description``.
extension PredicateFormatError: LocalizedError {
    /// The error formatted as `predicate:line:column: error: message`.
    public var errorDescription: String? { description }
}
