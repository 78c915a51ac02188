import PredicateFormat
import Testing

/// `replacingExpressions(_:)` and `comparisons`: the walks the runtime uses to bind `$FETCH_SOURCE` and the generator
/// uses to type a template's variables.
@Suite struct PredicateFormatRewritingTests {
    @Test func replacesOutermostFirstAndNormalizes() throws {
        let predicate = try FormatPredicate(
            format: "team == $SOURCE AND name == $SOURCE.name AND SUBQUERY(members, $m, $m.age > $MIN).@count > 0")
        let rewritten = predicate.replacingExpressions { expression in
            switch expression {
            case .member(.variable("SOURCE"), [.key("name")]): return .constant("Red")
            case .variable("SOURCE"): return .evaluatedObject
            case .variable("MIN"): return .constant(30)
            default: return nil
            }
        }
        #expect(
            rewritten.description
                == #"team == SELF AND name == "Red" AND SUBQUERY(members, $m, $m.age > 30).@count > 0"#)
        // The result parses back to itself, as every parsed predicate does.
        #expect(try FormatPredicate(format: rewritten.description) == rewritten)
        #expect(rewritten.variables.isEmpty)
    }

    @Test func aggregatesOfConstantsBecomeConstants() throws {
        let predicate = try FormatPredicate(format: "age BETWEEN {$LOW, $HIGH}")
        let rewritten = predicate.replacingExpressions { expression in
            if case .variable(let name) = expression { return .constant(name == "LOW" ? 1 : 9) }
            return nil
        }
        #expect(rewritten == (try FormatPredicate(format: "age BETWEEN {1, 9}")))
    }

    @Test func comparisonsIncludeThoseInSubqueries() throws {
        let predicate = try FormatPredicate(
            format: "NOT (a == $A OR b < 2) AND SUBQUERY(items, $i, $i.price > $P AND $i.n == 1).@count == 0")
        let operands = predicate.comparisons.map { "\($0.left) \($0.operator.rawValue) \($0.right)" }
        #expect(
            operands == [
                "a == $A", "b < 2", "SUBQUERY(items, $i, $i.price > $P AND $i.n == 1).@count == 0", "$i.price > $P",
                "$i.n == 1",
            ])
    }
}
