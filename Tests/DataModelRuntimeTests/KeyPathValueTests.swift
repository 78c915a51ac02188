import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Key paths, several keys at once, relationship faults and Core Data's constant names: what ported code calls on
/// `NSManagedObject` and `NSManagedObjectContext` besides `value(forKey:)`.
@Suite("Key paths, relationship faults and Core Data's constant names")
struct KeyPathValueTests {
    /// Acme with departments R&D (Ann 30, Bob 40) and Ops (no employees); Cy (no department, no age).
    private func seed(_ context: ManagedObjectContext) throws {
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let research = DepartmentEntity(context: context)
        research.name = "R&D"
        let ops = DepartmentEntity(context: context)
        ops.name = "Ops"
        acme.addToDepartments([research, ops])
        for (name, age) in [("Ann", 30), ("Bob", 40)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = Int16(age)
            employee.department = research
            employee.business = acme
        }
        EmployeeEntity(context: context).name = "Cy"
        try context.save()
    }

    @Test("value(forKeyPath:) through to-ones and to-manys, with collection operators", arguments: StoreKind.allCases)
    func keyPaths(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try seed(store.context)
        let context = try store.reopened()
        let employees = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        let (ann, cy) = (employees[0], employees[2])
        #expect(ann.value(forKeyPath: "department.name") as? String == "R&D")
        #expect(ann.value(forKeyPath: "name") as? String == "Ann")
        #expect(cy.value(forKeyPath: "department.name") == nil)
        #expect(ann.value(forKeyPath: "department") as? DepartmentEntity === ann.department)

        let research = try #require(ann.department)
        #expect(research.value(forKeyPath: "employees.name") as? Set<AnyHashable> == ["Ann", "Bob"])
        #expect(research.value(forKeyPath: "employees.@count") as? Int == 2)
        #expect(research.value(forKeyPath: "employees.@sum.age") as? Int64 == 70)
        #expect(research.value(forKeyPath: "employees.@avg.age") as? Double == 35)
        #expect(research.value(forKeyPath: "employees.@min.name") as? String == "Ann")
        #expect(research.value(forKeyPath: "employees.@max.age") as? Int16 == 40)
        let acme = try #require(ann.business)
        // Through two to-manys: one set of every value.
        #expect(acme.value(forKeyPath: "departments.employees.name") as? Set<AnyHashable> == ["Ann", "Bob"])
        #expect(acme.value(forKeyPath: "departments.@count") as? Int == 2)
        let ops = try #require(acme.departments.first { $0.name == "Ops" })
        #expect(ops.value(forKeyPath: "employees.@avg.age") == nil)
        #expect(ops.value(forKeyPath: "employees.@sum.age") as? Int64 == 0)

        ann.setValue("Research", forKeyPath: "department.name")
        #expect(research.name == "Research")
        cy.setValue("Nowhere", forKeyPath: "department.name")  // no department: nothing happens
        #expect(!cy.hasChanges)
        try context.save()
        #expect(
            try store.reopened().fetch(DepartmentEntity.fetchRequest()).compactMap(\.name).sorted() == [
                "Ops", "Research",
            ])
    }

    @Test("setValuesForKeys and dictionaryWithValues(forKeys:), NSNull for no value")
    func severalKeys() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let ann = EmployeeEntity(context: context)
        ann.setValuesForKeys(["name": "Ann", "age": 30, "dateJoined": NSNull()])
        #expect(ann.name == "Ann")
        #expect(ann.age == 30)
        let values = ann.dictionaryWithValues(forKeys: ["name", "age", "dateJoined", "department"])
        #expect(values["name"] as? String == "Ann")
        #expect(values["age"] as? Int16 == 30)
        #expect(values["dateJoined"] is NSNull)
        #expect(values["department"] is NSNull)
        #expect(values.count == 4)
    }

    @Test("relationship faults and IDs without loading objects; registered objects", arguments: StoreKind.allCases)
    func relationshipFaults(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try seed(store.context)
        let context = try store.reopened()
        let research = try #require(
            try context.fetch(DepartmentEntity.fetchRequest().matching(\.name, equals: "R&D")).first)
        #expect(research.hasFault(forRelationshipNamed: "employees"))
        let ids = research.objectIDs(forRelationshipNamed: "employees")
        #expect(ids.count == 2)
        // The IDs are the employees', and reading them made no employee objects beyond what the list load registers.
        let employees = try context.fetch(EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.name != "Cy" }))
        #expect(Set(ids) == Set(employees.map(\.objectID)))
        #expect(!research.hasFault(forRelationshipNamed: "employees"))
        let ann = try #require(employees.first { $0.name == "Ann" })
        #expect(ann.objectIDs(forRelationshipNamed: "department") == [research.objectID])
        #expect(!ann.hasFault(forRelationshipNamed: "department"))
        #expect(context.registeredObject(for: research.objectID) === research)

        let fresh = try store.reopened()
        let freshAnn = try #require(
            try fresh.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Ann")).first)
        #expect(fresh.registeredObject(for: research.objectID) == nil)
        #expect(freshAnn.hasFault(forRelationshipNamed: "department"))  // the department is not registered
        _ = freshAnn.department?.name
        #expect(!freshAnn.hasFault(forRelationshipNamed: "department"))
        #expect(freshAnn.objectIDs(forRelationshipNamed: "business").count == 1)
    }

    @Test func persistentChangedValues() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let ann = EmployeeEntity(context: context)
        #expect(ann.hasPersistentChangedValues)
        try context.save()
        #expect(!ann.hasPersistentChangedValues)
        ann.name = "Ann"
        #expect(ann.hasPersistentChangedValues)
        try context.save()
        ann.name = "Ann"  // the same value: no change
        #expect(!ann.hasPersistentChangedValues)
        context.delete(ann)
        #expect(ann.hasPersistentChangedValues)
    }

    @Test func coreDataConstantNames() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        #expect(context.mergePolicy == .mergeByPropertyObjectTrump)
        let policies = [
            NSErrorMergePolicy, NSMergeByPropertyStoreTrumpMergePolicy, NSOverwriteMergePolicy, NSRollbackMergePolicy,
        ]
        #expect(policies == [.error, .mergeByPropertyStoreTrump, .overwrite, .rollback])
        let description = PersistentStoreDescription()
        description.type = NSInMemoryStoreType
        #expect(description.type == .inMemory)
        description.type = NSSQLiteStoreType
        #expect(description.type == .sqlite)
    }

    @Test func misusesStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
            let ann = EmployeeEntity(context: context)
            ann.department = DepartmentEntity(context: context)
            _ = ann.value(forKeyPath: "department.title")
        }
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
            _ = DepartmentEntity(context: context).value(forKeyPath: "employees.@median.age")
        }
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
            _ = EmployeeEntity(context: context).hasFault(forRelationshipNamed: "boss")
        }
    }
}
