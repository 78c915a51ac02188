import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("Several contexts: merging saves, refresh, objects by ID")
struct MergingTests {
    /// A department "R&D" with employees Ann and Bob, saved.
    private func seed(_ context: ManagedObjectContext) throws -> (department: ObjectID, ann: ObjectID, bob: ObjectID) {
        let department = DepartmentEntity(context: context)
        department.name = "R&D"
        let ann = EmployeeEntity(context: context)
        ann.name = "Ann"
        let bob = EmployeeEntity(context: context)
        bob.name = "Bob"
        department.addToEmployees([ann, bob])
        try context.save()
        return (department.objectID, ann.objectID, bob.objectID)
    }

    @Test("a merging context sees another context's saves without refetching", arguments: StoreKind.allCases)
    func automaticMerge(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        view.automaticallyMergesChangesFromParent = true
        let ids = try seed(view)
        let department = try #require(try view.existingObject(with: ids.department) as? DepartmentEntity)
        let ann = try #require(try view.existingObject(with: ids.ann) as? EmployeeEntity)
        let bob = try #require(try view.existingObject(with: ids.bob) as? EmployeeEntity)
        #expect(department.employees.count == 2)

        let background = store.container.newBackgroundContext()
        let backgroundAnn = try #require(try background.existingObject(with: ids.ann) as? EmployeeEntity)
        backgroundAnn.name = "Anna"
        background.delete(try background.existingObject(with: ids.bob))
        let carl = EmployeeEntity(context: background)
        carl.name = "Carl"
        carl.department = try background.existingObject(with: ids.department) as? DepartmentEntity
        try background.save()

        // Plain property reads: the view context merged on access.
        #expect(ann.name == "Anna")
        #expect(!ann.hasChanges)
        #expect(bob.context == nil)
        #expect(Set(department.employees.compactMap(\.name)) == ["Anna", "Carl"])
        #expect(try view.count(for: EmployeeEntity.fetchRequest()) == 2)
    }

    @Test("merging keeps this context's unsaved changes on top, and the next save does not conflict")
    func mergeKeepsLocalChanges() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        view.automaticallyMergesChangesFromParent = true
        let ids = try seed(view)
        let ann = try #require(try view.existingObject(with: ids.ann) as? EmployeeEntity)
        ann.age = 33

        let background = store.container.newBackgroundContext()
        let other = try #require(try background.existingObject(with: ids.ann) as? EmployeeEntity)
        other.name = "Anna"
        try background.save()

        #expect(ann.name == "Anna")
        #expect(ann.age == 33)
        #expect(ann.isUpdated)
        try view.save()
        let check = try #require(try store.reopened().existingObject(with: ids.ann) as? EmployeeEntity)
        #expect(check.name == "Anna")
        #expect(check.age == 33)
    }

    @Test("without merging a context keeps what it read until it refreshes")
    func refresh() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let ids = try seed(view)
        let ann = try #require(try view.existingObject(with: ids.ann) as? EmployeeEntity)
        let background = store.container.newBackgroundContext()
        (try background.existingObject(with: ids.ann) as? EmployeeEntity)?.name = "Anna"
        try background.save()
        #expect(ann.name == "Ann")

        ann.age = 20
        view.refresh(ann, mergeChanges: true)
        #expect(ann.name == "Anna")
        #expect(ann.age == 20)
        #expect(ann.isUpdated)

        view.refresh(ann, mergeChanges: false)
        #expect(ann.isFault)
        #expect(!ann.hasChanges)
        #expect(ann.age == 0)  // the stored default
        #expect(ann.name == "Anna")
        #expect(!view.hasChanges)
    }

    @Test("mergeChanges(_:) by hand, with the IDs of another context's changes")
    func mergeByHand() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        let view = store.context
        let ids = try seed(view)
        let department = try #require(try view.existingObject(with: ids.department) as? DepartmentEntity)
        #expect(department.employees.count == 2)
        let background = store.container.newBackgroundContext()
        let result = try background.execute(
            BatchUpdateRequest<EmployeeEntity>(predicate: #Predicate { $0.name == "Bob" }).setting(\.age, to: 50))
        #expect(result.count == 1)
        let bob = try #require(try view.existingObject(with: ids.bob) as? EmployeeEntity)
        #expect(bob.age == 0)  // the model's default
        view.mergeChanges(result.changes)
        #expect(bob.age == 50)
    }

    @Test("performBackgroundTask runs on another task with its own context")
    func performBackgroundTask() async throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let id = try await container.performBackgroundTask { context in
            let employee = EmployeeEntity(context: context)
            employee.name = "Dora"
            try context.save()
            return employee.objectID
        }
        let name = try await container.performBackgroundTask { context in
            (try context.existingObject(with: id) as? EmployeeEntity)?.name
        }
        #expect(name == "Dora")
        #expect((try container.viewContext.existingObject(with: id) as? EmployeeEntity)?.name == "Dora")
    }
}
