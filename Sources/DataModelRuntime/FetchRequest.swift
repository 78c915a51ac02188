import Foundation

/// A description of the objects to fetch: an entity (with its sub-entities), a predicate, an order, a window —
/// Core Data's `NSFetchRequest`.
///
/// ```swift
/// let request = EmployeeEntity.fetchRequest()
/// request.predicate = ManagedPredicate(format: "age > %d", 30)
/// request.sortDescriptors = [SortDescriptor(\.name)]
/// request.fetchLimit = 10
/// let employees = try context.fetch(request)
/// ```
///
/// A request is an object, as in Core Data: code that holds it sees every change made through any reference, so a
/// request declared with `let` is configured after it is made, and a controller's request is changed in place
/// (`controller.fetchRequest.predicate = …`, then ``FetchedResultsController/performFetch()``). The fluent methods
/// (``sorted(by:)``, ``filtered(by:)``, `matching(_:equals:)`, ``prefetching(_:)``, ``limited(to:)``,
/// ``offset(by:)``, ``includingPendingChanges(_:)``) return a new request and leave the receiver as it was;
/// ``copy()`` makes an independent copy. Whoever keeps a request beyond one call takes a copy of it where a later
/// change must not reach: batch requests copy the request they are made from (as Core Data's do), a controller
/// snapshots its request at each ``FetchedResultsController/performFetch()``, and a fetch reads the request once,
/// when it runs.
///
/// Sorting by attributes is done by SQLite (binary collation for strings); sort descriptors
/// the entity cannot map to a stored attribute are applied in memory.
///
/// A request keeps the SQL translation of its ``predicate`` from one fetch to the next (per entity and store
/// dialect): fetching the same request again does not walk the predicate again. Changing any setting of the
/// request drops the kept translation.
///
/// **Not `Sendable`**, as Core Data's `NSFetchRequest` is not: it is mutable, and two tasks sharing one could race.
/// A request belongs to the isolation domain that made it, like a context. Use it with any number of contexts
/// there; for another task, make the request in that task (`container.performBackgroundTask { try
/// $0.fetch(Person.fetchRequest()) }`), or hand it over to a task that is its only user (`Task.detached { try
/// context.fetch(request) }` compiles when nothing uses `request` afterwards).
public final class FetchRequest<Result: ManagedObject> {
    /// Every setting of the request, in one value: ``copy()`` copies it whole.
    private struct Settings {
        var entityName: String
        var sortDescriptors: [SortDescriptor<Result>]
        var fetchLimit: Int?
        var fetchOffset: Int?
        var fetchBatchSize: Int?
        var includesPendingChanges = true
        var relationshipKeyPathsForPrefetching: [String] = []
        var includesSubentities = true
        var conditions: [EqualityCondition] = []
        var predicate: Predicate<Result>?
        var propertiesToFetch: [any PropertyToFetch]?
        var propertiesToGroupBy: [any PropertyToFetch]?
        var havingPredicate: Predicate<Result>?
        var returnsDistinctResults = false
        var includesPropertyValues = true
        var returnsObjectsAsFaults = true
        var shouldRefreshRefetchedObjects = false
    }

    /// Any change of a setting (entity, predicate, order, window …) drops the cached translation of the predicate.
    private var settings: Settings {
        didSet { predicatePlanCache = nil }
    }

    /// The predicate's SQL translation made by the last fetch, for the entity and SQL dialect it was made for: a
    /// request fetched again with the same settings reuses it instead of walking the predicate again (a walk is
    /// dynamic casts over the expression tree). Set by the fetch; cleared
    /// by any change of the request's settings; a fetch from another entity or dialect makes a new one.
    var predicatePlanCache: CachedPredicatePlan?

    /// The entity to fetch, in its model spelling; empty for the entity whose class is `Result`.
    public var entityName: String {
        get { settings.entityName }
        set { settings.entityName = newValue }
    }
    /// The order of the results; empty leaves it to the store (primary key order).
    public var sortDescriptors: [SortDescriptor<Result>] {
        get { settings.sortDescriptors }
        set { settings.sortDescriptors = newValue }
    }
    /// At most this many results; `nil` for all. 0 (or less) means no limit, as in Core Data (`fetchLimit = 0`
    /// reads back as `nil`).
    public var fetchLimit: Int? {
        get { settings.fetchLimit }
        set { settings.fetchLimit = Self.window(newValue) }
    }
    /// Skip this many results first; `nil` for none (0 or less reads back as `nil`).
    public var fetchOffset: Int? {
        get { settings.fetchOffset }
        set { settings.fetchOffset = Self.window(newValue) }
    }

    /// A limit or offset as the request keeps it: Core Data's 0 (none) as `nil`, so that ported code setting
    /// `fetchLimit = 0` fetches everything and a fetched results controller accepts `fetchOffset = 0`.
    private static func window(_ value: Int?) -> Int? {
        guard let value, value > 0 else { return nil }
        return value
    }
    /// How many rows to load at a time. With a batch size (above 0) a fetch the store answers
    /// alone reads only the rows' IDs: the results are faults, and the first access to one loads
    /// its batch — `fetchBatchSize` consecutive results — in one query. `nil` or 0 loads every
    /// row at once.
    public var fetchBatchSize: Int? {
        get { settings.fetchBatchSize }
        set { settings.fetchBatchSize = newValue }
    }
    /// Whether a fetch reads the objects' values (`true`, as in Core Data). With `false`, a fetch the store answers
    /// alone (as for ``fetchBatchSize``) reads only their keys: objects not registered yet come back as faults, and
    /// each loads its values on first access, in a query of its own (with ``fetchBatchSize``, its batch's) — for
    /// fetches whose objects are deleted or only counted, or whose values are mostly not read.
    public var includesPropertyValues: Bool {
        get { settings.includesPropertyValues }
        set { settings.includesPropertyValues = newValue }
    }
    /// Core Data's row-cache setting, kept so that ported code compiles (`true` by default, as there). Whatever it
    /// is, a fetch's objects come back with the values its query read (what `false` asks for: Core Data's faults
    /// of `true` would load them from its row cache on first access, without a query, and this runtime keeps no
    /// row cache apart from the objects); ``includesPropertyValues`` is the setting that makes faults.
    public var returnsObjectsAsFaults: Bool {
        get { settings.returnsObjectsAsFaults }
        set { settings.returnsObjectsAsFaults = newValue }
    }
    /// Whether a fetch brings objects the context holds already up to date with their rows (`false` by default, as
    /// in Core Data: they keep the values they have). With `true`, an object whose row changed since it was read
    /// (saved by another context or process) takes the row's values, as ``ManagedObjectContext/refresh(_:mergeChanges:)``
    /// with `mergeChanges: true` gives them: its unsaved changes stay on top, observers are told. Faults and
    /// objects the fetch reads for the first time have the row's values anyway.
    public var shouldRefreshRefetchedObjects: Bool {
        get { settings.shouldRefreshRefetchedObjects }
        set { settings.shouldRefreshRefetchedObjects = newValue }
    }
    /// Whether the context's unsaved insertions, updates and deletions show in the results,
    /// counts and order (`true`, as in Core Data). When `false`, the store's rows alone are
    /// selected (objects still carry their unsaved values).
    public var includesPendingChanges: Bool {
        get { settings.includesPendingChanges }
        set { settings.includesPendingChanges = newValue }
    }
    /// Relationships (model names; dotted paths reach further) whose destinations are loaded
    /// with the results, one query per relationship instead of one per object.
    public var relationshipKeyPathsForPrefetching: [String] {
        get { settings.relationshipKeyPathsForPrefetching }
        set { settings.relationshipKeyPathsForPrefetching = newValue }
    }
    /// Whether objects of sub-entities are included (`true` by default).
    public var includesSubentities: Bool {
        get { settings.includesSubentities }
        set { settings.includesSubentities = newValue }
    }
    /// Conditions every result meets (all of them): a property equals a value. Run by SQLite.
    public var conditions: [EqualityCondition] {
        get { settings.conditions }
        set { settings.conditions = newValue }
    }
    /// A predicate every result meets (as well as ``conditions``): a `#Predicate` or a format string's
    /// ``ManagedPredicate``.
    ///
    /// Translated to SQL with bound parameters where it can be; whatever cannot is evaluated in
    /// memory on the rows SQL narrowed (``ManagedObjectContext/explain(_:)`` tells which).
    public var predicate: Predicate<Result>? {
        get { settings.predicate }
        set { settings.predicate = newValue }
    }

    /// The properties a dictionary fetch (``ManagedObjectContext/fetchDictionaries(_:)``) returns — Core Data's
    /// `propertiesToFetch`: names (or ``AttributeDescription``s, ``RelationshipDescription``s) of attributes, read
    /// as ``ManagedObject/value(forKey:)`` reads them; of to-one relationships, read as the destination's
    /// ``ObjectID``; key paths through to-ones (`"department.name"`, keyed by the whole path); and
    /// ``ExpressionDescription``s, aggregates keyed by their name. `nil` (or empty) fetches every stored attribute of
    /// the entity (the ``propertiesToGroupBy`` when there are some). A name that is not a stored attribute or to-one
    /// makes the fetch throw ``StoreError/unknownProperty(entity:property:)``. Object fetches
    /// (``ManagedObjectContext/fetch(_:)``) ignore it.
    ///
    /// ```swift
    /// let request = EmployeeEntity.fetchRequest()
    /// request.propertiesToFetch = ["name", "department"]
    /// let rows = try context.fetchDictionaries(request)  // [["name": "Ann", "department": <ObjectID>], …]
    /// ```
    public var propertiesToFetch: [any PropertyToFetch]? {
        get { settings.propertiesToFetch }
        set { settings.propertiesToFetch = newValue }
    }
    /// The properties whose values group a dictionary fetch's rows — Core Data's `propertiesToGroupBy`: one
    /// dictionary per combination of their values, the ``ExpressionDescription`` aggregates of ``propertiesToFetch``
    /// computed per group. Every property of ``propertiesToFetch`` that is not an aggregate must be among them, and
    /// the sort descriptors sort by them. Names, key paths through to-ones, or property descriptions.
    ///
    /// ```swift
    /// request.propertiesToFetch = ["department", ExpressionDescription(name: "headcount", function: .count, keyPath: "name")]
    /// request.propertiesToGroupBy = ["department"]
    /// ```
    public var propertiesToGroupBy: [any PropertyToFetch]? {
        get { settings.propertiesToGroupBy }
        set { settings.propertiesToGroupBy = newValue }
    }
    /// Which groups of a grouped dictionary fetch it returns — Core Data's `havingPredicate`: a format predicate
    /// (``ManagedPredicate``) over each group's dictionary, whose keys name its grouped properties and aggregates
    /// (`"department.name"` is one key). Kept groups are ordered and windowed (``fetchOffset``, ``fetchLimit``)
    /// after it. Needs ``propertiesToGroupBy``; a `#Predicate` (written over objects, not groups) makes the fetch
    /// throw. Object fetches ignore it.
    ///
    /// ```swift
    /// request.propertiesToFetch = ["department", ExpressionDescription(name: "headcount", function: .count, keyPath: "name")]
    /// request.propertiesToGroupBy = ["department"]
    /// request.havingPredicate = ManagedPredicate(format: "headcount > %d", 10)
    /// ```
    public var havingPredicate: Predicate<Result>? {
        get { settings.havingPredicate }
        set { settings.havingPredicate = newValue }
    }
    /// Whether a dictionary fetch returns each distinct combination of the fetched values once (`false` by
    /// default) — Core Data's `returnsDistinctResults`: duplicates are left out in SQL (`GROUP BY` the fetched
    /// columns), each kept where it first comes in the request's order, before ``fetchOffset`` and ``fetchLimit``
    /// apply. Object fetches ignore it.
    public var returnsDistinctResults: Bool {
        get { settings.returnsDistinctResults }
        set { settings.returnsDistinctResults = newValue }
    }

    /// A request for every object of `entityName`.
    public init(
        entityName: String, sortDescriptors: [SortDescriptor<Result>] = [], fetchLimit: Int? = nil,
        fetchOffset: Int? = nil
    ) {
        settings = Settings(
            entityName: entityName, sortDescriptors: sortDescriptors, fetchLimit: Self.window(fetchLimit),
            fetchOffset: Self.window(fetchOffset))
    }

    /// A request for every object of the entity whose class is `Result` (sub-entities included).
    public convenience init() {
        self.init(entityName: "")
    }

    private init(settings: Settings) {
        self.settings = settings
    }

    /// A new request with the same settings (Core Data's `copy()`): changing either leaves the other as it is.
    ///
    /// ```swift
    /// let adults = EmployeeEntity.fetchRequest()
    /// adults.predicate = ManagedPredicate(format: "age >= 18")
    /// let oldestFirst = adults.copy()
    /// oldestFirst.sortDescriptors = [SortDescriptor(\.age, order: .reverse)]  // `adults` keeps no order
    /// ```
    public func copy() -> FetchRequest {
        let copy = FetchRequest(settings: settings)
        copy.predicatePlanCache = predicatePlanCache
        return copy
    }

    /// A copy of the request with `change` applied: what the fluent methods return.
    private func copy(_ change: (inout Settings) -> Void) -> FetchRequest {
        var changed = settings
        change(&changed)
        return FetchRequest(settings: changed)
    }

    /// A new request with `sortDescriptors` as its order (the receiver is unchanged).
    public func sorted(by sortDescriptors: [SortDescriptor<Result>]) -> FetchRequest {
        copy { $0.sortDescriptors = sortDescriptors }
    }

    /// A new request with `predicate` as its ``predicate``, replacing any previous one (the receiver is unchanged).
    ///
    /// ```swift
    /// let found = try context.fetch(BusinessEntity.fetchRequest().filtered(by: #Predicate { $0.name == "Acme" }))
    /// ```
    public func filtered(by predicate: Predicate<Result>) -> FetchRequest {
        copy { $0.predicate = predicate }
    }

    /// A new request also keeping only objects whose attribute (or to-one relationship) `property`
    /// — its model name — equals `value` (`nil`: has none). The receiver is unchanged.
    ///
    /// Unlike ``filtered(by:)``, SQLite applies the condition.
    ///
    /// ```swift
    /// let acme = try context.fetch(BusinessEntity.fetchRequest().matching("name", equals: "Acme"))
    /// ```
    public func matching<Value: StorableValue>(_ property: String, equals value: Value?) -> FetchRequest {
        copy {
            $0.conditions.append(EqualityCondition(property: .name(property), value: value?.primitiveValue ?? .null))
        }
    }

    /// A new request also keeping only objects whose property at `keyPath` equals `value` (the receiver is
    /// unchanged).
    public func matching<Value: StorableValue>(_ keyPath: KeyPath<Result, Value>, equals value: Value) -> FetchRequest {
        copy { $0.conditions.append(EqualityCondition(property: .keyPath(keyPath), value: value.primitiveValue)) }
    }

    /// A new request also keeping only objects whose optional property at `keyPath` equals `value`
    /// (`nil`: has none). The receiver is unchanged.
    public func matching<Value: StorableValue>(_ keyPath: KeyPath<Result, Value?>, equals value: Value?) -> FetchRequest
    {
        copy {
            $0.conditions.append(EqualityCondition(property: .keyPath(keyPath), value: value?.primitiveValue ?? .null))
        }
    }

    /// A new request also keeping only objects whose to-one relationship at `keyPath` is `object`
    /// (`nil`: has none). The receiver is unchanged.
    public func matching<Destination: ManagedObject>(
        _ keyPath: KeyPath<Result, Destination?>, equals object: Destination?
    ) -> FetchRequest {
        copy { $0.conditions.append(EqualityCondition(property: .keyPath(keyPath), object: object?.objectID)) }
    }

    /// A new request also loading the destinations of `relationships` (model names, dotted paths
    /// allowed) in one query each. The receiver is unchanged.
    ///
    /// ```swift
    /// let departments = try context.fetch(DepartmentEntity.fetchRequest().prefetching("employees"))
    /// ```
    public func prefetching(_ relationships: String...) -> FetchRequest {
        copy { $0.relationshipKeyPathsForPrefetching += relationships }
    }

    /// A new request with ``includesPendingChanges`` set to `includes` (the receiver is unchanged).
    public func includingPendingChanges(_ includes: Bool) -> FetchRequest {
        copy { $0.includesPendingChanges = includes }
    }

    /// A new request limited to `limit` results (the receiver is unchanged); 0 or less, or `nil`: no limit.
    public func limited(to limit: Int?) -> FetchRequest {
        copy { $0.fetchLimit = Self.window(limit) }
    }

    /// A new request skipping the first `offset` results (the receiver is unchanged).
    public func offset(by offset: Int?) -> FetchRequest {
        copy { $0.fetchOffset = Self.window(offset) }
    }
}

@available(
    *, unavailable,
    message:
        "A FetchRequest is mutable, as Core Data's NSFetchRequest: make it in the task that uses it, or send it there."
)
extension FetchRequest: Sendable {}

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
