import Foundation
import PredicateFormat

/// A fetched property of an entity (`<fetchedProperty>` in the model file): a weak, one-way relationship defined by a
/// fetch request. Its value is the array of the destination entity's objects the predicate selects, with
/// `$FETCH_SOURCE` standing for the object that has the property and `$FETCHED_PROPERTY` for this description
/// (`$FETCHED_PROPERTY.userInfo.key` reads an entry of ``userInfo``, `$FETCHED_PROPERTY.name` the name).
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// The entity fetched, in its model spelling.
    public var destinationEntityName: String
    /// The predicate's format string (`department == $FETCH_SOURCE AND age > 60`), or `nil` for every object.
    public var predicateFormat: String?
    /// The property's user info, which the predicate can read as `$FETCHED_PROPERTY.userInfo.<key>`.
    public var userInfo: [String: String]
    /// The parsed predicate, or the parser's error.
    let parsedPredicate: Result<FormatPredicate, PredicateFormatError>?

    /// Creates a fetched property; the predicate is parsed once, here.
    public init(
        name: String, destinationEntityName: String, predicateFormat: String? = nil, userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.predicateFormat = predicateFormat
        self.userInfo = userInfo
        parsedPredicate = FormatPredicate.parsed(predicateFormat)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.destinationEntityName == rhs.destinationEntityName
            && lhs.predicateFormat == rhs.predicateFormat && lhs.userInfo == rhs.userInfo
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(destinationEntityName)
        hasher.combine(predicateFormat)
    }
}

/// Why a fetched property could not be evaluated.
public enum FetchedPropertyError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The entity has no fetched property of this name.
    case unknownProperty(entity: String, name: String)
    /// The property's predicate does not parse, or uses a variable other than `$FETCH_SOURCE` and `$FETCHED_PROPERTY`.
    case invalidPredicate(entity: String, name: String, message: String)
    /// The fetch failed.
    case fetchFailed(entity: String, name: String, error: StoreError)

    public var description: String {
        switch self {
        case .unknownProperty(let entity, let name): "\(entity) has no fetched property '\(name)'"
        case .invalidPredicate(let entity, let name, let message):
            "the predicate of the fetched property \(entity).\(name) is invalid: \(message)"
        case .fetchFailed(let entity, let name, let error):
            "the fetched property \(entity).\(name) could not be fetched: \(error)"
        }
    }

    public var errorDescription: String? { description }
}

// MARK: - Reading fetched properties

/// Core Data's fetched properties: evaluated on first access, then cached until the object is refreshed.
///
/// ```swift
/// let seniors = department.seniorEmployees          // generated: fetchedObjects(for: "seniorEmployees")
/// context.refresh(department, mergeChanges: true)   // the next access fetches again
/// ```
///
/// As in Core Data, the value does not follow later changes by itself (it is not a relationship): a fetched property
/// is a fetch whose result is remembered. ``ManagedObjectContext/refresh(_:mergeChanges:)`` (and
/// ``ManagedObjectContext/reset()``) forget it. The fetch sees the context's unsaved changes.
extension ManagedObject {
    /// The objects of the fetched property `key`, of type `T` (generated accessors call this); stops the program
    /// when there is no such property or its fetch fails (Core Data raises), as ``value(forKey:)`` does.
    public final func fetchedObjects<T: ManagedObject>(for key: String, as type: T.Type = T.self) -> [T] {
        do {
            return try checkedFetchedObjects(forKey: key).compactMap { $0 as? T }
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// The objects of the fetched property `key`, or why they cannot be fetched.
    public final func checkedFetchedObjects(forKey key: String) throws(FetchedPropertyError) -> [ManagedObject] {
        guard let property = fetchedPropertyDescription(key) else {
            throw .unknownProperty(entity: entity.name, name: key)
        }
        guard let context else { return [] }
        if let cached = context.fetchedPropertyCache[objectID]?[key] { return cached }
        let request = FetchRequest<ManagedObject>(entityName: property.destinationEntityName)
        switch property.parsedPredicate {
        case nil: break
        case .failure(let error)?:
            throw .invalidPredicate(entity: entity.name, name: key, message: error.description)
        case .success(let parsed)?:
            var objects: [String: ObjectID] = [:]
            let bound: FormatPredicate
            do {
                bound = try bindFetchVariables(parsed, property: property, objects: &objects)
            } catch {
                throw .invalidPredicate(entity: entity.name, name: key, message: error.message)
            }
            request.predicate = Predicate<ManagedObject>(parsed: bound, objects: objects)
        }
        let found: [ManagedObject]
        do {
            found = try context.fetch(request)
        } catch {
            throw .fetchFailed(entity: entity.name, name: key, error: error)
        }
        context.fetchedPropertyCache[objectID, default: [:]][key] = found
        return found
    }

    /// The description of the fetched property `key` of the object's entity or an ancestor.
    func fetchedPropertyDescription(_ key: String) -> FetchedPropertyDescription? {
        for entity in entityRuntime.lineage.reversed() {
            if let property = entity.fetchedProperties.first(where: { $0.name == key }) { return property }
        }
        return nil
    }

    /// A variable of a fetched property's predicate that has no value.
    struct UnboundVariable: Error {
        var message: String
    }

    /// `predicate` with `$FETCH_SOURCE` (and key paths from it, read now) and `$FETCHED_PROPERTY.userInfo.<key>` /
    /// `$FETCHED_PROPERTY.name` replaced by constants.
    private func bindFetchVariables(
        _ predicate: FormatPredicate, property: FetchedPropertyDescription, objects: inout [String: ObjectID]
    ) throws(UnboundVariable) -> FormatPredicate {
        var unbound: String?
        var collected = objects
        // Free variables only: a SUBQUERY's own variable is bound inside it.
        let free = Set(predicate.variables)
        let rewritten = predicate.replacingExpressions { expression -> FormatExpression? in
            switch expression {
            case .variable("FETCH_SOURCE"):
                return .constant(Self.reference(objectID, &collected))
            case .member(.variable("FETCH_SOURCE"), let path):
                let value = (try? FormatEvaluator(objects: [:]).value(.keyPath(path), on: self)) ?? .null
                return .constant(Self.predicateValue(value, &collected))
            case .member(.variable("FETCHED_PROPERTY"), let path):
                if path == [.key("name")] { return .constant(.string(property.name)) }
                if path.count == 2, path[0] == .key("userInfo"), case .key(let entry) = path[1] {
                    return .constant(property.userInfo[entry].map(PredicateValue.string) ?? .null)
                }
                unbound = "$FETCHED_PROPERTY offers only .name and .userInfo.<key>"
                return expression
            case .variable(let name) where free.contains(name):
                unbound =
                    "$\(name) has no value (a fetched property's predicate knows $FETCH_SOURCE and $FETCHED_PROPERTY)"
                return expression
            default:
                return nil
            }
        }
        objects = collected
        if let unbound { throw UnboundVariable(message: unbound) }
        return rewritten
    }

    static func reference(_ id: ObjectID, _ objects: inout [String: ObjectID]) -> PredicateValue {
        let identity = id.description
        objects[identity] = id
        return .object(ObjectReference(identity))
    }

    /// A value the in-memory evaluator computed, as a predicate constant (objects by reference).
    static func predicateValue(_ value: FormatValue, _ objects: inout [String: ObjectID]) -> PredicateValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .double(real)
        case .decimal(let decimal): .decimal(decimal)
        case .string(let string): .string(string)
        case .date(let date): .date(date)
        case .uuid(let uuid): .uuid(uuid)
        case .data(let data): .data(data)
        case .object(let object): reference(object.objectID, &objects)
        case .reference(let identity): .object(ObjectReference(identity))
        case .collection(let elements): .array(elements.map { predicateValue($0, &objects) })
        }
    }
}

extension ManagedObjectContext {
    /// Forgets the evaluated fetched properties of `object` (its next access fetches again).
    func forgetFetchedProperties(of object: ManagedObject) {
        if !fetchedPropertyCache.isEmpty { fetchedPropertyCache[object.objectID] = nil }
    }
}
