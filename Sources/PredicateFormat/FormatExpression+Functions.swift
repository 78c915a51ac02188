extension FormatExpression {
    /// The built-in functions the parser accepts, by Foundation's names; a name's colons count its
    /// arguments (`now` takes none, `lowercase:` one, `add:to:` two).
    ///
    /// A format string may write a one-or-more-argument function with or without the colons:
    /// `lowercase:(name)` and `lowercase(name)` both parse to ``function(_:_:)`` named `"lowercase:"`.
    public static let knownFunctions: [String] = [
        "now", "random",
        "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:",
        "sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "abs:", "trunc:", "random:",
        "uppercase:", "lowercase:", "canonical:", "noindex:", "onesComplement:",
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
        "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
        "distanceToLocation:fromLocation:",
    ]

    /// Why a function call does not resolve.
    struct FunctionProblem: Error {
        var message: String
        var isUnknown: Bool
    }

    /// The number of arguments a function name takes: its colons.
    static func arity(of name: String) -> Int {
        name.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
    }

    /// The canonical name of a call spelled `spelled` with `argumentCount` arguments.
    static func resolveFunction(_ spelled: String, argumentCount: Int) -> Result<String, FunctionProblem> {
        if knownFunctions.contains(spelled), arity(of: spelled) == argumentCount {
            return .success(spelled)
        }
        let base = spelled.prefix { $0 != ":" }
        let candidates = knownFunctions.filter { $0.prefix { $0 != ":" } == base }
        if spelled == base || knownFunctions.contains(spelled),
            let match = candidates.first(where: { arity(of: $0) == argumentCount })
        {
            return .success(match)
        }
        guard !candidates.isEmpty else {
            return .failure(
                FunctionProblem(
                    message:
                        "unknown function '\(abbreviated(spelled))'; custom functions need FUNCTION(receiver, 'method', …)",
                    isUnknown: true))
        }
        let expected = candidates.map { "'\($0)' takes \(arity(of: $0))" }.joined(separator: ", ")
        return .failure(
            FunctionProblem(
                message: "wrong number of arguments to '\(spelled)': \(argumentCount) given; \(expected)",
                isUnknown: false))
    }
}
