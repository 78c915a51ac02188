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
    /// How many rows to load at a time. With a batch size (above 0) a fetch the store answers
    /// alone reads only the rows' IDs: the results are faults, and the first access to one loads
    /// its batch — `fetchBatchSize` consecutive results — in one query. `nil` or 0 loads every
    /// row at once.
    public var fetchBatchSize: Int?
    /// Whether the context's unsaved insertions, updates and deletions show in the results,
    /// counts and order (`true`, as in Core Data). When `false`, the store's rows alone are
    /// selected (objects still carry their unsaved values).
    public var includesPendingChanges = true
    /// Relationships (model names; dotted paths reach further) whose destinations are loaded
    /// with the results, one query per relationship instead of one per object.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether objects of sub-entities are included (`true` by default).
    public var includesSubentities: Bool
    /// Conditions every result meets (all of them): a property equals a value. Run by SQLite.
    public var conditions: [EqualityCondition] = []
    /// A Foundation predicate every result meets (as well as ``conditions``).
    ///
    /// Translated to SQL with bound parameters where it can be; whatever cannot is evaluated in
    /// memory on the rows SQL narrowed (``ManagedObjectContext/explain(_:)`` tells which).
    public var predicate: Predicate<Result>?

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

    /// The request with `predicate` as its ``predicate`` (replacing any previous one).
    ///
    /// ```swift
    /// let found = try context.fetch(BusinessEntity.fetchRequest().filtered(by: #Predicate { $0.name == "Acme" }))
    /// ```
    public func filtered(by predicate: Predicate<Result>) -> FetchRequest {
        var copy = self
        copy.predicate = predicate
        return copy
    }

    /// The request keeping only objects whose attribute (or to-one relationship) `property`
    /// — its model name — equals `value` (`nil`: has none).
    ///
    /// Unlike ``filtered(by:)``, SQLite applies the condition.
    ///
    /// ```swift
    /// let acme = try context.fetch(BusinessEntity.fetchRequest().matching("name", equals: "Acme"))
    /// ```
    public func matching<Value: StorableValue>(_ property: String, equals value: Value?) -> FetchRequest {
        var copy = self
        copy.conditions.append(EqualityCondition(property: .name(property), value: value?.primitiveValue ?? .null))
        return copy
    }

    /// The request keeping only objects whose property at `keyPath` equals `value`.
    public func matching<Value: StorableValue>(_ keyPath: KeyPath<Result, Value>, equals value: Value) -> FetchRequest {
        var copy = self
        copy.conditions.append(EqualityCondition(property: .keyPath(keyPath), value: value.primitiveValue))
        return copy
    }

    /// The request keeping only objects whose optional property at `keyPath` equals `value`
    /// (`nil`: has none).
    public func matching<Value: StorableValue>(_ keyPath: KeyPath<Result, Value?>, equals value: Value?) -> FetchRequest
    {
        var copy = self
        copy.conditions.append(
            EqualityCondition(property: .keyPath(keyPath), value: value?.primitiveValue ?? .null))
        return copy
    }

    /// The request keeping only objects whose to-one relationship at `keyPath` is `object`
    /// (`nil`: has none).
    public func matching<Destination: ManagedObject>(
        _ keyPath: KeyPath<Result, Destination?>, equals object: Destination?
    ) -> FetchRequest {
        var copy = self
        copy.conditions.append(EqualityCondition(property: .keyPath(keyPath), object: object?.objectID))
        return copy
    }

    /// The request also loading the destinations of `relationships` (model names, dotted paths
    /// allowed) in one query each.
    ///
    /// ```swift
    /// let departments = try context.fetch(DepartmentEntity.fetchRequest().prefetching("employees"))
    /// ```
    public func prefetching(_ relationships: String...) -> FetchRequest {
        var copy = self
        copy.relationshipKeyPathsForPrefetching += relationships
        return copy
    }

    /// The request with ``includesPendingChanges`` set to `includes`.
    public func includingPendingChanges(_ includes: Bool) -> FetchRequest {
        var copy = self
        copy.includesPendingChanges = includes
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

/// One condition of a ``FetchRequest``: a stored attribute or to-one relationship equals a value.
public struct EqualityCondition {
    /// How the condition names its property.
    enum Property {
        /// A model property name.
        case name(String)
        /// A key path the entity's `propertyNameForKeyPath` maps to a name.
        case keyPath(AnyKeyPath)
    }

    let property: Property
    /// The attribute's stored value, or `.null` for "has none".
    let value: PrimitiveValue
    /// For a to-one relationship: the destination (`nil` for "has none").
    let object: ObjectID?
    let isRelationship: Bool

    init(property: Property, value: PrimitiveValue) {
        self.property = property
        self.value = value
        self.object = nil
        self.isRelationship = false
    }

    init(property: Property, object: ObjectID?) {
        self.property = property
        self.value = .null
        self.object = object
        self.isRelationship = true
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

extension FetchRequest {
    /// Whether `lhs` comes before `rhs` in the request's order, as a fetch sorts in memory: the sort descriptors
    /// in turn, ties in primary key order (as SQL's `ORDER BY …, "Z_PK"`). The one rule the fetch, a child
    /// context's fetch and ``FetchedResultsController`` sort by.
    func orders(_ lhs: Result, before rhs: Result) -> Bool {
        for descriptor in sortDescriptors {
            switch descriptor.compare(lhs, rhs) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return lhs.objectID.primaryKey < rhs.objectID.primaryKey
    }
}
