// expect-error: risks causing data races
import DataModelRuntime

// A fetch request is mutable (a class, as Core Data's NSFetchRequest): one shared with another task while this
// one keeps changing it is refused.
final class Employee: ManagedObject {}

func misuse(coordinator: PersistentStoreCoordinator) {
    let request = FetchRequest<Employee>(entityName: "Employee")
    Task.detached { _ = try coordinator.newBackgroundContext().fetch(request) }
    request.fetchLimit = 10
}
