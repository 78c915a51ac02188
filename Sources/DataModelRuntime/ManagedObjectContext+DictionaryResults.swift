import DataModelStoreLayout
import Foundation

/// Core Data's non-object results: `.dictionaryResultType` (``ManagedObjectContext/fetchDictionaries(_:)``) and
/// `.managedObjectIDResultType` (``ManagedObjectContext/fetchObjectIDs(_:)``).
extension ManagedObjectContext {
    /// The values of the request's ``FetchRequest/propertiesToFetch`` of every saved row it selects, one dictionary
    /// per row keyed by property name — Core Data's `resultType = .dictionaryResultType`.
    ///
    /// ```swift
    /// let request = EmployeeEntity.fetchRequest()
    /// request.propertiesToFetch = ["name", "department"]
    /// request.predicate = ManagedPredicate(format: "age > %d", 30)
    /// request.sortDescriptors = [SortDescriptor(\.name)]
    /// for row in try context.fetchDictionaries(request) {
    ///     let name = row["name"] as? String            // as value(forKey:) reads it
    ///     let department = row["department"] as? ObjectID
    /// }
    /// ```
    ///
    /// - Values are typed as ``ManagedObject/value(forKey:)`` returns them; a to-one relationship is its
    ///   destination's ``ObjectID``; a property without a value is left out of its row's dictionary (as in Core
    ///   Data). `propertiesToFetch == nil` fetches every stored attribute of the request's entity.
    /// - The request's predicate (a `#Predicate` or a format string's ``ManagedPredicate``),
    ///   ``FetchRequest/conditions``, sort descriptors, ``FetchRequest/fetchOffset``, ``FetchRequest/fetchLimit``,
    ///   ``FetchRequest/includesSubentities`` and ``FetchRequest/returnsDistinctResults`` apply;
    ///   ``FetchRequest/propertiesToGroupBy`` and ``ExpressionDescription`` aggregates group and aggregate the rows.
    /// - **The store's saved state**, as in Core Data ("the array reflects the current state in the persistent
    ///   store, and does not take into account any pending changes"): unsaved insertions, updates and deletions of
    ///   any context do not show, and ``FetchRequest/includesPendingChanges`` is ignored.
    /// - When the predicate and every sort translate to SQL (``explain(_:)`` says `.sql`), one query selects only
    ///   the fetched columns: no object is made or registered in the context. Otherwise the saved rows the
    ///   predicate selects (judged on their saved values) are ordered in memory and their columns read after —
    ///   the same results, with the matching objects registered as an object fetch registers them. Aggregates and
    ///   groups are computed by SQL only: with such a predicate or sort they throw.
    ///
    /// - Throws: ``StoreError``: an unknown entity; ``StoreError/unknownProperty(entity:property:)`` for a name
    ///   that is not a stored attribute, a to-one relationship or a key path through to-ones;
    ///   ``StoreError/invalidFetchRequest(entity:reason:)`` for an aggregate or grouping the fetch cannot compute;
    ///   the store failing.
    public func fetchDictionaries<T: ManagedObject>(_ request: FetchRequest<T>) throws(StoreError) -> [[String: Any]] {
        try operation { () throws(StoreError) -> [[String: Any]] in
            // A child context's dictionaries are the store's too: its root context (which registers what the
            // in-memory path fetches; the child's and its parents' unsaved values stay out of it) reads them.
            var root = self
            while let parent = root.parent { root = parent }
            return try root.fetchDictionariesInOperation(request)
        }
    }

    private func fetchDictionariesInOperation<T: ManagedObject>(_ request: FetchRequest<T>) throws(StoreError)
        -> [[String: Any]]
    {
        let entity = try self.entity(of: request)
        let projection = try DictionaryProjection(request: request, entity: entity, isPostgres: database.isPostgres)
        guard let having = request.havingPredicate else {
            let rows = try projectedRows(request, entity: entity, projection: projection)
            return rows.map { projection.dictionary(from: $0, runtime: runtime) }
        }
        guard projection.isAggregating, !(request.propertiesToGroupBy ?? []).isEmpty else {
            throw .invalidFetchRequest(entity: entity.name, reason: "a havingPredicate needs propertiesToGroupBy")
        }
        guard let format = having.expression as? FormatPredicateExpression else {
            throw .invalidFetchRequest(
                entity: entity.name,
                reason: "a havingPredicate is a format predicate over each group (ManagedPredicate(format:)), "
                    + "not a #Predicate over objects")
        }
        // Every group, then those the predicate keeps, then the window.
        let unwindowed = request.copy()
        unwindowed.fetchLimit = nil
        unwindowed.fetchOffset = nil
        let rows = try projectedRows(unwindowed, entity: entity, projection: projection)
        var kept: [[String: Any]] = []
        let evaluator = FormatEvaluator(objects: format.objects)
        for row in rows {
            let dictionary = projection.dictionary(from: row, runtime: runtime)
            do {
                if try evaluator.holds(format.predicate, onGroup: dictionary) { kept.append(dictionary) }
            } catch {
                throw (error as? StoreError) ?? .predicateFailed("\(error)")
            }
        }
        return Self.window(kept, offset: max(request.fetchOffset ?? 0, 0), limit: request.fetchLimit.map { max($0, 0) })
    }

    /// The IDs of the objects ``fetch(_:)`` returns for `request`, in its order — Core Data's
    /// `resultType = .managedObjectIDResultType`.
    ///
    /// Unsaved insertions, deletions and updates count as they do for ``fetch(_:)`` (an inserted object's ID is
    /// its temporary one). When the context has no unsaved change the request could see and the predicate and
    /// sorts translate to SQL, one query reads the rows' keys alone: no object is made or registered. Otherwise
    /// the objects are fetched and their IDs returned.
    ///
    /// ```swift
    /// let ids = try context.fetchObjectIDs(EmployeeEntity.fetchRequest().matching("name", equals: "Ann"))
    /// ```
    ///
    /// - Throws: ``StoreError``, as ``fetch(_:)``.
    public func fetchObjectIDs<T: ManagedObject>(_ request: FetchRequest<T>) throws(StoreError) -> [ObjectID] {
        try operation { () throws(StoreError) -> [ObjectID] in
            if let parent { return try fetchThroughParent(parent, request).map(\.objectID) }
            let entity = try self.entity(of: request)
            let conditions = try resolve(request.conditions, in: entity)
            let plan = try predicatePlan(for: request, entity: entity)
            let offset = max(request.fetchOffset ?? 0, 0)
            let limit = request.fetchLimit.map { max($0, 0) }
            let sortColumns = try request.sortDescriptors.map { (descriptor) throws(StoreError) in
                try sortColumn(for: descriptor, in: entity, strings: .init(limit: limit))
            }
            let pending = hasPendingChanges(in: entity, request: request, plan: plan)
            guard !pending, sortColumns.allSatisfy({ $0 != nil }), request.predicate == nil || plan.path == .sql
            else {
                return try fetchInOperation(request).map(\.objectID)
            }
            let sql =
                #"SELECT t0."Z_PK", t0."Z_ENT" FROM "# + SQLQuoting.identifier(entity.tableName) + " AS t0 WHERE "
                + whereClause(for: entity, request: request, conditions: conditions, predicate: plan.translated)
                + " ORDER BY " + (sortColumns.compactMap { $0 } + [#"t0."Z_PK""#]).joined(separator: ", ")
                + Self.windowSQL(limit: limit, offset: offset)
            let statement = try database.cachedStatement(sql)
            defer { statement.resetIgnoringErrors() }
            var next = try bind(conditions, to: statement)
            next = try bind(plan.translated?.arguments ?? [], to: statement, from: next)
            try bindWindow(limit: limit, offset: offset, to: statement, from: next)
            // As `fetch` does: rows of an entity whose class is not a `T` are left out.
            var isResult: [Int: Bool] = [:]
            var ids: [ObjectID] = []
            while try statement.step() == .row {
                let number = statement.int(at: 1)
                let included: Bool
                if let known = isResult[number] {
                    included = known
                } else {
                    included = runtime.entity(number: number).map { $0.objectType is T.Type } ?? false
                    isResult[number] = included
                }
                if included, let id = runtime.objectID(entityNumber: number, primaryKey: statement.int64(at: 0)) {
                    ids.append(id)
                }
            }
            return ids
        }
    }

    // MARK: Dictionary rows

    /// The raw values (one per column of `projection`) of the saved rows `request` selects, in its order and
    /// window, distinct when it asks, grouped when it has aggregates or groups.
    private func projectedRows<T: ManagedObject>(
        _ request: FetchRequest<T>, entity: EntityRuntime, projection: DictionaryProjection
    ) throws(StoreError) -> [[PrimitiveValue]] {
        let conditions = try resolve(request.conditions, in: entity)
        let plan = try predicatePlan(for: request, entity: entity)
        let sortColumns = try request.sortDescriptors.map { (descriptor) throws(StoreError) in
            try sortColumn(for: descriptor, in: entity)
        }
        let offset = max(request.fetchOffset ?? 0, 0)
        let limit = request.fetchLimit.map { max($0, 0) }
        let distinct = request.returnsDistinctResults

        if projection.isAggregating {
            // Aggregates and groups are computed by SQL alone.
            guard request.predicate == nil || plan.path == .sql else {
                throw .invalidFetchRequest(
                    entity: entity.name,
                    reason: "aggregates and propertiesToGroupBy need a predicate SQL answers alone ("
                        + (plan.reason ?? "it has no exact SQL translation") + ")")
            }
            guard sortColumns.allSatisfy({ $0 != nil }),
                sortsByGroupedAttributes(request, entity: entity, projection: projection)
            else {
                throw .invalidFetchRequest(
                    entity: entity.name,
                    reason: "the sort descriptors of a fetch with aggregates or propertiesToGroupBy sort by attributes "
                        + "named in propertiesToGroupBy, in SQL (no string comparator)")
            }
            let query = ProjectionQuery(
                entity: entity, conditions: conditions, predicate: plan.translated,
                orderBy: sortColumns.compactMap { $0 })
            return try selectProjected(
                projection, request: request, query: query, grouped: true, limit: limit, offset: offset)
        }

        if sortColumns.allSatisfy({ $0 != nil }) && (request.predicate == nil || plan.path == .sql) {
            let query = ProjectionQuery(
                entity: entity, conditions: conditions, predicate: plan.translated,
                orderBy: sortColumns.compactMap { $0 })
            if !distinct {
                return try selectProjected(projection, request: request, query: query, limit: limit, offset: offset)
            }
            if sortsByGroupedAttributes(request, entity: entity, projection: projection) {
                // `GROUP BY` the fetched columns, each group where its first row comes.
                return try selectProjected(
                    projection, request: request, query: query, grouped: true, limit: limit, offset: offset)
            }
            // Sorted by a property not fetched: the order's rows, their duplicates left out in memory.
            let rows = try selectProjected(projection, request: request, query: query, limit: nil, offset: 0)
            return Self.window(Self.distinct(rows), offset: offset, limit: limit)
        }

        // A predicate or a sort SQL cannot answer alone: the saved rows the predicate selects (judged on their
        // saved values), ordered in memory on their saved values, then their columns read by key.
        var ids = try storedIDs(matching: request)
        if !request.sortDescriptors.isEmpty {
            var snapshots: [T] = []
            for id in ids {
                if let snapshot = try storedSnapshot(id, as: T.self) { snapshots.append(snapshot) }
            }
            snapshots.sort { request.orders($0, before: $1) }
            ids = snapshots.map(\.objectID)
        }
        if distinct {
            let rows = try selectProjected(projection, entity: entity, ids: ids)
            return Self.window(Self.distinct(rows), offset: offset, limit: limit)
        }
        return try selectProjected(projection, entity: entity, ids: Self.window(ids, offset: offset, limit: limit))
    }

    /// The parts of a dictionary fetch's query besides its columns.
    private struct ProjectionQuery {
        let entity: EntityRuntime
        let conditions: [ResolvedCondition]
        let predicate: TranslatedPredicate?
        let orderBy: [String]
    }

    /// `SELECT <the projection's columns> FROM <table> AS t0 WHERE … [GROUP BY …] ORDER BY … [LIMIT … OFFSET …]`,
    /// run and read.
    private func selectProjected<T>(
        _ projection: DictionaryProjection, request: FetchRequest<T>, query: ProjectionQuery, grouped: Bool = false,
        limit: Int?, offset: Int
    ) throws(StoreError) -> [[PrimitiveValue]] {
        let sql = Self.projectionSQL(
            projection, query: query, grouped: grouped,
            whereClause: whereClause(
                for: query.entity, request: request, conditions: query.conditions, predicate: query.predicate),
            limit: limit, offset: offset)
        let statement = try database.cachedStatement(sql)
        defer { statement.resetIgnoringErrors() }
        var next = try bind(query.conditions, to: statement)
        next = try bind(query.predicate?.arguments ?? [], to: statement, from: next)
        try bindWindow(limit: limit, offset: offset, to: statement, from: next)
        var rows: [[PrimitiveValue]] = []
        while try statement.step() == .row {
            rows.append(readProjected(statement, projection: projection, from: 0))
        }
        return rows
    }

    /// The SQL of ``selectProjected(_:request:query:grouped:limit:offset:)``.
    private static func projectionSQL(
        _ projection: DictionaryProjection, query: ProjectionQuery, grouped: Bool, whereClause: String, limit: Int?,
        offset: Int
    ) -> String {
        var sql =
            "SELECT " + projection.columns.joined(separator: ", ") + " FROM "
            + SQLQuoting.identifier(query.entity.tableName) + " AS t0 WHERE " + whereClause
        if grouped && !projection.groupingColumns.isEmpty {
            // By position: a key path's column is a subquery, named once.
            sql += " GROUP BY " + projection.groupingColumns.map { String($0 + 1) }.joined(separator: ", ")
        }
        // Ties (and groups) in the order of their first row.
        let tieBreak = grouped ? #"MIN(t0."Z_PK")"# : #"t0."Z_PK""#
        return sql + " ORDER BY " + (query.orderBy + [tieBreak]).joined(separator: ", ")
            + windowSQL(limit: limit, offset: offset)
    }

    /// The projected rows of `ids` (saved rows of `entity`'s table), in the order of `ids`: read by key, some
    /// hundred at a time.
    private func selectProjected(_ projection: DictionaryProjection, entity: EntityRuntime, ids: [ObjectID])
        throws(StoreError) -> [[PrimitiveValue]]
    {
        var byKey: [Int64: [PrimitiveValue]] = [:]
        let chunkSize = 500
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + chunkSize, ids.count)]
            start += chunkSize
            let sql =
                #"SELECT t0."Z_PK", "# + projection.columns.joined(separator: ", ") + " FROM "
                + SQLQuoting.identifier(entity.tableName) + #" AS t0 WHERE t0."Z_PK" IN ("#
                + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
            let statement = try database.cachedStatement(sql)
            defer { statement.resetIgnoringErrors() }
            for (offset, id) in chunk.enumerated() { try statement.bind(id.primaryKey, at: Int32(offset + 1)) }
            while try statement.step() == .row {
                byKey[statement.int64(at: 0)] = readProjected(statement, projection: projection, from: 1)
            }
        }
        return ids.compactMap { byKey[$0.primaryKey] }
    }

    /// The projection's columns of the current row of `statement`, from result column `first` on.
    private func readProjected(_ statement: StoreStatement, projection: DictionaryProjection, from first: Int32)
        -> [PrimitiveValue]
    {
        var row: [PrimitiveValue] = []
        row.reserveCapacity(projection.kinds.count)
        for (offset, kind) in projection.kinds.enumerated() {
            row.append(read(statement, at: first + Int32(offset), as: kind))
        }
        return row
    }

    /// Column `index` of the current row, as a value of `kind` (`.integer` for a key or an entity number).
    private func read(_ statement: StoreStatement, at index: Int32, as kind: ColumnKind) -> PrimitiveValue {
        switch kind {
        case .integer:
            switch statement.storageClass(at: index) {
            case .null: return .null
            // A REAL in an INTEGER column reads as its integral part (`NULL` when it has none), as objects read it.
            case .real: return PrimitiveValue.real(statement.double(at: index)).integer.map { .integer($0) } ?? .null
            default: return .integer(statement.int64(at: index))
            }
        case .real:
            return statement.nullableDouble(at: index).map { .real($0) } ?? .null
        case .text, .decimalText:
            if let text = statement.string(at: index) { return .text(text) }
            // A zero-length blob in a text column.
            return statement.storageClass(at: index) == .null ? .null : .text("")
        case .blob:
            return statement.data(at: index).map { .blob($0) } ?? .null
        case .externalBinary:
            switch statement {
            case .sqlite(let rows): return coordinator.externalData.read(rows, at: index)
            case .postgres(let rows): return coordinator.externalData.read(rows, at: index)
            }
        }
    }

    /// Whether every sort descriptor of `request` orders by an attribute the projection groups by: those fetched,
    /// for a distinct fetch (which then groups in SQL and still sorts); those named in `propertiesToGroupBy`, for
    /// aggregates.
    private func sortsByGroupedAttributes<T>(
        _ request: FetchRequest<T>, entity: EntityRuntime, projection: DictionaryProjection
    ) -> Bool {
        request.sortDescriptors.allSatisfy { descriptor in
            guard let keyPath = descriptor.keyPath,
                let name = SortKeys.key(of: keyPath) ?? entity.description.propertyNameForKeyPath(keyPath)
            else { return false }
            return projection.sortableAttributes.contains(name)
        }
    }

    /// The saved state of the object `id` as an object outside the context, for sorting in memory: the registered
    /// object when it is loaded and unchanged, else a detached copy holding the saved row (`nil`: no row, or not a
    /// `T`).
    private func storedSnapshot<T: ManagedObject>(_ id: ObjectID, as type: T.Type) throws(StoreError) -> T? {
        if let object = registered[id], !object.isFault, !object.hasChanges { return object as? T }
        guard let rowEntity = runtime.entity(number: id.entityNumber) else { return nil }
        let statement = try database.cachedStatement(rowEntity.selectByPrimaryKeySQL)
        defer { statement.resetIgnoringErrors() }
        try statement.bind(id.primaryKey, at: 1)
        guard try statement.step() == .row else { return nil }
        let row = decodeStoredRow(statement, entity: rowEntity)
        let copy = rowEntity.objectType.init(
            ObjectSeed(entity: rowEntity, objectID: id, context: self, isFault: false))
        copy.values = row.values
        copy.context = nil
        return copy as? T
    }

    /// ` LIMIT ? OFFSET ?` as a fetch needs it (nothing when it reads every row).
    private static func windowSQL(limit: Int?, offset: Int) -> String {
        (limit != nil || offset > 0 ? " LIMIT ?" : "") + (offset > 0 ? " OFFSET ?" : "")
    }

    /// Binds the values of ``windowSQL(limit:offset:)`` from parameter `index` on.
    private func bindWindow(limit: Int?, offset: Int, to statement: StoreStatement, from index: Int32)
        throws(StoreError)
    {
        guard limit != nil || offset > 0 else { return }
        // No limit: SQLite's `LIMIT -1`, PostgreSQL's `LIMIT NULL`.
        if limit == nil && database.isPostgres {
            try statement.bindNull(at: index)
        } else {
            try statement.bind(Int64(limit ?? -1), at: index)
        }
        if offset > 0 { try statement.bind(Int64(offset), at: index + 1) }
    }

    /// `items` from `offset` on, at most `limit` of them.
    private static func window<Element>(_ items: [Element], offset: Int, limit: Int?) -> [Element] {
        let start = min(offset, items.count)
        let end = limit.map { min(start + $0, items.count) } ?? items.count
        return Array(items[start..<end])
    }

    /// `rows` without repeats, each where it first comes.
    private static func distinct(_ rows: [[PrimitiveValue]]) -> [[PrimitiveValue]] {
        var seen = Set<[PrimitiveValue]>()
        return rows.filter { seen.insert($0).inserted }
    }
}

/// A property a dictionary fetch returns or groups by (``FetchRequest/propertiesToFetch``,
/// ``FetchRequest/propertiesToGroupBy``), as Core Data takes them: a property name or key path (`String`), an
/// ``AttributeDescription`` or ``RelationshipDescription`` (by its name), or an ``ExpressionDescription``.
///
/// Conformed to by those types only: a value of another conforming type makes the fetch throw
/// ``StoreError/invalidFetchRequest(entity:reason:)``.
public protocol PropertyToFetch {}

extension String: PropertyToFetch {}
extension AttributeDescription: PropertyToFetch {}
extension RelationshipDescription: PropertyToFetch {}

/// A value computed over the rows of a dictionary fetch (each group's, with ``FetchRequest/propertiesToGroupBy``),
/// returned under ``name`` — Core Data's `NSExpressionDescription` of a function expression (`count:`, `sum:`,
/// `min:`, `max:`, `average:`) of a key path.
///
/// ```swift
/// // Core Data: description.name = "oldest"; description.expression = NSExpression(forFunction: "max:",
/// //     arguments: [NSExpression(forKeyPath: "age")]); description.expressionResultType = .integer16AttributeType
/// let oldest = ExpressionDescription(name: "oldest", function: .max, keyPath: "age")
/// request.propertiesToFetch = ["department", oldest]
/// request.propertiesToGroupBy = ["department"]
/// ```
///
/// The key path is an attribute of the fetched entity (for ``Function/count``, a to-one relationship too). The
/// results are typed by the function: `count` an `Int64` (of the values that are not `nil`), `sum` an `Int64` of
/// integer attributes and a `Double` of `Double` and `Float` ones, `average` a `Double`, `min` and `max` the
/// attribute's own type (numbers, dates, strings; strings compare by code point). An aggregate of no value (`sum`
/// of no rows, or of `nil`s only) is left out of the dictionary, as `nil` values are.
public struct ExpressionDescription: PropertyToFetch, Hashable, Sendable {
    /// The aggregate function.
    public enum Function: String, Hashable, Sendable {
        /// The number of rows whose value is not `nil` (`count:`).
        case count
        /// The total (`sum:`): number attributes.
        case sum
        /// The smallest value (`min:`): numbers, dates, strings.
        case min
        /// The largest value (`max:`): numbers, dates, strings.
        case max
        /// The mean (`average:`): number attributes.
        case average
    }

    /// The key of the value in each dictionary.
    public var name: String
    /// What is computed.
    public var function: Function
    /// The attribute (or, for `count`, to-one relationship) aggregated, by model name.
    public var keyPath: String

    /// An aggregate `function` of the attribute `keyPath`, returned under `name`.
    public init(name: String, function: Function, keyPath: String) {
        self.name = name
        self.function = function
        self.keyPath = keyPath
    }
}

/// What a dictionary fetch selects: for each fetched property, its key, its columns and how they read; and the
/// columns it groups by.
struct DictionaryProjection {
    /// How one fetched property is read from its columns.
    enum Reading {
        /// An attribute (or an aggregate) of `type`: one column.
        case attribute(AttributeType)
        /// A to-one: the destination's key column, then its entity column when `hasEntityColumn` (else every
        /// destination is of entity `destinationNumber`).
        case toOne(destinationNumber: Int, hasEntityColumn: Bool)
    }

    struct Property {
        let key: String
        let reading: Reading
        /// Its columns' indices in ``DictionaryProjection/columns``.
        let columns: Range<Int>
        let isAggregate: Bool
    }

    private(set) var properties: [Property] = []
    /// The selected SQL expressions, over the fetched table aliased `t0`: the properties' columns, then those of
    /// grouping properties not fetched.
    private(set) var columns: [String] = []
    /// How each column reads.
    private(set) var kinds: [ColumnKind] = []
    /// Whether the fetch groups its rows (``FetchRequest/propertiesToGroupBy`` or aggregates): ``groupingColumns``
    /// are then its `GROUP BY` (none: one group of every row).
    let isAggregating: Bool
    /// The columns the fetch groups by: those of `propertiesToGroupBy` when ``isAggregating``, else every column
    /// (a distinct fetch).
    private(set) var groupingColumns: [Int] = []
    /// The attributes of the entity itself the rows may be sorted by in a `GROUP BY` query: those grouped by (or,
    /// without aggregates, those fetched).
    private(set) var sortableAttributes: Set<String> = []

    private let entity: EntityRuntime
    private let isPostgres: Bool

    /// The projection of `request`'s ``FetchRequest/propertiesToFetch`` (every stored attribute when `nil` or
    /// empty, the grouped properties when it has ``FetchRequest/propertiesToGroupBy``) for `entity`.
    init<T>(request: FetchRequest<T>, entity: EntityRuntime, isPostgres: Bool) throws(StoreError) {
        self.entity = entity
        self.isPostgres = isPostgres
        var fetched: [Item] = []
        for property in request.propertiesToFetch ?? [] { fetched.append(try Self.item(property, entity: entity)) }
        var grouped: [String]?
        if let groupBy = request.propertiesToGroupBy {
            var names: [String] = []
            for property in groupBy {
                guard case .path(let path) = try Self.item(property, entity: entity) else {
                    throw .invalidFetchRequest(
                        entity: entity.name, reason: "propertiesToGroupBy takes properties, not expressions")
                }
                names.append(path)
            }
            grouped = names
        }
        isAggregating =
            grouped != nil
            || fetched.contains {
                if case .aggregate = $0 { true } else { false }
            }
        if fetched.isEmpty {
            fetched =
                grouped?.map { .path($0) }
                ?? entity.attributes.indices.filter { entity.attributeColumns[$0] != nil }.map {
                    .path(entity.attributes[$0].name)
                }
        }
        var seen = Set<String>()
        var plainAttributes = Set<String>()
        for item in fetched {
            switch item {
            case .path(let path):
                guard seen.insert(path).inserted else { continue }
                let columns = try addColumns(path)
                properties.append(
                    Property(key: path, reading: columns.reading, columns: columns.range, isAggregate: false))
                if !path.contains("."), entity.attributeIndex(path) != nil { plainAttributes.insert(path) }
            case .aggregate(let expression):
                guard seen.insert(expression.name).inserted else { continue }
                try addAggregate(expression)
            }
        }
        guard isAggregating else {
            sortableAttributes = plainAttributes
            groupingColumns = Array(columns.indices)
            return
        }
        let groupNames = grouped ?? []
        for property in properties where !property.isAggregate && !groupNames.contains(property.key) {
            throw .invalidFetchRequest(
                entity: entity.name,
                reason:
                    "'\(property.key)' is fetched with aggregates or propertiesToGroupBy: name it in propertiesToGroupBy too"
            )
        }
        var groupedSeen = Set<String>()
        for name in groupNames where groupedSeen.insert(name).inserted {
            if let property = properties.first(where: { $0.key == name && !$0.isAggregate }) {
                groupingColumns += property.columns
            } else {
                // Grouped by but not fetched: selected, left out of the dictionaries.
                groupingColumns += try addColumns(name).range
            }
            if !name.contains("."), entity.attributeIndex(name) != nil { sortableAttributes.insert(name) }
        }
    }

    /// A property of a request, sorted out.
    private enum Item {
        case path(String)
        case aggregate(ExpressionDescription)
    }

    private static func item(_ property: any PropertyToFetch, entity: EntityRuntime) throws(StoreError) -> Item {
        switch property {
        case let name as String: return .path(name)
        case let attribute as AttributeDescription: return .path(attribute.name)
        case let relationship as RelationshipDescription: return .path(relationship.name)
        case let expression as ExpressionDescription: return .aggregate(expression)
        default:
            throw .invalidFetchRequest(
                entity: entity.name,
                reason: "a property to fetch is a name, a property description or an ExpressionDescription, not a "
                    + String(describing: type(of: property)))
        }
    }

    /// Selects the columns of the property (or key path) `path` of the entity.
    private mutating func addColumns(_ path: String) throws(StoreError) -> (reading: Reading, range: Range<Int>) {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var source = "t0"
        // The to-ones on the way: the destination's table, its alias and how it joins the previous one.
        var joins: [(table: String, alias: String, condition: String)] = []
        for name in components.dropLast() {
            guard let relationship = current.relationship(named: name), !relationship.isToMany,
                case .foreignKey(let foreignKey)? = relationship.storage
            else { throw .unknownProperty(entity: entity.name, property: path) }
            let alias = "k\(joins.count + 1)"
            joins.append(
                (
                    relationship.destination.tableName, alias,
                    alias + #"."Z_PK" = "# + source + "." + SQLQuoting.identifier(foreignKey.column)
                ))
            source = alias
            current = relationship.destination
        }
        // A column of the last entity on the way: of the fetched row, or one correlated subquery through the
        // to-ones (`NULL` when one on the way is missing).
        func expression(_ column: String) -> String {
            let value = source + "." + SQLQuoting.identifier(column)
            guard let first = joins.first else { return value }
            let rest = joins.dropFirst().map {
                " LEFT JOIN " + SQLQuoting.identifier($0.table) + " AS " + $0.alias + " ON " + $0.condition
            }
            return "(SELECT " + value + " FROM " + SQLQuoting.identifier(first.table) + " AS " + first.alias
                + rest.joined() + " WHERE " + first.condition + ")"
        }
        let start = columns.count
        let last = components[components.count - 1]
        if let index = current.attributeIndex(last) {
            guard let column = current.attributeColumns[index] else {
                throw .unknownProperty(entity: entity.name, property: path)
            }
            let attribute = current.attributes[index]
            columns.append(expression(column))
            kinds.append(ColumnKind(attribute))
            return (.attribute(attribute.type), start..<columns.count)
        }
        guard let relationship = current.relationship(named: last), !relationship.isToMany,
            case .foreignKey(let foreignKey)? = relationship.storage
        else { throw .unknownProperty(entity: entity.name, property: path) }
        columns.append(expression(foreignKey.column))
        kinds.append(.integer)
        if let entityColumn = foreignKey.entityColumn {
            columns.append(expression(entityColumn))
            kinds.append(.integer)
        }
        return (
            .toOne(destinationNumber: relationship.destination.number, hasEntityColumn: foreignKey.entityColumn != nil),
            start..<columns.count
        )
    }

    /// Selects the aggregate `expression`.
    private mutating func addAggregate(_ expression: ExpressionDescription) throws(StoreError) {
        let key = expression.keyPath
        let described = "\(expression.function.rawValue) of \(entity.name).\(key)"
        guard !expression.name.isEmpty else {
            throw .invalidFetchRequest(
                entity: entity.name, reason: "the expression description of \(described) has no name")
        }
        let column: String
        let type: AttributeType
        if let index = entity.attributeIndex(key), let stored = entity.attributeColumns[index] {
            column = "t0." + SQLQuoting.identifier(stored)
            type = entity.attributes[index].type
            if entity.attributes[index].usesExternalBinaryDataFormat && expression.function != .count {
                throw .invalidFetchRequest(
                    entity: entity.name, reason: "\(described): the attribute allows external storage")
            }
        } else if expression.function == .count, let relationship = entity.relationship(named: key),
            !relationship.isToMany, case .foreignKey(let foreignKey)? = relationship.storage
        {
            column = "t0." + SQLQuoting.identifier(foreignKey.column)
            type = .integer64
        } else if key.contains(".") {
            throw .invalidFetchRequest(
                entity: entity.name, reason: "\(described): aggregates read the attributes of the entity fetched itself"
            )
        } else {
            throw .unknownProperty(entity: entity.name, property: key)
        }
        let isNumber = type.isInteger || type == .double || type == .float
        let sql: String
        let result: AttributeType
        switch expression.function {
        case .count:
            sql = "COUNT(" + column + ")"
            result = .integer64
        case .sum where isNumber:
            result = type.isInteger ? .integer64 : .double
            // PostgreSQL sums a BIGINT as a NUMERIC: back to the type the dictionary holds.
            sql =
                isPostgres
                ? "CAST(SUM(" + column + ") AS " + (type.isInteger ? "BIGINT" : "DOUBLE PRECISION") + ")"
                : "SUM(" + column + ")"
        case .average where isNumber:
            result = .double
            sql = isPostgres ? "CAST(AVG(" + column + ") AS DOUBLE PRECISION)" : "AVG(" + column + ")"
        case .min where isNumber || type == .date || type == .string,
            .max where isNumber || type == .date || type == .string:
            result = type
            let function = expression.function == .min ? "MIN(" : "MAX("
            // Strings compare by code point, as SQLite's binary collation does.
            sql = function + column + (isPostgres && type == .string ? #" COLLATE "C")"# : ")")
        case .sum, .average, .min, .max:
            let takes =
                expression.function == .min || expression.function == .max
                ? "number, date and string attributes" : "number attributes (integers, Double, Float)"
            throw .invalidFetchRequest(
                entity: entity.name,
                reason: "\(described): \(expression.function.rawValue) takes \(takes), not \(type.rawValue)")
        }
        properties.append(
            Property(
                key: expression.name, reading: .attribute(result), columns: columns.count..<columns.count + 1,
                isAggregate: true))
        columns.append(sql)
        kinds.append(ColumnKind(result))
    }

    /// One row's dictionary: each property with a value, typed as ``ManagedObject/value(forKey:)`` returns it (a
    /// to-one as its destination's ``ObjectID``).
    func dictionary(from row: [PrimitiveValue], runtime: ModelRuntime) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for property in properties {
            let first = property.columns.lowerBound
            switch property.reading {
            case .attribute(let type):
                if let value = ManagedObject.attributeValue(row[first], of: type) {
                    dictionary[property.key] = value
                }
            case .toOne(let destinationNumber, let hasEntityColumn):
                guard case .integer(let primaryKey) = row[first] else { continue }
                var number = destinationNumber
                if hasEntityColumn, case .integer(let stored) = row[first + 1] {
                    number = Int(truncatingIfNeeded: stored)
                }
                if let id = runtime.objectID(entityNumber: number, primaryKey: primaryKey) {
                    dictionary[property.key] = id
                }
            }
        }
        return dictionary
    }
}
