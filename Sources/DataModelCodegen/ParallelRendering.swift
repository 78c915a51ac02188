import DataModel

/// Maps independent pieces of work over a few threads, keeping the results in order.
enum ParallelRendering {
    /// `transform` applied to every element, in order, run on up to `parallelism` threads of `scheduler` (the
    /// calling thread among them), each taking the next element when it is done with one.
    static func map<Element: Sendable, Value: Sendable>(
        _ elements: [Element], parallelism: Int, on scheduler: any WorkScheduler,
        _ transform: @Sendable (Element) -> Value
    ) -> [Value] {
        guard min(parallelism, elements.count) > 1 else { return elements.map(transform) }
        let slots = ResultSlots<Value>(count: elements.count)
        scheduler.forEach(count: elements.count, threads: parallelism) { index in
            slots.store(transform(elements[index]), at: index)
        }
        return slots.values()
    }
}

/// One slot per result, each written once by the thread that computed it.
private final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every index is written by exactly one thread, and `values()` reads them after
    // the scheduler's `forEach` has returned, which orders those writes before the reads.
    private let storage: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func store(_ value: Value, at index: Int) {
        storage[index] = value
    }

    /// The results, once every slot is filled.
    func values() -> [Value] {
        storage.compactMap { $0 }
    }
}
