extension ManagedObjectContext {
    /// Runs `body` and returns its result, as Core Data's `performAndWait(_:)`.
    ///
    /// A context belongs to the isolation domain that uses it (the compiler keeps it there), so
    /// there is no queue to hop to: the block runs right away, on the caller's thread.
    public func performAndWait<Value>(_ body: () throws -> Value) rethrows -> Value {
        try body()
    }

    /// Runs `body`, as Core Data's `perform(_:)`: right away, in the caller's isolation domain.
    public func perform(_ body: () -> Void) {
        body()
    }

    /// Runs `body` and returns its result, as Core Data's `async` `perform(_:)`: on the caller's
    /// actor (the context never leaves the isolation domain that owns it).
    public nonisolated(nonsending) func perform<Value>(_ body: () throws -> Value) async rethrows -> Value {
        try body()
    }
}
