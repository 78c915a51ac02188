import Foundation

// MARK: - Xcode's to-many types (code generated with `--xcode-compatible` calls these)

extension ManagedObject {
    /// The destinations of the unordered to-many relationship `key` typed as Xcode's generated code types them: an
    /// `NSSet` of the destination objects, empty (never nil) when there are none. Ported code reads it as in Core
    /// Data: `employees as? Set<Employee>`, `employees?.allObjects as? [Employee]`.
    public final func toManyNSSet(for key: String) -> NSSet? {
        NSSet(array: destinationObjects(key))
    }

    /// Replaces the destinations of the unordered to-many relationship `key` with the objects of `values` (nil
    /// empties it), keeping inverses. An element that is not a managed object stops the program, as Core Data
    /// raises for a value of the wrong type.
    public final func setToManyNSSet(_ values: NSSet?, for key: String) {
        setToManyArray(managedObjects(values?.allObjects ?? [], key: key), for: key)
    }

    /// The destinations of the ordered to-many relationship `key`, in order, as an `NSOrderedSet` (Xcode's type),
    /// empty (never nil) when there are none.
    public final func toManyNSOrderedSet(for key: String) -> NSOrderedSet? {
        NSOrderedSet(array: destinationObjects(key))
    }

    /// Replaces the destinations of the ordered to-many relationship `key` with the objects of `values`, in
    /// order (nil empties it), keeping inverses.
    public final func setToManyNSOrderedSet(_ values: NSOrderedSet?, for key: String) {
        setToManyArray(managedObjects(values?.array ?? [], key: key), for: key)
    }

    private func managedObjects(_ values: [Any], key: String) -> [ManagedObject] {
        values.map { value in
            guard let object = value as? ManagedObject else {
                preconditionFailure("\(entity.name).\(key) holds managed objects, not \(type(of: value))")
            }
            return object
        }
    }
}
