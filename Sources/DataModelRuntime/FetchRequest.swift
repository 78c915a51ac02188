import Foundation

/// A description of the objects to fetch: an entity (with its sub-entities), an order, a window.
///
/// ```swift
/// var request = EmployeeEntity.fetchRequest()
/// request.sortDescriptors = [SortDescriptor(\.name)]
/// request.fetchLimit = 10
/// let employees = try context.fetch(request)
/// ```
///
/// Sorting by attributes is done by SQLite (binary collation for strings); sort descriptors
/// the entity cannot map to a stored attribute are applied in memory.
public struct FetchRequest<Result: ManagedObject> {
    /// The entity to fetch, in its model spelling.
    public var entityName: String
    /// The order of the results; empty leaves it to the store (primary key order).
    public var sortDescriptors: [SortDescriptor<Result>]
    /// At most this many results; `nil` for all.
    public var fetchLimit: Int?
    /// Skip this many results first; `nil` for none.
    public var fetchOffset: Int?
    /// How many rows to load at a time (a hint; today every row is loaded at once).
    public var fetchBatchSize: Int?
    /// Whether objects of sub-entities are included (`true` by default).
    public var includesSubentities: Bool

    /// A request for every object of `entityName`.
    public init(
        entityName: String, sortDescriptors: [SortDescriptor<Result>] = [], fetchLimit: Int? = nil,
        fetchOffset: Int? = nil
    ) {
        self.entityName = entityName
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = nil
        self.includesSubentities = true
    }

    /// The request with `sortDescriptors` as its order.
    public func sorted(by sortDescriptors: [SortDescriptor<Result>]) -> FetchRequest {
        var copy = self
        copy.sortDescriptors = sortDescriptors
        return copy
    }

    /// The request limited to `limit` results.
    public func limited(to limit: Int?) -> FetchRequest {
        var copy = self
        copy.fetchLimit = limit
        return copy
    }

    /// The request skipping the first `offset` results.
    public func offset(by offset: Int?) -> FetchRequest {
        var copy = self
        copy.fetchOffset = offset
        return copy
    }
}
