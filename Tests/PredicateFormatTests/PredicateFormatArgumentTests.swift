import Foundation
import PredicateFormat
import Testing

/// Format arguments of every specifier, `argumentArray`, values of every kind, and substitution variables.
@Suite("Predicate format arguments")
struct PredicateFormatArgumentTests {
    /// The right-hand side of `a == <specifier>` parsed with `argument`.
    func right(_ specifier: String, _ argument: any PredicateValueConvertible) throws -> FormatExpression {
        let predicate = try FormatPredicate(format: "a == \(specifier)", argument)
        guard case .comparison(let comparison) = predicate else {
            Issue.record("not a comparison: \(predicate)")
            return .evaluatedObject
        }
        return comparison.right
    }

    @Test func objectSpecifierTakesEveryKind() throws {
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let data = Data([0, 1, 2, 255])
        let reference = ObjectReference("x-coredata://STORE/Person/p7")
        #expect(try right("%@", "Ada") == .constant("Ada"))
        #expect(try right("%@", 42) == .constant(42))
        #expect(try right("%@", 1.5) == .constant(1.5))
        #expect(try right("%@", true) == .constant(true))
        #expect(try right("%@", PredicateValue.null) == .constant(nil))
        #expect(try right("%@", Optional<String>.none) == .constant(nil))
        #expect(try right("%@", date) == .constant(.date(date)))
        #expect(try right("%@", uuid) == .constant(.uuid(uuid)))
        #expect(try right("%@", data) == .constant(.data(data)))
        #expect(try right("%@", Decimal(string: "12.5") ?? 0) == .constant(.decimal(Decimal(string: "12.5") ?? 0)))
        #expect(try right("%@", [1, 2, 3]) == .constant([1, 2, 3]))
        #expect(try right("%@", Set(["b", "a"])) == .constant(["a", "b"]))
        #expect(try right("%@", reference) == .constant(.object(reference)))
    }

    @Test func printedArgumentsParseBack() throws {
        let values: [any PredicateValueConvertible] = [
            Date(timeIntervalSinceReferenceDate: -12.5), UUID(), Data("hello".utf8), Decimal(string: "-0.125") ?? 0,
            ObjectReference("x-coredata://S/E/p1"), "quote \" backslash \\ newline \n tab \t nul \u{0}", Int64.min,
            Double.infinity, -0.0, 1e-300, PredicateValue.array(["nested", [1, 2]]),
        ]
        for value in values {
            let predicate = try FormatPredicate(format: "a == %@", value)
            #expect(try FormatPredicate(format: predicate.description) == predicate, "\(predicate)")
        }
    }

    @Test func keyPathSpecifier() throws {
        #expect(try FormatPredicate(format: "%K == 1", "name").description == "name == 1")
        #expect(try FormatPredicate(format: "%K.@count > 1", "employees").description == "employees.@count > 1")
        #expect(
            try FormatPredicate(format: "%K == %@", "department.name", "R").description == #"department.name == "R""#)
        #expect(try FormatPredicate(format: "%K == 1", "in").description == "#in == 1")
        #expect(try FormatPredicate(format: "a.%K == 1", "b.c").description == "a.b.c == 1")
        #expect(try FormatPredicate(format: "%K LIKE %@", "firstName", "Adam").description == #"firstName LIKE "Adam""#)
    }

    @Test(arguments: ["%d", "%i", "%ld", "%lld", "%u", "%lu", "%qd", "%hd", "%x", "%o"])
    func integerSpecifiers(_ specifier: String) throws {
        #expect(try right(specifier, 42) == .constant(42))
        #expect(try right(specifier, -7) == .constant(-7))
        #expect(try right(specifier, true) == .constant(1))
        #expect(throws: PredicateFormatError.self) { try right(specifier, "42") }
        #expect(throws: PredicateFormatError.self) { try right(specifier, 4.2) }
    }

    @Test(arguments: ["%f", "%lf", "%e", "%g"])
    func floatingPointSpecifiers(_ specifier: String) throws {
        #expect(try right(specifier, 1.5) == .constant(1.5))
        #expect(try right(specifier, 2) == .constant(2.0))
        #expect(throws: PredicateFormatError.self) { try right(specifier, "1.5") }
    }

    @Test func stringAndCharacterSpecifiers() throws {
        #expect(try right("%s", "abc") == .constant("abc"))
        #expect(throws: PredicateFormatError.self) { try right("%s", 1) }
        #expect(try right("%c", "x") == .constant("x"))
        #expect(try right("%c", 65) == .constant("A"))
        #expect(throws: PredicateFormatError.self) { try right("%c", "xy") }
        #expect(throws: PredicateFormatError.self) { try right("%c", -1) }
    }

    @Test func percentIsLiteralOnlyInStrings() throws {
        #expect(try FormatPredicate(format: "a LIKE '50%%'").description == #"a LIKE "50%%""#)
        #expect(try FormatPredicate(format: "a == '%@'", argumentArray: []).description == #"a == "%@""#)
        let error = try #require(catching { try FormatPredicate(format: "a == %%") })
        #expect(error.column == 6)
        #expect(error.message.contains("literal '%'"))
    }

    @Test func argumentArrayMatchesVariadic() throws {
        let id = "A-1"
        let name = "Ada"
        let format = "(id.length > 0 AND id == %@) OR (name == %@)"
        let variadic = try FormatPredicate(format: format, id, name)
        let array = try FormatPredicate(format: format, argumentArray: [id, name])
        #expect(variadic == array)
        #expect(array.description == #"(id.length > 0 AND id == "A-1") OR name == "Ada""#)
        let mixed = try FormatPredicate(
            format: "%K == %@ AND age > %d AND score < %f", argumentArray: ["name", "x", 3, 2.5])
        #expect(mixed.description == #"name == "x" AND age > 3 AND score < 2.5"#)
    }

    @Test func argumentCounts() throws {
        let missing = try #require(catching { try FormatPredicate(format: "a == %@ AND b == %@", "x") })
        #expect(missing.kind == .argument)
        #expect(missing.column == 18)
        #expect(missing.message == "missing argument for '%@': it is argument 2, 1 given")
        let extra = try #require(catching { try FormatPredicate(format: "a == %@", "x", "y") })
        #expect(extra.kind == .argument)
        #expect(extra.column == 8)
        #expect(extra.message == "too many arguments: the format string uses 1, 2 given")
        // A syntax error is reported before unused arguments.
        let syntax = try #require(catching { try FormatPredicate(format: "a == ", "x") })
        #expect(syntax.kind == .syntax)
        #expect(syntax.message == "expected a value after '=='")
        let expression = try #require(catching { try FormatExpression(format: "a + %d", 1, 2) })
        #expect((expression.kind, expression.column) == (.argument, 7))
    }

    @Test func keyPathArgumentMustBeAKeyPathString() throws {
        let number = try #require(catching { try FormatPredicate(format: "a == 1 OR %K == 1", 5) })
        #expect(number.kind == .argument)
        #expect(number.column == 11)
        #expect(number.message == "'%K' expects a key path string, got an integer (argument 1)")
        let spaced = try #require(catching { try FormatPredicate(format: "%K == 1", "first name") })
        #expect(spaced.message.contains("is not a key path"))
    }

    @Test func bridgingUnknownValues() {
        #expect(PredicateValue(bridging: "x") == "x")
        #expect(PredicateValue(bridging: Optional<Int>.none as Any) == .null)
        #expect(PredicateValue(bridging: Optional(3) as Any) == 3)
        #expect(PredicateValue(bridging: [1, "a"] as [Any]) == [1, "a"])
        #expect(PredicateValue(bridging: UInt64.max) == .double(Double(UInt64.max)))
        struct Opaque {}
        #expect(PredicateValue(bridging: Opaque()) == nil)
        #expect(PredicateValue(bridging: [Opaque()]) == nil)
    }

    @Test func substitutionVariables() throws {
        let template = try FormatPredicate(
            format: "name BEGINSWITH[c] $PREFIX AND age BETWEEN {$LOW, $HIGH} AND date > CAST($SINCE, 'NSDate')")
        #expect(template.variables == ["HIGH", "LOW", "PREFIX", "SINCE"])
        let predicate = try template.withSubstitutionVariables([
            "PREFIX": "a", "LOW": 1, "HIGH": 9, "SINCE": 0.0,
        ])
        #expect(predicate.variables.isEmpty)
        #expect(
            predicate.description
                == #"name BEGINSWITH[c] "a" AND age BETWEEN {1, 9} AND date > CAST(0.0, "NSDate")"#)
        #expect(try FormatPredicate(format: predicate.description) == predicate)
    }

    @Test func subqueryVariablesAreBound() throws {
        let template = try FormatPredicate(format: "SUBQUERY(items, $x, $x.price > $MIN).@count > 0")
        #expect(template.variables == ["MIN"])
        let predicate = try template.withSubstitutionVariables(["MIN": 5, "x": 1])
        #expect(predicate.description == "SUBQUERY(items, $x, $x.price > 5).@count > 0")
    }

    @Test func missingVariable() throws {
        let template = try FormatPredicate(format: "a == $A AND b == $B")
        let error = try #require(catching { try template.withSubstitutionVariables(["A": 1]) })
        #expect(error.kind == .missingVariable)
        #expect(error.description == "predicate:1:18: error: no value for the substitution variable '$B'")
    }

    @Test func expressionSubstitution() throws {
        let expression = try FormatExpression(format: "$FETCH_SOURCE.employees.@count + $N")
        #expect(expression.variables == ["FETCH_SOURCE", "N"])
        let substituted = try expression.withSubstitutionVariables([
            "FETCH_SOURCE": ObjectReference("x-coredata://S/Company/p1"), "N": 2,
        ])
        #expect(
            substituted.description == #"CAST("x-coredata://S/Company/p1", "NSManagedObjectID").employees.@count + 2"#)
        #expect(try FormatExpression(format: substituted.description) == substituted)
    }
}

/// The ``PredicateFormatError`` `body` throws, or nil.
func catching<T>(_ body: () throws -> T) -> PredicateFormatError? {
    do {
        _ = try body()
        return nil
    } catch let error as PredicateFormatError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}
