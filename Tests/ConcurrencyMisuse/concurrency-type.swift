// expect-error: contexts have no queues here: use ManagedObjectContext(parent: context) for a child context
import DataModelRuntime

// Core Data's spelling is refused with what to write instead.
func port() -> ManagedObjectContext {
    ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
}
