import Foundation
import PredicateFormat
import Testing

/// Random byte strings and random edits of valid format strings: parsing either succeeds (and then
/// round-trips) or throws a ``PredicateFormatError`` pointing inside the string; it never crashes or hangs.
@Suite("Predicate format hostile input")
struct PredicateFormatHostileInputTests {
    static let pieces = [
        "(", ")", "{", "}", "[", "]", "'", "\"", "\\", "%", "%@", "%K", "%d", "%%", "$", "#", "@", "@count", ".",
        ",", ":", "=", "==", "!", "<", ">", "&&", "||", "-", "**", "*", "+", "/", " ", "\n", "0x", "1e", "9", "é",
        "😀", "AND", "OR", "NOT", "ANY", "NONE", "SUBQUERY", "CAST", "FUNCTION", "BETWEEN", "[cd]", "nil", "SELF",
        "\u{0}", "\u{301}",
    ]

    /// Parses `format` with `arguments`, checks the outcome, and returns whether it parsed.
    @discardableResult
    func check(_ format: String, _ arguments: [PredicateValue], context: @autoclosure () -> String) -> Bool {
        do {
            let predicate = try FormatPredicate(format: format, argumentArray: arguments)
            let printed = predicate.description
            do {
                let reparsed = try FormatPredicate(format: printed)
                #expect(reparsed == predicate, "\(context()): \(format.debugDescription) printed \(printed)")
            } catch {
                Issue.record("\(context()): \(format.debugDescription) printed \(printed), which fails: \(error)")
            }
            return true
        } catch {
            let lines = format.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(error.line >= 1 && error.line <= lines.count, "\(context()): \(error)")
            if error.line >= 1 && error.line <= lines.count {
                let length = String(String.UnicodeScalarView(lines[error.line - 1])).count
                #expect(error.column >= 1 && error.column <= length + 1, "\(context()): \(error)")
            }
            #expect(!error.message.isEmpty)
            return false
        }
    }

    func arguments(_ random: inout SeededGenerator) -> [PredicateValue] {
        let choices: [PredicateValue] = ["name", 3, 1.5, nil, [1, 2], .object(ObjectReference("o")), true, "a b"]
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in
            choices[Int.random(in: 0...choices.count - 1, using: &random)]
        }
    }

    @Test func randomBytesNeverCrash() {
        var random = SeededGenerator(seed: 2026)
        let start = ContinuousClock.now
        for iteration in 0..<3_000 {
            let count = Int.random(in: 0...60, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let format = String(decoding: bytes, as: UTF8.self)
            check(format, arguments(&random), context: "bytes #\(iteration)")
        }
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test func randomPiecesNeverCrash() {
        var random = SeededGenerator(seed: 17)
        let start = ContinuousClock.now
        var parsed = 0
        for iteration in 0..<5_000 {
            let count = Int.random(in: 1...25, using: &random)
            let format = (0..<count).map { _ in
                Bool.random(using: &random)
                    ? PredicateFormatHostileInputTests.pieces.randomElement(using: &random) ?? ""
                    : ["a", "b.c", "1", "'x'", "$V", " == ", " AND "].randomElement(using: &random) ?? ""
            }.joined()
            if check(format, arguments(&random), context: "pieces #\(iteration)") { parsed += 1 }
        }
        #expect(parsed > 0)
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test func mutationsOfValidStringsNeverCrash() {
        var random = SeededGenerator(seed: 99)
        let valid = PredicateFormatParserTests.cases.map(\.format)
        let start = ContinuousClock.now
        var parsed = 0
        for iteration in 0..<5_000 {
            var scalars = Array(valid[Int.random(in: 0...valid.count - 1, using: &random)].unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0...scalars.count, using: &random)
                switch Int.random(in: 0...3, using: &random) {
                case 0 where position < scalars.count:
                    scalars.remove(at: position)
                case 1:
                    let piece = PredicateFormatHostileInputTests.pieces.randomElement(using: &random) ?? ""
                    scalars.insert(contentsOf: piece.unicodeScalars, at: position)
                case 2 where position < scalars.count:
                    let end = min(scalars.count, position + Int.random(in: 1...8, using: &random))
                    scalars.insert(contentsOf: scalars[position..<end], at: position)
                default:
                    scalars.removeSubrange(position...)
                }
            }
            var format = String.UnicodeScalarView()
            format.append(contentsOf: scalars)
            if check(String(format), arguments(&random), context: "mutation #\(iteration)") { parsed += 1 }
        }
        #expect(parsed > 0)
        #expect(ContinuousClock.now - start < .seconds(20))
    }
}
