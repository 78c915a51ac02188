@testable import DataModelRuntime

/// Reads runtime internals tests need to check (e.g. `Z_OPT`).
enum StoreInspection {
    /// The object's `Z_OPT` as last read or written.
    static func version(of object: ManagedObject) throws -> Int64 {
        object.version
    }
}
