import Foundation
import PredicateFormat
import Testing

/// A deterministic pseudo-random generator (SplitMix64), so every run and every failure is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random trees in the parser's normalized form (see ``FormatExpression``), for the round-trip property.
struct PredicateTreeGenerator {
    var random: SeededGenerator

    static let keys = [
        "name", "age", "department", "size", "in", "first", "self", "count", "length", "café", "_x1", "FUNCTION", "now",
    ]
    static let variables = ["X", "low", "FETCH_SOURCE", "AND", "e"]
    static let stringPieces = [
        "a", "Ada", "\"", "'", "\\", "\n", "\t", "\u{0}", "\u{7F}", "é", "e\u{301}", "😀", " ", "%@", "$X", "#", "*?",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ options: [T]) -> T { options[int(0...options.count - 1)] }

    mutating func string() -> String {
        (0..<int(0...5)).map { _ in pick(PredicateTreeGenerator.stringPieces) }.joined()
    }

    mutating func double() -> Double {
        switch int(0...4) {
        case 0: return Double(int(-1000...1000)) / 8
        case 1:
            return pick([0.0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e-300])
        default:
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 1.5
        }
    }

    mutating func value(depth: Int) -> PredicateValue {
        switch int(0...(depth > 0 ? 11 : 10)) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .integer(pick([0, 1, -1, Int64.min, Int64.max, Int64(int(-100_000...100_000))]))
        case 3: return .double(double())
        case 4:
            let extremes = ["1e127", "-1e-127", "0.5", "9999999999999999999999999999999999999"]
            return .decimal(
                chance(80)
                    ? Decimal(int(-100_000...100_000)) / 100
                    : chance(50) ? .greatestFiniteMagnitude : Decimal(string: pick(extremes)) ?? 0)
        case 5, 6: return .string(string())
        case 7:
            let seconds = double()
            return .date(Date(timeIntervalSinceReferenceDate: seconds.isFinite ? seconds : 0))
        case 8:
            let (high, low) = (random.next(), random.next())
            let bytes = (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> (8 * UInt64($0 % 8))) }
            return .uuid(
                UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    )))
        case 9: return .data(Data((0..<int(0...6)).map { _ in UInt8(int(0...255)) }))
        case 10: return .object(ObjectReference("x-coredata://S/E/p\(int(1...99))"))
        default: return .array((0..<int(0...3)).map { _ in value(depth: depth - 1) })
        }
    }

    mutating func path() -> [FormatExpression.KeyPathComponent] {
        (0..<int(1...3)).map { _ in
            chance(20)
                ? .collection(pick(FormatExpression.CollectionOperator.allCases))
                : .key(pick(PredicateTreeGenerator.keys))
        }
    }

    /// An expression with no constant at the top (for `CAST` operands and aggregates, which fold constants).
    mutating func nonConstant(depth: Int) -> FormatExpression {
        while true {
            let candidate = expression(depth: depth)
            if case .constant = candidate { continue }
            return candidate
        }
    }

    mutating func expression(depth: Int) -> FormatExpression {
        let choice = depth > 0 ? int(0...13) : int(0...3)
        switch choice {
        case 0: return .constant(value(depth: 2))
        case 1: return .keyPath(path())
        case 2: return .variable(pick(PredicateTreeGenerator.variables))
        case 3: return .evaluatedObject
        case 4:
            let base: FormatExpression
            switch int(0...5) {
            case 0: base = .variable(pick(PredicateTreeGenerator.variables))
            case 1: base = .constant(value(depth: 1))
            case 2: base = .function("now", [])
            case 3: base = .arithmetic(.add, .keyPath(path()), .constant(1))
            case 4: base = .cast(.keyPath(path()), type: "NSNumber")
            default:
                base = .subquery(
                    collection: .keyPath(path()), variable: "e", predicate: predicate(depth: depth - 1))
            }
            return .member(base, path())
        case 5:
            var elements = (0..<int(0...3)).map { _ in expression(depth: depth - 1) }
            elements.insert(nonConstant(depth: depth - 1), at: int(0...elements.count))
            return .aggregate(elements)
        case 6, 7:
            return .arithmetic(
                pick(FormatExpression.ArithmeticOperator.allCases), expression(depth: depth - 1),
                expression(depth: depth - 1))
        case 8:
            let name = pick(FormatExpression.knownFunctions)
            let arity = name.filter { $0 == ":" }.count
            return .function(name, (0..<arity).map { _ in expression(depth: depth - 1) })
        case 9:
            return .method(
                receiver: expression(depth: depth - 1), selector: pick(["score", "scoreFor:", "a:b:"]),
                arguments: (0..<int(0...2)).map { _ in expression(depth: depth - 1) })
        case 10:
            return chance(50)
                ? .cast(nonConstant(depth: depth - 1), type: pick(["NSDate", "NSNumber", "NSString"]))
                : .cast(.constant(value(depth: 1)), type: pick(["NSNumber", "NSString"]))
        case 11:
            return .subquery(
                collection: expression(depth: depth - 1), variable: pick(PredicateTreeGenerator.variables),
                predicate: predicate(depth: depth - 1))
        default:
            return expression(depth: 0)
        }
    }

    mutating func comparison(depth: Int) -> FormatComparison {
        let op = pick(FormatComparison.Operator.allCases)
        var right = expression(depth: depth)
        if op == .between {
            right =
                chance(50)
                ? .constant(.array([value(depth: 0), value(depth: 0)]))
                : .aggregate([
                    .variable("low"), expression(depth: 0),
                ])
        }
        var options: FormatComparison.Options = []
        if chance(30) { options.insert(.caseInsensitive) }
        if chance(30) { options.insert(.diacriticInsensitive) }
        if chance(10) { options.insert(.normalized) }
        return FormatComparison(
            expression(depth: depth), op, right, modifier: pick(FormatComparison.Modifier.allCases), options: options)
    }

    mutating func predicate(depth: Int) -> FormatPredicate {
        switch depth > 0 ? int(0...7) : int(0...3) {
        case 0: return chance(50) ? .truePredicate : .falsePredicate
        case 1, 2, 3: return .comparison(comparison(depth: max(depth - 1, 0)))
        case 4: return .not(predicate(depth: depth - 1))
        case 5, 6:
            let operands = (0..<int(2...4)).map { _ in predicate(depth: depth - 1) }
            return chance(50) ? .and(operands) : .or(operands)
        default: return predicate(depth: 0)
        }
    }
}

/// parse(print(tree)) == tree over random trees in normal form, from fixed seeds.
@Suite("Predicate format round trip")
struct PredicateFormatRoundTripTests {
    @Test(arguments: 1...8)
    func printedPredicatesParseBack(seed: UInt64) throws {
        var generator = PredicateTreeGenerator(random: SeededGenerator(seed: seed))
        for iteration in 0..<300 {
            let predicate = generator.predicate(depth: 4)
            let printed = predicate.description
            do {
                let reparsed = try FormatPredicate(format: printed)
                #expect(reparsed == predicate, "seed \(seed), iteration \(iteration): \(printed)\n→ \(reparsed)")
                #expect(reparsed.description == printed, "seed \(seed), iteration \(iteration)")
            } catch {
                Issue.record("seed \(seed), iteration \(iteration): \(printed)\n\(error.detailedDescription)")
            }
        }
    }

    @Test(arguments: 1...4)
    func printedExpressionsParseBack(seed: UInt64) throws {
        var generator = PredicateTreeGenerator(random: SeededGenerator(seed: seed &* 7919))
        for iteration in 0..<300 {
            let expression = generator.expression(depth: 4)
            let printed = expression.description
            do {
                let reparsed = try FormatExpression(format: printed)
                #expect(reparsed == expression, "seed \(seed), iteration \(iteration): \(printed)\n→ \(reparsed)")
            } catch {
                Issue.record("seed \(seed), iteration \(iteration): \(printed)\n\(error.detailedDescription)")
            }
        }
    }

    /// Found by fuzzing (`fuzz-predicate-format`): `-x` parses to `0 - x`, which printed as `0 - (0 - (…))` nested
    /// twice as deep as the input, so a chain of 58 minus signs printed a string past the nesting limit. It prints as
    /// `-x` again, as deep as the input; a written `0 - x` and `0 - 5` keep their trees.
    @Test func negationsPrintAsDeepAsTheyWereWritten() throws {
        for text in [
            "Na=" + String(repeating: "-", count: 58) + "LUE", "a == 0 - b", "a == -b * c", "a == -(b + c)",
            "a == -(-b)", "a == 0 - 5", "a == -b ** 2", "a == (-b).c", "a == 2 - -b",
            "a == " + String(repeating: "-", count: FormatPredicate.maximumNestingDepth - 1) + "b",
        ] {
            let predicate = try FormatPredicate(format: text)
            let reparsed = try FormatPredicate(format: predicate.description)
            #expect(reparsed == predicate, "\(text) printed as \(predicate.description)")
        }
        #expect(try FormatPredicate(format: "a == -b").description == "a == -b")
    }

    @Test func generatorIsDeterministic() {
        var first = PredicateTreeGenerator(random: SeededGenerator(seed: 42))
        var second = PredicateTreeGenerator(random: SeededGenerator(seed: 42))
        let a = (0..<20).map { _ in first.predicate(depth: 3).description }
        let b = (0..<20).map { _ in second.predicate(depth: 3).description }
        #expect(a == b)
        var other = PredicateTreeGenerator(random: SeededGenerator(seed: 43))
        #expect((0..<20).map { _ in other.predicate(depth: 3).description } != a)
    }
}
