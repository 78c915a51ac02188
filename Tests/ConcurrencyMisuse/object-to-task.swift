// expect-error: risks causing data races
import DataModelRuntime

func misuse(context: ManagedObjectContext) throws {
    let object = try context.insertNewObject(forEntityName: "Employee")
    Task.detached { print(object.objectID) }
    context.delete(object)
}
