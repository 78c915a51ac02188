/// The destinations of a loaded to-many relationship: IDs in order, with hashed membership.
struct ObjectIDList: Equatable {
    private(set) var ids: [ObjectID] = []
    private(set) var members: Set<ObjectID> = []

    init() {}

    init(_ ids: [ObjectID]) {
        for id in ids { append(id) }
    }

    /// A list of IDs known to be distinct (rows of one query), indexed in one go.
    init(distinct ids: [ObjectID]) {
        var members = Set<ObjectID>(minimumCapacity: ids.count)
        for id in ids { members.insert(id) }
        self.ids = ids
        self.members = members
    }

    var count: Int { ids.count }

    func contains(_ id: ObjectID) -> Bool { members.contains(id) }

    func firstIndex(of id: ObjectID) -> Int? {
        members.contains(id) ? ids.firstIndex(of: id) : nil
    }

    /// Appends `id` unless present; whether it was added.
    @discardableResult
    mutating func append(_ id: ObjectID) -> Bool {
        guard members.insert(id).inserted else { return false }
        ids.append(id)
        return true
    }

    /// Inserts `id` at `index` (clamped) unless present; whether it was added.
    @discardableResult
    mutating func insert(_ id: ObjectID, at index: Int) -> Bool {
        guard members.insert(id).inserted else { return false }
        ids.insert(id, at: min(max(index, 0), ids.count))
        return true
    }

    /// Removes `id`; whether it was present.
    @discardableResult
    mutating func remove(_ id: ObjectID) -> Bool {
        guard members.remove(id) != nil, let index = ids.firstIndex(of: id) else { return false }
        ids.remove(at: index)
        return true
    }

    /// Reorders to `order`, which must hold exactly the same IDs.
    mutating func reorder(_ order: [ObjectID]) {
        guard order.count == ids.count, Set(order) == members else { return }
        ids = order
    }
}

/// A relationship's value in an object.
enum RelationshipValue: Equatable {
    /// A to-one: the destination's ID, or none.
    case toOne(ObjectID?)
    /// A to-many not loaded from the store yet (a relationship fault).
    case toManyFault
    /// A loaded to-many.
    case toMany(ObjectIDList)
}

/// An object's committed state, taken before its first change, for rollback and for writing
/// join table differences.
struct ObjectSnapshot {
    var values: [PrimitiveValue]
    var relationships: [RelationshipValue]
}
