import Foundation

/// What an object keeps once it has values of its own, a snapshot or a fetch batch (``ManagedObject/valueBlock``,
/// ``ManagedObject/snapshot``, ``ManagedObject/faultBatch``): out of the object, so that the objects a fetch reads into
/// fields, and faults, are 32 bytes smaller. Objects hold it by pointer (reading values through it costs no
/// reference counting), in memory of their context's ``ObjectStatePool``.
struct ObjectState {
    var values = ObjectValues()
    var snapshot: ObjectValues?
    var faultBatch: FaultBatch?

    /// What an object without a state reads: no values, no snapshot, no batch. Never written (writes go through
    /// ``ManagedObject/writableState``, which takes the object's own) and never freed.
    nonisolated(unsafe) static let none: UnsafeMutablePointer<ObjectState> = {
        guard let memory = malloc(MemoryLayout<ObjectState>.stride) else {
            fatalError("out of memory allocating the empty object state")
        }
        let none = memory.bindMemory(to: ObjectState.self, capacity: 1)
        none.initialize(to: ObjectState())
        return none
    }()
}

/// The memory of a context's object states: carved from slabs, and reused once given back. A state costs an
/// inserted or changed object a few instructions instead of a `malloc` and a `free` (an allocation and a release
/// per inserted object, 2% of an insert). The slabs go with the pool, when the context and every object that
/// outlived it are gone (``ContextShared``).
struct ObjectStatePool: ~Copyable {
    /// The states given back, each holding the next one's address in its first word.
    private var reusable: UnsafeMutableRawPointer?
    /// The current slab's next unused state, and how many follow it.
    private var next: UnsafeMutableRawPointer?
    private var remaining = 0
    /// Every slab, to free with the pool.
    private var slabs: [UnsafeMutableRawPointer] = []
    /// How many states the next slab holds: doubling from 16 to 1,024, so that a context that changes a few objects
    /// takes little memory and one that inserts many takes a slab per thousand.
    private var nextSlabCount = 16

    init() {}

    deinit {
        for slab in slabs { free(slab) }
    }

    // Addresses, not pointers, cross the pool's lock: a pointer is not `Sendable`.

    /// The address of uninitialized memory for one state, bound to ``ObjectState``.
    mutating func take() -> UInt {
        if let state = reusable {
            reusable = state.load(as: UnsafeMutableRawPointer?.self)
            return UInt(bitPattern: state.bindMemory(to: ObjectState.self, capacity: 1))
        }
        if remaining == 0 { addSlab() }
        guard let state = next else { preconditionFailure("a new slab leaves no state to take") }
        next = state + MemoryLayout<ObjectState>.stride
        remaining -= 1
        return UInt(bitPattern: state.bindMemory(to: ObjectState.self, capacity: 1))
    }

    /// Takes back the memory of a state ``take()`` gave (its state deinitialized) for the next ``take()``.
    mutating func give(address: UInt) {
        guard let memory = UnsafeMutableRawPointer(bitPattern: address) else {
            preconditionFailure("a state given back at a null address")
        }
        memory.storeBytes(of: reusable, as: UnsafeMutableRawPointer?.self)
        reusable = memory
    }

    /// How many slabs the pool allocated (for tests: a context that keeps changing and dropping objects reuses their
    /// states' memory).
    var slabCount: Int { slabs.count }

    private mutating func addSlab() {
        let count = nextSlabCount
        guard let slab = malloc(count * MemoryLayout<ObjectState>.stride) else {
            fatalError("out of memory allocating object states")
        }
        slabs.append(slab)
        next = slab
        remaining = count
        nextSlabCount = min(count * 2, 1024)
    }
}
