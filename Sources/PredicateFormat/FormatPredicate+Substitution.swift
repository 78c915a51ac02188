extension FormatPredicate {
    /// The names of the substitution variables (`$NAME`) the predicate uses, sorted, without the `$`.
    /// A `SUBQUERY`'s own variable is bound inside it and not listed.
    public var variables: [String] {
        var names: Set<String> = []
        collectVariables(into: &names, bound: [])
        return names.sorted()
    }

    /// The predicate with its substitution variables replaced by values, like Foundation's
    /// `withSubstitutionVariables(_:)`. Values that make a `CAST` constant fold it (a number cast to
    /// `NSDate` becomes a date), and aggregates whose elements all became constants become constant arrays.
    ///
    /// ```swift
    /// let template = try FormatPredicate(format: "name BEGINSWITH[c] $PREFIX")
    /// let predicate = try template.withSubstitutionVariables(["PREFIX": "a"])  // name BEGINSWITH[c] "a"
    /// ```
    ///
    /// - Throws: ``PredicateFormatError`` of kind ``PredicateFormatError/Kind/missingVariable`` when a
    ///   variable the predicate uses has no value; its format is the printed predicate and its column
    ///   that of the variable there.
    public func withSubstitutionVariables(_ values: [String: any PredicateValueConvertible])
        throws(PredicateFormatError) -> FormatPredicate
    {
        let missing = variables.filter { values[$0] == nil }
        if let name = missing.first {
            throw PredicateFormatError.missingVariable(name, in: description)
        }
        return substituting(values.mapValues(\.predicateValue), bound: [])
    }

    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .truePredicate, .falsePredicate: break
        case .comparison(let comparison):
            comparison.left.collectVariables(into: &names, bound: bound)
            comparison.right.collectVariables(into: &names, bound: bound)
        case .not(let operand): operand.collectVariables(into: &names, bound: bound)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.collectVariables(into: &names, bound: bound) }
        }
    }

    func substituting(_ values: [String: PredicateValue], bound: Set<String>) -> FormatPredicate {
        switch self {
        case .truePredicate, .falsePredicate: self
        case .comparison(var comparison):
            {
                comparison.left = comparison.left.substituting(values, bound: bound)
                comparison.right = comparison.right.substituting(values, bound: bound)
                return .comparison(comparison)
            }()
        case .not(let operand): .not(operand.substituting(values, bound: bound))
        case .and(let operands): .and(operands.map { $0.substituting(values, bound: bound) })
        case .or(let operands): .or(operands.map { $0.substituting(values, bound: bound) })
        }
    }
}

extension FormatExpression {
    /// The names of the substitution variables the expression uses, sorted, without the `$`.
    public var variables: [String] {
        var names: Set<String> = []
        collectVariables(into: &names, bound: [])
        return names.sorted()
    }

    /// The expression with its substitution variables replaced by values (see
    /// ``FormatPredicate/withSubstitutionVariables(_:)``).
    public func withSubstitutionVariables(_ values: [String: any PredicateValueConvertible])
        throws(PredicateFormatError) -> FormatExpression
    {
        if let name = variables.first(where: { values[$0] == nil }) {
            throw PredicateFormatError.missingVariable(name, in: description)
        }
        return substituting(values.mapValues(\.predicateValue), bound: [])
    }

    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant, .evaluatedObject, .keyPath: break
        case .variable(let name): if !bound.contains(name) { names.insert(name) }
        case .member(let base, _): base.collectVariables(into: &names, bound: bound)
        case .aggregate(let elements), .function(_, let elements):
            for element in elements { element.collectVariables(into: &names, bound: bound) }
        case .arithmetic(_, let left, let right):
            left.collectVariables(into: &names, bound: bound)
            right.collectVariables(into: &names, bound: bound)
        case .method(let receiver, _, let arguments):
            receiver.collectVariables(into: &names, bound: bound)
            for argument in arguments { argument.collectVariables(into: &names, bound: bound) }
        case .cast(let operand, _): operand.collectVariables(into: &names, bound: bound)
        case .subquery(let collection, let variable, let predicate):
            collection.collectVariables(into: &names, bound: bound)
            predicate.collectVariables(into: &names, bound: bound.union([variable]))
        }
    }

    func substituting(_ values: [String: PredicateValue], bound: Set<String>) -> FormatExpression {
        switch self {
        case .constant, .evaluatedObject, .keyPath: self
        case .variable(let name): bound.contains(name) ? self : values[name].map(FormatExpression.constant) ?? self
        case .member(let base, let path): .member(of: base.substituting(values, bound: bound), path: path)
        case .aggregate(let elements): .aggregate(of: elements.map { $0.substituting(values, bound: bound) })
        case .function(let name, let arguments):
            .function(name, arguments.map { $0.substituting(values, bound: bound) })
        case .arithmetic(let op, let left, let right):
            .arithmetic(op, left.substituting(values, bound: bound), right.substituting(values, bound: bound))
        case .method(let receiver, let selector, let arguments):
            .method(
                receiver: receiver.substituting(values, bound: bound), selector: selector,
                arguments: arguments.map { $0.substituting(values, bound: bound) })
        case .cast(let operand, let type): .cast(operand.substituting(values, bound: bound), to: type)
        case .subquery(let collection, let variable, let predicate):
            .subquery(
                collection: collection.substituting(values, bound: bound), variable: variable,
                predicate: predicate.substituting(values, bound: bound.union([variable])))
        }
    }
}

extension PredicateFormatError {
    /// A missing substitution variable, located at its first `$NAME` in the printed form `printed`.
    static func missingVariable(_ name: String, in printed: String) -> PredicateFormatError {
        let scalars = Array(printed.unicodeScalars)
        let target = Array("$\(name)".unicodeScalars)
        var offset = 0
        var index = 0
        while index + target.count <= scalars.count {
            let boundary =
                index + target.count == scalars.count
                || !PredicateFormatLexer.isIdentifierContinue(scalars[index + target.count])
            if Array(scalars[index..<index + target.count]) == target, boundary {
                offset = index
                break
            }
            index += 1
        }
        return PredicateFormatError(
            .missingVariable, "no value for the substitution variable '$\(name)'", format: printed,
            scalarOffset: offset)
    }
}
