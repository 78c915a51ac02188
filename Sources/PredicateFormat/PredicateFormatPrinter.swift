#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The canonical printed form: the format string that parses back to an equal value.
///
/// Keywords are upper case, strings double-quoted, options lower case (`BEGINSWITH[cd]`), and reserved
/// words used as keys `#`-escaped. Compound predicates inside compound predicates and `NOT` are
/// parenthesized; arithmetic only where precedence needs it.
extension FormatPredicate: CustomStringConvertible {
    /// The predicate as a canonical format string.
    public var description: String {
        switch self {
        case .truePredicate: "TRUEPREDICATE"
        case .falsePredicate: "FALSEPREDICATE"
        case .comparison(let comparison): comparison.description
        case .not(let operand): "NOT " + operand.groupedDescription
        case .and(let operands):
            operands.isEmpty ? "TRUEPREDICATE" : operands.map(\.groupedDescription).joined(separator: " AND ")
        case .or(let operands):
            operands.isEmpty ? "FALSEPREDICATE" : operands.map(\.groupedDescription).joined(separator: " OR ")
        }
    }

    /// The description, in parentheses when it is a compound of two or more predicates.
    private var groupedDescription: String {
        switch self {
        case .and(let operands) where operands.count > 1, .or(let operands) where operands.count > 1:
            "(" + description + ")"
        default: description
        }
    }
}

extension FormatComparison: CustomStringConvertible {
    /// The comparison as a canonical format string, such as `ANY employees.name BEGINSWITH[c] "a"`.
    public var description: String {
        let modifierPrefix = modifier == .direct ? "" : modifier.rawValue + " "
        let optionSuffix = options.isEmpty ? "" : "[\(options.letterCode)]"
        return "\(modifierPrefix)\(left) \(self.operator.rawValue)\(optionSuffix) \(right)"
    }
}

extension FormatExpression: CustomStringConvertible {
    /// The expression as a canonical format string.
    public var description: String {
        switch self {
        case .constant(let value): value.description
        case .evaluatedObject: "SELF"
        case .keyPath(let path): path.isEmpty ? "SELF" : FormatExpression.describe(path)
        case .member(let base, let path): base.memberBaseDescription + "." + FormatExpression.describe(path)
        case .variable(let name): "$" + name
        case .aggregate(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .arithmetic(.subtract, .constant(.integer(0)), let operand) where !operand.isNumberConstant:
            // What `-x` parses to: printed back as `-x`, so the printed form nests no deeper than the input did.
            "-" + operand.operandDescription(below: 4, strictly: true)
        case .arithmetic(let op, let left, let right):
            left.operandDescription(below: op.precedence, strictly: true) + " \(op.rawValue) "
                + right.operandDescription(below: op.precedence, strictly: false)
        case .function(let name, let arguments):
            name + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
        case .method(let receiver, let selector, let arguments):
            "FUNCTION("
                + ([receiver.description, PredicateValue.quote(selector)] + arguments.map(\.description))
                .joined(separator: ", ") + ")"
        case .cast(let operand, let type): "CAST(\(operand), \(PredicateValue.quote(type)))"
        case .subquery(let collection, let variable, let predicate):
            "SUBQUERY(\(collection), $\(variable), \(predicate))"
        }
    }

    /// Whether the expression is a number constant (which a `-` before it would fold into a negative constant).
    private var isNumberConstant: Bool {
        switch self {
        case .constant(.integer), .constant(.double), .constant(.decimal): true
        default: false
        }
    }

    /// Binding strength: arithmetic by operator, everything else binds tightest.
    private var precedence: Int {
        if case .arithmetic(.subtract, .constant(.integer(0)), let operand) = self, !operand.isNumberConstant {
            return 4  // printed as unary `-x`
        }
        if case .arithmetic(let op, _, _) = self { return op.precedence }
        return 4
    }

    /// The description as an operand of an operator of precedence `level`: parenthesized when it binds
    /// less tightly (or equally, for a right operand of a left-associative operator).
    private func operandDescription(below level: Int, strictly: Bool) -> String {
        let needsParentheses = strictly ? precedence < level : precedence <= level
        return needsParentheses ? "(" + description + ")" : description
    }

    /// The description as the base of a key path: numbers and arithmetic in parentheses.
    private var memberBaseDescription: String {
        switch self {
        case .arithmetic, .constant(.integer), .constant(.double): "(" + description + ")"
        default: description
        }
    }

    /// A key path, keys `#`-escaped when they are reserved words.
    static func describe(_ path: [KeyPathComponent]) -> String {
        path.map { component in
            switch component {
            case .key(let name):
                PredicateFormatLexer.isIdentifier(name.unicodeScalars) && PredicateFormatLexer.isReservedWord(name)
                    ? "#" + name : name
            case .collection(let op): "@" + op.rawValue
            }
        }.joined(separator: ".")
    }
}

extension PredicateValue: CustomStringConvertible {
    /// The value as a format-string literal: `nil`, `YES`, `42`, `1.5`, `"text"`, `{1, 2}`, and `CAST(…)`
    /// for dates, UUIDs, data, decimals and object references.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let flag): flag ? "YES" : "NO"
        case .integer(let number): String(number)
        case .double(let number): PredicateValue.describe(number)
        case .decimal(let number): "CAST(\(PredicateValue.quote("\(number)")), \"NSDecimalNumber\")"
        case .string(let text): PredicateValue.quote(text)
        case .date(let date): "CAST(\(PredicateValue.describe(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .uuid(let uuid): "CAST(\"\(uuid.uuidString)\", \"NSUUID\")"
        case .data(let data): "CAST(\"\(data.base64EncodedString())\", \"NSData\")"
        case .array(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .object(let reference): "CAST(\(PredicateValue.quote(reference.identity)), \"NSManagedObjectID\")"
        }
    }

    /// The description, cut to about 40 characters for error messages.
    var abbreviatedDescription: String {
        let full = description
        return full.count > 40 ? full.prefix(40) + "…" : full
    }

    /// A double that reads back as the same double: Swift's shortest round-trip form, always with a `.`
    /// or exponent; infinities as `1e999` (which reads back as infinity).
    static func describe(_ number: Double) -> String {
        if number.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
        if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
        return "\(number)"
    }

    /// `text` double-quoted, with `"`, `\` and control characters escaped.
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
