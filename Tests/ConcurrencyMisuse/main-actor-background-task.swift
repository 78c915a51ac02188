// expect: ok
import DataModelRuntime

// An app's set-up code is often main-actor isolated: it owns its container there and still runs work on a
// background context (Core Data's `performBackgroundTask`). The call stays on the main actor; only the closure
// runs elsewhere, so nothing non-Sendable is sent.
@MainActor
func mainActorUse(container: PersistentContainer) async throws -> Int {
    let id = try await container.performBackgroundTask { context in
        let object = try context.insertNewObject(forEntityName: "Employee")
        try context.save()
        return object.objectID
    }
    _ = try container.viewContext.existingObject(with: id)
    return try await container.performBackgroundTask { try $0.count(for: FetchRequest<ManagedObject>(entityName: "Employee")) }
}
