import Foundation

/// Work started on a thread of its own; ``wait()`` blocks until it is done and returns its result.
///
/// `generate` renders the schema (store layout and SQL) this way while the Swift files render on the
/// calling thread: the two share nothing but immutable inputs.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `outcome` is only read and written with `condition` locked.
    private let condition = NSCondition()
    private var outcome: Result<Value, any Error>?

    /// Starts `work` on a new thread.
    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try work() }
            condition.lock()
            outcome = result
            condition.signal()
            condition.unlock()
        }
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// The work's value, or the error it threw, once it has finished.
    func wait() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return try outcome.get() }
            condition.wait()
        }
    }
}
