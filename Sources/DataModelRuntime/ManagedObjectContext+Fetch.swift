import DataModelStoreLayout
import Foundation
import SQLiteKit

extension ManagedObjectContext {
    /// The objects `request` describes, including unsaved insertions and leaving out unsaved
    /// deletions.
    ///
    /// - Throws: ``StoreError``: an unknown entity, or SQLite failing.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws(StoreError) -> [T] {
        try operation { () throws(StoreError) -> [T] in
            let objects = try fetchInOperation(request)
            if !request.relationshipKeyPathsForPrefetching.isEmpty && parent == nil {
                prefetch(request.relationshipKeyPathsForPrefetching, for: objects)
            }
            return objects
        }
    }

    func fetchInOperation<T: ManagedObject>(_ request: FetchRequest<T>) throws(StoreError) -> [T] {
        if let parent { return try fetchThroughParent(parent, request) }
        let entity = try self.entity(of: request)
        let conditions = try resolve(request.conditions, in: entity)
        let plan = try predicatePlan(for: request, entity: entity)
        let offset = max(request.fetchOffset ?? 0, 0)
        let limit = request.fetchLimit.map { max($0, 0) }
        let sortColumns = try request.sortDescriptors.map { (descriptor) throws(StoreError) in
            try sortColumn(for: descriptor, in: entity, strings: .init(limit: limit))
        }
        let allSortable = sortColumns.allSatisfy { $0 != nil }
        let pending = hasPendingChanges(in: entity, request: request, plan: plan)

        if !pending && allSortable && (request.predicate == nil || plan.path == .sql) {
            return try fetchRows(
                entity: entity, request: request, conditions: conditions, predicate: plan.translated,
                orderBy: sortColumns.compactMap { $0 }, limit: limit, offset: offset,
                batchSize: request.fetchBatchSize.flatMap { $0 > 0 ? $0 : nil }
                    // Keys only: faults that load their values one by one (a batch of one each).
                    ?? (request.includesPropertyValues ? nil : 1))
        }
        // Unsaved changes, a sort SQLite cannot do, or a predicate SQL cannot answer alone: the
        // store's rows (narrowed by SQL where that is safe), corrected and filtered in memory.
        let narrowing = pending && plan.translated?.usesRelationships == true ? nil : plan.translated
        // Every row is sorted here.
        let fullSortColumns =
            limit == nil
            ? sortColumns
            : try request.sortDescriptors.map { (descriptor) throws(StoreError) in
                try sortColumn(for: descriptor, in: entity, strings: .key)
            }
        var objects = try fetchRows(
            entity: entity, request: request, conditions: conditions, predicate: narrowing,
            orderBy: fullSortColumns.compactMap { $0 }, limit: nil, offset: 0
        ).filter { !$0.isDeleted }
        for object in insertedList where object.isInserted && matches(object, entity: entity, request: request) {
            if let typed = object as? T { objects.append(typed) }
        }
        if !conditions.isEmpty || request.predicate != nil {
            var included = Set(objects.map(\.objectID))
            for object in updatedList
            where object.isUpdated && !object.isDeleted && matches(object, entity: entity, request: request)
                && included.insert(object.objectID).inserted
            {
                if let typed = object as? T { objects.append(typed) }
            }
            objects = objects.filter { object in conditions.allSatisfy { $0.matches(object) } }
        }
        return try Self.evaluatedInMemory(
            objects, request: request, evaluatesPredicate: pending || plan.path != .sql, offset: offset, limit: limit)
    }

    /// `objects` as a fetch answers in memory: narrowed by the request's predicate (when `evaluatesPredicate`),
    /// sorted in the request's order (``FetchRequest/orders(_:before:)``) and windowed by `offset` and `limit`.
    static func evaluatedInMemory<T: ManagedObject>(
        _ objects: [T], request: FetchRequest<T>, evaluatesPredicate: Bool, offset: Int, limit: Int?
    ) throws(StoreError) -> [T] {
        var typed = objects
        if let predicate = request.predicate, evaluatesPredicate {
            do {
                typed = try typed.filter { try predicate.evaluate($0) }
            } catch {
                throw (error as? StoreError) ?? .predicateFailed("\(error)")
            }
        }
        if !request.sortDescriptors.isEmpty { typed.sort { request.orders($0, before: $1) } }
        let start = min(offset, typed.count)
        let end = limit.map { min(start + $0, typed.count) } ?? typed.count
        return Array(typed[start..<end])
    }

    /// The number of objects ``fetch(_:)`` would return.
    public func count<T: ManagedObject>(for request: FetchRequest<T>) throws(StoreError) -> Int {
        try operation { () throws(StoreError) -> Int in try countInOperation(for: request) }
    }

    private func countInOperation<T: ManagedObject>(for request: FetchRequest<T>) throws(StoreError) -> Int {
        if let parent { return try fetchThroughParent(parent, request).count }
        let entity = try self.entity(of: request)
        let conditions = try resolve(request.conditions, in: entity)
        let plan = try predicatePlan(for: request, entity: entity)
        let pending = hasPendingChanges(in: entity, request: request, plan: plan)
        if !request.includesPendingChanges {
            // The store's count alone.
        } else if (request.predicate != nil && (plan.path != .sql || pending)) || (!conditions.isEmpty && pending) {
            return try fetch(request).count
        }
        var total: Int
        if !request.includesPendingChanges && request.predicate != nil && plan.path != .sql {
            // The store's rows the predicate selects, judged in memory on their saved values.
            total = try storedIDs(matching: request).count
            let offset = max(request.fetchOffset ?? 0, 0)
            total = max(total - offset, 0)
            if let limit = request.fetchLimit { total = min(total, max(limit, 0)) }
            return total
        }
        do {
            let statement = try database.cachedStatement(
                "SELECT COUNT(*) FROM " + SQLQuoting.identifier(entity.tableName) + " AS t0 WHERE "
                    + whereClause(for: entity, request: request, conditions: conditions, predicate: plan.translated))
            defer { statement.resetIgnoringErrors() }
            let next = try bind(conditions, to: statement)
            try bind(plan.translated?.arguments ?? [], to: statement, from: next)
            total = try statement.step() == .row ? statement.int(at: 0) : 0
        } catch {
            throw StoreError(error)
        }
        if request.includesPendingChanges {
            for object in deletedList where object.isDeleted && !object.wasInsertedWhenDeleted {
                if matches(object, entity: entity, request: request) { total -= 1 }
            }
            for object in insertedList where object.isInserted && matches(object, entity: entity, request: request) {
                total += 1
            }
        }
        let offset = max(request.fetchOffset ?? 0, 0)
        total = max(total - offset, 0)
        if let limit = request.fetchLimit { total = min(total, max(limit, 0)) }
        return total
    }

    /// How `request`'s predicate is answered: by SQL, by SQL then in memory, or in memory, with
    /// the `WHERE` clause the fetch runs.
    ///
    /// ```swift
    /// let plan = try context.explain(EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.age ?? 0 > 30 }))
    /// // plan.path == .sql, plan.predicateSQL == "(COALESCE(t0.\"ZAGE\", ?) > ?)"
    /// ```
    public func explain<T: ManagedObject>(_ request: FetchRequest<T>) throws(StoreError) -> FetchExplanation {
        if let parent { return try explainThroughParent(parent, request) }
        let entity = try self.entity(of: request)
        let conditions = try resolve(request.conditions, in: entity)
        let plan = try predicatePlan(for: request, entity: entity)
        var path = plan.path
        var reason = plan.reason
        if request.predicate != nil && path != .memory && hasPendingChanges(in: entity, request: request, plan: plan) {
            path = .sqlThenMemory
            reason = "unsaved changes are checked in memory"
            if plan.translated?.usesRelationships == true {
                path = .memory
                reason = "unsaved changes and a predicate across relationships"
            }
        }
        let predicate = path == .memory ? nil : plan.translated
        return FetchExplanation(
            path: path,
            whereClause: whereClause(for: entity, request: request, conditions: conditions, predicate: predicate),
            predicateSQL: plan.translated?.sql, arguments: plan.translated?.arguments ?? [], reason: reason)
    }

    // MARK: Helpers

    /// The entity a request names, or the entity of its result class.
    func entity<T: ManagedObject>(of request: FetchRequest<T>) throws(StoreError) -> EntityRuntime {
        if request.entityName.isEmpty {
            guard let entity = entity(for: T.self) else { throw .unknownEntity(String(describing: T.self)) }
            return entity
        }
        guard let entity = runtime.entity(named: request.entityName) else { throw .unknownEntity(request.entityName) }
        return entity
    }

    func matches<T>(_ object: ManagedObject, entity: EntityRuntime, request: FetchRequest<T>) -> Bool {
        request.includesSubentities ? entity.includes(object.entityRuntime) : object.entityRuntime === entity
    }

    private func condition<T>(for entity: EntityRuntime, request: FetchRequest<T>) -> String {
        if !request.includesSubentities { return #""Z_ENT" = "# + String(entity.number) }
        return entity.layout.isRoot ? (database.isPostgres ? "TRUE" : "1") : entity.entityCondition
    }

    /// Whether unsaved changes could make the store's answer wrong: changes of the entity, or
    /// of any object when the translated predicate reads relationships.
    func hasPendingChanges<T>(in entity: EntityRuntime, request: FetchRequest<T>, plan: PredicatePlan) -> Bool {
        guard request.includesPendingChanges else { return false }
        return hasPendingChanges(in: entity, request: request)
            || (plan.translated?.usesRelationships == true && hasChanges)
    }

    /// Whether unsaved changes could make the store's answer wrong for this entity.
    private func hasPendingChanges<T>(in entity: EntityRuntime, request: FetchRequest<T>) -> Bool {
        insertedList.contains { $0.isInserted && matches($0, entity: entity, request: request) }
            || deletedList.contains { $0.isDeleted && matches($0, entity: entity, request: request) }
            || ((!request.sortDescriptors.isEmpty || !request.conditions.isEmpty || request.predicate != nil)
                && updatedList.contains { $0.isUpdated && matches($0, entity: entity, request: request) })
    }

    /// A condition ready for SQL (`"ZNAME" = ?` with its value, or `"ZNAME" IS NULL`) and for
    /// objects in memory.
    struct ResolvedCondition {
        let sql: String
        let binding: PrimitiveValue?
        let matches: (ManagedObject) -> Bool
    }

    func resolve(_ conditions: [EqualityCondition], in entity: EntityRuntime) throws(StoreError)
        -> [ResolvedCondition]
    {
        var resolved: [ResolvedCondition] = []
        for condition in conditions {
            let name: String?
            switch condition.property {
            case .name(let text): name = text
            case .keyPath(let keyPath): name = entity.description.propertyNameForKeyPath(keyPath)
            }
            guard let name else { throw .unknownProperty(entity: entity.name, property: "\(condition.property)") }
            if !condition.isRelationship, let index = entity.attributeIndex(name),
                let column = entity.attributeColumns[index]
            {
                let value = condition.value
                let quoted = SQLQuoting.identifier(column)
                // A stored value with external storage is marked, or in a file: only `nil` compares in SQL.
                if entity.attributes[index].usesExternalBinaryDataFormat && !value.isNull {
                    throw .predicateFailed(
                        "\(entity.name).\(name) allows external storage: compare it in a #Predicate, which is evaluated in memory"
                    )
                }
                resolved.append(
                    ResolvedCondition(
                        sql: value.isNull ? quoted + " IS NULL" : quoted + " = ?", binding: value.isNull ? nil : value,
                        matches: { $0.primitiveValue(for: name) == value }))
            } else if condition.isRelationship, let index = entity.relationshipIndex[name],
                case .foreignKey(let columns)? = entity.relationships[index].storage
            {
                let target = condition.object
                let quoted = SQLQuoting.identifier(columns.column)
                resolved.append(
                    ResolvedCondition(
                        sql: target == nil ? quoted + " IS NULL" : quoted + " = ?",
                        binding: target.map { .integer($0.primaryKey) },
                        matches: { object in
                            guard let relationship = object.relationship(name),
                                case .toOne(let id)? = object.relationshipValue(relationship)
                            else { return target == nil }
                            return id == target
                        }))
            } else {
                throw .unknownProperty(entity: entity.name, property: name)
            }
        }
        return resolved
    }

    func whereClause<T>(
        for entity: EntityRuntime, request: FetchRequest<T>, conditions: [ResolvedCondition],
        predicate: TranslatedPredicate?
    ) -> String {
        ([condition(for: entity, request: request)] + conditions.map(\.sql) + [predicate?.sql].compactMap { $0 })
            .joined(separator: " AND ")
    }

    /// How a request's predicate can be answered.
    struct PredicatePlan {
        let path: FetchExplanation.Path
        let translated: TranslatedPredicate?
        let reason: String?
    }

    /// The request's predicate plan: the one its last fetch made when that was for the same entity and dialect
    /// (the request's settings have not changed since: changing them drops it), else a new one, kept on the request.
    func predicatePlan<T>(for request: FetchRequest<T>, entity: EntityRuntime) throws(StoreError) -> PredicatePlan {
        guard request.predicate != nil else { return PredicatePlan(path: .sql, translated: nil, reason: nil) }
        let dialect = database.dialect
        if let cached = request.predicatePlanCache, cached.entity === entity, cached.dialect == dialect {
            return cached.plan
        }
        let plan = try makePredicatePlan(for: request, entity: entity)
        request.predicatePlanCache = CachedPredicatePlan(entity: entity, dialect: dialect, plan: plan)
        return plan
    }

    /// Translates the request's predicate for `entity` (a pure function of the predicate, the entity and the
    /// dialect: captured objects are read by their permanent ``ObjectID``).
    private func makePredicatePlan<T>(for request: FetchRequest<T>, entity: EntityRuntime) throws(StoreError)
        -> PredicatePlan
    {
        guard let predicate = request.predicate else { return PredicatePlan(path: .sql, translated: nil, reason: nil) }
        // A format predicate's keys are checked against the entity before anything runs.
        try (predicate.expression as? FormatPredicateExpression)?.checkKeys(entity: entity)
        var declineReason: String?
        guard
            let translated = PredicateSQLTranslator.translate(
                predicate, entity: entity, runtime: runtime, dialect: database.dialect, declineReason: &declineReason)
        else {
            return PredicatePlan(
                path: .memory, translated: nil, reason: declineReason ?? "the predicate has no SQL translation")
        }
        if !translated.isExact {
            return PredicatePlan(
                path: .sqlThenMemory, translated: translated,
                reason: "string matching is narrowed in SQL and checked in memory")
        }
        return PredicatePlan(path: .sql, translated: translated, reason: nil)
    }

    /// Binds `values` from parameter `index` on; returns the next parameter index.
    @discardableResult
    func bind(_ values: [PrimitiveValue], to statement: StoreStatement, from index: Int32) throws(StoreError)
        -> Int32
    {
        var index = index
        for binding in values {
            switch binding {
            case .null: try statement.bindNull(at: index)
            case .integer(let value): try statement.bind(value, at: index)
            case .real(let value): try statement.bind(value, at: index)
            case .text(let value): try statement.bind(value, at: index)
            case .blob(let value): try statement.bind(value, at: index)
            }
            index += 1
        }
        return index
    }

    /// Binds the conditions' values from parameter 1 on; returns the next parameter index.
    @discardableResult
    func bind(_ conditions: [ResolvedCondition], to statement: StoreStatement) throws(StoreError) -> Int32 {
        var index: Int32 = 1
        for binding in conditions.compactMap(\.binding) {
            switch binding {
            case .null: try statement.bindNull(at: index)
            case .integer(let value): try statement.bind(value, at: index)
            case .real(let value): try statement.bind(value, at: index)
            case .text(let value): try statement.bind(value, at: index)
            case .blob(let value): try statement.bind(value, at: index)
            }
            index += 1
        }
        return index
    }

    /// `"ZNAME" ASC` for a sort descriptor on a stored attribute, or `nil`. A descriptor with a
    /// string comparator (`.localizedStandard`, `.lexical`, …) is sorted in memory: SQLite's
    /// binary collation matches only `Comparable` (code point) order. `strings` is how SQLite sorts text as
    /// `String` does (``SwiftStringFunctions/Ordering``).
    func sortColumn<T>(
        for descriptor: SortDescriptor<T>, in entity: EntityRuntime, strings: SwiftStringFunctions.Ordering = .key
    ) throws(StoreError) -> String? {
        // A sort by key (`SortDescriptor(key:ascending:)`), its key checked even when sorted in memory.
        if let key = descriptor.keyPath.flatMap(SortKeys.key(of:)) {
            return try sortTerm(forKey: key, ascending: descriptor.order == .forward, in: entity, strings: strings)
        }
        guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath,
            let name = entity.description.propertyNameForKeyPath(keyPath),
            let index = entity.attributeIndex(name), let column = entity.attributeColumns[index]
        else { return nil }
        let direction = descriptor.order == .forward ? " ASC" : " DESC"
        let attribute = entity.attributes[index]
        if attribute.isOptional, attribute.type.isNumeric || attribute.type == .boolean, attribute.type != .decimal,
            !(type(of: keyPath).valueType is any OptionalValue.Type)
        {
            // A non-optional number property of an optional attribute (`--xcode-compatible`) reads NULL as 0, and
            // sorts so.
            let zero = attribute.type == .boolean && database.isPostgres ? "FALSE" : "0"
            return "COALESCE(" + SQLQuoting.identifier(column) + ", " + zero + ")" + direction
        }
        if database.isPostgres {
            return PostgresSQL.orderTerm(
                SQLQuoting.identifier(column), isString: attribute.type == .string,
                ascending: descriptor.order == .forward)
        }
        guard attribute.type != .string else {
            // Strings sort as Swift's `<` sorts them (canonical equivalence), not by bytes.
            return strings.term(SQLQuoting.identifier(column)) + direction
        }
        return SQLQuoting.identifier(column) + direction
    }

    /// The IDs of the saved rows `request` selects, ignoring unsaved changes: by SQL alone when
    /// the predicate translates exactly, else by evaluating it on the narrowed rows' objects.
    func storedIDs<T: ManagedObject>(matching request: FetchRequest<T>) throws(StoreError) -> [ObjectID] {
        let request = request.copy()
        request.includesPendingChanges = false
        let entity = try self.entity(of: request)
        let conditions = try resolve(request.conditions, in: entity)
        let plan = try predicatePlan(for: request, entity: entity)
        if request.predicate == nil || plan.path == .sql {
            var ids: [ObjectID] = []
            do {
                let statement = try database.cachedStatement(
                    #"SELECT "Z_PK", "Z_ENT" FROM "# + SQLQuoting.identifier(entity.tableName) + " AS t0 WHERE "
                        + whereClause(for: entity, request: request, conditions: conditions, predicate: plan.translated)
                        + #" ORDER BY "Z_PK""#)
                defer { statement.resetIgnoringErrors() }
                let next = try bind(conditions, to: statement)
                try bind(plan.translated?.arguments ?? [], to: statement, from: next)
                while try statement.step() == .row {
                    if let id = runtime.objectID(entityNumber: statement.int(at: 1), primaryKey: statement.int64(at: 0))
                    {
                        ids.append(id)
                    }
                }
            } catch {
                throw StoreError(error)
            }
            return ids
        }
        // The objects' in-memory values are what the predicate sees: unsaved changes would leak in.
        let objects = try fetchRows(
            entity: entity, request: request, conditions: conditions, predicate: plan.translated, orderBy: [],
            limit: nil, offset: 0)
        var ids: [ObjectID] = []
        for object in objects {
            if object.hasChanges, let row = try storedRow(of: object) {
                // Judge the saved row: a detached copy with the stored values.
                let copy = object.entityRuntime.objectType.init(
                    ObjectSeed(entity: object.entityRuntime, objectID: object.objectID, context: self, isFault: false))
                copy.values = row.values
                copy.context = nil
                guard let typed = copy as? T else { continue }
                if (try? request.predicate?.evaluate(typed)) == true { ids.append(object.objectID) }
                continue
            }
            do {
                if try request.predicate?.evaluate(object) ?? true { ids.append(object.objectID) }
            } catch {
                throw (error as? StoreError) ?? .predicateFailed("\(error)")
            }
        }
        return ids
    }

    /// Runs a fetch and maps rows to registered objects (filling faults, keeping unsaved values).
    private func fetchRows<T: ManagedObject>(
        entity: EntityRuntime, request: FetchRequest<T>, conditions: [ResolvedCondition],
        predicate: TranslatedPredicate?, orderBy: [String], limit: Int?, offset: Int, batchSize: Int? = nil
    ) throws(StoreError) -> [T] {
        // With a batch size, only IDs are read: the objects are faults, and the first access to
        // one loads its whole batch in one query.
        // Every row is of `entity` when the request leaves sub-entities out (the `WHERE` clause
        // then names the entity) or when the entity has none.
        let rowsAreOfEntity = !request.includesSubentities || entity.layout.hierarchyNumbers.count == 1
        let select =
            batchSize != nil
            ? #"SELECT "Z_PK", "Z_ENT" FROM "# + SQLQuoting.identifier(entity.tableName)
            : rowsAreOfEntity ? entity.selectColumnsOfEntitySQL : entity.selectColumnsSQL
        var batch: FaultBatch?
        let sql =
            select + " AS t0 WHERE "
            + whereClause(for: entity, request: request, conditions: conditions, predicate: predicate)
            + " ORDER BY " + (orderBy + [#""Z_PK""#]).joined(separator: ", ")
            // Only when asked for: with a `LIMIT`, SQLite sorts through a B-tree (to keep the
            // first rows only) instead of its much cheaper merge sorter. An `OFFSET` of 0 is left out (it costs
            // two instructions of SQLite's program per row returned).
            + (limit != nil || offset > 0 ? " LIMIT ?" : "") + (offset > 0 ? " OFFSET ?" : "")
        // Collected as `ManagedObject`s (appending to a `[T]` in this unspecialized generic code
        // would look up `Array<T>`'s metadata per row), moved into a `[T]` at the end.
        var objects = ObjectCollector()
        // Whether each entity's class is a `T`, found once per entity instead of a cast per row.
        var castable = [UInt8](repeating: 0, count: runtime.entities.count + 1)
        var vacancy = ObjectTable.Vacancy()
        // Positions of objects whose values this fetch did not read (registered already, or left faults): every
        // other object gets `awakeFromFetch()` once the statement is done.
        var unread: [Int] = []
        // Registered objects whose rows moved on, with the rows read, when the request refreshes refetched objects:
        // applied once the statement is done (observers run then, and may fetch).
        var refetched: [(object: ManagedObject, row: StoredRow)] = []
        do {
            let statement = try database.cachedStatement(sql)
            defer { statement.resetIgnoringErrors() }
            var next = try bind(conditions, to: statement)
            next = try bind(predicate?.arguments ?? [], to: statement, from: next)
            if limit != nil || offset > 0 {
                // No limit: SQLite's `LIMIT -1`, PostgreSQL's `LIMIT NULL`.
                if limit == nil && database.isPostgres {
                    try statement.bindNull(at: next)
                } else {
                    try statement.bind(Int64(limit ?? -1), at: next)
                }
                if offset > 0 { try statement.bind(Int64(offset), at: next + 1) }
            }
            // One loop per store type, specialised by the compiler (generic over the statement only, not over
            // `T`): no dispatch per row or column.
            let isResult = { (type: ManagedObject.Type) in type is T.Type }
            switch statement {
            case .sqlite(let rows):
                try readRows(
                    rows, entity: entity, rowsAreOfEntity: rowsAreOfEntity, batchSize: batchSize, isResult: isResult,
                    castable: &castable, batch: &batch, vacancy: &vacancy, into: &objects, unread: &unread,
                    refreshes: request.shouldRefreshRefetchedObjects, refetched: &refetched)
            case .postgres(let rows):
                try readRows(
                    rows, entity: entity, rowsAreOfEntity: rowsAreOfEntity, batchSize: batchSize, isResult: isResult,
                    castable: &castable, batch: &batch, vacancy: &vacancy, into: &objects, unread: &unread,
                    refreshes: request.shouldRefreshRefetchedObjects, refetched: &refetched)
            }
        } catch {
            throw StoreError(error)
        }
        // As `refresh(_:mergeChanges: true)` with the row just read: unsaved changes stay on top.
        for (object, row) in refetched where !object.isInvalid { apply(row, to: object, keepingChanges: true) }
        objects.deliverAwakeFromFetch(in: self, skipping: unread)
        return objects.take(as: T.self)
    }

    /// The rows of a fetch's statement as registered objects (filled, or faults of `batchSize` batches), appended
    /// to `objects`; rows of entities whose class `isResult` refuses are skipped. When `rowsAreOfEntity`, every row
    /// is of `entity` and its `Z_ENT` column is not read.
    private func readRows<Row: StoreRow>(
        _ statement: Row, entity: EntityRuntime, rowsAreOfEntity: Bool, batchSize: Int?,
        isResult: (ManagedObject.Type) -> Bool,
        castable: inout [UInt8], batch: inout FaultBatch?, vacancy: inout ObjectTable.Vacancy,
        into objects: inout ObjectCollector, unread: inout [Int], refreshes: Bool,
        refetched: inout [(object: ManagedObject, row: StoredRow)]
    ) throws(StoreError) {
        let storeNumber = coordinator.storeNumber
        var arena = ObjectValueArena()
        while try statement.nextRow() {
            let primaryKey = statement.int64(at: 0)
            let number = rowsAreOfEntity ? entity.number : statement.int(at: 1)
            // A `Z_ENT` naming no entity of the model: not a row of ours.
            guard castable.indices.contains(number) else { continue }
            if castable[number] == 0 {
                guard let rowEntity = runtime.entity(number: number) else { continue }
                castable[number] = isResult(rowEntity.objectType) ? 1 : 2
            }
            guard castable[number] == 1 else { continue }
            let id = ObjectID(
                storeNumber: storeNumber, entityNumber: number, primaryKey: primaryKey)
            if let object = registered.find(id, orVacancy: &vacancy) {
                if object.isFault && batchSize == nil {
                    readRow(statement, entity: object.entityRuntime, into: object, arena: &arena)
                } else {
                    // A registered object's row that moved on since the object read it (its `Z_OPT` changed), kept
                    // for the refresh the request asks for.
                    if refreshes, batchSize == nil, !object.isFault, !object.isInserted, !object.isDeleted,
                        statement.int64(at: 2) != object.version
                    {
                        refetched.append((object, decodeStoredRow(statement, entity: object.entityRuntime)))
                    }
                    if object.isFault, let batchSize {
                        if batch == nil || batch?.ids.count == batchSize { batch = FaultBatch() }
                        batch?.ids.append(id)
                        object.faultBatch = batch
                    }
                    unread.append(objects.count)
                }
                objects.append(consume object)
                continue
            }
            // The row's entity: the fetched one, unless the row is of a sub-entity (the
            // check above found it, so the lookup cannot fail). Borrowed, not retained for each row: the model
            // runtime holds every entity runtime.
            let rowEntity: Unmanaged<EntityRuntime>
            if number == entity.number {
                rowEntity = .passUnretained(entity)
            } else if let other = runtime.entity(number: number) {
                rowEntity = .passUnretained(other)
            } else {
                continue
            }
            let object = rowEntity._withUnsafeGuaranteedRef { rowEntity in
                let object = rowEntity.objectType.init(
                    ObjectSeed(entity: rowEntity, objectID: id, context: self, isFault: true, isRegistered: true))
                if let batchSize {
                    if batch == nil || batch?.ids.count == batchSize { batch = FaultBatch() }
                    batch?.ids.append(id)
                    object.faultBatch = batch
                    unread.append(objects.count)
                } else {
                    readRow(statement, entity: rowEntity, into: object, arena: &arena)
                }
                return object
            }
            registered.fill(vacancy, with: object)
            objects.append(consume object)
        }
    }
}

/// The objects of a fetch as it reads them, moved (not copied) into the `[T]` it returns: an
/// array would retain each object once more to copy it and release it when dropped.
private struct ObjectCollector: ~Copyable {
    private var buffer: UnsafeMutablePointer<ManagedObject>
    private var capacity = 16
    private(set) var count = 0

    init() { buffer = .allocate(capacity: 16) }

    deinit {
        buffer.deinitialize(count: count)
        buffer.deallocate()
    }

    /// Takes `object`'s reference over (a caller's last use of it moves it in, without a retain and a release).
    @inline(__always)
    mutating func append(_ object: consuming ManagedObject) {
        if count == capacity {
            let larger = UnsafeMutablePointer<ManagedObject>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: buffer, count: count)
            buffer.deallocate()
            buffer = larger
            capacity *= 2
        }
        (buffer + count).initialize(to: object)
        count += 1
    }

    /// Calls `awakeFromFetch()` on the objects but those at `skipped` (see
    /// ``ManagedObjectContext/deliverAwakeFromFetch(_:count:skipping:)``).
    func deliverAwakeFromFetch(in context: ManagedObjectContext, skipping skipped: [Int]) {
        context.deliverAwakeFromFetch(buffer, count: count, skipping: skipped)
    }

    /// The objects, every one of which the caller checked is a `T`, as a `[T]`; the collector is
    /// empty after.
    mutating func take<T: ManagedObject>(as type: T.Type) -> [T] {
        // Not for an empty list: the initializer then writes the count into the shared empty-array
        // storage, a (harmless) race between threads that the thread sanitizer reports.
        guard count > 0 else { return [] }
        let taken = count
        count = 0
        let source = buffer
        return [T](unsafeUninitializedCapacity: taken) { target, initialized in
            for index in 0..<taken {
                // safe: fetchRows checked each entity's class is a `T`.
                target.initializeElement(at: index, to: unsafeDowncast((source + index).move(), to: T.self))
            }
            initialized = taken
        }
    }
}

/// A request's predicate plan with what it was made for (``FetchRequest/predicatePlanCache``). The entity is held
/// strongly, so no other entity can take its place (and identity) while the plan is kept. Not `weak`: a weak
/// reference gives the entity a side table, and every retain and release of it then takes Swift's slow path
/// (measured: +2.9 M instructions over eight 20,000-row fetches, more than the cache saved).
struct CachedPredicatePlan {
    let entity: EntityRuntime
    let dialect: SQLDialect
    let plan: ManagedObjectContext.PredicatePlan
}
