#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An expression of the predicate format language: the operands of a comparison.
///
/// The parser produces a normalized form, which the printer (``description``) writes back so that
/// parsing the printed string gives the same value:
/// - `SELF.a.b` is ``keyPath(_:)`` `[a, b]`; `SELF` alone is ``evaluatedObject``;
/// - a key path applied to another expression (`$x.name`, `SUBQUERY(…).@count`) is
///   ``member(_:_:)``, and nested member accesses are merged into one path;
/// - an aggregate literal whose elements are all constants (`{1, 2}`) is a
///   ``constant(_:)`` of ``PredicateValue/array(_:)``; ``aggregate(_:)`` holds the others (`{$LOW, 10}`);
/// - a minus sign before a number literal is part of the constant; before anything else, `-x` is
///   `0 - x` (``arithmetic(_:_:_:)`` with ``ArithmeticOperator/subtract``);
/// - `CAST(<number>, "NSDate")`, `CAST(<string>, "NSUUID")`, `CAST(<base64>, "NSData")`,
///   `CAST(<string>, "NSDecimalNumber")` and `CAST(<string>, "NSManagedObjectID")` are constants;
///   other casts stay ``cast(_:type:)``.
public indirect enum FormatExpression: Hashable, Sendable {
    /// A literal or substituted argument.
    case constant(PredicateValue)
    /// `SELF`: the object the predicate is evaluated against.
    case evaluatedObject
    /// A key path from the evaluated object: `department.name`, `employees.@count`, `name.length`.
    case keyPath([KeyPathComponent])
    /// A key path applied to another expression: `$e.salary`, `SUBQUERY(…).@count`, `{1, 2}.@count`.
    case member(FormatExpression, [KeyPathComponent])
    /// A substitution variable, `$NAME` (the name without the `$`).
    case variable(String)
    /// An aggregate literal with at least one non-constant element: `{$LOW, $HIGH}`.
    case aggregate([FormatExpression])
    /// Arithmetic: `a + b`, `a - b`, `a * b`, `a / b`, `a ** b`.
    case arithmetic(ArithmeticOperator, FormatExpression, FormatExpression)
    /// A built-in function by Foundation's name for it (`now`, `lowercase:`, `add:to:`) with its arguments.
    ///
    /// The parser accepts `lowercase:(name)` and `lowercase(name)` and stores the canonical name
    /// (`"lowercase:"`); the name's colons count the arguments. ``FormatExpression/knownFunctions`` lists
    /// the names.
    case function(String, [FormatExpression])
    /// `FUNCTION(receiver, 'selector', arguments…)`: a method call on an object, kept for the caller to
    /// resolve or reject.
    case method(receiver: FormatExpression, selector: String, arguments: [FormatExpression])
    /// `CAST(value, 'Type')` that the parser does not fold into a constant, such as `CAST(date, 'NSNumber')`.
    case cast(FormatExpression, type: String)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which `predicate`
    /// holds with `$variable` bound to the element.
    case subquery(collection: FormatExpression, variable: String, predicate: FormatPredicate)

    /// An arithmetic operator.
    public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
        /// `+`
        case add = "+"
        /// `-`
        case subtract = "-"
        /// `*`
        case multiply = "*"
        /// `/`
        case divide = "/"
        /// `**`
        case power = "**"

        /// Binding strength: `**` binds tighter than `*` and `/`, which bind tighter than `+` and `-`.
        var precedence: Int {
            switch self {
            case .add, .subtract: 1
            case .multiply, .divide: 2
            case .power: 3
            }
        }
    }

    /// One step of a key path: a key, or a collection operator applied to what precedes it.
    public enum KeyPathComponent: Hashable, Sendable {
        /// A key: an attribute, relationship or property name such as `name`, `length` or `count`.
        case key(String)
        /// A collection operator such as `@count` or `@sum`.
        case collection(CollectionOperator)
    }

    /// The collection operators of key paths.
    public enum CollectionOperator: String, Hashable, Sendable, CaseIterable {
        /// `@count`: the number of elements.
        case count
        /// `@sum`: the sum of the elements (or of the key path that follows).
        case sum
        /// `@avg`: the average.
        case avg
        /// `@min`: the smallest.
        case min
        /// `@max`: the largest.
        case max
    }
}

extension FormatExpression {
    /// A key path expression from a dotted string (`"department.name"`, `"employees.@count"`), or nil
    /// when a component is neither an identifier nor a supported collection operator.
    public init?(keyPath: String) {
        guard let components = FormatExpression.keyPathComponents(keyPath) else { return nil }
        self = .keyPath(components)
    }

    /// The components of a dotted key path string, or nil when one is not a key or collection operator.
    static func keyPathComponents(_ text: String) -> [KeyPathComponent]? {
        var components: [KeyPathComponent] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            if part.first == "@" {
                guard let op = CollectionOperator(rawValue: String(part.dropFirst())) else { return nil }
                components.append(.collection(op))
            } else {
                guard PredicateFormatLexer.isIdentifier(part.unicodeScalars) else { return nil }
                components.append(.key(String(part)))
            }
        }
        return components.isEmpty ? nil : components
    }

    /// `base.path`, normalized: a path on `SELF` is a key path, and paths on paths are merged.
    static func member(of base: FormatExpression, path: [KeyPathComponent]) -> FormatExpression {
        guard !path.isEmpty else { return base }
        switch base {
        case .evaluatedObject: return .keyPath(path)
        case .keyPath(let prefix): return .keyPath(prefix + path)
        case .member(let inner, let prefix): return .member(inner, prefix + path)
        default: return .member(base, path)
        }
    }

    /// `{elements}`, normalized: all-constant aggregates are constant arrays.
    static func aggregate(of elements: [FormatExpression]) -> FormatExpression {
        var constants: [PredicateValue] = []
        for element in elements {
            guard case .constant(let value) = element else { return .aggregate(elements) }
            constants.append(value)
        }
        return .constant(.array(constants))
    }

    /// `-operand`, normalized: a negated number is a negative constant, anything else `0 - operand`.
    static func negation(of operand: FormatExpression) -> FormatExpression {
        switch operand {
        case .constant(.integer(let value)):
            let (negated, overflow) = value.multipliedReportingOverflow(by: -1)
            return .constant(overflow ? .double(-Double(value)) : .integer(negated))
        case .constant(.double(let value)):
            return .constant(.double(-value))
        case .constant(.decimal(let value)):
            return .constant(.decimal(-value))
        default:
            return .arithmetic(.subtract, .constant(.integer(0)), operand)
        }
    }

    /// `CAST(operand, type)`, folded into a constant when the operand is a constant the type converts
    /// exactly (see the type's documentation); otherwise ``cast(_:type:)``.
    static func cast(_ operand: FormatExpression, to type: String) -> FormatExpression {
        guard case .constant(let value) = operand, let folded = CastFolding.fold(value, to: type) else {
            return .cast(operand, type: type)
        }
        return .constant(folded)
    }
}

/// The constant conversions `CAST` performs at parse time.
enum CastFolding {
    /// The type names whose `CAST` from a constant becomes a constant.
    static let foldingTypes: Set<String> = ["NSDate", "NSUUID", "NSData", "NSDecimalNumber", "NSManagedObjectID"]

    /// The constant `CAST(value, type)` stands for, or nil when it stays a cast.
    static func fold(_ value: PredicateValue, to type: String) -> PredicateValue? {
        switch (type, value) {
        case ("NSDate", .integer(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)) where seconds.isFinite:
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSUUID", .string(let text)):
            return UUID(uuidString: text).map(PredicateValue.uuid)
        case ("NSData", .string(let text)):
            // Canonical base64 only, so that the constant prints back as the same text.
            guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else { return nil }
            return .data(data)
        case ("NSDecimalNumber", .string(let text)):
            guard isDecimalNumber(text) else { return nil }
            return Decimal(string: text).map(PredicateValue.decimal)
        case ("NSManagedObjectID", .string(let text)):
            return .object(ObjectReference(text))
        default:
            return nil
        }
    }

    /// Whether `text` is a whole decimal number: `[-+]digits[.digits][e[-+]digits]`, at most 200 digits
    /// (the longest `Decimal` prints is 166) and an exponent of at most three digits.
    static func isDecimalNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func digits(max: Int) -> Int {
            var count = 0
            while let first = scalars.first, first >= "0", first <= "9" {
                scalars.removeFirst()
                count += 1
            }
            return count <= max ? count : -1
        }
        if scalars.first == "-" || scalars.first == "+" { scalars.removeFirst() }
        let integral = digits(max: 200)
        var fraction = 0
        if scalars.first == "." {
            scalars.removeFirst()
            fraction = digits(max: 200)
        }
        guard integral >= 0, fraction >= 0, integral + fraction > 0, integral + fraction <= 200 else { return false }
        if scalars.first == "e" || scalars.first == "E" {
            scalars.removeFirst()
            if scalars.first == "-" || scalars.first == "+" { scalars.removeFirst() }
            guard digits(max: 3) > 0 else { return false }
        }
        return scalars.isEmpty
    }
}
