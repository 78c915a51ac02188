import DataModel
import FoundationEssentials

/// The scheduler the `datamodelgen` executable hands the generator's stages: work on POSIX threads
/// (``Threads``), and graphs kept until the process exits once ``ExitTeardown/skipDeallocation()`` was called.
public struct ThreadedWork: WorkScheduler {
    /// Creates the scheduler.
    public init() {}

    /// The processors the process may run on.
    public var availableThreads: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Calls `body` with every index in `0..<count` on up to `threads` threads (see ``Threads/forEach(count:threads:_:)``).
    public func forEach(count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
        Threads.forEach(count: count, threads: threads, body)
    }

    /// Keeps `value` until the process exits when deallocation is skipped (see ``ExitTeardown/keep(_:)``).
    @inline(__always)
    public func discard<Value>(_ value: Value) {
        ExitTeardown.keep(value)
    }
}
