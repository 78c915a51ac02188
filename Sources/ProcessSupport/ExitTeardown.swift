import Synchronization

/// Lets a short-lived process skip deallocating its large object graphs.
///
/// Freeing a big model, its template contexts and its store layout one object at a time costs about as
/// much as building them; a command-line tool that exits right afterwards gains nothing from it. Once
/// ``skipDeallocation()`` is called (the `datamodelgen` executable does it first thing), values handed
/// to ``keep(_:)`` are retained until the process exits; until then, as in tests and other library
/// users, ``keep(_:)`` does nothing and values are freed as usual.
public enum ExitTeardown {
    private static let skipping = Atomic<Bool>(false)

    /// Makes ``keep(_:)`` keep values until the process exits. Call only from a process that exits soon.
    public static func skipDeallocation() {
        skipping.store(true, ordering: .relaxed)
    }

    /// Whether values handed to ``keep(_:)`` are kept until the process exits.
    public static var isSkippingDeallocation: Bool { skipping.load(ordering: .relaxed) }

    /// Keeps `value` (and everything it references) alive until the process exits, when deallocation
    /// is being skipped; otherwise does nothing.
    @inline(__always)
    public static func keep<Value>(_ value: Value) {
        guard isSkippingDeallocation else { return }
        // One extra reference that is never released: the graph is never torn down.
        _ = Unmanaged.passRetained(Box(value))
    }

    private final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
