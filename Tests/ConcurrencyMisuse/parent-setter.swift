// expect-error: a child context is created with its parent: ManagedObjectContext(parent: context)
import DataModelRuntime

// Core Data's `child.parent = context` is refused with what to write instead.
func port(child: ManagedObjectContext, context: ManagedObjectContext) {
    child.parent = context
}
