// expect: ok
import DataModelRuntime

func correctUse(container: PersistentContainer, model: ManagedObjectModel) async throws {
    // A new context is handed over to the one task that uses it.
    let context = container.newBackgroundContext()
    let id = try await Task.detached {
        let object = try context.insertNewObject(forEntityName: "Employee")
        try context.save()
        return object.objectID
    }.value
    // IDs cross tasks; the coordinator is Sendable and makes contexts anywhere.
    let coordinator = container.persistentStoreCoordinator
    let found = try await Task.detached {
        try coordinator.newBackgroundContext().existingObject(with: id).objectID
    }.value
    _ = found
    _ = try await container.performBackgroundTask { try $0.existingObject(with: id).objectID }
}
