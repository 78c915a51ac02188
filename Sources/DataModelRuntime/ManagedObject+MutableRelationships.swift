import Foundation

/// Core Data's `mutableSetValue(forKey:)` and `mutableOrderedSetValue(forKey:)`: a to-many relationship changed
/// through a mutable collection named by its key, so that ported code such as
///
/// ```swift
/// let employees = department.mutableSetValue(forKey: "employees")
/// employees.add(ada)
/// employees.remove(bob)
/// ```
///
/// compiles and works as it is. The collections are live views, as Core Data's proxies are: every call reads or
/// changes the relationship itself (inverses kept, the change recorded, undoable and observed, as the generated
/// `addTo…` / `removeFrom…` accessors do), and iterating one walks the destinations as they were when it began.
///
/// As with ``setValue(_:forKey:)``, a key that names no to-many relationship of the right kind, a value that is not
/// an object of the relationship's destination, or an index out of range stops the program with entity, key and
/// value, as Core Data's exceptions do.
extension ManagedObject {
    /// A mutable view of the unordered to-many relationship `key` (Core Data's `NSMutableSet` proxy).
    public func mutableSetValue(forKey key: String) -> MutableToManySet {
        MutableToManySet(owner: self, key: key, relationship: toManyRelationship(key, ordered: false))
    }

    /// A mutable view of the ordered to-many relationship `key` (Core Data's `NSMutableOrderedSet` proxy).
    public func mutableOrderedSetValue(forKey key: String) -> MutableOrderedToManySet {
        MutableOrderedToManySet(owner: self, key: key, relationship: toManyRelationship(key, ordered: true))
    }

    /// The to-many relationship `key`, ordered or not as asked; stops the program otherwise.
    private func toManyRelationship(_ key: String, ordered: Bool) -> RelationshipRuntime {
        let entityName = entityRuntime.name
        let relationship = relationshipOrStop(key)
        guard relationship.isToMany else {
            preconditionFailure("\(entityName).\(key) is a to-one relationship: set it with setValue(_:forKey:)")
        }
        guard relationship.isOrdered == ordered else {
            preconditionFailure(
                ordered
                    ? "\(entityName).\(key) is not ordered: use mutableSetValue(forKey:)"
                    : "\(entityName).\(key) is ordered: use mutableOrderedSetValue(forKey:)")
        }
        return relationship
    }
}

/// What both mutable views share: the object, the key, and the check of the values they are given.
///
/// Not `Sendable`, like the object it changes: use it on the object's context's queue.
public class MutableToManyCollection: CustomStringConvertible {
    /// The object whose relationship this is.
    public let owner: ManagedObject
    /// The relationship's name.
    public let key: String
    /// The relationship (its destination entity and sub-entities are accepted).
    let relationship: RelationshipRuntime

    init(owner: ManagedObject, key: String, relationship: RelationshipRuntime) {
        self.owner = owner
        self.key = key
        self.relationship = relationship
    }

    /// The destinations, in the relationship's order (any order for an unordered one).
    var current: [ManagedObject] { owner.destinationObjects(key) }

    /// How many objects the relationship holds.
    public var count: Int { current.count }

    /// Whether `value` is one of the relationship's objects.
    public func contains(_ value: Any) -> Bool {
        guard let candidate = value as? ManagedObject else { return false }
        return current.contains { $0 === candidate }
    }

    /// Removes every object from the relationship.
    public func removeAllObjects() {
        owner.removeObjects(current, from: key)
    }

    public var description: String {
        "\(owner.entityRuntime.name).\(key): \(current.map { "\($0.objectID)" }.joined(separator: ", "))"
    }

    /// `value` as an object the relationship takes; stops the program otherwise (Core Data raises).
    func accepted(_ value: Any) -> ManagedObject {
        do throws(KeyValueError) {
            guard let candidate = value as? ManagedObject else {
                throw KeyValueError.wrongType(
                    entity: owner.entityRuntime.name, key: key, expected: "objects of \(relationship.destination.name)",
                    got: String(describing: type(of: value)))
            }
            try owner.checkDestination(candidate, of: relationship, key: key)
            return candidate
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// The objects of `values` (any sequence: an array, a `Set<AnyHashable>`, a `Set` of a generated class), each
    /// checked as ``accepted(_:)`` checks it.
    func accepted<S: Sequence>(all values: S) -> [ManagedObject] {
        values.map { accepted($0 as Any) }
    }
}

/// A mutable view of an unordered to-many relationship: what Core Data's `mutableSetValue(forKey:)` returns, with
/// `NSMutableSet`'s methods. See ``ManagedObject/mutableSetValue(forKey:)``.
public final class MutableToManySet: MutableToManyCollection, Sequence {
    /// The objects, as a set.
    public var objects: Set<ManagedObject> { Set(current) }

    /// The objects, as an array in no particular order (`NSSet.allObjects`).
    public var allObjects: [ManagedObject] { current }

    /// One of the objects, or `nil` when there is none (`NSSet.anyObject()`).
    public func anyObject() -> ManagedObject? { current.first }

    /// The relationship's object that is `value`, or `nil` (`NSSet.member(_:)`).
    public func member(_ value: Any) -> ManagedObject? {
        guard let candidate = value as? ManagedObject else { return nil }
        return current.first { $0 === candidate }
    }

    /// Adds `value` to the relationship (nothing when it is there already).
    public func add(_ value: Any) {
        owner.addObject(accepted(value), to: key)
    }

    /// Adds each of `values`.
    public func addObjects(from values: [Any]) {
        owner.addObjects(accepted(all: values), to: key)
    }

    /// Removes `value` from the relationship (nothing when it is not there).
    public func remove(_ value: Any) {
        guard let candidate = member(value) else { return }
        owner.removeObject(candidate, from: key)
    }

    /// Adds every object of `values` (`NSMutableSet.union(_:)`).
    public func union<S: Sequence>(_ values: S) {
        owner.addObjects(accepted(all: values), to: key)
    }

    /// Removes every object of `values` (`NSMutableSet.minus(_:)`).
    public func minus<S: Sequence>(_ values: S) {
        let removed = values.compactMap { member($0 as Any) }
        owner.removeObjects(removed, from: key)
    }

    /// Keeps only the objects that are also in `values` (`NSMutableSet.intersect(_:)`).
    public func intersect<S: Sequence>(_ values: S) {
        let kept = Set(values.compactMap { ($0 as Any) as? ManagedObject })
        owner.removeObjects(current.filter { !kept.contains($0) }, from: key)
    }

    /// Makes the relationship hold exactly the objects of `values` (`NSMutableSet.setSet(_:)`).
    public func setSet<S: Sequence>(_ values: S) {
        owner.setToManySet(Set(accepted(all: values)), for: key)
    }

    /// The objects as they are when the iteration begins.
    public func makeIterator() -> IndexingIterator<[ManagedObject]> { current.makeIterator() }
}

/// A mutable view of an ordered to-many relationship: what Core Data's `mutableOrderedSetValue(forKey:)` returns,
/// with `NSMutableOrderedSet`'s methods. An object appears at most once: adding or inserting one that is there
/// already moves it (inserting) or does nothing (adding), as in `NSMutableOrderedSet`. See
/// ``ManagedObject/mutableOrderedSetValue(forKey:)``.
public final class MutableOrderedToManySet: MutableToManyCollection, Sequence {
    /// The objects, in order (`NSOrderedSet.array`).
    public var array: [ManagedObject] { current }

    /// The first object, or `nil`.
    public var firstObject: ManagedObject? { current.first }

    /// The last object, or `nil`.
    public var lastObject: ManagedObject? { current.last }

    /// The object at `index`.
    public func object(at index: Int) -> ManagedObject {
        let objects = current
        checkIndex(index, in: objects.count)
        return objects[index]
    }

    /// The object at `index`.
    public subscript(index: Int) -> ManagedObject { object(at: index) }

    /// The position of `value`, or `NSNotFound` (`NSOrderedSet.index(of:)`).
    public func index(of value: Any) -> Int {
        guard let candidate = value as? ManagedObject else { return NSNotFound }
        return current.firstIndex { $0 === candidate } ?? NSNotFound
    }

    /// Appends `value` (nothing when it is there already).
    public func add(_ value: Any) {
        let candidate = accepted(value)
        guard !contains(candidate) else { return }
        owner.addObject(candidate, to: key)
    }

    /// Appends each of `values` that is not there yet, in order.
    public func addObjects(from values: [Any]) {
        for value in values { add(value) }
    }

    /// Inserts `value` at `index` (`0...count`), moving it there when it is already in the relationship.
    public func insert(_ value: Any, at index: Int) {
        let candidate = accepted(value)
        checkIndex(index, in: count + 1)
        owner.insertObject(candidate, at: index, into: key)
    }

    /// Inserts `values` at `indexes`, in order (`NSMutableOrderedSet.insert(_:at:)` with an index set).
    public func insert(_ values: [Any], at indexes: IndexSet) {
        precondition(
            values.count == indexes.count,
            "\(owner.entityRuntime.name).\(key): \(values.count) objects for \(indexes.count) indexes")
        for (value, index) in zip(values, indexes) { insert(value, at: index) }
    }

    /// Removes `value` (nothing when it is not there).
    public func remove(_ value: Any) {
        guard let candidate = value as? ManagedObject, contains(candidate) else { return }
        owner.removeObject(candidate, from: key)
    }

    /// Removes the object at `index`.
    public func removeObject(at index: Int) {
        checkIndex(index, in: count)
        owner.removeObject(at: index, from: key)
    }

    /// Removes the objects at `indexes`.
    public func removeObjects(at indexes: IndexSet) {
        if let last = indexes.last { checkIndex(last, in: count) }
        owner.removeObjects(at: indexes, from: key)
    }

    /// Replaces the object at `index` with `value` (which leaves its old position when it was elsewhere).
    public func replaceObject(at index: Int, with value: Any) {
        let candidate = accepted(value)
        checkIndex(index, in: count)
        owner.replaceObject(at: index, with: candidate, in: key)
    }

    /// Swaps the objects at two positions.
    public func exchangeObject(at first: Int, withObjectAt second: Int) {
        var objects = current
        checkIndex(first, in: objects.count)
        checkIndex(second, in: objects.count)
        guard first != second else { return }
        objects.swapAt(first, second)
        owner.setToManyArray(objects, for: key)
    }

    /// Moves the objects at `indexes` (in their order) to `index` of what remains without them
    /// (`NSMutableOrderedSet.moveObjects(at:to:)`).
    public func moveObjects(at indexes: IndexSet, to index: Int) {
        var objects = current
        if let last = indexes.last { checkIndex(last, in: objects.count) }
        let moved = indexes.map { objects[$0] }
        for position in indexes.reversed() { objects.remove(at: position) }
        checkIndex(index, in: objects.count + 1)
        objects.insert(contentsOf: moved, at: index)
        owner.setToManyArray(objects, for: key)
    }

    /// Appends every object of `values` that is not there yet (`NSMutableOrderedSet.union(_:)`).
    public func union<S: Sequence>(_ values: S) {
        for value in accepted(all: values) { add(value) }
    }

    /// Removes every object of `values` (`NSMutableOrderedSet.minus(_:)`).
    public func minus<S: Sequence>(_ values: S) {
        for value in values { remove(value as Any) }
    }

    /// Keeps only the objects that are also in `values`, in their order (`NSMutableOrderedSet.intersect(_:)`).
    public func intersect<S: Sequence>(_ values: S) {
        let kept = Set(values.compactMap { ($0 as Any) as? ManagedObject })
        owner.removeObjects(current.filter { !kept.contains($0) }, from: key)
    }

    /// The objects as they are when the iteration begins.
    public func makeIterator() -> IndexingIterator<[ManagedObject]> { current.makeIterator() }

    /// Stops the program when `index` is not below `limit` (Core Data's range exception).
    private func checkIndex(_ index: Int, in limit: Int) {
        precondition(
            index >= 0 && index < limit,
            "\(owner.entityRuntime.name).\(key): index \(index) beyond bounds "
                + (limit > 0 ? "[0 .. \(limit - 1)]" : "of an empty relationship"))
    }
}
