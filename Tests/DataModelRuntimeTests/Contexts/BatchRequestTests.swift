import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("Batch delete and batch update")
struct BatchRequestTests {
    /// Acme (departments R&D and Sales, employees Ann, Bob in R&D; Cy in Sales), and Globex
    /// (department Sales too, no employees).
    private func seed(_ context: ManagedObjectContext) throws {
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let globex = BusinessEntity(context: context)
        globex.name = "Globex"
        let research = DepartmentEntity(context: context)
        research.name = "R&D"
        let sales = DepartmentEntity(context: context)
        sales.name = "Sales"
        acme.addToDepartments([research, sales])
        globex.addToDepartments(sales)
        for (name, department) in [("Ann", research), ("Bob", research), ("Cy", sales)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = 30
            employee.business = acme
            employee.department = department
        }
        try context.save()
    }

    private func names<T: ManagedObject>(_ type: T.Type, _ name: KeyPath<T, String?>, in context: ManagedObjectContext)
        throws -> [String]
    {
        try context.fetch(FetchRequest<T>()).compactMap { $0[keyPath: name] }.sorted()
    }

    @Test("cascade deletes employees, nullify removes join rows, contexts learn", arguments: StoreKind.allCases)
    func cascadeAndJoinRows(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try seed(context)
        let acme = try #require(try context.fetch(BusinessEntity.fetchRequest().matching(\.name, equals: "Acme")).first)
        let ann = try #require(acme.employees.first { $0.name == "Ann" })
        let sales = try #require(acme.departments.first { $0.name == "Sales" })
        let watcher = store.container.newBackgroundContext()
        watcher.automaticallyMergesChangesFromParent = true
        let watchedSales = try #require(
            try watcher.fetch(DepartmentEntity.fetchRequest().matching(\.name, equals: "Sales")).first)
        #expect(watchedSales.businesses.count == 2)
        #expect(watchedSales.employees.count == 1)

        let result = try context.execute(
            BatchDeleteRequest<BusinessEntity>(predicate: #Predicate { $0.name == "Acme" }))
        #expect(result.count == 4)  // Acme and its three employees
        #expect(Set(result.changes.deleted) == Set(result.objectIDs))
        #expect(try names(BusinessEntity.self, \.name, in: context) == ["Globex"])
        #expect(try context.count(for: EmployeeEntity.fetchRequest()) == 0)
        #expect(try names(DepartmentEntity.self, \.name, in: context) == ["R&D", "Sales"])
        // The executing context dropped the objects and the references to them.
        #expect(acme.context == nil)
        #expect(ann.context == nil)
        #expect(sales.businesses.map(\.name) == ["Globex"])
        #expect(sales.employees.isEmpty)
        // Another context merged it.
        #expect(watchedSales.businesses.compactMap(\.name) == ["Globex"])
        #expect(watchedSales.employees.isEmpty)
        // A fresh look at the store: no join row or employee left behind.
        let fresh = try store.reopened()
        let freshSales = try #require(
            try fresh.fetch(DepartmentEntity.fetchRequest().matching(\.name, equals: "Sales")).first)
        #expect(freshSales.businesses.compactMap(\.name) == ["Globex"])
        #expect(try fresh.count(for: EmployeeEntity.fetchRequest()) == 0)
    }

    @Test("deny fails the whole request; nullify clears the survivors' foreign keys", arguments: StoreKind.allCases)
    func denyAndNullify(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try seed(context)
        // Departments deny deletion while they have employees.
        let error = try #require(throws: ValidationError.self) {
            try context.execute(BatchDeleteRequest<DepartmentEntity>())
        }
        #expect(error.failures.map(\.rule) == [.deleteDenied, .deleteDenied])
        #expect(try context.count(for: DepartmentEntity.fetchRequest()) == 2)

        // Employees nullify: deleting them leaves departments without employees and no key behind.
        let bob = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Bob")).first)
        let research = try #require(bob.department)
        let deleted = try context.execute(
            BatchDeleteRequest<EmployeeEntity>(predicate: #Predicate { $0.name == "Ann" || $0.name == "Bob" }))
        #expect(deleted.count == 2)
        #expect(research.employees.isEmpty)
        #expect(
            try context.execute(BatchDeleteRequest<DepartmentEntity>(predicate: #Predicate { $0.name == "R&D" })).count
                == 1)
        #expect(try names(DepartmentEntity.self, \.name, in: context) == ["Sales"])
    }

    @Test(
        "a deleted business's to-one on employees is cleared (nullify through the inverse foreign key)",
        arguments: StoreKind.allCases)
    func nullifyInverseForeignKey(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let department = DepartmentEntity(context: context)
        department.name = "Ops"
        let employee = EmployeeEntity(context: context)
        employee.name = "Eve"
        employee.department = department
        try context.save()
        let result = try context.execute(BatchDeleteRequest<EmployeeEntity>())
        #expect(result.count == 1)
        #expect(result.changes.updated.isEmpty)
        let business = BusinessEntity(context: context)
        business.name = "Initech"
        let worker = EmployeeEntity(context: context)
        worker.name = "Flo"
        worker.business = business
        try context.save()
        // Businesses cascade to employees; nothing survives to nullify.
        #expect(try context.execute(BatchDeleteRequest<BusinessEntity>()).count == 2)
    }

    @Test(
        "batch update sets attributes in SQL, bumps versions, and refreshes held objects", arguments: StoreKind.allCases
    )
    func batchUpdate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try seed(context)
        let ann = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Ann")).first)
        let other = store.container.newBackgroundContext()
        let otherAnn = try #require(try other.existingObject(with: ann.objectID) as? EmployeeEntity)
        _ = otherAnn.name

        let result = try context.execute(
            BatchUpdateRequest<EmployeeEntity>(predicate: #Predicate { $0.name != "Cy" })
                .setting(\.age, to: 41)
                .setting("name", to: "Anonymous" as String?))
        #expect(result.count == 2)
        #expect(ann.age == 41)
        #expect(ann.name == "Anonymous")
        #expect(!ann.hasChanges)
        let stored = try store.reopened().fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name) == ["Anonymous", "Anonymous", "Cy"])
        #expect(stored.map(\.age) == [41, 41, 30])
        // A context holding an older copy conflicts, as with any other context's save.
        otherAnn.age = 1
        #expect(throws: MergeConflict.self) { try other.save() }
        // Unknown properties are refused before anything is written.
        #expect(throws: StoreError.self) {
            try context.execute(BatchUpdateRequest<EmployeeEntity>().setting("salary", to: 1 as Int64?))
        }
    }

    @Test(
        "propertiesToUpdate, Core Data's spelling: Swift values converted, NSNull clears, bad ones refused",
        arguments: StoreKind.allCases)
    func propertiesToUpdate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try seed(context)
        var update = BatchUpdateRequest<EmployeeEntity>(predicate: #Predicate { $0.name != "Cy" })
        #expect(update.propertiesToUpdate == nil)
        let joined = Date(timeIntervalSince1970: 1_700_000_000)
        update.propertiesToUpdate = ["age": 41, "dateJoined": joined]
        update.resultType = .updatedObjectIDsResultType
        let result = try context.execute(update)
        #expect(result.count == 2)
        let people = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(people.map(\.age) == [41, 41, 30])
        #expect(people.map(\.dateJoined) == [joined, joined, nil])

        var clear = BatchUpdateRequest<EmployeeEntity>()
        clear.propertiesToUpdate = ["dateJoined": NSNull(), "name": String?.none as Any]
        try context.execute(clear)
        #expect(try context.fetch(EmployeeEntity.fetchRequest()).allSatisfy { $0.dateJoined == nil && $0.name == nil })

        var unknown = BatchUpdateRequest<EmployeeEntity>()
        unknown.propertiesToUpdate = ["salary": 1]
        #expect(throws: StoreError.unknownProperty(entity: "EmployeeEntity", property: "salary")) {
            try context.execute(unknown)
        }
        var wrong = BatchUpdateRequest<EmployeeEntity>()
        wrong.propertiesToUpdate = ["age": 30, "name": 7]
        #expect(
            throws: StoreError.invalidFetchRequest(
                entity: "EmployeeEntity", reason: "propertiesToUpdate: name takes String, not a value of type Int")
        ) {
            try context.execute(wrong)
        }
        #expect(try context.fetch(EmployeeEntity.fetchRequest()).allSatisfy { $0.age == 41 || $0.age == 30 })
    }

    @Test("a predicate SQL cannot express is still answered exactly", arguments: StoreKind.allCases)
    func memoryPredicate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        let context = store.context
        try seed(context)
        let result = try context.execute(
            BatchDeleteRequest<EmployeeEntity>(predicate: #Predicate { ($0.name ?? "").starts(with: "B") }))
        #expect(result.count == 1)
        #expect(try names(EmployeeEntity.self, \.name, in: context) == ["Ann", "Cy"])
    }
}
