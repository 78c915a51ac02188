import Foundation
import PredicateFormat
import Testing

/// Format strings of every construct, their canonical printed form, and the tree the parser builds.
@Suite("Predicate format parsing")
struct PredicateFormatParserTests {
    /// A format string and the canonical form it prints as (which must parse back to the same tree).
    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var canonical: String
        var testDescription: String { format }
    }

    static let cases: [Case] = [
        // Comparisons and their spellings.
        Case(format: "name == 'Ada'", canonical: #"name == "Ada""#),
        Case(format: "name = \"Ada\"", canonical: #"name == "Ada""#),
        Case(format: "age != 3", canonical: "age != 3"),
        Case(format: "age <> 3", canonical: "age != 3"),
        Case(format: "age < 3", canonical: "age < 3"),
        Case(format: "age <= 3", canonical: "age <= 3"),
        Case(format: "age =< 3", canonical: "age <= 3"),
        Case(format: "age > 3", canonical: "age > 3"),
        Case(format: "age >= 3", canonical: "age >= 3"),
        Case(format: "age => 3", canonical: "age >= 3"),
        Case(format: "age BETWEEN {1, 10}", canonical: "age BETWEEN {1, 10}"),
        Case(format: "age between { $LOW , $HIGH }", canonical: "age BETWEEN {$LOW, $HIGH}"),
        Case(format: "name IN {'a', 'b'}", canonical: #"name IN {"a", "b"}"#),
        Case(format: "name in {}", canonical: "name IN {}"),
        Case(format: "tags CONTAINS 'x'", canonical: #"tags CONTAINS "x""#),
        // String operators and options.
        Case(format: "name beginswith[c] 'a'", canonical: #"name BEGINSWITH[c] "a""#),
        Case(format: "name ENDSWITH[d] 'a'", canonical: #"name ENDSWITH[d] "a""#),
        Case(format: "name CONTAINS[cd] 'a'", canonical: #"name CONTAINS[cd] "a""#),
        Case(format: "name LIKE[dc] 'a*b?'", canonical: #"name LIKE[cd] "a*b?""#),
        Case(format: "name MATCHES[n] '^a.*$'", canonical: #"name MATCHES[n] "^a.*$""#),
        Case(format: "name ==[c] 'x'", canonical: #"name ==[c] "x""#),
        Case(format: "name Like[CD] 'x'", canonical: #"name LIKE[cd] "x""#),
        // Compound predicates.
        Case(format: "a == 1 AND b == 2", canonical: "a == 1 AND b == 2"),
        Case(format: "a == 1 && b == 2 and c == 3", canonical: "a == 1 AND b == 2 AND c == 3"),
        Case(format: "a == 1 || b == 2", canonical: "a == 1 OR b == 2"),
        Case(format: "NOT a == 1", canonical: "NOT a == 1"),
        Case(format: "!a == 1", canonical: "NOT a == 1"),
        Case(format: "!(a == 1 AND b == 2)", canonical: "NOT (a == 1 AND b == 2)"),
        Case(format: "not not a == 1", canonical: "NOT NOT a == 1"),
        Case(format: "((a == 1))", canonical: "a == 1"),
        Case(format: "(a == 1 AND b == 2) AND c == 3", canonical: "(a == 1 AND b == 2) AND c == 3"),
        Case(format: "TRUEPREDICATE", canonical: "TRUEPREDICATE"),
        Case(format: "falsepredicate OR truepredicate", canonical: "FALSEPREDICATE OR TRUEPREDICATE"),
        // Precedence.
        Case(format: "a == 1 OR b == 2 AND c == 3", canonical: "a == 1 OR (b == 2 AND c == 3)"),
        Case(format: "a == 1 AND b == 2 OR c == 3", canonical: "(a == 1 AND b == 2) OR c == 3"),
        Case(format: "NOT a == 1 AND b == 2", canonical: "NOT a == 1 AND b == 2"),
        Case(format: "NOT (a == 1 AND b == 2)", canonical: "NOT (a == 1 AND b == 2)"),
        Case(format: "(a == 1 OR b == 2) AND c == 3", canonical: "(a == 1 OR b == 2) AND c == 3"),
        Case(
            format: "(id.length > 0 AND id == 'A') OR (name == 'B')",
            canonical: #"(id.length > 0 AND id == "A") OR name == "B""#),
        // Key paths, SELF and escaping.
        Case(format: "department.name == 'R&D'", canonical: #"department.name == "R&D""#),
        Case(format: "SELF == 3", canonical: "SELF == 3"),
        Case(format: "self.name == 'x'", canonical: #"name == "x""#),
        Case(format: "SELF IN {1,2}", canonical: "SELF IN {1, 2}"),
        Case(format: "#size == 1", canonical: "#size == 1"),
        Case(format: "size == 1", canonical: "#size == 1"),
        Case(format: "#AND == 1", canonical: "#AND == 1"),
        Case(format: "a.#in == 1", canonical: "a.#in == 1"),
        Case(format: "café == 1", canonical: "café == 1"),
        Case(format: "ın == 1", canonical: "ın == 1"),
        Case(format: "name.length > 0", canonical: "name.length > 0"),
        Case(format: "items.count == 0", canonical: "items.count == 0"),
        // Aggregate modifiers.
        Case(format: "ANY employees.age > 30", canonical: "ANY employees.age > 30"),
        Case(format: "some employees.age > 30", canonical: "ANY employees.age > 30"),
        Case(format: "ALL employees.age > 30", canonical: "ALL employees.age > 30"),
        Case(format: "NONE employees.age > 30", canonical: "NOT ANY employees.age > 30"),
        Case(format: "ANY tags.name IN {'a'}", canonical: #"ANY tags.name IN {"a"}"#),
        // Subqueries and collection operators.
        Case(
            format: "SUBQUERY(employees, $e, $e.age > 30 AND $e.name BEGINSWITH 'A').@count > 0",
            canonical: #"SUBQUERY(employees, $e, $e.age > 30 AND $e.name BEGINSWITH "A").@count > 0"#),
        Case(
            format: "subquery(a, $x, subquery($x.b, $y, $y.c == $x.d).@count == 1).@count == 2",
            canonical: "SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y.c == $x.d).@count == 1).@count == 2"),
        Case(format: "employees.@count > 3", canonical: "employees.@count > 3"),
        Case(format: "employees.@sum.salary > 10", canonical: "employees.@sum.salary > 10"),
        Case(format: "employees.@avg.salary < 1.5", canonical: "employees.@avg.salary < 1.5"),
        Case(format: "employees.@min.age >= 18", canonical: "employees.@min.age >= 18"),
        Case(format: "employees.@max.age <= 65", canonical: "employees.@max.age <= 65"),
        Case(format: "@count > 0", canonical: "@count > 0"),
        Case(format: "{1, 2}.@count == 2", canonical: "{1, 2}.@count == 2"),
        // Literals.
        Case(format: "a == nil", canonical: "a == nil"),
        Case(format: "a == NULL", canonical: "a == nil"),
        Case(format: "a == YES OR b == true", canonical: "a == YES OR b == YES"),
        Case(format: "a == NO OR b == FALSE", canonical: "a == NO OR b == NO"),
        Case(format: "a == 0x1F", canonical: "a == 31"),
        Case(format: "a == 0o17", canonical: "a == 15"),
        Case(format: "a == 0b101", canonical: "a == 5"),
        Case(format: "a == 017", canonical: "a == 17"),
        Case(format: "a == 2.71828", canonical: "a == 2.71828"),
        Case(format: "a == 1e3", canonical: "a == 1000.0"),
        Case(format: "a == 9.2e-5", canonical: "a == 9.2e-05"),
        Case(format: "a == -3", canonical: "a == -3"),
        Case(format: "a == - 3.5", canonical: "a == -3.5"),
        Case(format: "a == -9223372036854775808", canonical: "a == -9223372036854775808"),
        Case(format: "a == 9223372036854775808", canonical: "a == 9.223372036854776e+18"),
        Case(format: "a == 1e999", canonical: "a == 1e999"),
        Case(format: "a == \"it's\"", canonical: #"a == "it's""#),
        Case(format: "a == 'say \"hi\"'", canonical: #"a == "say \"hi\"""#),
        Case(format: #"a == 'a\nb\tc\\d'"#, canonical: #"a == "a\nb\tc\\d""#),
        Case(format: #"a == '\x41\u00e9\101\uD83D\uDE00'"#, canonical: "a == \"AéA😀\""),
        Case(format: "a == '%@ $X %K'", canonical: #"a == "%@ $X %K""#),
        Case(format: "a == '100%%'", canonical: #"a == "100%%""#),
        Case(format: "a IN {1, 'two', nil, {3}}", canonical: #"a IN {1, "two", nil, {3}}"#),
        // CAST.
        Case(format: "date > CAST(0, 'NSDate')", canonical: #"date > CAST(0.0, "NSDate")"#),
        Case(format: "date > CAST(-1.5, \"NSDate\")", canonical: #"date > CAST(-1.5, "NSDate")"#),
        Case(format: "CAST(date, 'NSNumber') > 1", canonical: #"CAST(date, "NSNumber") > 1"#),
        Case(format: "CAST('5', 'NSNumber') == 5", canonical: #"CAST("5", "NSNumber") == 5"#),
        Case(
            format: "id == CAST('e621e1f8-c36c-495a-93fc-0c247a3e6e5f', 'NSUUID')",
            canonical: #"id == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#),
        Case(format: "blob == CAST('AAEC', 'NSData')", canonical: #"blob == CAST("AAEC", "NSData")"#),
        Case(
            format: "price == CAST('1.25', 'NSDecimalNumber')", canonical: #"price == CAST("1.25", "NSDecimalNumber")"#),
        // Variables.
        Case(format: "name == $NAME", canonical: "name == $NAME"),
        Case(format: "$x.name == 'a'", canonical: #"$x.name == "a""#),
        // Functions.
        Case(format: "now() > date", canonical: "now() > date"),
        Case(format: "lowercase:(name) == 'a'", canonical: #"lowercase:(name) == "a""#),
        Case(format: "lowercase(name) == 'a'", canonical: #"lowercase:(name) == "a""#),
        Case(format: "add:to:(1, 2) == 3", canonical: "add:to:(1, 2) == 3"),
        Case(format: "random(10) < 5", canonical: "random:(10) < 5"),
        Case(format: "sum:({1, 2}) == 3", canonical: "sum:({1, 2}) == 3"),
        Case(format: "FUNCTION(SELF, 'scoreFor:', 'x') == 2", canonical: #"FUNCTION(SELF, "scoreFor:", "x") == 2"#),
        // Arithmetic.
        Case(format: "a + b * c == 1", canonical: "a + b * c == 1"),
        Case(format: "(a + b) * c == 1", canonical: "(a + b) * c == 1"),
        Case(format: "a - (b - c) == 1", canonical: "a - (b - c) == 1"),
        Case(format: "a - b - c == 1", canonical: "a - b - c == 1"),
        Case(format: "a / b / c == 1", canonical: "a / b / c == 1"),
        Case(format: "2 ** 3 ** 2 == 64", canonical: "2 ** 3 ** 2 == 64"),
        Case(format: "2 ** (3 ** 2) == 512", canonical: "2 ** (3 ** 2) == 512"),
        Case(format: "a * b ** 2 == 1", canonical: "a * b ** 2 == 1"),
        Case(format: "-a == 1", canonical: "-a == 1"),
        Case(format: "a ** -1 == 1", canonical: "a ** -1 == 1"),
        Case(format: "a - -1 == 1", canonical: "a - -1 == 1"),
        Case(format: "(a + 1).b == 1", canonical: "(a + 1).b == 1"),
        // Whitespace and line breaks.
        Case(format: "  a\n==\t1  ", canonical: "a == 1"),
    ]

    @Test(arguments: cases)
    func printsCanonicalForm(_ testCase: Case) throws {
        let predicate = try FormatPredicate(format: testCase.format)
        #expect(predicate.description == testCase.canonical)
        #expect(try FormatPredicate(format: predicate.description) == predicate)
    }

    @Test func orBindsLooserThanAnd() throws {
        let predicate = try FormatPredicate(format: "a == 1 OR b == 2 AND c == 3")
        guard case .or(let operands) = predicate else {
            Issue.record("expected OR at the top, got \(predicate)")
            return
        }
        #expect(operands.count == 2)
        guard case .and(let inner) = operands[1] else {
            Issue.record("expected AND on the right, got \(operands[1])")
            return
        }
        #expect(inner.count == 2)
    }

    @Test func notBindsTighterThanAnd() throws {
        let predicate = try FormatPredicate(format: "NOT a == 1 AND b == 2")
        let a = FormatPredicate.comparison(FormatComparison(.keyPath([.key("a")]), .equalTo, .constant(1)))
        let b = FormatPredicate.comparison(FormatComparison(.keyPath([.key("b")]), .equalTo, .constant(2)))
        #expect(predicate == .and([.not(a), b]))
    }

    @Test func arithmeticTree() throws {
        let expression = try FormatExpression(format: "a + b * c ** 2")
        let a = FormatExpression.keyPath([.key("a")])
        let b = FormatExpression.keyPath([.key("b")])
        let c = FormatExpression.keyPath([.key("c")])
        #expect(expression == .arithmetic(.add, a, .arithmetic(.multiply, b, .arithmetic(.power, c, .constant(2)))))
    }

    @Test func comparisonShape() throws {
        let predicate = try FormatPredicate(format: "ANY employees.name BEGINSWITH[cd] $PREFIX")
        let expected = FormatComparison(
            .keyPath([.key("employees"), .key("name")]), .beginsWith, .variable("PREFIX"), modifier: .any,
            options: [.caseInsensitive, .diacriticInsensitive])
        #expect(predicate == .comparison(expected))
    }

    @Test func noneIsNotAny() throws {
        #expect(
            try FormatPredicate(format: "NONE tags.name == 'x'")
                == FormatPredicate(format: "NOT (ANY tags.name == 'x')"))
    }

    @Test func subqueryShape() throws {
        let expression = try FormatExpression(format: "SUBQUERY(employees, $e, $e.age > 30).@count")
        let inner = FormatPredicate.comparison(
            FormatComparison(.member(.variable("e"), [.key("age")]), .greaterThan, .constant(30)))
        #expect(
            expression
                == .member(
                    .subquery(collection: .keyPath([.key("employees")]), variable: "e", predicate: inner),
                    [
                        .collection(.count)
                    ]))
    }

    @Test func constantsAndFolding() throws {
        #expect(try FormatExpression(format: "{1, 'a', nil}") == .constant([1, "a", nil]))
        #expect(try FormatExpression(format: "{1, $X}") == .aggregate([.constant(1), .variable("X")]))
        #expect(
            try FormatExpression(format: "CAST(86400, 'NSDate')")
                == .constant(.date(Date(timeIntervalSinceReferenceDate: 86400))))
        #expect(
            try FormatExpression(format: "CAST(name, 'NSString')") == .cast(.keyPath([.key("name")]), type: "NSString"))
        #expect(
            try FormatExpression(format: "CAST('x-coredata://S/Person/p1', 'NSManagedObjectID')")
                == .constant(.object(ObjectReference("x-coredata://S/Person/p1"))))
        #expect(try FormatExpression(format: "SELF") == .evaluatedObject)
        #expect(try FormatExpression(format: "SELF.a.b") == .keyPath([.key("a"), .key("b")]))
        #expect(try FormatExpression(format: "-a") == .arithmetic(.subtract, .constant(0), .keyPath([.key("a")])))
        #expect(try FormatExpression(format: "-(5)") == .constant(-5))
    }

    @Test func expressionsParseOnTheirOwn() throws {
        #expect(try FormatExpression(format: "employees.@count").description == "employees.@count")
        #expect(try FormatExpression(format: "lowercase:(name)").description == "lowercase:(name)")
        #expect(try FormatExpression(format: "canonical:(title)").description == "canonical:(title)")
        #expect(try FormatExpression(format: "now()") == .function("now", []))
        #expect(throws: PredicateFormatError.self) { try FormatExpression(format: "a == 1") }
    }

    @Test func keyPathInitializer() {
        #expect(FormatExpression(keyPath: "a.@sum.b") == .keyPath([.key("a"), .collection(.sum), .key("b")]))
        #expect(FormatExpression(keyPath: "a b") == nil)
        #expect(FormatExpression(keyPath: "a.@unknown") == nil)
        #expect(FormatExpression(keyPath: "") == nil)
    }
}

/// Format strings as Core Data code and models write them (fetch request templates, fetched properties,
/// derived attributes, the `NSPredicate(format:)` idioms of tutorials), with their arguments.
@Suite("Predicate format strings from Core Data code")
struct PredicateFormatRealWorldTests {
    /// A format string, its arguments, and its canonical form.
    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        var format: String
        var arguments: [any PredicateValueConvertible] = []
        var canonical: String
        var testDescription: String { format }
    }

    static let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    static let object = ObjectReference("x-coredata://STORE/Person/p3")

    static let predicates: [Case] = [
        // Fetch request templates and fetched properties of the models in the repository and its corpus.
        Case(format: "humanName == $humanName", canonical: "humanName == $humanName"),
        Case(
            format: "oneToOne.name == $NAME OR string == $NEEDLE",
            canonical: "oneToOne.name == $NAME OR string == $NEEDLE"),
        Case(format: "parent.parentName == $parentName", canonical: "parent.parentName == $parentName"),
        Case(format: "true == true", canonical: "YES == YES"),
        Case(format: "uuid == $UUID", canonical: "uuid == $UUID"),
        Case(format: "author == $FETCH_SOURCE AND year > 2000", canonical: "author == $FETCH_SOURCE AND year > 2000"),
        Case(format: "entityName == $FETCH_SOURCE.entityName", canonical: "entityName == $FETCH_SOURCE.entityName"),
        Case(format: "select == $SELECTED", canonical: "select == $SELECTED"),
        Case(format: "string BEGINSWITH[cd] $PREFIX", canonical: "string BEGINSWITH[cd] $PREFIX"),
        Case(format: "title == nil", canonical: "title == nil"),
        Case(format: "int16 BETWEEN {1, 10}", canonical: "int16 BETWEEN {1, 10}"),
        // NSPredicate(format:) as tutorials and apps write it.
        Case(
            format: "(id.length > 0 AND id == %@) OR (name == %@)", arguments: ["A-1", "Ada"],
            canonical: #"(id.length > 0 AND id == "A-1") OR name == "Ada""#),
        Case(format: "name == %@", arguments: ["Acme"], canonical: #"name == "Acme""#),
        Case(format: "name CONTAINS[cd] %@", arguments: ["ac"], canonical: #"name CONTAINS[cd] "ac""#),
        Case(format: "name ==[c] %@", arguments: ["acme"], canonical: #"name ==[c] "acme""#),
        Case(format: "age > %d", arguments: [30], canonical: "age > 30"),
        Case(format: "rating >= %i AND score < %f", arguments: [3, 9.5], canonical: "rating >= 3 AND score < 9.5"),
        Case(format: "members.@count > %ld", arguments: [2], canonical: "members.@count > 2"),
        Case(format: "%K == %@", arguments: ["department.name", "R&D"], canonical: #"department.name == "R&D""#),
        Case(format: "%K BEGINSWITH[cd] %@", arguments: ["title", "the"], canonical: #"title BEGINSWITH[cd] "the""#),
        Case(
            format: "self == %@", arguments: [object],
            canonical: #"SELF == CAST("x-coredata://STORE/Person/p3", "NSManagedObjectID")"#),
        Case(
            format: "SELF IN %@", arguments: [[object]],
            canonical: #"SELF IN {CAST("x-coredata://STORE/Person/p3", "NSManagedObjectID")}"#),
        Case(format: "NOT (SELF IN %@)", arguments: [[1, 2]], canonical: "NOT SELF IN {1, 2}"),
        Case(
            format: "ANY members == %@", arguments: [object],
            canonical: #"ANY members == CAST("x-coredata://STORE/Person/p3", "NSManagedObjectID")"#),
        Case(format: "company == %@", arguments: [PredicateValue.null], canonical: "company == nil"),
        Case(format: "timestamp > %@", arguments: [date], canonical: #"timestamp > CAST(700000000.0, "NSDate")"#),
        Case(
            format: "date >= %@ AND date < %@", arguments: [date, date.addingTimeInterval(86_400)],
            canonical: #"date >= CAST(700000000.0, "NSDate") AND date < CAST(700086400.0, "NSDate")"#),
        Case(
            format: "id == %@", arguments: [uuid],
            canonical: #"id == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#),
        Case(format: "isCompleted == NO", canonical: "isCompleted == NO"),
        Case(format: "isFavorite == %@", arguments: [true], canonical: "isFavorite == YES"),
        Case(
            format: "ANY tags.name IN %@", arguments: [["swift", "linux"]],
            canonical: #"ANY tags.name IN {"swift", "linux"}"#),
        Case(format: "employees.@count == 0", canonical: "employees.@count == 0"),
        Case(format: "lineItems.@sum.amount > 100", canonical: "lineItems.@sum.amount > 100"),
        Case(format: "parent == nil", canonical: "parent == nil"),
        Case(format: "parent != nil", canonical: "parent != nil"),
        Case(format: "name != nil AND name != ''", canonical: #"name != nil AND name != """#),
        Case(format: "email LIKE[c] '*@example.com'", canonical: #"email LIKE[c] "*@example.com""#),
        Case(format: "zip MATCHES %@", arguments: ["[0-9]{5}"], canonical: #"zip MATCHES "[0-9]{5}""#),
        Case(format: "ALL children.age >= 18", canonical: "ALL children.age >= 18"),
        Case(format: "NONE children.age < 18", canonical: "NOT ANY children.age < 18"),
        Case(
            format: "SUBQUERY(items, $item, $item.price > %@).@count > 0", arguments: [10],
            canonical: "SUBQUERY(items, $item, $item.price > 10).@count > 0"),
        Case(
            format: "(firstName CONTAINS[cd] %@) OR (lastName CONTAINS[cd] %@)", arguments: ["a", "a"],
            canonical: #"firstName CONTAINS[cd] "a" OR lastName CONTAINS[cd] "a""#),
        Case(format: "firstName = $FIRST AND lastName = $LAST", canonical: "firstName == $FIRST AND lastName == $LAST"),
        Case(format: "group.name =[c] %@", arguments: ["x"], canonical: #"group.name ==[c] "x""#),
        Case(format: "date > CAST(662688000.0, 'NSDate')", canonical: #"date > CAST(662688000.0, "NSDate")"#),
        Case(
            format: "objectID IN %@", arguments: [[object]],
            canonical: #"objectID IN {CAST("x-coredata://STORE/Person/p3", "NSManagedObjectID")}"#),
    ]

    static let expressions: [Case] = [
        // Derived attributes.
        Case(format: "canonical:(optionalString)", canonical: "canonical:(optionalString)"),
        Case(format: "ilo.@count", canonical: "ilo.@count"),
        Case(format: "now()", canonical: "now()"),
        Case(format: "oneToMany.@count", canonical: "oneToMany.@count"),
        Case(format: "lowercase:(name)", canonical: "lowercase:(name)"),
        Case(format: "uppercase:(name)", canonical: "uppercase:(name)"),
        Case(format: "employees.@sum.salary", canonical: "employees.@sum.salary"),
    ]

    @Test(arguments: predicates)
    func predicate(_ testCase: Case) throws {
        let predicate = try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.description == testCase.canonical)
        #expect(try FormatPredicate(format: predicate.description) == predicate)
    }

    @Test(arguments: expressions)
    func expression(_ testCase: Case) throws {
        let expression = try FormatExpression(format: testCase.format, argumentArray: testCase.arguments)
        #expect(expression.description == testCase.canonical)
        #expect(try FormatExpression(format: expression.description) == expression)
    }
}
