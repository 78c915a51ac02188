import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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
        #if canImport(Glibc)
            // A POSIX thread of our own: starting one costs a fraction of a Foundation `Thread`'s first start.
            if ThreadStart.detached(stackSize: 16 << 20, finish) { return }
        #endif
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

    /// Calls `body` with every index in `0..<count`, on up to `threads` threads (the calling thread among them),
    /// each taking the next index when it is done with one. Returns once every call has returned.
    static func forEach(count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let next = IndexCounter()
        let workers = max(1, min(threads, count))
        let run: @Sendable () -> Void = {
            while true {
                let index = next.value.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
        let others = (1..<max(1, workers)).map { _ in BackgroundWork { run() } }
        run()
        for work in others { _ = try? work.wait() }
    }
}

/// The next index to hand out, shared by the threads of ``ParallelWork/forEach(count:threads:_:)``.
private final class IndexCounter: Sendable {
    let value = Atomic<Int>(0)
}

#if canImport(Glibc)
    /// Starts detached POSIX threads.
    enum ThreadStart {
        /// The closure a new thread runs, passed through `pthread_create`'s argument.
        private final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }

        /// Runs `body` on a new detached thread with a stack of `stackSize` bytes; false when no thread could
        /// be started (then `body` has not run).
        static func detached(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
            var attributes = pthread_attr_t()
            guard pthread_attr_init(&attributes) == 0 else { return false }
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            let argument = Unmanaged.passRetained(Body(body)).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(
                &thread, &attributes,
                { argument in
                    guard let argument else { return nil }
                    Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
                    return nil
                }, argument)
            guard started == 0 else {
                Unmanaged<Body>.fromOpaque(argument).release()
                return false
            }
            return true
        }
    }
#endif
