// expect: ok
import DataModelRuntime

// A fetch request made in one task is handed over to another that is its only user, or made where it is used.
final class Employee: ManagedObject {}

func correctUse(container: PersistentContainer) async throws {
    let request = FetchRequest<Employee>(entityName: "Employee")
    request.fetchLimit = 10
    let context = container.newBackgroundContext()
    let count = try await Task.detached { try context.fetch(request).count }.value
    let total = try await container.performBackgroundTask { context in
        let everyone = FetchRequest<Employee>(entityName: "Employee")
        everyone.sortDescriptors = []
        return try context.count(for: everyone)
    }
    _ = (count, total)
}
