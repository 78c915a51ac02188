import DataModelNaming
import DataModelStoreLayout
import FoundationEssentials

/// Checks a parsed model the way momc does, producing diagnostics with stable rule ids.
///
/// Errors are what momc refuses to compile; warnings are what it compiles but reports.
/// Every lookup is hashed, so validation stays linear in the model's size.
public struct Validator: Sendable {
    /// The most ancestors an entity may have. Real models nest a handful deep; the limit keeps every
    /// walk up a chain (and the generated code, which repeats inherited properties) small.
    public static let maximumInheritanceDepth = 256

    /// Property names Core Data reserves (momc refuses them): a property "cannot be the same as any
    /// no-parameter method name of NSObject or NSManagedObject" (NSPropertyDescription's documentation).
    public static let reservedPropertyNames: Set<String> = [
        // NSManagedObject
        "description", "objectID", "entity", "managedObjectContext", "isDeleted", "isInserted", "isUpdated",
        "isFault", "hasChanges", "hasPersistentChangedValues", "faultingState", "changedValues",
        "changedValuesForCurrentEvent", "awakeFromFetch", "awakeFromInsert", "willSave", "didSave",
        "willTurnIntoFault", "didTurnIntoFault", "validateForDelete", "validateForInsert", "validateForUpdate",
        "prepareForDeletion", "observationInfo",
        // NSObject
        "hash", "class", "self", "superclass", "debugDescription", "isProxy", "zone", "retainCount", "retain",
        "release", "autorelease", "copy", "mutableCopy", "init", "dealloc", "classForCoder",
    ]

    /// Runs the entity checks of a large model in parallel and is handed the run's graph when it is done.
    public var scheduler: any WorkScheduler

    /// Creates a validator; `scheduler` runs its parallel work (by default, everything on the calling thread).
    public init(scheduler: any WorkScheduler = .sequential) { self.scheduler = scheduler }

    /// Whether `name` is one of ``reservedPropertyNames``.
    ///
    /// Most names are ruled out by their first byte and length before any hashing: the reserved names are ASCII
    /// without `K`, `;` or `` ` `` (the only ASCII characters another character is canonically equivalent to),
    /// so a string equal to one of them has the same bytes.
    static func isReservedPropertyName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, first < 0x80, utf8.count < 64,
            reservedFirstBytesAndLengths[Int(first)] & (1 << UInt64(utf8.count)) != 0
        else { return false }
        return reservedPropertyNames.contains(name)
    }

    /// For each ASCII first byte, the lengths of the reserved names starting with it, as a bit set.
    static let reservedFirstBytesAndLengths: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 128)
        let forbidden = Set("K;`".utf8)
        for name in reservedPropertyNames {
            let bytes = Array(name.utf8)
            guard let first = bytes.first, bytes.count < 64, bytes.allSatisfy({ $0 < 0x80 && !forbidden.contains($0) })
            else {
                // Not byte-comparable: let every name through to the set.
                return [UInt64](repeating: .max, count: 128)
            }
            table[Int(first)] |= 1 << UInt64(bytes.count)
        }
        return table
    }()

    /// Validates `model` and returns what it found, sorted by location.
    public func validate(_ model: ObjectModel) -> [Diagnostic] {
        let threads = model.entities.count < 512 ? 1 : min(4, scheduler.availableThreads)
        return validate(model, entityThreads: threads)
    }

    /// Validates `model`, checking its entities on `entityThreads` threads; the result does not depend on it.
    func validate(_ model: ObjectModel, entityThreads: Int) -> [Diagnostic] {
        var run = ValidationRun(model: model)
        defer { scheduler.discard(run) }
        run.checkEntities()
        run.checkInheritance()
        run.checkEveryEntity(threads: entityThreads, on: scheduler)
        run.checkFetchRequests()
        run.checkQueries()
        run.checkConfigurations()
        return run.found.diagnostics.sortedByLocation()
    }
}

/// The property names of an entity and its ancestors, checked without building their union.
struct KnownNames {
    let own: Set<String>
    let inherited: [Set<String>]

    func contains(_ name: String) -> Bool {
        own.contains(name) || inherited.contains { $0.contains(name) }
    }
}

/// The copies of a ``ValidationRun`` that check a large model's entities on several threads.
final class EntityCheckParts: @unchecked Sendable {
    // @unchecked: each thread uses one run, which appends only to its own `found` list; the rest of a run
    // (the model and the lookup tables) is only read while the threads run.
    let runs: [ValidationRun]

    init(_ runs: [ValidationRun]) {
        self.runs = runs
    }
}

/// Diagnostics collected by a ``ValidationRun``.
final class DiagnosticList {
    var diagnostics: [Diagnostic] = []
}

/// The state of one validation pass.
///
/// Entities are known by their index in `model.entities`; everything looked up by entity name is about the
/// first entity of that name (its *canonical* index), as ``ObjectModel/entity(named:)`` finds it.
struct ValidationRun {
    let model: ObjectModel
    /// What the run found. A class, so the checks need no exclusive access to the run and can read the
    /// model's properties in place (with `inout self`, each would be copied first).
    var found = DiagnosticList()
    /// Entity index → the index of the first entity with its name.
    let canonical: [Int]
    /// Canonical entity index → its own property names (empty for other entities).
    var propertyNames: [Set<String>]
    /// Canonical entity index → whether two of its properties share a name.
    var hasDuplicateProperty: [Bool]
    /// Canonical entity index → relationship name → index of its first relationship of that name.
    var relationships: [[String: Int]]
    /// Canonical entity index → its parent's canonical index, or -1 (no parent, or a missing one).
    var parents: [Int]
    /// Canonical entity index → number of ancestors, set by `checkInheritance`; -1 on or below a cycle.
    var depths: [Int] = []

    init(model: ObjectModel) {
        self.model = model
        let entities = model.entities
        var canonical = [Int](repeating: 0, count: entities.count)
        for index in entities.indices {
            canonical[index] = model.entityIndex(named: entities[index].name) ?? index
        }
        self.canonical = canonical
        propertyNames = [Set<String>](repeating: [], count: entities.count)
        hasDuplicateProperty = [Bool](repeating: false, count: entities.count)
        relationships = [[String: Int]](repeating: [:], count: entities.count)
        parents = [Int](repeating: -1, count: entities.count)
        // Name sets are made only for the entities whose names are looked up: parents (for shadowing) and
        // entities with uniqueness constraints or indexes.
        var needsNameSet = [Bool](repeating: false, count: entities.count)
        for index in entities.indices {
            let entity = entities[index]
            if !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty
            {
                needsNameSet[canonical[index]] = true
            }
            if canonical[index] == index, let parent = entity.parentEntity,
                let parentIndex = model.entityIndex(named: parent)
            {
                parents[index] = parentIndex
                needsNameSet[parentIndex] = true
            }
        }
        for index in entities.indices where canonical[index] == index {
            let entity = entities[index]
            var byName = [String: Int](minimumCapacity: entity.relationships.count)
            // In reverse, so that the first relationship of a name is the one left in the table.
            for position in entity.relationships.indices.reversed() {
                byName[entity.relationships[position].name] = position
            }
            relationships[index] = byName
            var names: [String] = []
            names.reserveCapacity(
                entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
            for position in entity.attributes.indices { names.append(entity.attributes[position].name) }
            for position in entity.relationships.indices { names.append(entity.relationships[position].name) }
            for position in entity.fetchedProperties.indices { names.append(entity.fetchedProperties[position].name) }
            if needsNameSet[index] {
                let set = Set(names)
                propertyNames[index] = set
                hasDuplicateProperty[index] = set.count < names.count
            } else {
                // Sorting puts equal names side by side; it costs less than hashing every name.
                names.sort()
                hasDuplicateProperty[index] = zip(names, names.dropFirst()).contains { $0 == $1 }
            }
        }
    }

    func error(_ message: String, _ rule: RuleID, _ location: SourceLocation) {
        found.diagnostics.append(.error(message, rule: rule, at: location))
    }

    func warning(_ message: String, _ rule: RuleID, _ location: SourceLocation) {
        found.diagnostics.append(.warning(message, rule: rule, at: location))
    }

    // MARK: Model level

    func checkFetchRequests() {
        for request in model.fetchRequests where model.entityIndex(named: request.entity) == nil {
            error(
                "fetch request '\(request.name)' fetches entity '\(request.entity)', which does not exist",
                .unknownFetchEntity, request.location)
        }
    }

    func checkConfigurations() {
        for configuration in model.configurations {
            for member in configuration.memberEntities where model.entityIndex(named: member) == nil {
                error(
                    "configuration '\(configuration.name)' lists entity '\(member)', which does not exist",
                    .unknownConfigurationEntity, configuration.location)
            }
        }
    }
}
