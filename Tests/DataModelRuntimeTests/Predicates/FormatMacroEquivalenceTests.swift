import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// A format string and a `#Predicate` with the same meaning, and the path each fetch takes.
struct EquivalentPair<Result: ManagedObject>: CustomTestStringConvertible, @unchecked Sendable {
    var format: String
    /// The format string's path on PostgreSQL when it differs: `[c]` / `[d]` fold as Foundation does, which
    /// PostgreSQL's SQL cannot, so those are evaluated in memory there.
    var postgresPath: FetchExplanation.Path?
    var arguments: [Any?] = []
    var macro: Predicate<Result>
    /// The path of the format string's fetch, and of the `#Predicate`'s when it differs (what the `#Predicate`
    /// translation leaves to memory).
    var path: FetchExplanation.Path = .sql
    var macroPath: FetchExplanation.Path?
    var testDescription: String { format }
}

/// Format strings ↔ `#Predicate` on a table of pairs: both fetched from the same seeded store (`StringPredicateCompany`:
/// accents, case, `nil`s, an employee without department or business, a department without employees) select the
/// same objects, count the same, agree with evaluating the predicate on every object, and take the stated paths.
///
/// On Linux `#Predicate` has no case or diacritic folding (the macro refuses `lowercased()`,
/// `localizedStandardContains` and `caseInsensitiveCompare`): where a format string folds with `[c]`, `[d]` or
/// `[cd]`, its pair spells out the letters the fold admits among those the seeded names use (`d`/`D`, `e`/`é`/`ë`,
/// `E`/`É`), so the pair means the same on these names.
typealias EmployeePair = EquivalentPair<EmployeeEntity>
typealias DepartmentPair = EquivalentPair<DepartmentEntity>

@Suite("Format strings ↔ #Predicate: a table of pairs")
struct FormatMacroEquivalenceTests {
    static let cutoff = Date(timeIntervalSinceReferenceDate: 150)
    static let later = Date(timeIntervalSinceReferenceDate: 250)
    static let names: [String?] = ["Ann", "Zoë"]
    static let ages: [Int16?] = [19, 52]

    static let employeePairs: [EquivalentPair<EmployeeEntity>] = [
        // Comparisons (a nil attribute compares false, except with != and == nil, as in Swift).
        EmployeePair(format: "age == 30", macro: #Predicate { $0.age == 30 }),
        EmployeePair(format: "age != 30", macro: #Predicate { $0.age != 30 }),
        EmployeePair(format: "age < 30", macro: #Predicate { $0.age != nil && ($0.age ?? 0) < 30 }),
        EmployeePair(format: "age <= 30", macro: #Predicate { $0.age != nil && ($0.age ?? 0) <= 30 }),
        EmployeePair(format: "age > 44", macro: #Predicate { $0.age != nil && ($0.age ?? 0) > 44 }),
        EmployeePair(format: "age >= 45", macro: #Predicate { $0.age != nil && ($0.age ?? 0) >= 45 }),
        EmployeePair(
            format: "dateJoined > %@", arguments: [cutoff],
            macro: #Predicate { $0.dateJoined != nil && ($0.dateJoined ?? cutoff) > cutoff }),
        EmployeePair(format: "name < 'C'", macro: #Predicate { $0.name != nil && ($0.name ?? "") < "C" }),
        EmployeePair(format: "name == %@", arguments: ["Cécile"], macro: #Predicate { $0.name == "Cécile" }),
        // String operators, with [c], [d] and [cd].
        EmployeePair(format: "name BEGINSWITH 'É'", macro: #Predicate { $0.name?.starts(with: "É") ?? false }),
        EmployeePair(format: "name CONTAINS 'ë'", macro: #Predicate { $0.name?.contains("ë") ?? false }),
        EmployeePair(
            format: "name BEGINSWITH[c] 'c'", postgresPath: .memory,
            macro: #Predicate { $0.name.flatMap { $0.starts(with: "c") || $0.starts(with: "C") } ?? false }),
        EmployeePair(
            format: "name CONTAINS[c] 'D'", postgresPath: .memory,
            macro: #Predicate { $0.name.flatMap { $0.contains("d") || $0.contains("D") } ?? false }),
        EmployeePair(
            format: "name BEGINSWITH[d] 'E'", postgresPath: .memory,
            macro: #Predicate { $0.name.flatMap { $0.starts(with: "E") || $0.starts(with: "É") } ?? false }),
        EmployeePair(
            format: "name CONTAINS[d] 'ë'", postgresPath: .memory,
            macro: #Predicate { $0.name.flatMap { $0.contains("e") || $0.contains("é") || $0.contains("ë") } ?? false }),
        EmployeePair(
            format: "name BEGINSWITH[cd] 'e'", postgresPath: .memory,
            macro: #Predicate {
                $0.name.flatMap { $0.starts(with: "e") || $0.starts(with: "E") || $0.starts(with: "É") } ?? false
            }),
        // BETWEEN and IN.
        EmployeePair(
            format: "age BETWEEN {28, 45}",
            macro: #Predicate { $0.age != nil && ($0.age ?? 0) >= 28 && ($0.age ?? 0) <= 45 }),
        EmployeePair(
            format: "dateJoined BETWEEN %@", arguments: [[cutoff, later]],
            macro: #Predicate {
                $0.dateJoined != nil && ($0.dateJoined ?? cutoff) >= cutoff && ($0.dateJoined ?? cutoff) <= later
            }),
        EmployeePair(format: "name IN {'Ann', 'Zoë'}", macro: #Predicate { names.contains($0.name) }),
        EmployeePair(format: "age IN %@", arguments: [[19, 52]], macro: #Predicate { ages.contains($0.age) }),
        EmployeePair(
            format: "NOT name IN %@", arguments: [["Ann", "Zoë"]], macro: #Predicate { !names.contains($0.name) }),
        // nil.
        EmployeePair(format: "name == nil", macro: #Predicate { $0.name == nil }),
        EmployeePair(format: "name != nil AND age != nil", macro: #Predicate { $0.name != nil && $0.age != nil }),
        EmployeePair(format: "dateJoined == nil", macro: #Predicate { $0.dateJoined == nil }),
        EmployeePair(format: "department != nil", macro: #Predicate { $0.department != nil }),
        EmployeePair(format: "business == nil", macro: #Predicate { $0.business == nil }),
        // Key paths through to-one relationships.
        EmployeePair(format: "department.name == 'Research'", macro: #Predicate { $0.department?.name == "Research" }),
        EmployeePair(format: "department.name != 'Sales'", macro: #Predicate { $0.department?.name != "Sales" }),
        EmployeePair(
            format: "business.name BEGINSWITH 'G'",
            macro: #Predicate { $0.business.flatMap { ($0.name ?? "").starts(with: "G") } ?? false }),
        EmployeePair(
            format: "department.name == business.name",
            macro: #Predicate { $0.department?.name == $0.business?.name }),
        EmployeePair(
            format: "department.employees.@count >= 2", macro: #Predicate { ($0.department?.employees.count ?? 0) >= 2 }
        ),
        // Compounds.
        EmployeePair(
            format: "NOT (age > 40 OR name == nil)",
            macro: #Predicate { !(($0.age != nil && ($0.age ?? 0) > 40) || $0.name == nil) }),
        EmployeePair(
            format: "department.name == 'Sales' OR (age < 20 AND business == nil)",
            macro: #Predicate {
                $0.department?.name == "Sales" || ($0.age != nil && ($0.age ?? 0) < 20 && $0.business == nil)
            }),
    ]

    static let departmentPairs: [EquivalentPair<DepartmentEntity>] = [
        // ANY / ALL / NONE over a to-many relationship, and @count.
        DepartmentPair(
            format: "ANY employees.age > 50", macro: #Predicate { $0.employees.contains(where: { ($0.age ?? 0) > 50 }) }
        ),
        DepartmentPair(
            format: "ANY employees.name BEGINSWITH 'C'",
            macro: #Predicate { $0.employees.contains(where: { ($0.name ?? "").starts(with: "C") }) }),
        DepartmentPair(
            format: "ANY employees.name BEGINSWITH[c] 'd'", postgresPath: .memory,
            macro: #Predicate {
                $0.employees.contains(where: {
                    $0.name.flatMap { $0.starts(with: "d") || $0.starts(with: "D") } ?? false
                })
            }),
        DepartmentPair(
            format: "ALL employees.age >= 28",
            macro: #Predicate { !$0.employees.contains(where: { $0.age == nil || ($0.age ?? 0) < 28 }) }),
        DepartmentPair(
            format: "NONE employees.age > 40",
            macro: #Predicate { !$0.employees.contains(where: { ($0.age ?? 0) > 40 }) }),
        DepartmentPair(
            format: "NONE employees.age == nil", macro: #Predicate { !$0.employees.contains(where: { $0.age == nil }) }),
        DepartmentPair(format: "employees.@count == 0", macro: #Predicate { $0.employees.isEmpty }),
        DepartmentPair(format: "employees.@count >= 2", macro: #Predicate { $0.employees.count >= 2 }),
        DepartmentPair(
            format: "ANY businesses.name == 'Acme'",
            macro: #Predicate { $0.businesses.contains(where: { $0.name == "Acme" }) }),
        DepartmentPair(
            format: "SUBQUERY(employees, $e, $e.age > 40 AND $e.business != nil).@count > 0",
            macro: #Predicate { $0.employees.contains(where: { ($0.age ?? 0) > 40 && $0.business != nil }) }),
    ]

    /// Fetches with both sides of `pair` and checks they agree, with each other and with `evaluate`, and their paths.
    static func check<Result: ManagedObject>(
        _ pair: EquivalentPair<Result>, in context: ManagedObjectContext, kind: StoreKind
    ) throws {
        let string = try Predicate<Result>(validatingFormat: pair.format, argumentArray: pair.arguments)
        let byFormat = try context.fetch(FetchRequest<Result>().filtered(by: string))
        let byMacro = try context.fetch(FetchRequest<Result>().filtered(by: pair.macro))
        let all = try context.fetch(FetchRequest<Result>())
        let evaluated = try all.filter { try pair.macro.evaluate($0) }
        let ids = Set(byFormat.map(\.objectID))
        #expect(ids == Set(byMacro.map(\.objectID)), "\(pair.format): the format string and #Predicate disagree")
        #expect(ids == Set(evaluated.map(\.objectID)), "\(pair.format): the fetch disagrees with evaluate")
        #expect(try context.count(for: FetchRequest<Result>().filtered(by: string)) == byMacro.count)
        #expect(!ids.isEmpty && ids.count < all.count, "\(pair.format): a pair should select some objects, not all")
        let path = kind == .postgres ? pair.postgresPath ?? pair.path : pair.path
        #expect(try context.explain(FetchRequest<Result>().filtered(by: string)).path == path, "\(kind) \(pair.format)")
        #expect(
            try context.explain(FetchRequest<Result>().filtered(by: pair.macro)).path == pair.macroPath ?? pair.path,
            "\(pair.format): the #Predicate's path")
    }

    /// Every pair on every store (one store per kind for all pairs: PostgreSQL's schema takes a while to make).
    @Test(arguments: StoreKind.allCases)
    func employees(kind: StoreKind) throws {
        let company = try StringPredicateCompany(kind)
        defer { company.store.cleanUp() }
        for pair in Self.employeePairs { try Self.check(pair, in: company.context, kind: kind) }
    }

    @Test(arguments: StoreKind.allCases)
    func departments(kind: StoreKind) throws {
        let company = try StringPredicateCompany(kind)
        defer { company.store.cleanUp() }
        for pair in Self.departmentPairs { try Self.check(pair, in: company.context, kind: kind) }
    }

    @Test func tableSize() {
        #expect(Self.employeePairs.count + Self.departmentPairs.count >= 30)
    }
}
