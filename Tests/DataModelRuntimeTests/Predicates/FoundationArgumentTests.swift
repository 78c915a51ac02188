import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import PredicateFormat
import Testing

/// Core Data code passes Foundation's reference types as format arguments (`NSNumber(value: 30)`, `date as NSDate`,
/// an `NSString`, `NSNull()`): they select what the Swift values select, in SQL and in memory, instead of stopping
/// the program as arguments of an unknown type.
@Suite("Format arguments of Foundation's reference types")
struct FoundationArgumentTests {
    @Test(arguments: StoreKind.sqliteKinds)
    func foundationArgumentsSelectAsSwiftValues(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let joined = Date(timeIntervalSinceReferenceDate: 700_000_000)
        try saveEmployees(["Ada", "Alan", "Grace", "Ken"], joined: joined, in: context)
        let names = { try employeeNames($0, in: context) }
        let pairs: [(String, Any?, Any?)] = [
            ("age > %@", 30, NSNumber(value: 30)),
            ("age >= %@", 35.0, NSNumber(value: 35.0)),
            ("age IN %@", [25, 45], [NSNumber(value: 25), NSNumber(value: 45)]),
            (
                "dateJoined >= %@", joined.addingTimeInterval(86_400),
                NSDate(timeIntervalSinceReferenceDate: 700_086_400)
            ),
            ("name == %@", "Grace", NSString(string: "Grace")),
            ("name BEGINSWITH[c] %@", "a", NSString(string: "a")),
            ("name != %@", nil, NSNull()),
        ]
        for (format, swift, foundation) in pairs {
            let expected = try names(ManagedPredicate(format: format, swift))
            #expect(!expected.isEmpty, "\(format)")
            #expect(try names(ManagedPredicate(format: format, foundation)) == expected, "\(format)")
            // In memory, as an unsaved context or a predicate evaluated by hand evaluates it.
            let objects = try context.fetch(EmployeeEntity.fetchRequest())
            let predicate: Predicate<EmployeeEntity> = ManagedPredicate(format: format, foundation)
            #expect(
                try objects.filter { try predicate.evaluate($0) }.compactMap(\.name).sorted() == expected, "\(format)")
        }
    }

    @Test func numbersKeepTheirKind() {
        // A Bool as an NSNumber compares as 1 or 0, as Core Data's store compares it.
        #expect(NSNumber(value: true).predicateValue == .integer(1))
        #expect(NSNumber(value: Int16(-7)).predicateValue == .integer(-7))
        #expect(NSNumber(value: 2.5).predicateValue == .double(2.5))
        #expect(NSNumber(value: Float(0.5)).predicateValue == .double(0.5))
        #expect(NSNumber(value: UInt64.max).predicateValue == .double(Double(UInt64.max)))
        #expect(
            NSDate(timeIntervalSinceReferenceDate: 5).predicateValue == .date(Date(timeIntervalSinceReferenceDate: 5)))
    }
}

/// Core Data's `NSCompoundPredicate`: `and`, `or` and `not` of predicates, format strings combined into one (one SQL
/// translation), a `#Predicate` among them evaluated in memory with the same answers.
@Suite("Compound predicates")
struct CompoundPredicateTests {
    @Test(arguments: StoreKind.sqliteKinds)
    func compoundsSelectWhatTheirPartsSelect(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try saveEmployees(["Ada", "Alan", "Grace", "Ken", "Barbara"], in: context)
        let names = { try employeeNames($0, in: context) }
        let older: Predicate<EmployeeEntity> = ManagedPredicate(format: "age > %@", 30)
        let startsWithA: Predicate<EmployeeEntity> = ManagedPredicate(format: "name BEGINSWITH %@", "A")
        let macro = #Predicate<EmployeeEntity> { ($0.age ?? 0) < 50 }

        let both = ManagedPredicate(andPredicateWithSubpredicates: [older, startsWithA])
        #expect(try names(both) == ["Alan"])
        #expect(both.predicateFormat?.contains("AND") == true, "format predicates combine into one")
        #expect(try context.explain(EmployeeEntity.fetchRequest().filtered(by: both)).path == .sql)
        #expect(
            try names(ManagedPredicate(orPredicateWithSubpredicates: [older, startsWithA])) == [
                "Ada", "Alan", "Barbara", "Grace", "Ken",
            ])
        #expect(try names(ManagedPredicate(notPredicateWithSubpredicate: older)) == ["Ada"])
        #expect(try names(ManagedPredicate<EmployeeEntity>(andPredicateWithSubpredicates: [])).count == 5)
        #expect(try names(ManagedPredicate<EmployeeEntity>(orPredicateWithSubpredicates: [])).isEmpty)

        // With a `#Predicate` part: the same answers, in memory.
        let mixed = ManagedPredicate(andPredicateWithSubpredicates: [older, macro])
        #expect(mixed.predicateFormat == nil)
        #expect(try names(mixed) == ["Alan", "Grace"])
        #expect(
            try names(ManagedPredicate(orPredicateWithSubpredicates: [startsWithA, macro])) == [
                "Ada", "Alan", "Grace",
            ])
        #expect(try names(ManagedPredicate(notPredicateWithSubpredicate: macro)) == ["Barbara", "Ken"])
        let all = try context.fetch(EmployeeEntity.fetchRequest())
        #expect(all.filter { mixed.evaluate(with: $0) }.compactMap(\.name).sorted() == ["Alan", "Grace"])
    }
}

/// Employees named `names`, aged 25, 35, 45 … in that order, joined a day apart from `joined`, saved.
private func saveEmployees(
    _ names: [String], joined: Date = Date(timeIntervalSinceReferenceDate: 700_000_000),
    in context: ManagedObjectContext
) throws {
    for (index, name) in names.enumerated() {
        let employee = EmployeeEntity(context: context)
        employee.name = name
        employee.age = Int16(25 + 10 * index)
        employee.dateJoined = joined.addingTimeInterval(Double(index) * 86_400)
    }
    try context.save()
}

/// The sorted names of the employees `predicate` fetches.
private func employeeNames(_ predicate: Predicate<EmployeeEntity>, in context: ManagedObjectContext) throws -> [String]
{
    try context.fetch(EmployeeEntity.fetchRequest().filtered(by: predicate)).compactMap(\.name).sorted()
}
