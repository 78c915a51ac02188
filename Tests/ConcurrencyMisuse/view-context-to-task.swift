// expect-error: risks causing data races
import DataModelRuntime

func misuse(container: PersistentContainer) async throws {
    let context = container.viewContext
    Task.detached { try context.save() }
    try context.save()
}
