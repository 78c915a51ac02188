import DataModelStoreLayout
import Foundation
import SQLiteKit

/// Deletes the saved rows a predicate selects, in SQL, without loading objects.
///
/// ```swift
/// let result = try context.execute(BatchDeleteRequest<Person>(predicate: #Predicate { $0.name == "Ann" }))
/// result.count   // rows deleted, sub-entities and cascades included
/// ```
///
/// Relationships follow the deleted entity's delete rules, applied in SQL: **Cascade** deletes
/// the destinations too (recursively), **Nullify** clears the destinations' foreign keys that
/// pointed at deleted rows, **Deny** makes the request fail with a ``ValidationError``
/// (`deleteDenied`) while a deleted row has destinations that are not deleted as well, **No
/// Action** leaves the destinations alone. Join-table rows of deleted objects are always
/// removed. Unsaved changes are ignored (the store's rows are selected) and validation does not
/// run. The executing context drops the deleted objects and reloads the nullified ones; other
/// contexts learn about it as from a save (``ManagedObjectContext/automaticallyMergesChangesFromParent``,
/// or ``ManagedObjectContext/mergeChanges(_:)`` with the result's ``BatchResult/changes``).
public struct BatchDeleteRequest<Result: ManagedObject> {
    /// The rows to delete: the request's entity (sub-entities included), conditions and predicate. A request of
    /// the batch request's own (a copy of the one it was made from, as in Core Data): changing it here changes this
    /// batch request, changing the one it was made from does not.
    public var fetchRequest: FetchRequest<Result>
    /// What ``BatchResult/result`` holds, as Core Data's `resultType`: ``BatchResultType/statusOnly`` (the
    /// default, as in Core Data), ``BatchResultType/count`` or ``BatchResultType/objectIDs``.
    public var resultType: BatchResultType = .statusOnly

    /// Deletes every row of `Result`'s entity that `predicate` selects (all rows when `nil`).
    public init(predicate: Predicate<Result>? = nil) {
        fetchRequest = FetchRequest<Result>()
        fetchRequest.predicate = predicate
    }

    /// Deletes the rows `fetchRequest` selects (its sort, limit and offset are ignored), as it is now: the batch
    /// request keeps a copy.
    public init(fetchRequest: FetchRequest<Result>) {
        self.fetchRequest = fetchRequest.copy()
    }
}

/// Sets attributes of the saved rows a predicate selects, in SQL, without loading objects.
///
/// ```swift
/// let result = try context.execute(
///     BatchUpdateRequest<EmployeeEntity>(predicate: #Predicate { $0.age ?? 0 > 60 }).setting(\.retired, to: true))
/// ```
///
/// Each row's `Z_OPT` is incremented, so contexts holding changed copies see a conflict at
/// save as with any other context's change. Validation does not run. The executing context
/// refreshes its objects (keeping its unsaved changes); other contexts learn about it as from
/// a save.
public struct BatchUpdateRequest<Result: ManagedObject> {
    /// The rows to update: the request's entity (sub-entities included), conditions and predicate. A request of
    /// the batch request's own (a copy of the one it was made from, as in Core Data): changing it here changes this
    /// batch request, changing the one it was made from does not.
    public var fetchRequest: FetchRequest<Result>
    /// What ``BatchResult/result`` holds (``BatchResultType/statusOnly`` by default, as in Core Data).
    public var resultType: BatchResultType = .statusOnly
    /// The attributes to set, by model name, with their stored values.
    var assignments: [(property: EqualityCondition.Property, value: PrimitiveValue)] = []
    /// ``propertiesToUpdate``: values of the attributes' Swift types, converted when the request runs.
    var namedValues: [String: Any] = [:]

    /// Core Data's `propertiesToUpdate`: attributes by model name with their new values, set in addition to those
    /// of the `setting(_:to:)` methods. A value is what ``ManagedObject/setValue(_:forKey:)`` takes for the
    /// attribute (`41` or `Int16(41)` for an `Integer 16`, a `Date`, a `String` …); `NSNull()` or a `nil` optional
    /// clears it. An unknown name, or a value of the wrong type, makes `context.execute(request)`
    /// throw before anything is written.
    public var propertiesToUpdate: [String: Any]? {
        get { namedValues.isEmpty ? nil : namedValues }
        set { namedValues = newValue ?? [:] }
    }

    /// Updates every row of `Result`'s entity that `predicate` selects (all rows when `nil`).
    public init(predicate: Predicate<Result>? = nil) {
        fetchRequest = FetchRequest<Result>()
        fetchRequest.predicate = predicate
    }

    /// Updates the rows `fetchRequest` selects (its sort, limit and offset are ignored), as it is now: the batch
    /// request keeps a copy.
    public init(fetchRequest: FetchRequest<Result>) {
        self.fetchRequest = fetchRequest.copy()
    }

    /// A copy of the batch request with a copy of its fetch request: where the `setting(_:to:)` methods start, so
    /// the receiver and the result never share a fetch request.
    private func withOwnFetchRequest() -> Self {
        var copy = self
        copy.fetchRequest = fetchRequest.copy()
        return copy
    }

    /// The request also setting the attribute at `keyPath` to `value`.
    public func setting<Value: StorableValue>(_ keyPath: KeyPath<Result, Value>, to value: Value) -> Self {
        var copy = withOwnFetchRequest()
        copy.assignments.append((.keyPath(keyPath), value.primitiveValue))
        return copy
    }

    /// The request also setting the optional attribute at `keyPath` to `value` (`nil` clears it).
    public func setting<Value: StorableValue>(_ keyPath: KeyPath<Result, Value?>, to value: Value?) -> Self {
        var copy = withOwnFetchRequest()
        copy.assignments.append((.keyPath(keyPath), value?.primitiveValue ?? .null))
        return copy
    }

    /// The request also setting the attribute named `property` (model spelling) to `value`.
    public func setting<Value: StorableValue>(_ property: String, to value: Value?) -> Self {
        var copy = withOwnFetchRequest()
        copy.assignments.append((.name(property), value?.primitiveValue ?? .null))
        return copy
    }
}

/// What a batch request's ``BatchResult/result`` holds, as Core Data's result types
/// (`NSBatchDeleteRequestResultType`, `NSBatchInsertRequestResultType`, `NSBatchUpdateRequestResultType`).
public enum BatchResultType: Sendable, Hashable {
    /// Whether the request succeeded: `true` (a failure throws). Core Data's `.resultTypeStatusOnly`.
    case statusOnly
    /// How many rows were deleted, inserted or updated, an `Int`. Core Data's `.resultTypeCount`.
    case count
    /// The IDs of those rows, an `[ObjectID]`. Core Data's `.resultTypeObjectIDs`.
    case objectIDs
}

extension BatchResultType {
    /// ``statusOnly``, as Core Data's batch delete spells it (`NSBatchDeleteRequestResultType`).
    public static var resultTypeStatusOnly: Self { .statusOnly }
    /// ``count``, as Core Data's batch delete spells it.
    public static var resultTypeCount: Self { .count }
    /// ``objectIDs``, as Core Data's batch delete spells it.
    public static var resultTypeObjectIDs: Self { .objectIDs }
    /// ``statusOnly``, as Core Data's batch update spells it (`NSBatchUpdateRequestResultType`).
    public static var statusOnlyResultType: Self { .statusOnly }
    /// ``count``, as Core Data's batch update spells it.
    public static var updatedObjectsCountResultType: Self { .count }
    /// ``objectIDs``, as Core Data's batch update spells it.
    public static var updatedObjectIDsResultType: Self { .objectIDs }
}

/// What a batch request did.
///
/// ``objectIDs``, ``count`` and ``changes`` are always filled (the runtime needs them to update the contexts);
/// ``result`` holds what the request's `resultType` asked for, as Core Data's `NSBatchDeleteResult.result`.
public struct BatchResult: Sendable, Hashable {
    /// The rows the request deleted, inserted or updated, in primary key order per entity.
    public let objectIDs: [ObjectID]
    /// Every row the request changed, as a save reports it (for a delete, `updated` holds the
    /// rows whose foreign keys were nullified).
    public let changes: StoreChanges
    /// What ``result`` holds.
    public let resultType: BatchResultType

    /// Creates a result.
    init(objectIDs: [ObjectID], changes: StoreChanges, resultType: BatchResultType = .statusOnly) {
        self.objectIDs = objectIDs
        self.changes = changes
        self.resultType = resultType
    }

    /// How many rows were deleted, inserted or updated.
    public var count: Int { objectIDs.count }

    /// The result in the request's ``resultType``, as Core Data's `result`: `true` (status only), an `Int` (count),
    /// or an `[ObjectID]` (object IDs).
    public var result: any Sendable {
        switch resultType {
        case .statusOnly: true
        case .count: count
        case .objectIDs: objectIDs
        }
    }
}

extension ManagedObjectContext {
    /// Runs a batch delete in one transaction (see ``BatchDeleteRequest``).
    ///
    /// - Throws: ``ValidationError`` (`deleteDenied`) or ``StoreError``; nothing is deleted then.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchDeleteRequest<T>) throws -> BatchResult {
        try operation { () throws -> BatchResult in
            let selected = try storedIDs(matching: request.fetchRequest)
            var planner = BatchDeletePlanner(runtime: runtime, database: database)
            let plan = try planner.plan(deleting: selected)
            let external = runtime.hasExternalAttributes ? ExternalDataWrites(files: coordinator.externalData) : nil
            var derived: [ObjectID] = []
            do {
                try database.transaction {
                    if let external {
                        for id in plan.deleted {
                            guard let entity = runtime.entity(number: id.entityNumber) else { continue }
                            try external.recordReplaced(
                                entity, primaryKey: id.primaryKey, attributes: nil, database: database)
                        }
                    }
                    // Derivations that read the deleted rows (a team's `members.@count`), found while they exist.
                    let deleted = Set(plan.deleted)
                    let owners = try storedDerivationOwners(of: plan.deleted).filter { !deleted.contains($0) }
                    try planner.execute(plan)
                    let nullified = plan.nullified.filter { !deleted.contains($0) }
                    derived = try writeDerivedAttributes(
                        changed: nullified, also: owners, written: Set(nullified))
                }
            } catch let error as StoreError {
                throw StoreError(error)
            }
            // The files of the deleted rows' external binary values go once the deletion is committed.
            external?.removeObsolete()
            let changes = StoreChanges(
                updated: Set(plan.nullified).union(derived).subtracting(plan.deleted), deleted: Set(plan.deleted))
            mergeChanges(changes)
            coordinator.post(changes, from: inbox)
            return BatchResult(objectIDs: plan.deleted, changes: changes, resultType: request.resultType)
        }
    }

    /// Runs a batch update in one transaction (see ``BatchUpdateRequest``).
    ///
    /// - Throws: ``StoreError``: an unknown or non-attribute property, or SQLite failing.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchUpdateRequest<T>) throws(StoreError) -> BatchResult {
        try operation { () throws(StoreError) -> BatchResult in
            // The entity a fetch of the same request would read.
            let entity = try self.entity(of: request.fetchRequest)
            var columns: [(column: String, value: PrimitiveValue)] = []
            var externalIndexes = Set<Int>()
            func assign(_ value: PrimitiveValue, toAttribute index: Int, column: String) {
                if entity.externalAttributes.contains(where: { $0.index == index }) {
                    // Written in the column behind the inline marker: one file shared by many rows could not be
                    // removed with one of them.
                    externalIndexes.insert(index)
                    columns.append((column, coordinator.externalData.inlineForm(value)))
                } else {
                    columns.append((column, value))
                }
            }
            for assignment in request.assignments {
                let name: String?
                switch assignment.property {
                case .name(let text): name = text
                case .keyPath(let keyPath): name = entity.description.propertyNameForKeyPath(keyPath)
                }
                guard let name, let index = entity.attributeIndex(name), let column = entity.attributeColumns[index]
                else {
                    throw .unknownProperty(entity: entity.name, property: "\(assignment.property)")
                }
                assign(assignment.value, toAttribute: index, column: column)
            }
            // In name order: the same request writes its columns in the same order every time.
            for (name, value) in request.namedValues.sorted(by: { $0.key < $1.key }) {
                guard let index = entity.attributeIndex(name), let column = entity.attributeColumns[index] else {
                    throw .unknownProperty(entity: entity.name, property: name)
                }
                let type = entity.attributes[index].type
                guard let value = unwrapped(value) else {
                    assign(.null, toAttribute: index, column: column)
                    continue
                }
                if let stored = ManagedObject.primitiveValue(value, as: type) {
                    assign(stored, toAttribute: index, column: column)
                } else {
                    throw .invalidFetchRequest(
                        entity: entity.name,
                        reason: "propertiesToUpdate: \(name) takes \(ManagedObject.swiftTypeName(of: type)), not a "
                            + "value of type \(Swift.type(of: value))")
                }
            }
            let ids = try storedIDs(matching: request.fetchRequest)
            guard !ids.isEmpty, !columns.isEmpty else {
                return BatchResult(objectIDs: ids, changes: StoreChanges(), resultType: request.resultType)
            }
            let sql =
                "UPDATE " + SQLQuoting.identifier(entity.tableName) + " SET "
                + (columns.map { SQLQuoting.identifier($0.column) + " = ?" } + [#""Z_OPT" = "Z_OPT" + 1"#])
                .joined(separator: ", ") + #" WHERE "Z_PK" = ?"#
            let external = externalIndexes.isEmpty ? nil : ExternalDataWrites(files: coordinator.externalData)
            var derived: [ObjectID] = []
            do {
                try database.transaction {
                    if let external {
                        for id in ids {
                            guard let rowEntity = runtime.entity(number: id.entityNumber) else { continue }
                            try external.recordReplaced(
                                rowEntity, primaryKey: id.primaryKey, attributes: externalIndexes, database: database)
                        }
                    }
                    let statement = try database.cachedStatement(sql)
                    for id in ids {
                        try statement.reset()
                        for (offset, column) in columns.enumerated() {
                            try statement.bind(column.value, at: Int32(offset + 1))
                        }
                        try statement.bind(id.primaryKey, at: Int32(columns.count + 1))
                        try statement.run()
                    }
                    // The updated rows' derived attributes, and those of rows whose derivations read them.
                    derived = try writeDerivedAttributes(changed: ids, written: Set(ids))
                }
            } catch {
                throw StoreError(error)
            }
            external?.removeObsolete()
            let changes = StoreChanges(updated: Set(ids).union(derived))
            mergeChanges(changes)
            coordinator.post(changes, from: inbox)
            return BatchResult(objectIDs: ids, changes: changes, resultType: request.resultType)
        }
    }
}

extension StoreStatement {
    /// Binds a stored value.
    func bind(_ value: PrimitiveValue, at index: Int32) throws(StoreError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let data): try bind(data, at: index)
        }
    }
}

/// Works out, in SQL, what a batch delete removes and nullifies, then does it.
struct BatchDeletePlanner {
    let runtime: ModelRuntime
    let database: StoreConnection

    struct Plan {
        /// Every row deleted: the selection and its cascades.
        var deleted: [ObjectID] = []
        /// Rows whose foreign keys pointed at deleted rows and are cleared.
        var nullified: [ObjectID] = []
        /// `UPDATE … SET fk = NULL …` statements with the primary keys they apply to.
        var clears: [(sql: String, primaryKeys: [Int64])] = []
    }

    /// The rows deleted and nullified when `selected` is deleted; throws for a Deny rule.
    mutating func plan(deleting selected: [ObjectID]) throws -> Plan {
        var plan = Plan()
        var deleted = Set<ObjectID>()
        var queue = selected
        // Cascades, breadth first.
        while !queue.isEmpty {
            let batch = queue.filter { deleted.insert($0).inserted }
            queue = []
            plan.deleted += batch
            for (entity, keys) in group(batch) {
                for relationship in entity.relationships where relationship.description.deleteRule == .cascade {
                    queue += try destinations(of: relationship, in: entity, from: keys)
                }
            }
        }
        var failures: [ValidationError.Failure] = []
        var nullified = Set<ObjectID>()
        for (entity, keys) in group(plan.deleted) {
            for relationship in entity.relationships {
                switch relationship.description.deleteRule {
                case .deny:
                    for key in keys
                    where try destinations(of: relationship, in: entity, from: [key]).contains(where: {
                        !deleted.contains($0)
                    }) {
                        guard let id = runtime.objectID(entityNumber: entity.number, primaryKey: key) else { continue }
                        failures.append(
                            ValidationError.Failure(
                                objectID: id, entityName: entity.name, property: relationship.name, rule: .deleteDenied,
                                message: "\(relationship.name) has objects and its delete rule is Deny"))
                    }
                case .nullify:
                    // Only the destinations' own foreign keys need clearing; join rows go anyway.
                    guard case .inverseForeignKey(let table, let columns)? = relationship.storage else { continue }
                    let pointing = try destinations(of: relationship, in: entity, from: keys).filter {
                        !deleted.contains($0)
                    }
                    guard !pointing.isEmpty else { continue }
                    let cleared = [columns.column, columns.entityColumn, columns.orderColumn].compactMap { $0 }
                    let sql =
                        "UPDATE " + SQLQuoting.identifier(table) + " SET "
                        + (cleared.map { SQLQuoting.identifier($0) + " = NULL" } + [#""Z_OPT" = "Z_OPT" + 1"#])
                        .joined(separator: ", ") + #" WHERE "Z_PK" = ?"#
                    plan.clears.append((sql, pointing.map(\.primaryKey)))
                    nullified.formUnion(pointing)
                case .cascade, .noAction:
                    continue
                }
            }
        }
        // To-ones of surviving rows pointing at deleted ones through a to-one inverse stored on
        // their side (one-to-one with the key on the destination).
        for (entity, keys) in group(plan.deleted) {
            for relationship in entity.relationships
            where relationship.description.deleteRule == .nullify && !relationship.isToMany {
                guard let inverseIndex = relationship.inverseIndex else { continue }
                let inverse = relationship.destination.relationships[inverseIndex]
                guard !inverse.isToMany, case .foreignKey(let columns)? = inverse.storage else { continue }
                let pointing = try rows(
                    of: relationship.destination, whereColumn: columns.column, in: keys
                ).filter { !deleted.contains($0) }
                guard !pointing.isEmpty else { continue }
                let cleared = [columns.column, columns.entityColumn, columns.orderColumn].compactMap { $0 }
                let sql =
                    "UPDATE " + SQLQuoting.identifier(relationship.destination.tableName) + " SET "
                    + (cleared.map { SQLQuoting.identifier($0) + " = NULL" } + [#""Z_OPT" = "Z_OPT" + 1"#])
                    .joined(separator: ", ") + #" WHERE "Z_PK" = ?"#
                plan.clears.append((sql, pointing.map(\.primaryKey)))
                nullified.formUnion(pointing)
            }
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
        plan.nullified = nullified.sorted { ($0.entityNumber, $0.primaryKey) < ($1.entityNumber, $1.primaryKey) }
        return plan
    }

    /// Deletes the rows and their join-table rows, and clears the foreign keys.
    func execute(_ plan: Plan) throws {
        for clear in plan.clears {
            let statement = try database.cachedStatement(clear.sql)
            for key in clear.primaryKeys {
                try statement.reset()
                try statement.bind(key, at: 1)
                try statement.run()
            }
        }
        let groups = group(plan.deleted)
        for (entity, keys) in groups {
            let delete = try database.cachedStatement(
                "DELETE FROM " + SQLQuoting.identifier(entity.tableName) + #" WHERE "Z_PK" = ?"#)
            for key in keys {
                try delete.reset()
                try delete.bind(key, at: 1)
                try delete.run()
            }
        }
        guard runtime.hasJoinTables else { return }
        // Join rows naming a deleted row on either side, of any relationship in the model.
        for (entity, keys) in groups {
            var statements = Set<String>()
            for other in runtime.entities {
                for relationship in other.relationships {
                    guard case .joinTable(let columns)? = relationship.storage else { continue }
                    if entity.lineage.contains(where: { $0.name == relationship.description.destinationEntityName }) {
                        statements.insert(
                            "DELETE FROM " + SQLQuoting.identifier(columns.table) + " WHERE "
                                + SQLQuoting.identifier(columns.destinationColumn) + " = ?")
                    }
                    if other === entity {
                        statements.insert(
                            "DELETE FROM " + SQLQuoting.identifier(columns.table) + " WHERE "
                                + SQLQuoting.identifier(columns.sourceColumn) + " = ?")
                    }
                }
            }
            for sql in statements.sorted() {
                let statement = try database.cachedStatement(sql)
                for key in keys {
                    try statement.reset()
                    try statement.bind(key, at: 1)
                    try statement.run()
                }
            }
        }
    }

    /// IDs grouped by entity (sub-entities separately), entities in number order.
    private func group(_ ids: [ObjectID]) -> [(EntityRuntime, [Int64])] {
        var byEntity: [Int: [Int64]] = [:]
        for id in ids { byEntity[id.entityNumber, default: []].append(id.primaryKey) }
        return byEntity.keys.sorted().compactMap { number in
            runtime.entity(number: number).map { ($0, byEntity[number] ?? []) }
        }
    }

    /// The destinations of `relationship` for the source rows `keys`.
    private func destinations(of relationship: RelationshipRuntime, in entity: EntityRuntime, from keys: [Int64])
        throws -> [ObjectID]
    {
        let destination = relationship.destination
        switch relationship.storage {
        case .foreignKey(let columns)?:
            let entityColumn = columns.entityColumn.map(SQLQuoting.identifier) ?? "NULL"
            return try ids(
                "SELECT " + SQLQuoting.identifier(columns.column) + ", " + entityColumn + " FROM "
                    + SQLQuoting.identifier(entity.tableName) + #" WHERE "Z_PK" = ? AND "#
                    + SQLQuoting.identifier(columns.column) + " IS NOT NULL",
                for: keys, entityNumber: destination.number)
        case .inverseForeignKey(_, let columns)?:
            return try rows(of: destination, whereColumn: columns.column, in: keys)
        case .joinTable(let columns)?:
            return try ids(
                #"SELECT d."Z_PK", d."Z_ENT" FROM "# + SQLQuoting.identifier(columns.table) + " AS j JOIN "
                    + SQLQuoting.identifier(destination.tableName) + #" AS d ON d."Z_PK" = j."#
                    + SQLQuoting.identifier(columns.destinationColumn) + " WHERE j."
                    + SQLQuoting.identifier(columns.sourceColumn) + " = ?",
                for: keys, entityNumber: destination.number)
        case nil:
            return []
        }
    }

    /// Rows of `entity`'s table whose `column` holds one of `keys`.
    private func rows(of entity: EntityRuntime, whereColumn column: String, in keys: [Int64]) throws -> [ObjectID] {
        try ids(
            #"SELECT "Z_PK", "Z_ENT" FROM "# + SQLQuoting.identifier(entity.tableName) + " WHERE "
                + SQLQuoting.identifier(column) + " = ?",
            for: keys, entityNumber: entity.number)
    }

    /// Runs `sql` (one `?`, selecting a primary key and an entity number) once per key; a `NULL`
    /// entity number means `entityNumber`.
    private func ids(_ sql: String, for keys: [Int64], entityNumber: Int) throws -> [ObjectID] {
        var ids: [ObjectID] = []
        let statement = try database.cachedStatement(sql)
        defer { statement.resetIgnoringErrors() }
        for key in keys {
            try statement.reset()
            try statement.bind(key, at: 1)
            while try statement.step() == .row {
                let number = statement.isNull(at: 1) ? entityNumber : statement.int(at: 1)
                if let id = runtime.objectID(entityNumber: number, primaryKey: statement.int64(at: 0)) {
                    ids.append(id)
                }
            }
        }
        return ids
    }
}
