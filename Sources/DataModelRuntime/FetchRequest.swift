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
    /// The entity to fetch, in its model spelling; empty for the entity whose class is `Result`.
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

    /// A request for every object of the entity whose class is `Result` (sub-entities included).
    public init() {
        self.init(entityName: "")
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

/// A type whose objects fetch requests return: every ``ManagedObject`` subclass.
public protocol FetchRequestResult: AnyObject {}

extension FetchRequestResult where Self: ManagedObject {
    /// A request for every object of the class's entity (sub-entities included), typed by the
    /// class it is called on: `Document.fetchRequest()` is a `FetchRequest<Document>`.
    ///
    /// Generated code declares its own `fetchRequest()` for entities outside any inheritance
    /// hierarchy; entities with a parent or sub-entities use this one, which is never ambiguous.
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>()
    }
}
