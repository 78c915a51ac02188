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
        for (index, name) in ["Ada", "Alan", "Grace", "Ken"].enumerated() {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = Int16(25 + 10 * index)
            employee.dateJoined = joined.addingTimeInterval(Double(index) * 86_400)
        }
        try context.save()
        func names(_ predicate: Predicate<EmployeeEntity>) throws -> [String] {
            try context.fetch(EmployeeEntity.fetchRequest().filtered(by: predicate)).compactMap(\.name).sorted()
        }
        let pairs: [(String, Any?, Any?)] = [
            ("age > %@", 30, NSNumber(value: 30)),
            ("age >= %@", 35.0, NSNumber(value: 35.0)),
            ("age IN %@", [25, 45], [NSNumber(value: 25), NSNumber(value: 45)]),
            ("dateJoined >= %@", joined.addingTimeInterval(86_400), NSDate(timeIntervalSinceReferenceDate: 700_086_400)),
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
        #expect(NSDate(timeIntervalSinceReferenceDate: 5).predicateValue == .date(Date(timeIntervalSinceReferenceDate: 5)))
    }
}
