import Foundation
import PredicateFormat
import Testing

/// Malformed format strings: each error's kind, exact column and message, and its printed forms.
@Suite("Predicate format errors")
struct PredicateFormatErrorTests {
    /// A malformed format string, where its error points, and what the message starts with.
    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        var format: String
        var arguments: [any PredicateValueConvertible] = []
        var column: Int
        var message: String
        var kind: PredicateFormatError.Kind = .syntax
        var testDescription: String { format }
    }

    static let cases: [Case] = [
        Case(format: "", column: 1, message: "expected a predicate, found the end of the format string"),
        Case(format: "   ", column: 4, message: "expected a predicate, found the end of the format string"),
        Case(format: "department == ", column: 15, message: "expected a value after '=='"),
        Case(format: "a = ", column: 5, message: "expected a value after '='"),
        Case(format: "a BEGINSWITH", column: 13, message: "expected a value after 'BEGINSWITH'"),
        Case(format: "a == AND", column: 6, message: "expected a value after '=='"),
        Case(format: "name == 'abc", column: 9, message: "unterminated string literal"),
        Case(format: "name == \"abc\\\"", column: 9, message: "unterminated string literal"),
        Case(format: "a == 1 AND", column: 11, message: "expected a predicate after 'AND'"),
        Case(format: "a == 1 OR OR b == 1", column: 11, message: "expected a predicate after 'OR'"),
        Case(format: "NOT", column: 4, message: "expected a predicate after 'NOT'"),
        Case(format: "(a == 1", column: 8, message: "expected ')' to close the '(' at column 1"),
        Case(format: "a == 1)", column: 7, message: "unexpected ')'"),
        Case(format: "a == 1 b", column: 8, message: "unexpected 'b'"),
        Case(format: "a", column: 2, message: "expected a comparison operator, found the end of the format string"),
        Case(format: "isActive AND b == 1", column: 10, message: "expected a comparison operator, found 'AND'"),
        Case(
            format: "id NOT IN {1}", column: 4,
            message: "expected a comparison operator, found 'NOT' (to negate a comparison, write 'NOT (a IN b)')"),
        Case(format: "a == 1 == 2", column: 8, message: "a predicate cannot be compared with '=='"),
        Case(format: "(a == 1) + 2 == 3", column: 10, message: "a predicate cannot be an operand of '+'"),
        Case(format: "a ==[x] 1", column: 6, message: "unknown comparison option 'x' (the options are c, d and n)"),
        Case(format: "a ==[c 1", column: 8, message: "expected ']' to close the options opened at column 5"),
        Case(format: "a[0] == 1", column: 2, message: "index expressions", kind: .unsupported),
        Case(format: "a UTI-CONFORMS-TO 'x'", column: 3, message: "the UTI-CONFORMS-TO", kind: .unsupported),
        Case(format: "foo(1) == 1", column: 1, message: "unknown function 'foo'", kind: .unsupported),
        Case(format: "lowercase:(a, b) == 1", column: 1, message: "wrong number of arguments to 'lowercase:'"),
        Case(format: "a.@foo == 1", column: 3, message: "unsupported collection operator '@foo'", kind: .unsupported),
        Case(format: "$x := 1", column: 4, message: "assignment expressions", kind: .unsupported),
        Case(format: "a == 1 ? 2", column: 8, message: "unexpected character '?'"),
        Case(format: "a == 1 & b == 2", column: 8, message: "unexpected '&'; did you mean '&&'?"),
        Case(format: "a.in == 1", column: 3, message: "'IN' is a reserved word; escape it with '#'"),
        Case(format: "a. == 1", column: 4, message: "expected a key after '.', found '=='"),
        Case(format: "a == 12abc", column: 8, message: "invalid character 'a' in a number"),
        Case(format: "a == 0x", column: 8, message: "expected digits after '0x'"),
        Case(format: "a == 1e", column: 7, message: "expected digits in the exponent of a number"),
        Case(format: "a == 0xFFFFFFFFFFFFFFFFFF", column: 6, message: "integer literal"),
        Case(format: "a == 0x8000000000000000", column: 6, message: "integer literal"),
        Case(format: #"a == 'x\q'"#, column: 8, message: "invalid escape '\\q'"),
        Case(format: #"a == '\u12'"#, column: 7, message: "expected 4 hexadecimal digits"),
        Case(format: #"a == '\uD800'"#, column: 7, message: "unpaired UTF-16 surrogate"),
        Case(format: "a == #", column: 7, message: "expected a name after '#'"),
        Case(format: "a == $", column: 7, message: "expected a variable name after '$'"),
        Case(format: "a == @", column: 7, message: "expected a collection operator name after '@'"),
        Case(format: "a BETWEEN {1, 2, 3}", column: 11, message: "BETWEEN needs two bounds"),
        Case(format: "a IN {1, }", column: 10, message: "expected a value after ','"),
        Case(format: "a IN {1 2}", column: 9, message: "expected '}' to close the '{' at column 6"),
        Case(format: "SUBQUERY(a, x, x == 1).@count > 0", column: 13, message: "expected a variable such as '$x'"),
        Case(format: "SUBQUERY(a, $x, $x).@count > 0", column: 19, message: "expected a comparison operator"),
        Case(format: "CAST(a, NSDate) > 1", column: 9, message: "expected a quoted type name"),
        Case(format: "id == CAST('nope', 'NSUUID')", column: 7, message: "cannot convert \"nope\" to NSUUID"),
        Case(format: "a == CAST('12abc', 'NSDecimalNumber')", column: 6, message: "cannot convert \"12abc\""),
        Case(format: "a == CAST('====', 'NSData')", column: 6, message: "cannot convert \"====\" to NSData"),
        Case(
            format: "a == CAST('\(String(repeating: "9", count: 300))', 'NSDecimalNumber')", column: 6,
            message: "cannot convert \"\(String(repeating: "9", count: 39))… to NSDecimalNumber"),
        Case(format: "FUNCTION(SELF, name) == 1", column: 16, message: "expected a quoted method name"),
        Case(format: "a == %y", column: 6, message: "unknown format specifier '%y'"),
        Case(format: "a == %", column: 6, message: "incomplete format specifier '%'"),
        Case(format: "ANY", column: 4, message: "expected a comparison after 'ANY'"),
        Case(format: "ANY (a == 1)", column: 5, message: "expected a comparison after 'ANY', found a predicate"),
        Case(format: "a == (b == 1)", column: 6, message: "expected a value after '==', found a predicate"),
        Case(format: "- == 1", column: 3, message: "expected a value after '-'"),
        Case(format: "a + == 1", column: 5, message: "expected a value after '+'"),
        Case(format: "é😀 == 1", column: 2, message: "unexpected character '😀'"),
        Case(format: "'e\u{301}' == ", column: 8, message: "expected a value after '=='"),
        // Mistakes found in public Core Data code: BETWEEN written as SQL's, a misspelled operator, a bitwise
        // operator, another store's function, and values interpolated into the format string instead of passed
        // as arguments (an apostrophe in a name, an unquoted UUID or date).
        Case(
            format: "date BETWEEN %@ AND %@", arguments: [Date(), Date()], column: 23,
            message: "expected a comparison operator, found the end of the format string"),
        Case(
            format: "(firstName BEGINSWITH[cd] $letter) OR (lastName BEGINWITH[cd] $letter)", column: 49,
            message: "expected ')' to close the '(' at column 39, found 'BEGINWITH'"),
        Case(format: "NOT ((mediaSubtype & %d) != 0)", arguments: [1], column: 20, message: "unexpected '&'"),
        Case(format: "ALL tokenize(&@, 'Cdl') IN allTokens", column: 14, message: "unexpected '&'"),
        Case(format: "name == 'O'Brien'", column: 17, message: "unterminated string literal"),
        Case(format: "id == E621E1F8-C36C-495A-93FC-0C247A3E6E5F", column: 24, message: "invalid character 'A'"),
        Case(format: "date > 2024-01-01 10:00:00 +0000", column: 19, message: "unexpected '10'"),
        Case(format: "name == %@", column: 9, message: "missing argument for '%@'", kind: .argument),
        Case(format: "name == %@", arguments: ["a", "b"], column: 11, message: "too many arguments", kind: .argument),
        Case(format: "%K == %@", arguments: ["first name", "x"], column: 1, message: "'%K' argument", kind: .argument),
    ]

    @Test(arguments: cases)
    func reportsColumnAndMessage(_ testCase: Case) throws {
        let error = try #require(
            catching { try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments) })
        #expect(error.column == testCase.column)
        #expect(error.line == 1)
        #expect(error.message.hasPrefix(testCase.message), "\(error.message)")
        #expect(error.kind == testCase.kind)
        #expect(error.format == testCase.format)
    }

    @Test func printedForms() throws {
        let error = try #require(catching { try FormatPredicate(format: "department == ") })
        #expect(error.description == "predicate:1:15: error: expected a value after '=='")
        #expect(error.localizedDescription == error.description)
        #expect(error.errorDescription == error.description)
        #expect(error.detailedDescription == "\(error.description)\ndepartment == \n              ^")
    }

    @Test func linesAndColumnsAcrossLineBreaks() throws {
        let error = try #require(catching { try FormatPredicate(format: "a == 1 AND\n  b ==") })
        #expect((error.line, error.column) == (2, 7))
        #expect(error.description == "predicate:2:7: error: expected a value after '=='")
    }

    @Test func deepParenthesesAreRejected() throws {
        let depth = FormatPredicate.maximumNestingDepth
        let fine = String(repeating: "(", count: depth - 1) + "a == 1" + String(repeating: ")", count: depth - 1)
        #expect(throws: Never.self) { try FormatPredicate(format: fine) }
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        let error = try #require(catching { try FormatPredicate(format: deep) })
        #expect(error.kind == .nestingTooDeep)
        #expect(error.column == depth + 1)
    }

    @Test(arguments: [
        String(repeating: "NOT ", count: 10_000) + "a == 1",
        String(repeating: "!", count: 10_000) + "a == 1",
        "a == " + String(repeating: "-", count: 10_000) + "1",
        "a == " + String(repeating: "1 + ", count: 10_000) + "1",
        "a == " + String(repeating: "2 ** ", count: 10_000) + "1",
        "a == " + String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000),
        "a == " + String(repeating: "abs:(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
        String(repeating: "SUBQUERY(a, $x, ", count: 10_000) + "TRUEPREDICATE" + String(repeating: ")", count: 10_000),
        "a == " + String(repeating: "CAST(", count: 10_000) + "1" + String(repeating: ", 'NSNumber')", count: 10_000),
    ])
    func deepNestingIsRejected(_ format: String) throws {
        let error = try #require(catching { try FormatPredicate(format: format) })
        #expect(error.kind == .nestingTooDeep)
    }

    @Test func longFlatInputsParse() throws {
        let chain = (0..<5_000).map { "a\($0) == \($0)" }.joined(separator: " AND ")
        guard case .and(let operands) = try FormatPredicate(format: chain) else {
            Issue.record("expected one AND")
            return
        }
        #expect(operands.count == 5_000)
        let list = "a IN {" + (0..<20_000).map(String.init).joined(separator: ", ") + "}"
        #expect(try FormatPredicate(format: list).description == list)
        let digits = String(repeating: "9", count: 5_000)
        #expect(try FormatPredicate(format: "a == \(digits)").description == "a == 1e999")
    }
}
