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
/// one transaction; a row that breaks a uniqueness constraint fails the request (SQLite's constraint error, in a
/// ``StoreError``) where Core Data would update the existing row. Other contexts learn about the rows as from a
/// save.
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
            var missing: [(row: Int, attribute: String)] = []
            for (number, dictionary) in request.dictionaries().enumerated() {
                var values = (0..<entity.attributes.count).map { entity.insertedValues[attribute: $0] }
                for (key, value) in dictionary {
                    guard let index = entity.attributeIndex(key) else {
                        if entity.relationshipIndex[key] != nil {
                            throw KeyValueError.notAnAttribute(entity: entity.name, key: key)
                        }
                        throw KeyValueError.unknownKey(entity: entity.name, key: key)
                    }
                    let type = entity.attributes[index].type
                    guard let unwrapped = Self.unwrapped(value) else {
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
            do {
                try database.transaction {
                    let statement = try database.cachedStatement(entity.insertSQL)
                    for (row, id) in zip(rows, ids) {
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
                    }
                    try coordinator.writePrimaryKeyMaxima()
                }
            } catch let error as SQLiteError {
                throw StoreError(error)
            }
            coordinator.primaryKeyMaximaCommitted()
            let changes = StoreChanges(inserted: Set(ids))
            coordinator.post(changes, from: inbox)
            return BatchResult(objectIDs: ids, changes: changes, resultType: request.resultType)
        }
    }

    /// `value` without its optional wrapping, or `nil` for `nil` (of any optional type) and `NSNull`.
    static func unwrapped(_ value: Any) -> Any? {
        if value is NSNull { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let wrapped = mirror.children.first?.value else { return nil }
        return unwrapped(wrapped)
    }
}
