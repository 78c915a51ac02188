/// A recursive-descent parser of predicate and expression format strings.
///
/// Precedence, loosest first: `OR` / `||`, `AND` / `&&`, `NOT` / `!`, comparisons, `+ -`, `* /`, `**`,
/// unary `-`, key paths (`.`). Binary operators associate to the left. A parenthesized group is a
/// predicate or an expression, whichever it turns out to hold, so `(a + 1) * 2 > 3` and
/// `(a > 1) AND b < 2` both parse without backtracking.
struct PredicateFormatParser {
    private let format: String
    private let tokens: [PredicateFormatToken]
    private var index = 0
    private var depth = 0

    /// A parenthesized group or operand: a predicate or an expression.
    private enum Node {
        case expression(FormatExpression)
        case predicate(FormatPredicate)
    }

    private let unusedArguments: PredicateFormatError?

    init(format: String, arguments: [PredicateValue]) throws(PredicateFormatError) {
        self.format = format
        (self.tokens, self.unusedArguments) = try PredicateFormatLexer.tokenize(format, arguments: arguments)
    }

    /// Parses the whole format string as a predicate.
    mutating func parsePredicate() throws(PredicateFormatError) -> FormatPredicate {
        guard canStartPredicate(current) else {
            throw error(.syntax, "expected a predicate, found \(current.quoted)", at: current)
        }
        let node = try parseOr()
        let predicate = try requirePredicate(node)
        try expectEnd()
        return predicate
    }

    /// Parses the whole format string as an expression.
    mutating func parseStandaloneExpression() throws(PredicateFormatError) -> FormatExpression {
        guard canStartExpression(current) else {
            throw error(.syntax, "expected an expression, found \(current.quoted)", at: current)
        }
        let start = current
        let node = try parseAdditive()
        guard case .expression(let expression) = node else {
            throw error(.syntax, "expected an expression, found a predicate", at: start)
        }
        try expectEnd()
        return expression
    }

    // MARK: Tokens

    private var current: PredicateFormatToken { tokens[min(index, tokens.count - 1)] }

    private func peek(_ ahead: Int) -> PredicateFormatToken { tokens[min(index + ahead, tokens.count - 1)] }

    @discardableResult
    private mutating func advance() -> PredicateFormatToken {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private func isSymbol(_ symbol: PredicateFormatSymbol, _ token: PredicateFormatToken? = nil) -> Bool {
        (token ?? current).kind == .symbol(symbol)
    }

    private func isKeyword(_ keyword: PredicateFormatKeyword) -> Bool {
        current.kind == .keyword(keyword)
    }

    private func error(_ kind: PredicateFormatError.Kind, _ message: String, at token: PredicateFormatToken)
        -> PredicateFormatError
    {
        PredicateFormatError(kind, message, format: format, scalarOffset: token.offset)
    }

    /// Consumes `symbol` or fails with "expected '<symbol>' <context>", followed by the column of `opener`
    /// when there is one (computed only on failure).
    private mutating func expect(
        _ symbol: PredicateFormatSymbol, _ context: String, opener: PredicateFormatToken? = nil
    )
        throws(PredicateFormatError)
    {
        guard isSymbol(symbol) else {
            let location = opener.map { " at column \(column(of: $0))" } ?? ""
            throw error(
                .syntax, "expected '\(symbol.rawValue)' \(context)\(location), found \(current.quoted)", at: current)
        }
        advance()
    }

    /// Checks that the whole string was read and every argument used.
    private func expectEnd() throws(PredicateFormatError) {
        guard current.kind == .end else {
            if comparisonOperator(current) != nil {
                throw error(.syntax, "a predicate cannot be compared with \(current.quoted)", at: current)
            }
            throw error(.syntax, "unexpected \(current.quoted)", at: current)
        }
        if let unusedArguments { throw unusedArguments }
    }

    /// Enters one level of nesting, failing past ``FormatPredicate/maximumNestingDepth``.
    private mutating func enter(at token: PredicateFormatToken) throws(PredicateFormatError) {
        depth += 1
        if depth > FormatPredicate.maximumNestingDepth {
            throw error(
                .nestingTooDeep, "nesting deeper than \(FormatPredicate.maximumNestingDepth) levels", at: token)
        }
    }

    private func canStartExpression(_ token: PredicateFormatToken) -> Bool {
        switch token.kind {
        case .number, .string, .identifier, .variable, .collectionOperator, .value, .keyPathArgument: true
        case .keyword(let keyword):
            switch keyword {
            case .null, .nil, .true, .yes, .false, .no, .self, .subquery, .cast: true
            default: false
            }
        case .symbol(let symbol): symbol == .openParenthesis || symbol == .openBrace || symbol == .minus
        case .end: false
        }
    }

    private func canStartPredicate(_ token: PredicateFormatToken) -> Bool {
        if canStartExpression(token) || token.kind == .symbol(.bang) { return true }
        guard case .keyword(let keyword) = token.kind else { return false }
        switch keyword {
        case .not, .any, .some, .all, .none, .truePredicate, .falsePredicate: return true
        default: return false
        }
    }

    // MARK: Predicates

    /// The node's predicate, or an error at the current token. (Call it with an already parsed node: in
    /// `requirePredicate(try parseOr())` the receiver would be read before the parse moved on.)
    private func requirePredicate(_ node: Node) throws(PredicateFormatError) -> FormatPredicate {
        switch node {
        case .predicate(let predicate): return predicate
        case .expression:
            let hint = current.kind == .keyword(.not) ? " (to negate a comparison, write 'NOT (a IN b)')" : ""
            throw error(.syntax, "expected a comparison operator, found \(current.quoted)\(hint)", at: current)
        }
    }

    private mutating func parseOr() throws(PredicateFormatError) -> Node {
        let first = try parseAnd()
        guard isKeyword(.or) || isSymbol(.bars) else { return first }
        var operands = [try requirePredicate(first)]
        while isKeyword(.or) || isSymbol(.bars) {
            let token = advance()
            guard canStartPredicate(current) else {
                throw error(.syntax, "expected a predicate after \(token.quoted)", at: current)
            }
            let node = try parseAnd()
            operands.append(try requirePredicate(node))
        }
        return .predicate(.or(operands))
    }

    private mutating func parseAnd() throws(PredicateFormatError) -> Node {
        let first = try parseNot()
        guard isKeyword(.and) || isSymbol(.ampersands) else { return first }
        var operands = [try requirePredicate(first)]
        while isKeyword(.and) || isSymbol(.ampersands) {
            let token = advance()
            guard canStartPredicate(current) else {
                throw error(.syntax, "expected a predicate after \(token.quoted)", at: current)
            }
            let node = try parseNot()
            operands.append(try requirePredicate(node))
        }
        return .predicate(.and(operands))
    }

    private mutating func parseNot() throws(PredicateFormatError) -> Node {
        guard isKeyword(.not) || isSymbol(.bang) else { return try parsePrimaryPredicate() }
        let token = advance()
        try enter(at: token)
        defer { depth -= 1 }
        guard canStartPredicate(current) else {
            throw error(.syntax, "expected a predicate after \(token.quoted)", at: current)
        }
        let node = try parseNot()
        return .predicate(.not(try requirePredicate(node)))
    }

    private mutating func parsePrimaryPredicate() throws(PredicateFormatError) -> Node {
        let token = current
        switch token.kind {
        case .keyword(.truePredicate):
            advance()
            return .predicate(.truePredicate)
        case .keyword(.falsePredicate):
            advance()
            return .predicate(.falsePredicate)
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            advance()
            guard canStartExpression(current) else {
                throw error(.syntax, "expected a comparison after \(token.quoted)", at: current)
            }
            let start = current
            guard case .expression(let left) = try parseAdditive() else {
                throw error(.syntax, "expected a comparison after \(token.quoted), found a predicate", at: start)
            }
            let modifier: FormatComparison.Modifier = token.kind == .keyword(.all) ? .all : .any
            let comparison = FormatPredicate.comparison(try parseComparison(left, modifier: modifier))
            return .predicate(token.kind == .keyword(.none) ? .not(comparison) : comparison)
        default:
            let node = try parseAdditive()
            switch node {
            case .predicate:
                if comparisonOperator(current) != nil {
                    throw error(.syntax, "a predicate cannot be compared with \(current.quoted)", at: current)
                }
                return node
            case .expression(let left):
                guard comparisonOperator(current) != nil else { return node }
                return .predicate(.comparison(try parseComparison(left, modifier: .direct)))
            }
        }
    }

    private func comparisonOperator(_ token: PredicateFormatToken) -> FormatComparison.Operator? {
        switch token.kind {
        case .symbol(.equalEqual), .symbol(.equal): .equalTo
        case .symbol(.notEqual), .symbol(.lessGreater): .notEqualTo
        case .symbol(.less): .lessThan
        case .symbol(.lessEqual), .symbol(.equalLess): .lessThanOrEqualTo
        case .symbol(.greater): .greaterThan
        case .symbol(.greaterEqual), .symbol(.equalGreater): .greaterThanOrEqualTo
        case .keyword(.between): .between
        case .keyword(.in): .in
        case .keyword(.contains): .contains
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        default: nil
        }
    }

    private mutating func parseComparison(_ left: FormatExpression, modifier: FormatComparison.Modifier)
        throws(PredicateFormatError) -> FormatComparison
    {
        let operatorToken = current
        guard let op = comparisonOperator(operatorToken) else {
            throw error(.syntax, "expected a comparison operator, found \(current.quoted)", at: current)
        }
        advance()
        var options: FormatComparison.Options = []
        if isSymbol(.openBracket) {
            options = try parseOptions()
        }
        guard canStartExpression(current) else {
            throw error(.syntax, "expected a value after \(operatorToken.quoted)", at: current)
        }
        let rightStart = current
        guard case .expression(let right) = try parseAdditive() else {
            throw error(.syntax, "expected a value after \(operatorToken.quoted), found a predicate", at: rightStart)
        }
        if op == .between {
            var count: Int?
            if case .constant(.array(let bounds)) = right { count = bounds.count }
            if case .aggregate(let bounds) = right { count = bounds.count }
            if let count, count != 2 {
                throw error(
                    .syntax, "BETWEEN needs two bounds, {low, high}; this collection has \(count)", at: rightStart)
            }
        }
        return FormatComparison(left, op, right, modifier: modifier, options: options)
    }

    private mutating func parseOptions() throws(PredicateFormatError) -> FormatComparison.Options {
        let open = advance()
        guard case .identifier(let letters) = current.kind else {
            throw error(.syntax, "expected comparison options (c, d, n) after '['", at: current)
        }
        var options: FormatComparison.Options = []
        for letter in letters.lowercased() {
            guard let option = FormatComparison.Options.letters.first(where: { $0.0 == letter })?.1 else {
                throw error(
                    .syntax, "unknown comparison option '\(letter)' (the options are c, d and n)", at: current)
            }
            options.insert(option)
        }
        advance()
        guard isSymbol(.closeBracket) else {
            throw error(.syntax, "expected ']' to close the options opened at column \(column(of: open))", at: current)
        }
        advance()
        return options
    }

    private func column(of token: PredicateFormatToken) -> Int {
        PredicateFormatError(.syntax, "", format: format, scalarOffset: token.offset).column
    }

    // MARK: Expressions

    private func operand(_ node: Node, of token: PredicateFormatToken) throws(PredicateFormatError)
        -> FormatExpression
    {
        switch node {
        case .expression(let expression): return expression
        case .predicate: throw error(.syntax, "a predicate cannot be an operand of \(token.quoted)", at: token)
        }
    }

    /// Parses a left-associative chain of the arithmetic operators of one precedence level.
    private mutating func parseBinary(
        level: Int,
        next: (inout PredicateFormatParser) throws(PredicateFormatError) -> Node
    ) throws(PredicateFormatError) -> Node {
        var node = try next(&self)
        var chain = 0
        defer { depth -= chain }
        while case .symbol(let symbol) = current.kind,
            let op = FormatExpression.ArithmeticOperator(rawValue: symbol.rawValue),
            op.precedence == level
        {
            let token = advance()
            let left = try operand(node, of: token)
            chain += 1
            try enter(at: token)
            guard canStartExpression(current) else {
                throw error(.syntax, "expected a value after \(token.quoted)", at: current)
            }
            let rightNode = try next(&self)
            let right = try operand(rightNode, of: token)
            node = .expression(.arithmetic(op, left, right))
        }
        return node
    }

    private mutating func parseAdditive() throws(PredicateFormatError) -> Node {
        try parseBinary(level: 1) { (parser) throws(PredicateFormatError) in
            try parser.parseMultiplicative()
        }
    }

    private mutating func parseMultiplicative() throws(PredicateFormatError) -> Node {
        try parseBinary(level: 2) { (parser) throws(PredicateFormatError) in
            try parser.parsePower()
        }
    }

    private mutating func parsePower() throws(PredicateFormatError) -> Node {
        try parseBinary(level: 3) { (parser) throws(PredicateFormatError) in
            try parser.parseUnary()
        }
    }

    private mutating func parseUnary() throws(PredicateFormatError) -> Node {
        guard isSymbol(.minus) else { return try parsePostfix() }
        let token = advance()
        try enter(at: token)
        defer { depth -= 1 }
        guard canStartExpression(current) else {
            throw error(.syntax, "expected a value after '-'", at: current)
        }
        // A signed literal is read whole, so the most negative integer stays an integer.
        if case .number = current.kind, !isSymbol(.dot, peek(1)) {
            return .expression(.constant(try numberValue(advance(), negative: true)))
        }
        let operandNode = try parseUnary()
        let operand = try operand(operandNode, of: token)
        return .expression(.negation(of: operand))
    }

    private mutating func parsePostfix() throws(PredicateFormatError) -> Node {
        var node = try parsePrimary()
        while true {
            if isSymbol(.openBracket) {
                throw error(
                    .unsupported,
                    "index expressions such as 'array[0]', '[FIRST]', '[LAST]' and '[SIZE]' are not supported",
                    at: current)
            }
            guard isSymbol(.dot) else { return node }
            let dot = current
            let base = try operand(node, of: dot)
            var path: [FormatExpression.KeyPathComponent] = []
            while isSymbol(.dot) {
                advance()
                path.append(contentsOf: try parseKeyPathComponent())
            }
            node = .expression(.member(of: base, path: path))
        }
    }

    private mutating func parseKeyPathComponent() throws(PredicateFormatError)
        -> [FormatExpression.KeyPathComponent]
    {
        let token = advance()
        switch token.kind {
        case .identifier(let name): return [.key(name)]
        case .collectionOperator(let name): return [.collection(try collectionOperator(name, at: token))]
        case .keyPathArgument(let components): return components
        case .keyword(let keyword):
            throw error(
                .syntax, "'\(keyword.rawValue)' is a reserved word; escape it with '#' to use it as a key", at: token)
        default:
            throw error(.syntax, "expected a key after '.', found \(token.quoted)", at: token)
        }
    }

    private func collectionOperator(_ name: String, at token: PredicateFormatToken) throws(PredicateFormatError)
        -> FormatExpression.CollectionOperator
    {
        guard let op = FormatExpression.CollectionOperator(rawValue: name) else {
            throw error(
                .unsupported, "unsupported collection operator '@\(name)' (supported: @count, @sum, @avg, @min, @max)",
                at: token)
        }
        return op
    }

    private mutating func parsePrimary() throws(PredicateFormatError) -> Node {
        let token = current
        switch token.kind {
        case .symbol(.openParenthesis):
            advance()
            try enter(at: token)
            defer { depth -= 1 }
            guard canStartPredicate(current) else {
                throw error(.syntax, "expected a predicate or a value after '('", at: current)
            }
            let node = try parseOr()
            try expect(.closeParenthesis, "to close the '('", opener: token)
            return node
        case .symbol(.openBrace):
            return .expression(try parseAggregate())
        case .number:
            advance()
            return .expression(.constant(try numberValue(token, negative: false)))
        case .string(let text):
            advance()
            return .expression(.constant(.string(text)))
        case .value(let value, _):
            advance()
            return .expression(.constant(value))
        case .keyPathArgument(let components):
            advance()
            return .expression(.keyPath(components))
        case .keyword(.null), .keyword(.nil):
            advance()
            return .expression(.constant(.null))
        case .keyword(.true), .keyword(.yes):
            advance()
            return .expression(.constant(.bool(true)))
        case .keyword(.false), .keyword(.no):
            advance()
            return .expression(.constant(.bool(false)))
        case .keyword(.self):
            advance()
            return .expression(.evaluatedObject)
        case .keyword(.subquery):
            return .expression(try parseSubquery())
        case .keyword(.cast):
            return .expression(try parseCast())
        case .variable(let name):
            advance()
            if isSymbol(.colonEqual) {
                throw error(.unsupported, "assignment expressions ('$x := …') are not supported", at: current)
            }
            return .expression(.variable(name))
        case .collectionOperator(let name):
            advance()
            return .expression(.keyPath([.collection(try collectionOperator(name, at: token))]))
        case .identifier(let name):
            advance()
            if name.uppercased() == "FUNCTION", isSymbol(.openParenthesis) {
                return .expression(try parseMethod(at: token))
            }
            if isSymbol(.openParenthesis) || isSymbol(.colon) {
                return .expression(try parseFunction(name, at: token))
            }
            return .expression(.keyPath([.key(name)]))
        default:
            throw error(.syntax, "expected a value, found \(token.quoted)", at: token)
        }
    }

    private func numberValue(_ token: PredicateFormatToken, negative: Bool) throws(PredicateFormatError)
        -> PredicateValue
    {
        guard case .number(let text, let radix, let isFloat) = token.kind else {
            throw error(.syntax, "expected a number", at: token)  // safe: callers pass number tokens
        }
        let sign = negative ? "-" : ""
        if isFloat {
            guard let value = Double(sign + text) else {
                throw error(.syntax, "invalid number '\(abbreviated(text))'", at: token)
            }
            return .double(value)
        }
        if radix != 10 {
            guard let magnitude = UInt64(text, radix: radix) else {
                throw error(.syntax, "integer literal '\(abbreviated(text))' does not fit in 64 bits", at: token)
            }
            if negative, magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            guard let value = Int64(exactly: magnitude) else {
                throw error(
                    .syntax, "integer literal '\(abbreviated(text))' does not fit in a signed 64-bit integer", at: token
                )
            }
            return .integer(negative ? -value : value)
        }
        if let value = Int64(sign + text) { return .integer(value) }
        guard let value = Double(sign + text) else {
            throw error(.syntax, "invalid number '\(abbreviated(text))'", at: token)
        }
        return .double(value)
    }

    /// Parses `, expression` pairs until `)`, after the opening parenthesis and a first element.
    private mutating func parseArguments(closing context: String, opener: PredicateFormatToken? = nil)
        throws(PredicateFormatError)
        -> [FormatExpression]
    {
        var arguments: [FormatExpression] = []
        while isSymbol(.comma) {
            let comma = advance()
            arguments.append(try parseExpressionOperand(after: comma))
        }
        try expect(.closeParenthesis, context, opener: opener)
        return arguments
    }

    private mutating func parseExpressionOperand(after token: PredicateFormatToken) throws(PredicateFormatError)
        -> FormatExpression
    {
        guard canStartExpression(current) else {
            throw error(.syntax, "expected a value after \(token.quoted), found \(current.quoted)", at: current)
        }
        let start = current
        guard case .expression(let expression) = try parseAdditive() else {
            throw error(.syntax, "expected a value after \(token.quoted), found a predicate", at: start)
        }
        return expression
    }

    private mutating func parseAggregate() throws(PredicateFormatError) -> FormatExpression {
        let open = advance()
        try enter(at: open)
        defer { depth -= 1 }
        var elements: [FormatExpression] = []
        if !isSymbol(.closeBrace) {
            elements.append(try parseExpressionOperand(after: open))
            while isSymbol(.comma) {
                let comma = advance()
                elements.append(try parseExpressionOperand(after: comma))
            }
        }
        try expect(.closeBrace, "to close the '{'", opener: open)
        return .aggregate(of: elements)
    }

    private mutating func parseSubquery() throws(PredicateFormatError) -> FormatExpression {
        let keyword = advance()
        try enter(at: keyword)
        defer { depth -= 1 }
        try expect(.openParenthesis, "after 'SUBQUERY'")
        let collection = try parseExpressionOperand(after: keyword)
        try expect(.comma, "after the collection of SUBQUERY")
        guard case .variable(let variable) = current.kind else {
            throw error(.syntax, "expected a variable such as '$x' in SUBQUERY, found \(current.quoted)", at: current)
        }
        advance()
        try expect(.comma, "after the variable of SUBQUERY")
        guard canStartPredicate(current) else {
            throw error(.syntax, "expected the predicate of SUBQUERY, found \(current.quoted)", at: current)
        }
        let node = try parseOr()
        let predicate = try requirePredicate(node)
        try expect(.closeParenthesis, "to close SUBQUERY", opener: keyword)
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    private mutating func parseCast() throws(PredicateFormatError) -> FormatExpression {
        let keyword = advance()
        try enter(at: keyword)
        defer { depth -= 1 }
        try expect(.openParenthesis, "after 'CAST'")
        let operand = try parseExpressionOperand(after: keyword)
        try expect(.comma, "after the value of CAST")
        let typeToken = advance()
        let type: String
        switch typeToken.kind {
        case .string(let name), .value(.string(let name), _): type = name
        default:
            throw error(
                .syntax, "expected a quoted type name such as 'NSDate' in CAST, found \(typeToken.quoted)",
                at: typeToken)
        }
        try expect(.closeParenthesis, "to close CAST", opener: keyword)
        if case .constant(let value) = operand, type != "NSDate", CastFolding.foldingTypes.contains(type),
            CastFolding.fold(value, to: type) == nil
        {
            throw error(.syntax, "cannot convert \(value.abbreviatedDescription) to \(type)", at: keyword)
        }
        return .cast(operand, to: type)
    }

    private mutating func parseFunction(_ name: String, at nameToken: PredicateFormatToken) throws(PredicateFormatError)
        -> FormatExpression
    {
        var spelled = name
        while isSymbol(.colon) {
            advance()
            spelled += ":"
            if case .identifier(let part) = current.kind, isSymbol(.colon, peek(1)) {
                advance()
                spelled += part
            }
        }
        try enter(at: nameToken)
        defer { depth -= 1 }
        let open = current
        try expect(.openParenthesis, "after the function name '\(spelled)'")
        var arguments: [FormatExpression] = []
        if !isSymbol(.closeParenthesis) {
            arguments.append(try parseExpressionOperand(after: open))
            arguments += try parseArguments(closing: "to close the arguments of '\(spelled)'")
        } else {
            advance()
        }
        switch FormatExpression.resolveFunction(spelled, argumentCount: arguments.count) {
        case .success(let canonical):
            return .function(canonical, arguments)
        case .failure(let problem):
            throw error(problem.isUnknown ? .unsupported : .syntax, problem.message, at: nameToken)
        }
    }

    private mutating func parseMethod(at keyword: PredicateFormatToken) throws(PredicateFormatError)
        -> FormatExpression
    {
        try enter(at: keyword)
        defer { depth -= 1 }
        let open = advance()
        let receiver = try parseExpressionOperand(after: open)
        try expect(.comma, "after the receiver of FUNCTION")
        let selectorToken = advance()
        let selector: String
        switch selectorToken.kind {
        case .string(let name), .value(.string(let name), _): selector = name
        default:
            throw error(
                .syntax, "expected a quoted method name in FUNCTION, found \(selectorToken.quoted)", at: selectorToken)
        }
        let arguments = try parseArguments(closing: "to close FUNCTION", opener: keyword)
        return .method(receiver: receiver, selector: selector, arguments: arguments)
    }
}

extension FormatPredicate {
    /// How deep parentheses, `NOT`s, operators, function calls and aggregates may nest before parsing fails
    /// with ``PredicateFormatError/Kind/nestingTooDeep`` (hostile input cannot exhaust the stack).
    public static let maximumNestingDepth = 100
}
