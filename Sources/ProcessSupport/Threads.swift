import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Dispatch)
    import Dispatch
#endif

/// POSIX threads for the few large, independent pieces of work the tool splits (validating the
/// entities of a large model, rendering files, writing them).
///
/// Not Dispatch: its library starts with the process (it reads the processor list and sets up its
/// pools before `main`), which a short run like generating a small model pays for whether it uses
/// it or not; and a thread of our own starts sooner than its pool's first one.
public enum Threads {
    /// The stack each thread gets: room for deeply nested templates and models.
    public static let stackSize = 16 << 20

    /// Runs `body` on a new thread that nobody joins; false when no thread could be started (then
    /// `body` has not run).
    public static func detached(_ body: @escaping @Sendable () -> Void) -> Bool {
        #if canImport(Glibc)
            return start(joinable: false, body) != nil
        #elseif canImport(Dispatch)
            // Elsewhere (macOS) Dispatch is part of the system and costs nothing at start-up.
            DispatchQueue.global().async(execute: body)
            return true
        #else
            return false
        #endif
    }

    /// Calls `body` with every index in `0..<iterations` at once: index 0 on the calling thread, each
    /// other one on a thread of its own (or, when no thread can be started, on the calling thread
    /// after). Returns when every call has returned, so what the calls wrote is visible to the caller.
    public static func perform(iterations: Int, _ body: @Sendable (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        #if canImport(Glibc)
            withoutActuallyEscaping(body) { body in
                var started: [pthread_t] = []
                var left: [Int] = []
                for index in 1..<iterations {
                    if let thread = start(joinable: true, { body(index) }) {
                        started.append(thread)
                    } else {
                        left.append(index)
                    }
                }
                body(0)
                for index in left { body(index) }
                for thread in started { pthread_join(thread, nil) }
            }
        #elseif canImport(Dispatch)
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
        #else
            for index in 0..<iterations { body(index) }
        #endif
    }

    /// Calls `body` with every index in `0..<count`, on up to `threads` threads (the calling thread
    /// among them), each taking the next index when it is done with one. Returns once every call
    /// has returned.
    public static func forEach(count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
        let workers = max(1, min(threads, count))
        guard workers > 1 else {
            for index in 0..<count { body(index) }
            return
        }
        let next = Atomic<Int>(0)
        perform(iterations: workers) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
    }

    #if canImport(Glibc)
        /// The closure a new thread runs, passed through `pthread_create`'s argument.
        private final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }

        /// A new thread running `body`, or `nil` when none could be started.
        private static func start(joinable: Bool, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
            var attributes = pthread_attr_t()
            guard pthread_attr_init(&attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            if !joinable { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
            let argument = Unmanaged.passRetained(Body(body)).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(
                &thread, &attributes,
                { argument in
                    guard let argument else { return nil }
                    Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
                    return nil
                }, argument)
            guard result == 0 else {
                Unmanaged<Body>.fromOpaque(argument).release()
                return nil
            }
            return thread
        }
    #endif
}
