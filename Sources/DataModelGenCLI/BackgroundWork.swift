import DataModel
import FoundationEssentials
import ProcessSupport

/// Work started on a thread of its own; ``wait()`` blocks until it is done and returns its result.
///
/// `generate` compiles the templates this way while the model loads, and renders the schema (store layout
/// and SQL) while the Swift files render: they share nothing but immutable inputs.
final class BackgroundWork<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: `outcome` is only read and written with `condition` locked.
    private let condition = PThreadLock()
    private var outcome: Result<Value, Failure>?

    /// Starts `work` on a new thread.
    init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
        let finish: @Sendable () -> Void = { [self] in
            let result = Result { () throws(Failure) -> Value in try work() }
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        if Threads.detached(finish) { return }
        // No thread could be started: the work runs now, on the calling thread.
        finish()
    }

    /// The work's result once it has finished. Any number of threads may wait.
    func result() -> Result<Value, Failure> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return outcome }
            condition.wait()
        }
    }

    /// The work's value, or the error it threw, once it has finished. Any number of threads may wait.
    func wait() throws(Failure) -> Value {
        try result().get()
    }
}

/// Runs a function on every element of an array at once: the first element on the calling thread, each
/// other one on a ``BackgroundWork`` thread. For a handful of large, independent pieces of work.
enum ParallelWork {
    /// `transform` applied to each of `elements`, in order.
    static func map<Element: Sendable, Value: Sendable>(
        _ elements: [Element], _ transform: @escaping @Sendable (Element) -> Value
    ) -> [Value] {
        guard let first = elements.first else { return [] }
        let others = elements.dropFirst().map { element in BackgroundWork<Value, Never> { transform(element) } }
        return [transform(first)] + others.map { $0.wait() }
    }
}
