extension FormatPredicate {
    /// The predicate with expressions replaced: `transform` sees each expression, outermost first; what it returns
    /// takes the expression's place (and is not looked into), `nil` keeps the expression and looks into its parts.
    ///
    /// ```swift
    /// // $SOURCE.name becomes the constant "Ada":
    /// let rewritten = predicate.replacingExpressions { expression in
    ///     if case .member(.variable("SOURCE"), [.key("name")]) = expression { return .constant("Ada") }
    ///     return nil
    /// }
    /// ```
    public func replacingExpressions(_ transform: (FormatExpression) throws -> FormatExpression?) rethrows
        -> FormatPredicate
    {
        switch self {
        case .truePredicate, .falsePredicate: return self
        case .comparison(var comparison):
            comparison.left = try comparison.left.replacingExpressions(transform)
            comparison.right = try comparison.right.replacingExpressions(transform)
            return .comparison(comparison)
        case .not(let operand): return .not(try operand.replacingExpressions(transform))
        case .and(let operands): return .and(try operands.map { try $0.replacingExpressions(transform) })
        case .or(let operands): return .or(try operands.map { try $0.replacingExpressions(transform) })
        }
    }

    /// Every comparison of the predicate, those inside `SUBQUERY`s included, outermost first.
    public var comparisons: [FormatComparison] {
        var found: [FormatComparison] = []
        collectComparisons(into: &found)
        return found
    }

    private func collectComparisons(into found: inout [FormatComparison]) {
        switch self {
        case .truePredicate, .falsePredicate: break
        case .comparison(let comparison):
            found.append(comparison)
            comparison.left.collectComparisons(into: &found)
            comparison.right.collectComparisons(into: &found)
        case .not(let operand): operand.collectComparisons(into: &found)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.collectComparisons(into: &found) }
        }
    }
}

extension FormatExpression {
    /// The expression with sub-expressions replaced (see ``FormatPredicate/replacingExpressions(_:)``); the result
    /// is normalized as the parser's (a path on `SELF` is a key path, all-constant aggregates are constants).
    public func replacingExpressions(_ transform: (FormatExpression) throws -> FormatExpression?) rethrows
        -> FormatExpression
    {
        if let replaced = try transform(self) { return replaced }
        switch self {
        case .constant, .evaluatedObject, .keyPath, .variable: return self
        case .member(let base, let path): return .member(of: try base.replacingExpressions(transform), path: path)
        case .aggregate(let elements):
            return .aggregate(of: try elements.map { try $0.replacingExpressions(transform) })
        case .function(let name, let arguments):
            return .function(name, try arguments.map { try $0.replacingExpressions(transform) })
        case .arithmetic(let op, let left, let right):
            return .arithmetic(op, try left.replacingExpressions(transform), try right.replacingExpressions(transform))
        case .method(let receiver, let selector, let arguments):
            return .method(
                receiver: try receiver.replacingExpressions(transform), selector: selector,
                arguments: try arguments.map { try $0.replacingExpressions(transform) })
        case .cast(let operand, let type): return .cast(try operand.replacingExpressions(transform), to: type)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.replacingExpressions(transform), variable: variable,
                predicate: try predicate.replacingExpressions(transform))
        }
    }

    fileprivate func collectComparisons(into found: inout [FormatComparison]) {
        switch self {
        case .subquery(let collection, _, let predicate):
            collection.collectComparisons(into: &found)
            found += predicate.comparisons
        case .member(let base, _), .cast(let base, _): base.collectComparisons(into: &found)
        case .aggregate(let elements), .function(_, let elements):
            for element in elements { element.collectComparisons(into: &found) }
        case .arithmetic(_, let left, let right):
            left.collectComparisons(into: &found)
            right.collectComparisons(into: &found)
        case .method(let receiver, _, let arguments):
            receiver.collectComparisons(into: &found)
            for argument in arguments { argument.collectComparisons(into: &found) }
        case .constant, .evaluatedObject, .keyPath, .variable: break
        }
    }
}
