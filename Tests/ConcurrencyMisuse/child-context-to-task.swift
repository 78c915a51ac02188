// expect-error: risks causing data races
import DataModelRuntime

// A child context holds its parent: it belongs to the parent's isolation domain.
func misuse(context: ManagedObjectContext) {
    let child = ManagedObjectContext(parent: context)
    Task.detached { try child.save() }
    context.rollback()
}
