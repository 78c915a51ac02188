import DataModelStoreLayout
import Foundation
import SQLiteKit

/// Inserts rows from dictionaries of attribute values, in SQL, without making objects, as Core Data's
/// `NSBatchInsertRequest`.
///
/// ```swift
/// let request = BatchInsertRequest(entityName: "EmployeeEntity", objects: [
///     ["name": "Ann", "age": 31],
///     ["name": "Bob"],
/// ])
/// request.resultType = .objectIDs
/// let result = try context.execute(request)
/// let ids = result.result as? [ObjectID]
/// ```
///
/// Or one dictionary at a time, as Core Data's `dictionaryHandler`: the handler fills the dictionary it is given
/// and returns `true` to stop (the dictionary of that call is not inserted).
///
/// ```swift
/// var next = 0
/// let request = BatchInsertRequest(entityName: "EmployeeEntity") { values in
///     guard next < names.count else { return true }
///     values["name"] = names[next]
///     next += 1
///     return false
/// }
/// ```
///
/// Each dictionary sets attributes by model name; attributes it leaves out take their model default. The values
/// are checked as ``ManagedObject/setValue(_:forKey:)`` checks them: a key that names no attribute of the entity
/// (relationships included: a batch insert sets attributes only, as in Core Data), a value of the wrong type, or a
/// non-optional attribute left without a value fails the whole request before anything is written, with a
/// ``KeyValueError`` or a ``ValidationError``. `nil` and `NSNull()` clear an attribute. The rows are written in
/// one transaction. As in Core Data, an entity with uniqueness constraints (on attributes) is upserted: a row whose
/// constrained values are those of a stored row (or of an earlier row of the same request) updates that row's
/// attributes the dictionary names instead of inserting one; its ID is in the result, and contexts holding it
/// reload it. Other contexts learn about the rows as from a save.
public final class BatchInsertRequest {
    /// The entity of the rows (not abstract).
    public let entityName: String
    /// The rows' attribute values, when given as a list.
    public var objectsToInsert: [[String: Any]]?
    /// Fills one row's values per call and returns `true` to stop, when given as a handler.
    public var dictionaryHandler: ((inout [String: Any]) -> Bool)?
    /// What ``BatchResult/result`` holds (``BatchResultType/statusOnly`` by default, as in Core Data).
    public var resultType: BatchResultType = .statusOnly

    /// Inserts a row of `entityName` for each dictionary of `objects`.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = objects
    }

    /// Inserts a row of `entity` for each dictionary of `objects`.
    public convenience init(entity: EntityDescription, objects: [[String: Any]]) {
        self.init(entityName: entity.name, objects: objects)
    }

    /// Inserts a row of `entityName` for each dictionary `dictionaryHandler` fills, until it returns `true`.
    public init(entityName: String, dictionaryHandler: @escaping (inout [String: Any]) -> Bool) {
        self.entityName = entityName
        self.dictionaryHandler = dictionaryHandler
    }

    /// Inserts a row of `entity` for each dictionary `dictionaryHandler` fills, until it returns `true`.
    public convenience init(entity: EntityDescription, dictionaryHandler: @escaping (inout [String: Any]) -> Bool) {
        self.init(entityName: entity.name, dictionaryHandler: dictionaryHandler)
    }

    /// The rows' dictionaries, from the list or the handler.
    fileprivate func dictionaries() -> [[String: Any]] {
        var rows = objectsToInsert ?? []
        if let handler = dictionaryHandler {
            while true {
                var values: [String: Any] = [:]
                if handler(&values) { break }
                rows.append(values)
            }
        }
        return rows
    }
}

extension ManagedObjectContext {
    /// Runs a batch insert in one transaction (see ``BatchInsertRequest``).
    ///
    /// - Throws: ``KeyValueError`` for an unknown key or a value of the wrong type, ``ValidationError`` for a
    ///   non-optional attribute without a value, ``StoreError`` for an unknown or abstract entity or SQLite
    ///   failing; nothing is inserted then.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try operation { () throws -> BatchResult in
            guard let entity = runtime.entity(named: request.entityName) else {
                throw StoreError.unknownEntity(request.entityName)
            }
            guard !entity.description.isAbstract else {
                throw StoreError.invalidModel(
                    "entity '\(entity.name)' is abstract: batch insert rows of its sub-entities")
            }
            var rows: [[PrimitiveValue]] = []
            var dictionaryKeys: [[String]] = []
            var missing: [(row: Int, attribute: String)] = []
            let hasConstraints = !entity.uniquenessConstraints.isEmpty
            let defaults = (0..<entity.attributes.count).map { entity.insertedValues[attribute: $0] }
            for (number, dictionary) in request.dictionaries().enumerated() {
                // The keys a row names matter only to an upsert.
                if hasConstraints { dictionaryKeys.append(dictionary.keys.sorted()) }
                var values = defaults
                for (key, value) in dictionary {
                    guard let index = entity.attributeIndex(key) else {
                        if entity.relationshipIndex[key] != nil {
                            throw KeyValueError.notAnAttribute(entity: entity.name, key: key)
                        }
                        throw KeyValueError.unknownKey(entity: entity.name, key: key)
                    }
                    let type = entity.attributes[index].type
                    guard let unwrapped = unwrapped(value) else {
                        values[index] = .null
                        continue
                    }
                    guard let stored = ManagedObject.primitiveValue(unwrapped, as: type) else {
                        throw KeyValueError.wrongType(
                            entity: entity.name, key: key, expected: ManagedObject.swiftTypeName(of: type),
                            got: String(describing: Swift.type(of: unwrapped)))
                    }
                    values[index] = stored
                }
                for (index, attribute) in entity.attributes.enumerated()
                where !attribute.isOptional && !attribute.isTransient && values[index].isNull {
                    missing.append((number, attribute.name))
                }
                rows.append(values)
            }
            var ids: [ObjectID] = []
            ids.reserveCapacity(rows.count)
            for _ in rows {
                ids.append(
                    ObjectID(
                        storeNumber: coordinator.storeNumber, entityNumber: entity.number,
                        primaryKey: coordinator.allocatePrimaryKey(for: entity)))
            }
            if !missing.isEmpty {
                throw ValidationError(
                    failures: missing.map { row, attribute in
                        ValidationError.Failure(
                            objectID: ids[row], entityName: entity.name, property: attribute, rule: .missingValue,
                            message: "row \(row + 1) of the batch insert has no value and the attribute is not optional"
                        )
                    })
            }
            guard !rows.isEmpty else {
                return BatchResult(objectIDs: [], changes: StoreChanges(), resultType: request.resultType)
            }
            // Uniqueness constraints on attributes: a row with the constrained values of a stored row (or of an
            // earlier row of the batch) updates it, as Core Data's batch insert does.
            let constraints: [[Int]] = entity.uniquenessConstraints.compactMap { names in
                let indices = names.compactMap { entity.attributeIndex($0) }
                guard !indices.isEmpty, indices.count == names.count,
                    indices.allSatisfy({ entity.attributeColumns[$0] != nil })
                else { return nil }
                return indices
            }
            var written: [ObjectID] = []
            written.reserveCapacity(rows.count)
            var inserted = Set<ObjectID>(minimumCapacity: constraints.isEmpty ? rows.count : 0)
            var updated: Set<ObjectID> = []
            do {
                try database.transaction {
                    let statement = try database.cachedStatement(entity.insertSQL)
                    for (number, (row, id)) in zip(rows, ids).enumerated() {
                        if !constraints.isEmpty,
                            let existing = try upsertTarget(for: row, constraints: constraints, in: entity)
                        {
                            let keys = dictionaryKeys[number].compactMap { entity.attributeIndex($0) }.filter {
                                entity.attributeColumns[$0] != nil
                            }
                            try update(existing, of: entity, setting: keys, from: row)
                            written.append(existing)
                            if !inserted.contains(existing) { updated.insert(existing) }
                            continue
                        }
                        try statement.reset()
                        try statement.bind(id.primaryKey, at: 1)
                        try statement.bind(Int64(entity.number), at: 2)
                        try statement.bind(Int64(1), at: 3)
                        var index: Int32 = 4
                        for column in entity.insertColumns {
                            if case .attribute(let attribute, _) = column {
                                try statement.bind(row[attribute], at: index)
                            } else {
                                try statement.bindNull(at: index)
                            }
                            index += 1
                        }
                        try statement.run()
                        written.append(id)
                        inserted.insert(id)
                    }
                    // The written rows' derived attributes (a batch insert sets no relationships: their own values, and
                    // through an upsert's changes those of rows whose derivations read them). A new row is in no
                    // relationship yet, so no other row's derivation reads it.
                    let derived = try writeDerivedAttributes(
                        changed: entity.derivedAttributes.isEmpty ? Array(updated) : written, written: Set(written))
                    for id in derived where !inserted.contains(id) { updated.insert(id) }
                    try coordinator.writePrimaryKeyMaxima()
                }
            } catch let error as StoreError {
                throw StoreError(error)
            }
            coordinator.primaryKeyMaximaCommitted()
            let changes = StoreChanges(inserted: inserted, updated: updated)
            if !updated.isEmpty { mergeChanges(StoreChanges(updated: updated)) }
            coordinator.post(changes, from: inbox)
            return BatchResult(objectIDs: written, changes: changes, resultType: request.resultType)
        }
    }

    /// The stored row whose values of one of `constraints` (attribute indices) are `row`'s, none of them `NULL`.
    private func upsertTarget(for row: [PrimitiveValue], constraints: [[Int]], in entity: EntityRuntime)
        throws(StoreError) -> ObjectID?
    {
        for constraint in constraints where !constraint.contains(where: { row[$0].isNull }) {
            let sql =
                #"SELECT "Z_PK", "Z_ENT" FROM "# + SQLQuoting.identifier(entity.tableName) + " WHERE "
                + constraint.compactMap { entity.attributeColumns[$0] }.map { SQLQuoting.identifier($0) + " = ?" }
                .joined(separator: " AND ") + " LIMIT 1"
            let statement = try database.cachedStatement(sql)
            defer { statement.resetIgnoringErrors() }
            for (offset, index) in constraint.enumerated() { try statement.bind(row[index], at: Int32(offset + 1)) }
            if try statement.step() == .row,
                let id = runtime.objectID(entityNumber: statement.int(at: 1), primaryKey: statement.int64(at: 0))
            {
                return id
            }
        }
        return nil
    }

    /// Sets the attributes at `indices` of the row `id` to `row`'s values, `Z_OPT` + 1.
    private func update(_ id: ObjectID, of entity: EntityRuntime, setting indices: [Int], from row: [PrimitiveValue])
        throws(StoreError)
    {
        let columns = indices.compactMap { entity.attributeColumns[$0] }
        let sql =
            "UPDATE " + SQLQuoting.identifier(entity.tableName) + " SET "
            + (columns.map { SQLQuoting.identifier($0) + " = ?" } + [#""Z_OPT" = "Z_OPT" + 1"#]).joined(separator: ", ")
            + #" WHERE "Z_PK" = ?"#
        let statement = try database.cachedStatement(sql)
        defer { statement.resetIgnoringErrors() }
        for (offset, index) in indices.enumerated() { try statement.bind(row[index], at: Int32(offset + 1)) }
        try statement.bind(id.primaryKey, at: Int32(indices.count + 1))
        try statement.run()
    }
}
