import Foundation
import GeneratedCompanyModel
import Testing

@testable import DataModelRuntime

@Suite("Values of fetched objects in shared buffers")
struct FetchValueBufferTests {
    /// More rows than several of a fetch's buffers hold (1, 4, 16, 64, 256, 256 … blocks).
    static let count = 700

    private func fill(_ context: ManagedObjectContext) throws {
        for index in 0..<Self.count {
            let employee = EmployeeEntity(context: context)
            employee.name = String(format: "Employee %04d", index)
            employee.age = Int16(index % 50)
        }
        try context.save()
    }

    @Test("a changed object copies its values out; the others keep theirs", arguments: StoreKind.allCases)
    func changesStayWithTheirObject(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store.context)
        let context = try store.reopened()
        let employees = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(employees.count == Self.count)
        for (index, employee) in employees.enumerated() where index % 3 == 0 {
            employee.age = 99
            employee.name = "Changed \(index)"
        }
        for (index, employee) in employees.enumerated() {
            if index % 3 == 0 {
                #expect(employee.age == 99 && employee.name == "Changed \(index)")
                #expect(employee.isUpdated)
            } else {
                #expect(employee.age == Int16(index % 50) && employee.name == String(format: "Employee %04d", index))
                #expect(!employee.isUpdated)
            }
        }
        context.rollback()
        for (index, employee) in employees.enumerated() {
            #expect(employee.age == Int16(index % 50) && employee.name == String(format: "Employee %04d", index))
        }
        employees[Self.count - 1].age = 7
        try context.save()
        let again = try store.reopened().fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(again.map(\.age) == (0..<Self.count).map { $0 == Self.count - 1 ? 7 : Int16($0 % 50) })
    }

    @Test("an object outlives the other objects of its fetch", arguments: StoreKind.allCases)
    func survivorKeepsItsValues(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store.context)
        let context = try store.reopened()
        let kept = try {
            let employees = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
            // Every other object of the fetch lets go of its values.
            for (index, employee) in employees.enumerated() where index != 500 {
                context.refresh(employee, mergeChanges: false)
                #expect(employee.isFault)
            }
            return employees[500]
        }()
        #expect(!kept.isFault)
        #expect(kept.name == "Employee 0500" && kept.age == 0)
        kept.age = 77
        #expect(kept.age == 77)
        try context.save()
        #expect(
            try store.reopened().fetch(EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.age == 77 })).count
                == 1)
    }

    @Test("to-many loads and batch faults read into shared buffers", arguments: StoreKind.allCases)
    func relationshipsAndBatches(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let departments = store.makeDepartments(3)
        for index in 0..<Self.count {
            let employee = EmployeeEntity(context: store.context)
            employee.name = "E\(index)"
            employee.age = Int16(index % 40)
            employee.department = departments[index % 3]
        }
        try store.context.save()

        let context = try store.reopened()
        let fetched = try context.fetch(DepartmentEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        var seen = 0
        for (offset, department) in fetched.enumerated() {
            let employees = department.employees
            seen += employees.count
            for employee in employees {
                #expect(employee.department === department)
                #expect(employee.name.map { Int($0.dropFirst()).map { $0 % 3 == offset } ?? false } ?? false)
            }
        }
        #expect(seen == Self.count)

        let batched = try store.reopened()
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age)])
        request.fetchBatchSize = 50
        let faults = try batched.fetch(request)
        #expect(faults.count == Self.count)
        #expect(faults.map { $0.age ?? -1 } == (0..<Self.count).map { Int16($0 % 40) }.sorted())
    }
}

@Suite("Property names looked up by their bytes, then by content")
struct PropertyNameTableTests {
    @Test("literal, built, long, canonically equivalent and unknown keys")
    func lookups() {
        let long = "aPropertyNameLongerThanFifteenBytes"
        let names = ["age", "name", long, "caf\u{E9}"] + (0..<70).map { "extra\($0)" } + ["age"]
        let table = PropertyNameTable(names)
        defer { table.deallocate() }
        #expect(table.count == names.count)
        #expect(table.index(of: "age") == 0, "the first of equal names")
        #expect(table.index(of: "name") == 1)
        #expect(table.index(of: long) == 2)
        // Built at run time: same characters, other bytes in memory.
        #expect(table.index(of: String("aPropertyNameLonger") + "ThanFifteenBytes") == 2)
        #expect(table.index(of: ["n", "a", "m", "e"].joined()) == 1)
        // Canonically equivalent spellings are the same key, as `String`'s `==` says.
        #expect(table.index(of: "cafe\u{301}") == 3)
        // Past the names compared by bytes first.
        #expect(table.index(of: "extra69") == 73)
        #expect(table.index(of: ["extra", "69"].joined()) == 73)
        #expect(table.index(of: "missing") == nil)
        #expect(table.index(of: "") == nil)
    }

    @Test("an empty table finds nothing")
    func empty() {
        let table = PropertyNameTable([])
        defer { table.deallocate() }
        #expect(table.index(of: "age") == nil)
    }
}
