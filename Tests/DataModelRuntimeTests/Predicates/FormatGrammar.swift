// The grammar of random format predicates over the Company model's employees. Shared by StringPredicatePropertyTests
// and the `fuzz-predicate-translator` target (Fuzz/), which compiles this file through a symlink with its own
// `SeededGenerator` (driven by the fuzzer's bytes): it must use nothing but `int`, `pick` and `chance`.
import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import PredicateFormat

/// Random format predicates over employees: string operators with every option, numbers, dates,
/// `nil`, to-one paths, to-many aggregates, `ANY` / `ALL`, `SUBQUERY`, `IN`, `BETWEEN`, combined
/// with `AND`, `OR`, `NOT`.
enum FormatGrammar {
    static let texts = [
        "", "a", "Ann", "ann", "é", "e\u{301}", "É", "Ke", "\u{212A}e", "ß", "SS", "naïve", "a*b", "Zoë",
    ]
    static let patterns = ["*", "?", "a*", "*e", "?n*", "*\u{301}*", "A?n", "*ss*", "K*"]
    static let stringOperators: [FormatComparison.Operator] = [
        .equalTo, .notEqualTo, .lessThan, .greaterThanOrEqualTo, .beginsWith, .endsWith, .contains,
    ]
    static let numberOperators: [FormatComparison.Operator] = [
        .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
    ]
    static let optionSets: [FormatComparison.Options] = [
        [], [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
    ]

    static func key(_ path: String) -> FormatExpression {
        FormatExpression(keyPath: path) ?? .evaluatedObject
    }

    static func text(_ rng: inout SeededGenerator) -> FormatExpression { .constant(.string(rng.pick(texts))) }
    static func number(_ rng: inout SeededGenerator) -> FormatExpression {
        rng.chance(20) ? .constant(.double(Double(rng.int(80)) + 0.5)) : .constant(.integer(Int64(rng.int(80))))
    }

    static func predicate(_ rng: inout SeededGenerator, depth: Int = 3) -> FormatPredicate {
        guard depth > 0, rng.chance(50) else { return atom(&rng) }
        switch rng.int(3) {
        case 0: return .and([predicate(&rng, depth: depth - 1), predicate(&rng, depth: depth - 1)])
        case 1: return .or([predicate(&rng, depth: depth - 1), predicate(&rng, depth: depth - 1)])
        default: return .not(predicate(&rng, depth: depth - 1))
        }
    }

    static func stringComparison(
        _ path: String, _ rng: inout SeededGenerator, modifier: FormatComparison.Modifier = .direct
    )
        -> FormatComparison
    {
        let options = rng.pick(optionSets)
        switch rng.int(8) {
        case 0:
            return FormatComparison(
                key(path), .like, .constant(.string(rng.pick(patterns))), modifier: modifier, options: options)
        case 1:
            let list = (0..<rng.int(3)).map { _ in PredicateValue.string(rng.pick(texts)) }
            return FormatComparison(key(path), .in, .constant(.array(list)), modifier: modifier, options: options)
        case 2:
            return FormatComparison(
                key(path), rng.chance(50) ? .equalTo : .notEqualTo, .constant(.null), modifier: modifier)
        default:
            return FormatComparison(
                key(path), rng.pick(stringOperators), text(&rng), modifier: modifier, options: options)
        }
    }

    static func atom(_ rng: inout SeededGenerator) -> FormatPredicate {
        switch rng.int(13) {
        case 0, 1: return .comparison(stringComparison("name", &rng))
        case 2: return .comparison(stringComparison("department.name", &rng))
        case 3: return .comparison(stringComparison("business.name", &rng))
        case 4: return .comparison(FormatComparison(key("age"), rng.pick(numberOperators), number(&rng)))
        case 5:
            let low = Int64(rng.int(60))
            return .comparison(
                FormatComparison(
                    key("age"), .between, .constant(.array([.integer(low), .integer(low + Int64(rng.int(30)))]))))
        case 6:
            return .comparison(
                FormatComparison(
                    key("dateJoined"), rng.pick(numberOperators),
                    .constant(.date(Date(timeIntervalSinceReferenceDate: Double(rng.int(8) * 50))))))
        case 7:
            return .comparison(
                FormatComparison(
                    key(rng.pick(["age", "dateJoined", "department", "business"])), .equalTo, .constant(.null)))
        case 8:
            let path = rng.pick([
                "department.employees.@count", "department.employees.@sum.age", "department.employees.@avg.age",
                "department.employees.@max.age", "department.employees.@min.age", "business.employees.@count",
            ])
            return .comparison(FormatComparison(key(path), rng.pick(numberOperators), number(&rng)))
        case 9:
            let comparison = stringComparison("department.employees.name", &rng, modifier: rng.chance(50) ? .any : .all)
            return .comparison(comparison)
        case 10:
            return .comparison(
                FormatComparison(
                    key("department.employees.age"), rng.pick(numberOperators), number(&rng),
                    modifier: rng.chance(50) ? .any : .all))
        case 11:
            let inner = FormatPredicate.comparison(
                FormatComparison(.member(.variable("e"), [.key("age")]), rng.pick(numberOperators), number(&rng)))
            let subquery = FormatExpression.member(
                .subquery(collection: key("department.employees"), variable: "e", predicate: inner),
                [.collection(.count)])
            return .comparison(
                FormatComparison(subquery, rng.pick(numberOperators), .constant(.integer(Int64(rng.int(3))))))
        default:
            return .comparison(
                FormatComparison(key("name.length"), rng.pick(numberOperators), .constant(.integer(Int64(rng.int(5))))))
        }
    }

    /// Random employees, departments and businesses.
    static func populate(_ context: ManagedObjectContext, _ rng: inout SeededGenerator, count: Int) {
        let departments = (0..<4).map { _ in
            let department = DepartmentEntity(context: context)
            department.name = rng.chance(85) ? rng.pick(texts) : nil
            return department
        }
        let businesses = (0..<3).map { _ in
            let business = BusinessEntity(context: context)
            business.name = rng.chance(85) ? rng.pick(texts) : nil
            return business
        }
        for _ in 0..<count { addEmployee(context, &rng, departments: departments, businesses: businesses) }
    }

    @discardableResult
    static func addEmployee(
        _ context: ManagedObjectContext, _ rng: inout SeededGenerator, departments: [DepartmentEntity],
        businesses: [BusinessEntity]
    ) -> EmployeeEntity {
        let employee = EmployeeEntity(context: context)
        employee.name = rng.chance(90) ? rng.pick(texts) + (rng.chance(30) ? rng.pick(texts) : "") : nil
        employee.age = rng.chance(85) ? Int16(rng.int(70)) : nil
        employee.dateJoined = rng.chance(70) ? Date(timeIntervalSinceReferenceDate: Double(rng.int(8) * 50)) : nil
        employee.department = rng.chance(80) ? rng.pick(departments) : nil
        employee.business = rng.chance(70) ? rng.pick(businesses) : nil
        return employee
    }
}
