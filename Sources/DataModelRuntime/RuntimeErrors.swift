import Foundation
import PostgresKit
import SQLiteKit

/// Why a store could not be opened, read or written.
///
/// An SQLite failure keeps SQLite's own error, with its extended result code, so callers can match it:
///
/// ```swift
/// catch StoreError.sqlite(let error) where error.resultCode == .busy { … }
/// ```
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model cannot be laid out as a store (duplicate names, unknown destinations …).
    case invalidModel(String)
    /// The store file does not match the model: it was written by a different model or version.
    /// `differences` lists what differs, one line each.
    case modelMismatch(path: String, differences: [String])
    /// An earlier version of the model (`from`) wrote the store, and the container was told not to migrate
    /// stores automatically.
    case migrationRequired(path: String, from: String, to: String)
    /// An earlier version of the model (`from`) wrote the store, and Core Data's lightweight migration would not
    /// infer the change: one reason per blocking change. Nothing was written.
    case migrationNotInferable(path: String, from: String, reasons: [String])
    /// SQLite refused to run the file store in write-ahead-log mode (it answered with `mode`), which the
    /// runtime needs so that readers never wait for a writer.
    case journalModeRefused(path: String, mode: String)
    /// SQLite failed: its error keeps the extended result code, SQLite's message and the SQL that failed.
    case sqlite(SQLiteError)
    /// PostgreSQL failed (a PostgreSQL store): the server could not be reached (a bad URL, a server that is down,
    /// a refused login: kind `connection`) or refused a statement; the error keeps its `SQLSTATE`, message and SQL.
    case postgres(PostgresError)
    /// Code other than SQLite failed while the store was being used (its description); not expected in practice.
    case unexpected(String)
    /// No row exists for the object ID.
    case objectNotFound(ObjectID)
    /// The object belongs to another context or store.
    case foreignObject(ObjectID)
    /// A fetch request names an entity the model lacks, or whose class is not the request's.
    case unknownEntity(String)
    /// A fetch request's condition names no stored attribute or to-one relationship of the entity.
    case unknownProperty(entity: String, property: String)
    /// A fetch request's predicate threw while being evaluated.
    case predicateFailed(String)
    /// No generated or registered model has the name (``ManagedObjectModel/named(_:)``); `known` lists those
    /// there are.
    case unknownModel(String, known: [String])
    /// Two different generated models have the name (two modules generated from a model of that name).
    case ambiguousModel(String, count: Int)
    /// A store description the runtime cannot open (its type, a missing file URL, a second store).
    case unsupportedStore(String)
    /// A Binary value with external storage could not be written to the store's external-data folder (nothing
    /// was saved).
    case externalDataFailed(path: String, reason: String)
    /// A dictionary fetch's request of `entity` asks for what the fetch cannot do (an aggregate of an attribute
    /// it does not apply to, a fetched property missing from `propertiesToGroupBy` …), or a batch update's
    /// `propertiesToUpdate` holds a value of the wrong type: `reason` says what.
    case invalidFetchRequest(entity: String, reason: String)

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidModel(let reason):
            "invalid model: \(reason)"
        case .modelMismatch(let path, let differences):
            "the store at \(path) was not created by this model: " + differences.joined(separator: "; ")
        case .migrationRequired(let path, let from, let to):
            "the store at \(path) was written by model version \(from) and needs migrating to \(to), which was turned off"
        case .migrationNotInferable(let path, let from, let reasons):
            "the store at \(path) was written by model version \(from), and the change cannot be migrated automatically: "
                + reasons.joined(separator: "; ")
        case .journalModeRefused(let path, let mode):
            "SQLite runs the store at \(path) in journal mode \(mode), not WAL (write-ahead log)"
        case .sqlite(let error):
            error.description
        case .postgres(let error):
            error.description
        case .unexpected(let description):
            "unexpected error: \(description)"
        case .objectNotFound(let id):
            "no object in the store for \(id)"
        case .foreignObject(let id):
            "\(id) belongs to another context or store"
        case .unknownEntity(let name):
            "unknown entity '\(name)'"
        case .predicateFailed(let reason):
            "the fetch request's predicate failed: \(reason)"
        case .unknownModel(let name, let known):
            "no model is named '\(name)'; "
                + (known.isEmpty
                    ? "no generated model is linked into the program (register one with ManagedObjectModel.register(_:))"
                    : "the models are " + known.map { "'\($0)'" }.joined(separator: ", "))
        case .ambiguousModel(let name, let count):
            "\(count) different generated models are named '\(name)': pass the one meant with PersistentContainer(name:managedObjectModel:)"
        case .unsupportedStore(let reason):
            "unsupported store: \(reason)"
        case .externalDataFailed(let path, let reason):
            "cannot write external binary data in \(path): \(reason)"
        case .invalidFetchRequest(let entity, let reason):
            "the fetch request of \(entity) cannot run: \(reason)"
        case .unknownProperty(let entity, let property):
            "'\(property)' is not a stored attribute or to-one relationship of \(entity) (or its key path is not mapped)"
        }
    }
}

/// Why a save was refused: every failed rule of every object, collected before anything is written.
public struct ValidationError: Error, Sendable, CustomStringConvertible {
    /// Which rule failed.
    public enum Rule: String, Sendable, Hashable {
        /// A non-optional attribute or to-one relationship has no value.
        case missingValue
        /// A number or date is below its minimum.
        case valueTooSmall
        /// A number or date is above its maximum.
        case valueTooLarge
        /// A string or data is shorter than its minimum length.
        case tooShort
        /// A string or data is longer than its maximum length.
        case tooLong
        /// A string does not match the attribute's regular expression.
        case patternMismatch
        /// A to-many relationship has fewer objects than its minimum (or none when required).
        case tooFewObjects
        /// A to-many relationship has more objects than its maximum.
        case tooManyObjects
        /// Another object has the same values for a uniqueness constraint.
        case uniquenessViolation
        /// A deleted object's relationship with the Deny rule still has objects.
        case deleteDenied
        /// An object of an abstract entity was inserted (only its sub-entities can have objects).
        case abstractEntity
        /// The object's own `validateForInsert()`, `validateForUpdate()` or `validateForDelete()` threw.
        case custom
    }

    /// One failed rule.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The object that failed.
        public let objectID: ObjectID
        /// Its entity name.
        public let entityName: String
        /// The property (for a uniqueness constraint, the constrained names joined by `,`; empty
        /// for a rule about the whole object).
        public let property: String
        /// The rule.
        public let rule: Rule
        /// A human-readable explanation.
        public let message: String

        /// `Entity.property: message (object ID)` (`Entity: message (object ID)` for the whole object): the ID tells
        /// which of several objects of one entity failed.
        public var description: String {
            (property.isEmpty ? entityName : "\(entityName).\(property)") + ": \(message) (\(objectID))"
        }
    }

    /// Every failure, in the order found.
    public let failures: [Failure]

    /// All failures, one per line.
    public var description: String {
        "validation failed (\(failures.count) error\(failures.count == 1 ? "" : "s")):\n"
            + failures.map { "  " + $0.description }.joined(separator: "\n")
    }
}

// MARK: - Foundation's error descriptions

/// `localizedDescription` (what apps show and log) is the same text as `description`: entity, property and rule
/// for validation, objects and properties for conflicts, code, message and SQL for SQLite. Without this,
/// Foundation on Linux prints "The operation could not be completed".
extension StoreError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ValidationError: LocalizedError {
    public var errorDescription: String? { description }
}

extension MergeConflict: LocalizedError {
    public var errorDescription: String? { description }
}
