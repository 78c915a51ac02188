// expect-error: risks causing data races
import DataModelRuntime

func misuse(container: PersistentContainer) async throws {
    let context = container.newBackgroundContext()
    let first = Task.detached { try context.save() }
    let second = Task.detached { try context.save() }
    _ = (first, second)
}
