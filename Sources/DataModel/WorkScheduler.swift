/// How the generator's pure stages run independent pieces of work, and what becomes of the large graphs
/// they build once they are done with them.
///
/// The stages (validation, rendering) never start threads or reach into the process themselves: the shell
/// that runs them passes a scheduler in. ``SequentialWork``, the default, runs everything on the calling
/// thread and frees every graph as usual, which is what tests and library users get; the `datamodelgen`
/// executable passes one on threads of its own that keeps graphs alive until it exits
/// (`ProcessSupport.ThreadedWork`).
public protocol WorkScheduler: Sendable {
    /// How many threads it is worth splitting work into (1 when everything runs on the calling thread).
    var availableThreads: Int { get }

    /// Calls `body` with every index in `0..<count`, on up to `threads` threads (the calling thread among
    /// them). Returns once every call has returned, so what the calls wrote is visible to the caller.
    func forEach(count: Int, threads: Int, _ body: @Sendable (Int) -> Void)

    /// Called with a large value a stage is done with. A process about to exit may keep it (and everything
    /// it references) alive rather than free it one object at a time; anything else lets it go.
    func discard<Value>(_ value: Value)
}

/// Runs every piece of work on the calling thread, one after the other, and frees what is discarded.
public struct SequentialWork: WorkScheduler {
    /// Creates the scheduler.
    public init() {}

    /// One: everything runs on the calling thread.
    public var availableThreads: Int { 1 }

    /// Calls `body` with every index in `0..<count`, in order, on the calling thread.
    public func forEach(count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
        for index in 0..<count { body(index) }
    }

    /// Does nothing: `value` is freed as usual.
    @inline(__always)
    public func discard<Value>(_ value: Value) {}
}

extension WorkScheduler where Self == SequentialWork {
    /// Everything on the calling thread (the default of every stage).
    public static var sequential: SequentialWork { SequentialWork() }
}
