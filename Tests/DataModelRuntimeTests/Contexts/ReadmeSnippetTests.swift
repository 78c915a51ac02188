import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Observation
import Testing

/// The README's "Several tasks, one store" snippet, as written there.
@Suite("README: several tasks, one store")
struct ReadmeSnippetTests {
    @Test func snippetRuns() async throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext

        let coordinator = container.persistentStoreCoordinator  // Sendable: share it with request handlers
        let id = try await container.performBackgroundTask { context in  // a new context, off the caller's executor
            let ann = EmployeeEntity(context: context)
            ann.name = "Ann"
            try context.save()
            return ann.objectID
        }
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true  // other contexts' saves show up here
        let ann = try view.existingObject(with: id) as? EmployeeEntity
        let worker = coordinator.newBackgroundContext()  // handed over to the task that uses it
        worker.mergePolicy = .mergeByPropertyObjectTrump  // default .error throws MergeConflict
        try context.execute(BatchDeleteRequest<EmployeeEntity>(predicate: #Predicate { $0.age ?? 0 > 65 }))
        try context.execute(BatchUpdateRequest<EmployeeEntity>().setting(\.age, to: 30))
        withObservationTracking {
            _ = ann?.name
        } onChange: {
            print("renamed")
        }  // objects are Observable

        #expect(ann?.name == "Ann")
        #expect(ann?.age == 30)
    }
}
