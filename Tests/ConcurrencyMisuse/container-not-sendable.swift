// expect-error: Sendable
import DataModelRuntime

func requireSendable<T: Sendable>(_ value: T) {}

func misuse(container: PersistentContainer) {
    requireSendable(container)
}
