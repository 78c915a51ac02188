import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Observation
import Synchronization
import Testing

/// Counts `withObservationTracking` change notifications.
private final class ChangeCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

@Suite("Observation: generated classes are Observable")
struct ObservationTests {
    /// Tracks `read` once; the counter goes up when a property it read changes.
    private func track(_ read: () -> Void) -> ChangeCounter {
        let counter = ChangeCounter()
        withObservationTracking(read) { counter.increment() }
        return counter
    }

    @Test("a setter notifies observers of that property only, on that object only")
    func ownEdits() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let ann = EmployeeEntity(context: context)
        let bob = EmployeeEntity(context: context)
        let name = track { _ = ann.name }
        let age = track { _ = ann.age }
        let other = track { _ = bob.name }
        ann.name = "Ann"
        #expect(name.value == 1)
        #expect(age.value == 0)
        #expect(other.value == 0)
    }

    @Test("relationship changes notify both sides")
    func relationships() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let department = DepartmentEntity(context: context)
        let ann = EmployeeEntity(context: context)
        let employees = track { _ = department.employees }
        let owner = track { _ = ann.department }
        ann.department = department
        #expect(employees.value == 1)
        #expect(owner.value == 1)
    }

    @Test("rollback, refresh and merges from other contexts notify", arguments: StoreKind.allCases)
    func contextChanges(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        context.automaticallyMergesChangesFromParent = true
        let ann = EmployeeEntity(context: context)
        ann.name = "Ann"
        try context.save()

        ann.name = "Anna"
        let rolledBack = track { _ = ann.name }
        context.rollback()
        #expect(rolledBack.value == 1)
        #expect(ann.name == "Ann")

        let merged = track { _ = ann.name }
        let untouched = track { _ = ann.age }
        let background = store.container.newBackgroundContext()
        (try background.existingObject(with: ann.objectID) as? EmployeeEntity)?.name = "Bea"
        try background.save()
        // The merge happens at the next access or operation of the context.
        _ = try context.count(for: EmployeeEntity.fetchRequest())
        #expect(merged.value == 1)
        #expect(untouched.value == 0)
        #expect(ann.name == "Bea")

        ann.age = 3
        let refreshed = track { _ = ann.age }
        context.refresh(ann, mergeChanges: false)
        #expect(refreshed.value == 1)
        #expect(ann.age == 0)  // the stored default
    }
}
