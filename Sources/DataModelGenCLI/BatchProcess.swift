import DataModel
import ProcessSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Settings for a process that runs one command and exits: the `datamodelgen` executable, not a library user.
public enum BatchProcess {
    /// Call first thing in `main`, before any thread starts.
    ///
    /// - Large object graphs are not freed one object at a time at exit (``ExitTeardown``).
    /// - With glibc, memory freed during the run stays with the process for reuse instead of going back to
    ///   the kernel and being faulted in again (`M_TRIM_THRESHOLD`), large blocks come from the heap rather
    ///   than from a fresh mapping each (`M_MMAP_THRESHOLD`), and the heap grows in large steps
    ///   (`M_TOP_PAD`). Generating a large model touches a hundred megabytes; without this a fifth of the
    ///   kernel time went to page faults for memory freed and allocated again. Elsewhere it does nothing.
    public static func prepare() {
        active.store(true, ordering: .relaxed)
        ExitTeardown.skipDeallocation()
        tuneMalloc()
    }

    private static let active = Atomic<Bool>(false)

    /// Whether ``prepare()`` was called: the process runs one command and exits, so a command may hand the process
    /// over to another program (`migrate` on a PostgreSQL URL becomes `datamodelgen-postgres`: ``PostgresTool``).
    public static var isActive: Bool { active.load(ordering: .relaxed) }

    /// Ends the process with `code` as soon as its output is out: C's buffered streams are flushed, and then
    /// the process ends without running exit handlers, which only free memory the kernel reclaims anyway.
    public static func exit(_ code: ExitCode) -> Never {
        fflush(nil)
        _exit(code.rawValue)
    }

    private static func tuneMalloc() {
        #if canImport(Glibc)
            // `mallopt` is not in the Glibc module; look it up (it is part of every glibc).
            typealias MalloptFunction = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: MalloptFunction.self)
            // The values of M_TRIM_THRESHOLD, M_TOP_PAD and M_MMAP_THRESHOLD in glibc's <malloc.h>.
            _ = mallopt(-1, 1 << 30)
            _ = mallopt(-2, 16 << 20)
            _ = mallopt(-3, 64 << 20)
        #endif
    }
}
