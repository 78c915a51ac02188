import DataModelStoreLayout
import Foundation
import SQLiteKit

extension ManagedObjectContext {
    /// Checks every rule for the objects about to be saved; throws one error listing all failures.
    func validate(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) throws {
        var failures: [ValidationError.Failure] = []
        var needsUniquenessCheck = false
        for objects in [inserted, updated] {
            // Entities come in runs; the per-entity facts are looked up once per run.
            var entity: EntityRuntime?
            var checksObjects = false
            for object in objects {
                if !object.hasEntityRuntime(entity) {
                    let current = object.entityRuntime
                    entity = current
                    checksObjects =
                        !current.validatedAttributes.isEmpty || !current.validatedRelationships.isEmpty
                        || current.description.isAbstract
                    needsUniquenessCheck = needsUniquenessCheck || !current.uniquenessConstraints.isEmpty
                }
                guard checksObjects else { continue }
                if object.isInserted && object.entityRuntime.description.isAbstract {
                    failures.append(
                        failure(
                            object, "", .abstractEntity,
                            "\(object.entityRuntime.name) is abstract: insert one of its sub-entities"))
                }
                validateAttributes(of: object, into: &failures)
                validateRelationships(of: object, into: &failures)
            }
        }
        // Uniqueness is the store's rule: checked when the changes reach it (a child's save reaches its parent).
        if needsUniquenessCheck && parent == nil {
            try validateUniqueness(of: inserted + updated, into: &failures)
        }
        for object in deleted {
            for relationship in object.entityRuntime.relationships where relationship.description.deleteRule == .deny {
                let remaining = object.destinations(relationship.name).filter { !$0.isDeleted }
                if !remaining.isEmpty {
                    failures.append(
                        failure(
                            object, relationship.name, .deleteDenied,
                            "cannot delete: '\(relationship.name)' has the Deny rule and still holds \(remaining.count) object\(remaining.count == 1 ? "" : "s")"
                        ))
                }
            }
        }
        // The objects' own rules (`validateForInsert()` …), after the model's: one error lists them all.
        if runtime.callsLifecycleMethods {
            failures += customValidationFailures(inserted: inserted, updated: updated, deleted: deleted)
        }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    private func failure(
        _ object: ManagedObject, _ property: String, _ rule: ValidationError.Rule, _ message: String
    ) -> ValidationError.Failure {
        ValidationError.Failure(
            objectID: object.objectID, entityName: object.entityRuntime.name, property: property, rule: rule,
            message: message)
    }

    private func validateAttributes(of object: ManagedObject, into failures: inout [ValidationError.Failure]) {
        let entity = object.entityRuntime
        for (index, attribute) in entity.validatedAttributes {
            let value = object.values[attribute: index]
            if value.isNull {
                if !attribute.isOptional {
                    failures.append(failure(object, attribute.name, .missingValue, "a value is required"))
                }
                continue
            }
            let measure: Double?
            let isLength: Bool
            switch (attribute.type, value) {
            case (.string, .text(let text)), (.uri, .text(let text)):
                measure = Double(text.count)
                isLength = true
                if let pattern = attribute.regularExpression, !Self.matches(text, pattern: pattern) {
                    failures.append(
                        failure(object, attribute.name, .patternMismatch, "'\(text)' does not match \(pattern)"))
                }
            case (.binary, .blob(let data)):
                measure = Double(data.count)
                isLength = true
            case (.integer16, _), (.integer32, _), (.integer64, _), (.double, _), (.float, _), (.date, _),
                (.decimal, _):
                measure = value.real
                isLength = false
            default:
                measure = nil
                isLength = false
            }
            guard let measure else { continue }
            if let minimum = attribute.minValue, measure < minimum {
                failures.append(
                    failure(
                        object, attribute.name, isLength ? .tooShort : .valueTooSmall,
                        isLength
                            ? "length \(Int(measure)) is below the minimum \(minimum)"
                            : "\(measure) is below the minimum \(minimum)"))
            }
            if let maximum = attribute.maxValue, measure > maximum {
                failures.append(
                    failure(
                        object, attribute.name, isLength ? .tooLong : .valueTooLarge,
                        isLength
                            ? "length \(Int(measure)) is above the maximum \(maximum)"
                            : "\(measure) is above the maximum \(maximum)"))
            }
        }
    }

    private static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return true }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        guard let match = expression.firstMatch(in: text, range: range) else { return false }
        return match.range == range
    }

    private func validateRelationships(of object: ManagedObject, into failures: inout [ValidationError.Failure]) {
        for relationship in object.entityRuntime.validatedRelationships {
            let description = relationship.description
            if !relationship.isToMany {
                if !description.isOptional, case .toOne(nil) = object.values[relationship: relationship.index] {
                    failures.append(
                        failure(object, description.name, .missingValue, "a destination object is required"))
                }
                continue
            }
            let minimum = description.isOptional ? description.minCount : max(description.minCount, 1)
            guard minimum > 0 || description.maxCount > 0 else { continue }
            let count = object.list(relationship)?.count ?? 0
            if count < minimum && !(description.isOptional && count == 0) {
                failures.append(
                    failure(
                        object, description.name, .tooFewObjects,
                        "\(count) object\(count == 1 ? "" : "s"), at least \(minimum) required"))
            }
            if description.maxCount > 0 && count > description.maxCount {
                failures.append(
                    failure(
                        object, description.name, .tooManyObjects,
                        "\(count) objects, at most \(description.maxCount) allowed"))
            }
        }
    }

    /// Uniqueness constraints: among the objects being saved, and against the store's other rows.
    private func validateUniqueness(of objects: [ManagedObject], into failures: inout [ValidationError.Failure]) throws
    {
        var seen: [String: [[PrimitiveValue]: ManagedObject]] = [:]
        for object in objects {
            let entity = object.entityRuntime
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                var key: [PrimitiveValue] = []
                var columns: [String] = []
                for name in constraint {
                    if let index = entity.attributeIndex(name) {
                        key.append(object.values[attribute: index])
                        columns.append(entity.attributeColumns[index] ?? "")
                    } else if let index = entity.relationshipIndex[name],
                        case .toOne(let id) = object.values[relationship: index],
                        case .foreignKey(let foreignKey)? = entity.relationships[index].storage
                    {
                        key.append(id.map { .integer($0.primaryKey) } ?? .null)
                        columns.append(foreignKey.column)
                    }
                }
                if key.contains(where: \.isNull) || columns.contains("") { continue }
                let scope = entity.tableName + "|" + constraint.joined(separator: ",")
                let property = constraint.joined(separator: ",")
                if let other = seen[scope]?[key], other !== object {
                    failures.append(
                        failure(object, property, .uniquenessViolation, "the same values as \(other.objectID)"))
                    continue
                }
                seen[scope, default: [:]][key] = object
                if let conflict = try storedConflict(for: object, columns: columns, key: key) {
                    failures.append(failure(object, property, .uniquenessViolation, "the same values as \(conflict)"))
                }
            }
        }
    }

    /// A saved row with the same constrained values whose object is not changing them.
    private func storedConflict(for object: ManagedObject, columns: [String], key: [PrimitiveValue]) throws -> ObjectID?
    {
        let entity = object.entityRuntime
        let sql =
            #"SELECT "Z_PK", "Z_ENT" FROM "# + SQLQuoting.identifier(entity.tableName) + " WHERE "
            + columns.map { SQLQuoting.identifier($0) + " = ?" }.joined(separator: " AND ") + #" AND "Z_PK" <> ?"#
        do {
            let statement = try database.cachedStatement(sql)
            defer { statement.resetIgnoringErrors() }
            for (offset, value) in key.enumerated() {
                let index = Int32(offset + 1)
                switch value {
                case .null: try statement.bindNull(at: index)
                case .integer(let integer): try statement.bind(integer, at: index)
                case .real(let real): try statement.bind(real, at: index)
                case .text(let text): try statement.bind(text, at: index)
                case .blob(let data): try statement.bind(data, at: index)
                }
            }
            try statement.bind(object.objectID.primaryKey, at: Int32(key.count + 1))
            while try statement.step() == .row {
                guard let id = runtime.objectID(entityNumber: statement.int(at: 1), primaryKey: statement.int64(at: 0))
                else { continue }
                if let other = registered[id], other.isDeleted || other.isUpdated { continue }
                return id
            }
        } catch {
            throw StoreError(error)
        }
        return nil
    }
}
