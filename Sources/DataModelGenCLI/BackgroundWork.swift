import DataModel
import FoundationEssentials

/// Work started on a thread of its own; ``wait()`` blocks until it is done and returns its result.
///
/// `generate` renders the schema (store layout and SQL) this way while the Swift files render on the
/// calling thread: the two share nothing but immutable inputs.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `outcome` is only read and written with `condition` locked.
    private let condition = PThreadLock()
    private var outcome: Result<Value, any Error>?

    /// Starts `work` on a new thread.
    init(_ work: @escaping @Sendable () throws -> Value) {
        let finish: @Sendable () -> Void = { [self] in
            let result = Result { try work() }
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        if Threads.detached(finish) { return }
        // No thread could be started: the work runs now, on the calling thread.
        finish()
    }

    /// The work's value, or the error it threw, once it has finished. Any number of threads may wait.
    func wait() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return try outcome.get() }
            condition.wait()
        }
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
        let others = elements.dropFirst().map { element in BackgroundWork { transform(element) } }
        var values = [transform(first)]
        for work in others {
            // safe: the work never throws, `transform` is not a throwing function.
            if let value = try? work.wait() { values.append(value) }
        }
        return values
    }
}
