import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Observation
import Testing

@Suite("Fetch request options: pending changes and prefetching")
struct FetchOptionsTests {
    @Test("includesPendingChanges false selects the store's rows alone", arguments: StoreKind.allCases)
    func pendingChanges(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for name in ["Ann", "Bob"] { EmployeeEntity(context: context).name = name }
        try context.save()
        EmployeeEntity(context: context).name = "Cy"
        let bob = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Bob")).first)
        context.delete(bob)

        let all = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        #expect(try context.fetch(all).compactMap(\.name) == ["Ann", "Cy"])
        #expect(try context.count(for: all) == 2)
        let stored = all.includingPendingChanges(false)
        #expect(stored.includesPendingChanges == false)
        #expect(try context.count(for: stored) == 2)
        #expect(try context.fetch(stored).compactMap(\.name) == ["Ann", "Bob"])
        let named = EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.name == "Cy" })
        #expect(try context.count(for: named) == 1)
        #expect(try context.count(for: named.includingPendingChanges(false)) == 0)
    }

    @Test("prefetching loads relationships in one query per relationship", arguments: StoreKind.allCases)
    func prefetching(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let setup = store.context
        let acme = BusinessEntity(context: setup)
        acme.name = "Acme"
        for index in 0..<3 {
            let department = DepartmentEntity(context: setup)
            department.name = "D\(index)"
            acme.addToDepartments(department)
            for member in 0..<4 {
                let employee = EmployeeEntity(context: setup)
                employee.name = "E\(index)-\(member)"
                employee.department = department
                employee.business = acme
            }
        }
        try setup.save()

        let context = try store.reopened()
        let request = DepartmentEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
            .prefetching("employees", "businesses.employees")
        #expect(request.relationshipKeyPathsForPrefetching == ["employees", "businesses.employees"])
        let departments = try context.fetch(request)
        // Everything reached is registered and loaded, no fault left to fire.
        #expect(context.registeredObjects.count == 3 + 12 + 1)
        #expect(context.registeredObjects.allSatisfy { !$0.isFault })
        #expect(departments.map { $0.employees.count } == [4, 4, 4])
        #expect(departments.first?.businesses.first?.employees.count == 12)

        // To-one prefetching: the employees' departments.
        let other = try store.reopened()
        let employees = try other.fetch(EmployeeEntity.fetchRequest().prefetching("department", "nonsense"))
        #expect(employees.count == 12)
        #expect(other.registeredObjects.count == 15)
        #expect(other.registeredObjects.allSatisfy { !$0.isFault })
        #expect(Set(employees.compactMap(\.department?.name)) == ["D0", "D1", "D2"])
    }
}

@Suite("Fetch batch size")
struct FetchBatchTests {
    @Test("results are faults loaded a batch at a time", arguments: StoreKind.allCases)
    func batches(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        for index in 0..<25 {
            let employee = EmployeeEntity(context: store.context)
            employee.name = String(format: "E%02d", index)
            employee.age = Int16(index)
        }
        try store.context.save()
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age)])
        request.fetchBatchSize = 10
        let employees = try context.fetch(request)
        #expect(employees.count == 25)
        let allFaults = employees.allSatisfy { $0.isFault }
        #expect(allFaults)
        #expect(employees[12].name == "E12")
        // The second batch (10–19) is loaded, the others are still faults.
        let faults = employees.map { $0.isFault }
        #expect(
            faults == Array(repeating: true, count: 10) + Array(repeating: false, count: 10)
                + Array(repeating: true, count: 5))
        #expect(employees.map(\.name) == (0..<25).map { String(format: "E%02d", $0) })
        let noFault = employees.allSatisfy { !$0.isFault }
        #expect(noFault)
    }
}

extension FetchOptionsTests {
    @Test(
        "includesPropertyValues false reads keys only: faults that load their own values", arguments: StoreKind.allCases
    )
    func keysOnly(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        for index in 0..<6 {
            let employee = EmployeeEntity(context: store.context)
            employee.name = "E\(index)"
            employee.age = Int16(20 + index)
        }
        try store.context.save()
        let context = try store.reopened()
        let known = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "E2")).first)
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age)])
        #expect(request.includesPropertyValues)
        request.includesPropertyValues = false
        let employees = try context.fetch(request)
        #expect(employees.count == 6)
        // Registered objects keep their values; the others are faults until read, each loading only itself.
        #expect(employees.map(\.isFault) == [true, true, false, true, true, true])
        #expect(employees[2] === known)
        #expect(employees[4].name == "E4")
        #expect(employees.map(\.isFault) == [true, true, false, true, false, true])
        #expect(employees.map(\.age) == (20..<26).map { Int16($0) })

        // The common use: deleting many objects without reading them.
        let doomed = EmployeeEntity.fetchRequest()
        doomed.includesPropertyValues = false
        for employee in try context.fetch(doomed) { context.delete(employee) }
        try context.save()
        #expect(try store.reopened().count(for: EmployeeEntity.fetchRequest()) == 0)
    }

    @Test(
        "shouldRefreshRefetchedObjects brings registered objects up to date, unsaved changes on top",
        arguments: StoreKind.allCases)
    func refreshRefetched(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let ann = EmployeeEntity(context: view)
        ann.name = "Ann"
        ann.age = 30
        let bob = EmployeeEntity(context: view)
        bob.name = "Bob"
        bob.age = 40
        try view.save()

        let other = store.container.newBackgroundContext()
        for employee in try other.fetch(EmployeeEntity.fetchRequest()) { employee.age = (employee.age ?? 0) + 1 }
        try other.save()

        // By default a fetch leaves registered objects as they are.
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        #expect(!request.shouldRefreshRefetchedObjects)
        #expect(try view.fetch(request).map(\.age) == [30, 40])

        bob.name = "Robert"  // unsaved
        let told = ObservedChange()
        withObservationTracking {
            _ = ann.age
        } onChange: {
            told.changed = true
        }
        request.shouldRefreshRefetchedObjects = true
        let refreshed = try view.fetch(request)
        #expect(refreshed.map(\.age) == [31, 41])
        #expect(told.changed)
        #expect(bob.name == "Robert")
        #expect(bob.hasChanges)
        #expect(!ann.hasChanges)
        // The objects carry the rows' versions now: saving on top of the other context's change is no conflict.
        try view.save()
        let reread = try store.reopened().fetch(request)
        #expect(reread.compactMap(\.name) == ["Ann", "Robert"])
        #expect(reread.map(\.age) == [31, 41])
    }

    @Test("Core Data's 0 is no limit and no offset; returnsObjectsAsFaults is accepted", arguments: StoreKind.allCases)
    func coreDataWindowSpellings(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for name in ["Ann", "Bob", "Cy"] { EmployeeEntity(context: context).name = name }
        try context.save()
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        request.fetchLimit = 0
        request.fetchOffset = 0
        #expect(request.fetchLimit == nil)
        #expect(request.fetchOffset == nil)
        #expect(try context.fetch(request).compactMap(\.name) == ["Ann", "Bob", "Cy"])
        #expect(try context.count(for: request) == 3)
        #expect(try context.fetch(request.limited(to: 0)).count == 3)
        #expect(try context.fetch(request.limited(to: 2)).compactMap(\.name) == ["Ann", "Bob"])
        #expect(FetchRequest<EmployeeEntity>(entityName: "EmployeeEntity", fetchLimit: 0).fetchLimit == nil)

        // A controller takes a request whose window is Core Data's 0s.
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.count == 3)

        #expect(request.returnsObjectsAsFaults)
        request.returnsObjectsAsFaults = false
        #expect(try context.fetch(request).allSatisfy { !$0.isFault })
    }
}

@Suite("Sorting")
struct SortingTests {
    @Test("several keys, either order, optional values, across a to-one key path", arguments: StoreKind.allCases)
    func acrossToOne(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let ops = DepartmentEntity(context: context)
        ops.name = "Ops"
        let dev = DepartmentEntity(context: context)
        dev.name = "Dev"
        let rows: [(String, DepartmentEntity?, Int16)] = [
            ("Ann", ops, 30), ("Bob", dev, 40), ("Cy", nil, 20), ("Dee", dev, 40), ("Eve", ops, 25),
        ]
        for (name, department, age) in rows {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.department = department
            employee.age = age
        }
        for saved in [false, true] {
            if saved { try context.save() }
            let byDepartment = try context.fetch(
                EmployeeEntity.fetchRequest().sorted(by: [
                    SortDescriptor(\.department?.name), SortDescriptor(\.age, order: .reverse), SortDescriptor(\.name),
                ]))
            // nil sorts first, as Swift's optional ordering in SortDescriptor does.
            #expect(byDepartment.compactMap(\.name) == ["Cy", "Bob", "Dee", "Ann", "Eve"], "saved: \(saved)")
            let window = try context.fetch(
                EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.department?.name, order: .reverse)])
                    .limited(to: 2).offset(by: 1))
            #expect(window.compactMap(\.name) == ["Eve", "Bob"], "saved: \(saved)")
        }
    }
}

/// Whether an observation tracking's `onChange` ran (it runs on the thread that changes the value: the test's).
private final class ObservedChange: @unchecked Sendable {  // safe: written and read on the test's thread
    var changed = false
}
