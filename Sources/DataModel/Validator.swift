import DataModelNaming
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

    /// Creates a validator.
    public init() {}

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
    private static let reservedFirstBytesAndLengths: [UInt64] = {
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
        let threads = model.entities.count < 512 ? 1 : min(4, ProcessInfo.processInfo.activeProcessorCount)
        return validate(model, entityThreads: threads)
    }

    /// Validates `model`, checking its entities on `entityThreads` threads; the result does not depend on it.
    func validate(_ model: ObjectModel, entityThreads: Int) -> [Diagnostic] {
        var run = ValidationRun(model: model)
        defer { ExitTeardown.keep(run) }
        run.checkEntities()
        run.checkInheritance()
        run.checkEveryEntity(threads: entityThreads)
        run.checkFetchRequests()
        run.checkConfigurations()
        return run.found.diagnostics.sortedByLocation()
    }
}

/// The property names of an entity and its ancestors, checked without building their union.
private struct KnownNames {
    let own: Set<String>
    let inherited: [Set<String>]

    func contains(_ name: String) -> Bool {
        own.contains(name) || inherited.contains { $0.contains(name) }
    }
}

/// The copies of a ``ValidationRun`` that check a large model's entities on several threads.
private final class EntityCheckParts: @unchecked Sendable {
    // @unchecked: each thread uses one run, which appends only to its own `found` list; the rest of a run
    // (the model and the lookup tables) is only read while the threads run.
    let runs: [ValidationRun]

    init(_ runs: [ValidationRun]) {
        self.runs = runs
    }
}

/// Diagnostics collected by a ``ValidationRun``.
private final class DiagnosticList {
    var diagnostics: [Diagnostic] = []
}

/// The state of one validation pass.
///
/// Entities are known by their index in `model.entities`; everything looked up by entity name is about the
/// first entity of that name (its *canonical* index), as ``ObjectModel/entity(named:)`` finds it.
fileprivate struct ValidationRun {
    let model: ObjectModel
    /// What the run found. A class, so the checks need no exclusive access to the run and can read the
    /// model's properties in place (with `inout self`, each would be copied first).
    var found = DiagnosticList()
    /// Entity index → the index of the first entity with its name.
    private let canonical: [Int]
    /// Canonical entity index → its own property names (empty for other entities).
    private var propertyNames: [Set<String>]
    /// Canonical entity index → whether two of its properties share a name.
    private var hasDuplicateProperty: [Bool]
    /// Canonical entity index → relationship name → index of its first relationship of that name.
    private var relationships: [[String: Int]]
    /// Canonical entity index → its parent's canonical index, or -1 (no parent, or a missing one).
    private var parents: [Int]
    /// Canonical entity index → number of ancestors, set by `checkInheritance`; -1 on or below a cycle.
    private var depths: [Int] = []

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

    private func error(_ message: String, _ rule: String, _ location: SourceLocation) {
        found.diagnostics.append(.error(message, rule: rule, at: location))
    }

    private func warning(_ message: String, _ rule: String, _ location: SourceLocation) {
        found.diagnostics.append(.warning(message, rule: rule, at: location))
    }

    // MARK: Entities

    func checkEntities() {
        var classNames: [String: (entity: String, className: String)] = [:]
        for index in model.entities.indices {
            let entity = model.entities[index]
            if canonical[index] != index {
                let first = model.entities[canonical[index]].location
                error(
                    "duplicate entity '\(entity.name)' (first declared at line \(first.line))", "duplicate-entity",
                    entity.location)
            }
            checkIdentifier(entity.name, kind: "entity", location: entity.location, uppercase: true)
            if let represented = entity.representedClassName, !represented.isEmpty,
                !ModelNaming.isIdentifier(entity.className)
            {
                // The class name becomes a Swift declaration and a file name: `Foo Bar`, `1Foo` or `../x` cannot be either.
                error(
                    "entity '\(entity.name)' has class name '\(represented)', whose class part '\(entity.className)' is not a valid identifier",
                    "invalid-class-name", entity.location)
            }
            if entity.codeGenerationType != .manual {
                // Keyed case-insensitively: the class names are also file names, and `Item.swift` overwrites
                // `item.swift` on the case-insensitive file systems Xcode projects usually live on.
                let className = entity.className
                let key = className.lowercased()
                if let other = classNames[key], other.entity != entity.name {
                    let what =
                        other.className == className
                        ? "both generate class '\(className)'"
                        : "generate classes '\(other.className)' and '\(className)', whose file names differ only in case"
                    error(
                        "entities '\(other.entity)' and '\(entity.name)' \(what)", "duplicate-class-name",
                        entity.location)
                } else {
                    classNames[key] = (entity.name, className)
                }
            }
        }
    }

    mutating func checkInheritance() {
        depths = inheritanceDepths()
        let limit = Validator.maximumInheritanceDepth
        for index in model.entities.indices {
            let entity = model.entities[index]
            guard let parentName = entity.parentEntity else { continue }
            guard model.entityIndex(named: parentName) != nil else {
                error(
                    "entity '\(entity.name)' has parent entity '\(parentName)', which does not exist",
                    "missing-parent", entity.location)
                continue
            }
            let depth = depths[canonical[index]]
            guard depth >= 0 else {
                error("entity '\(entity.name)' inherits from itself", "cyclic-inheritance", entity.location)
                continue
            }
            if depth == limit + 1 {
                // Reported where a chain first passes the limit, not for every entity below it.
                error(
                    "entity '\(entity.name)' has more than \(limit) ancestor entities; inheritance this deep is not supported",
                    "inheritance-too-deep", entity.location)
            }
        }
    }

    /// Canonical entity index → number of ancestors (0 for a root or an entity whose parent is missing); -1 for
    /// an entity on or below an inheritance cycle. Linear: each entity is walked over once.
    private func inheritanceDepths() -> [Int] {
        let unknown = -2
        let onPath = -3
        var depths = [Int](repeating: unknown, count: model.entities.count)
        var path: [Int] = []
        for start in model.entities.indices where canonical[start] == start && depths[start] == unknown {
            path.removeAll(keepingCapacity: true)
            var current = start
            var depthAbove = -1  // the depth of the entity above the path's last entry
            var reachesCycle = false
            while true {
                let state = depths[current]
                if state >= 0 {
                    depthAbove = state
                    break
                }
                if state == -1 || state == onPath {
                    reachesCycle = true
                    break
                }
                depths[current] = onPath
                path.append(current)
                guard parents[current] >= 0 else { break }
                current = parents[current]
            }
            for (offset, index) in path.reversed().enumerated() {
                depths[index] = reachesCycle ? -1 : depthAbove + 1 + offset
            }
        }
        return depths
    }

    /// The canonical indices of the entity at canonical index `index` and its ancestors, nearest first; stops
    /// at cycles, missing parents and ``Validator/maximumInheritanceDepth``, so every walk is short.
    private func ancestors(of index: Int) -> [Int] {
        var chain = [index]
        // A chain with a known depth has no cycle; only one on or below a cycle needs remembering what it met.
        var seen: Set<Int> = depths[index] >= 0 ? [] : [index]
        var current = index
        while chain.count <= Validator.maximumInheritanceDepth, parents[current] >= 0 {
            let parent = parents[current]
            if depths[index] < 0, !seen.insert(parent).inserted { break }
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// The canonical indices of the ancestors (not itself) of the entity at `index`, nearest first.
    private func inheritedEntities(of index: Int) -> ArraySlice<Int> {
        // Entities on a cycle or past the depth limit are reported already; skipping them keeps a
        // 100,000-level chain linear.
        let depth = depths[canonical[index]]
        guard model.entities[index].parentEntity != nil, depth >= 0, depth <= Validator.maximumInheritanceDepth
        else { return [] }
        return ancestors(of: canonical[index]).dropFirst()
    }

    /// The entities of a large model are checked on several threads, in contiguous runs of entities, each
    /// with its own list of findings; the lists are joined in entity order, so the findings are those of
    /// checking one entity after the other.
    func checkEveryEntity(threads: Int) {
        let count = model.entities.count
        let parts = max(1, min(threads, count))
        guard parts > 1 else {
            for index in 0..<count { checkEntity(at: index) }
            return
        }
        let split = EntityCheckParts(
            (0..<parts).map { _ in
                var run = self
                run.found = DiagnosticList()
                return run
            })
        Threads.perform(iterations: parts) { part in
            let run = split.runs[part]
            for index in (count * part / parts)..<(count * (part + 1) / parts) { run.checkEntity(at: index) }
        }
        for run in split.runs { found.diagnostics += run.found.diagnostics }
    }

    func checkEntity(at index: Int) {
        let entity = model.entities[index]
        let inherited = inheritedEntities(of: index)
        // The names were inserted into a set in this order when the run began: only an entity with duplicates,
        // or a second entity of the same name, needs a set of its own to find them.
        let findsDuplicates = canonical[index] != index || hasDuplicateProperty[index]
        var seen: Set<String>? = findsDuplicates ? Set(minimumCapacity: entity.attributes.count) : nil
        // Properties are read in place (through buffer pointers): copying a whole `Attribute` costs more than
        // checking it.
        entity.attributes.withUnsafeBufferPointer { attributes in
            for position in attributes.indices {
                checkPropertyName(
                    attributes[position].name, at: attributes[position].location, in: entity, seen: &seen,
                    inherited: inherited)
            }
        }
        entity.relationships.withUnsafeBufferPointer { relationships in
            for position in relationships.indices {
                checkPropertyName(
                    relationships[position].name, at: relationships[position].location, in: entity, seen: &seen,
                    inherited: inherited)
            }
        }
        for position in entity.fetchedProperties.indices {
            let property = entity.fetchedProperties[position]
            checkPropertyName(property.name, at: property.location, in: entity, seen: &seen, inherited: inherited)
        }
        entity.attributes.withUnsafeBufferPointer { attributes in
            for position in attributes.indices { check(attributeAt: position, of: attributes, in: entity) }
        }
        entity.relationships.withUnsafeBufferPointer { relationships in
            guard let first = relationships.baseAddress else { return }
            for position in relationships.indices { check((first + position).pointee, in: entity, at: index) }
        }
        for property in entity.fetchedProperties {
            if let request = property.fetchRequest, model.entityIndex(named: request.entity) == nil {
                error(
                    "fetched property '\(entity.name).\(property.name)' fetches entity '\(request.entity)', which does not exist",
                    "unknown-fetch-entity", property.location)
            }
        }
        checkPropertyLists(entity, at: index)
    }

    private func checkPropertyName(
        _ name: String, at location: SourceLocation, in entity: Entity, seen: inout Set<String>?,
        inherited: ArraySlice<Int>
    ) {
        if let inserted = seen?.insert(name).inserted, !inserted {
            error("duplicate property '\(name)' in entity '\(entity.name)'", "duplicate-property", location)
        }
        if let owner = inherited.first(where: { propertyNames[$0].contains(name) }) {
            error(
                "property '\(name)' of entity '\(entity.name)' shadows the property of the same name in its parent entity '\(model.entities[owner].name)'",
                "shadowed-property", location)
        }
        checkIdentifier(name, kind: "property", location: location, uppercase: false)
        if Validator.isReservedPropertyName(name) {
            error(
                "'\(name)' is a reserved name in Core Data (a member of NSManagedObject); rename the property",
                "reserved-name", location)
        }
    }

    private func checkPropertyLists(_ entity: Entity, at index: Int) {
        guard !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty
        else { return }
        let known = KnownNames(
            own: propertyNames[canonical[index]], inherited: inheritedEntities(of: index).map { propertyNames[$0] })
        for constraint in entity.uniquenessConstraints {
            for name in constraint.properties where !known.contains(name) {
                error(
                    "uniqueness constraint of entity '\(entity.name)' names '\(name)', which is not one of its properties",
                    "unknown-constraint-property", constraint.location)
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements where !known.contains(element.property) && isPlainName(element.property) {
                error(
                    "fetch index '\(index.name)' of entity '\(entity.name)' names '\(element.property)', which is not one of its properties",
                    "unknown-index-property", element.location)
            }
        }
        for index in entity.compoundIndexes {
            for name in index.properties where !known.contains(name) {
                error(
                    "compound index of entity '\(entity.name)' names '\(name)', which is not one of its properties",
                    "unknown-index-property", index.location)
            }
        }
    }

    // MARK: Attributes

    /// Checks `attributes[position]`, reading it in place.
    private func check(attributeAt position: Int, of attributes: UnsafeBufferPointer<Attribute>, in entity: Entity) {
        if attributes[position].type == .undefined && !attributes[position].isTransient {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has type Undefined, which only a transient attribute may have",
                "undefined-not-transient", attributes[position].location)
        }
        if attributes[position].type == .transformable && (attributes[position].customClassName ?? "").isEmpty {
            warning(
                "transformable attribute '\(entity.name).\(attributes[position].name)' has no custom class; its value is untyped",
                "transformable-without-class",
                attributes[position].location)
        }
        if let custom = attributes[position].customClassName, !Validator.trimmingWhitespace(custom).isEmpty,
            !Validator.isTypeReference(custom)
        {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has custom class '\(custom)', which is not a Swift type name",
                "invalid-custom-class-name", attributes[position].location)
        }
        if attributes[position].type == .composite, let composite = attributes[position].composite,
            !model.composites.contains(where: { $0.name == composite })
        {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' uses composite '\(composite)', which the model does not define",
                "unknown-composite",
                attributes[position].location)
        }
        let defaultValue = checkValue(
            attributes[position].defaultValueString, at: position, of: attributes, role: "default",
            rule: "invalid-default-value")
        let minimum = checkValue(
            attributes[position].minValueString, at: position, of: attributes, role: "minimum",
            rule: "invalid-min-value")
        let maximum = checkValue(
            attributes[position].maxValueString, at: position, of: attributes, role: "maximum",
            rule: "invalid-max-value")
        let defaultDate = checkInterval(
            attributes[position].defaultDateTimeInterval, at: position, of: attributes, role: "default date",
            rule: "invalid-default-value")
        let minimumDate = checkInterval(
            attributes[position].minDateTimeInterval, at: position, of: attributes, role: "minimum date",
            rule: "invalid-min-value")
        let maximumDate = checkInterval(
            attributes[position].maxDateTimeInterval, at: position, of: attributes, role: "maximum date",
            rule: "invalid-max-value")
        if let minimum, let maximum, minimum > maximum {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has a minimum (\(minimum)) greater than its maximum (\(maximum))",
                "min-exceeds-max", attributes[position].location)
        }
        if let minimumDate, let maximumDate, minimumDate > maximumDate {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has a minimum date greater than its maximum date",
                "min-exceeds-max",
                attributes[position].location)
        }
        if attributes[position].type.isNumeric, let value = defaultValue {
            if let minimum, value < minimum {
                warning(
                    "default value of '\(entity.name).\(attributes[position].name)' is below its minimum",
                    "default-out-of-range", attributes[position].location)
            }
            if let maximum, value > maximum {
                warning(
                    "default value of '\(entity.name).\(attributes[position].name)' is above its maximum",
                    "default-out-of-range", attributes[position].location)
            }
        }
        _ = defaultDate
        if let pattern = attributes[position].regularExpressionString,
            !Validator.isRegularExpression(pattern)
        {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has an invalid regular expression",
                "invalid-regular-expression",
                attributes[position].location)
        }
    }

    /// Checks a value string; returns its numeric value for range checks (nil when not numeric or absent).
    private func checkValue(
        _ text: String?, at position: Int, of attributes: UnsafeBufferPointer<Attribute>, role: String, rule: String
    ) -> Double? {
        guard let text else { return nil }
        let name = attributes[position].name
        switch AttributeValueParser.parse(text, as: attributes[position].type, role: role) {
        case .valid(let number): return number
        case .invalid(let reason):
            // momc compiles such models (the value is coerced or dropped), so this is a warning.
            warning(
                "\(role) value '\(text)' of attribute '\(name)' \(reason); Core Data will ignore or coerce it", rule,
                attributes[position].location)
            return nil
        }
    }

    private func checkInterval(
        _ text: String?, at position: Int, of attributes: UnsafeBufferPointer<Attribute>, role: String, rule: String
    ) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite else {
            error(
                "\(role) '\(text)' of attribute '\(attributes[position].name)' is not a number of seconds", rule,
                attributes[position].location)
            return nil
        }
        return value
    }

    // MARK: Relationships

    private func check(_ relationship: borrowing Relationship, in entity: Entity, at entityIndex: Int) {
        if let min = relationship.minCount, let max = relationship.maxCount, max > 0, min > max {
            error(
                "relationship '\(entity.name).\(relationship.name)' has minCount \(min) greater than maxCount \(max)",
                "min-count-exceeds-max",
                relationship.location)
        }
        if !relationship.isToMany, let max = relationship.maxCount, max != 1 {
            warning(
                "to-one relationship '\(entity.name).\(relationship.name)' has maxCount \(max); it is ignored",
                "max-count-on-to-one",
                relationship.location)
        }
        if relationship.isOrdered && !relationship.isToMany {
            warning(
                "to-one relationship '\(entity.name).\(relationship.name)' is marked ordered; it is ignored",
                "ordered-to-one",
                relationship.location)
        }
        guard !relationship.destinationEntity.isEmpty else {
            error(
                "relationship '\(entity.name).\(relationship.name)' has no destination entity", "missing-destination",
                relationship.location)
            return
        }
        let destination = relationship.destinationEntity
        guard let destinationIndex = model.entityIndex(named: destination) else {
            error(
                "relationship '\(entity.name).\(relationship.name)' has destination entity '\(relationship.destinationEntity)', which does not exist",
                "missing-destination", relationship.location)
            return
        }
        guard let inverseName = relationship.inverseName, !inverseName.isEmpty else {
            warning(
                "relationship '\(entity.name).\(relationship.name)' has no inverse; this is an advanced setting (no integrity checks, deletes leave dangling references)",
                "missing-inverse", relationship.location)
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destination {
            error(
                "relationship '\(entity.name).\(relationship.name)' has inverse entity '\(inverseEntity)' but destination '\(destination)'",
                "inverse-mismatch", relationship.location)
            return
        }
        guard let inverse = relationshipNamed(inverseName, inOrAbove: destinationIndex) else {
            error(
                "relationship '\(entity.name).\(relationship.name)' has inverse '\(inverseName)', which is not a relationship of '\(destination)'",
                "inverse-not-found", relationship.location)
            return
        }
        let pointsBack =
            inverse.destinationEntity == entity.name
            || (entity.parentEntity != nil
                && model.entityIndex(named: inverse.destinationEntity).map {
                    ancestors(of: canonical[entityIndex]).contains($0)
                } ?? false)
        if !pointsBack {
            error(
                "relationship '\(entity.name).\(relationship.name)' has inverse '\(destination).\(inverseName)', which points to '\(inverse.destinationEntity)' instead of '\(entity.name)'",
                "inverse-mismatch", relationship.location)
        } else if let back = inverse.inverseName, back != relationship.name, !back.isEmpty {
            warning(
                "relationship '\(entity.name).\(relationship.name)' has inverse '\(destination).\(inverseName)', whose own inverse is '\(back)'",
                "inverse-mismatch", relationship.location)
        }
    }

    /// The destination and inverse of the first relationship named `name` of the entity at canonical index
    /// `index` or, failing that, of its nearest ancestor that has one.
    private func relationshipNamed(_ name: String, inOrAbove index: Int) -> (
        destinationEntity: String, inverseName: String?
    )? {
        func relationship(_ position: Int, of entity: Int) -> (destinationEntity: String, inverseName: String?) {
            model.entities[entity].relationships.withUnsafeBufferPointer {
                ($0[position].destinationEntity, $0[position].inverseName)
            }
        }
        if let found = relationships[index][name] { return relationship(found, of: index) }
        guard parents[index] >= 0 else { return nil }
        for candidate in ancestors(of: index).dropFirst() {
            if let found = relationships[candidate][name] { return relationship(found, of: candidate) }
        }
        return nil
    }

    // MARK: Model level

    func checkFetchRequests() {
        for request in model.fetchRequests where model.entityIndex(named: request.entity) == nil {
            error(
                "fetch request '\(request.name)' fetches entity '\(request.entity)', which does not exist",
                "unknown-fetch-entity", request.location)
        }
    }

    func checkConfigurations() {
        for configuration in model.configurations {
            for member in configuration.memberEntities where model.entityIndex(named: member) == nil {
                error(
                    "configuration '\(configuration.name)' lists entity '\(member)', which does not exist",
                    "unknown-configuration-entity", configuration.location)
            }
        }
    }

    // MARK: Names

    private func checkIdentifier(_ name: String, kind: String, location: SourceLocation, uppercase: Bool) {
        guard !name.isEmpty else { return }  // reported by the parser
        guard ModelNaming.isIdentifier(name) else {
            error(
                "\(kind) name '\(name)' is not a valid identifier (letters, digits and '_', not starting with a digit)",
                "invalid-identifier", location)
            return
        }
    }

    private func isPlainName(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "_" || ModelNaming.isAlphanumeric($0) }
    }
}

extension Validator {
    /// Whether `pattern` is a regular expression Core Data could use (it evaluates them with ICU).
    ///
    /// Swift's regex parser reads ICU's syntax; what it refuses is wrong there too, except the
    /// ICU features it does not implement yet (lookbehind, the `u` and `w` modes), which it
    /// reports as "not currently supported", and groups nested 63 to 99 deep, which ICU takes and
    /// it does not: those patterns are accepted, not judged. A few
    /// patterns that ICU refuses and Swift reads as literal text (a lone `{` or `}`) are accepted.
    public static func isRegularExpression(_ pattern: String) -> Bool {
        // ICU refuses groups or sets nested 100 deep; Swift's parser recurses into each nested set
        // and runs out of stack on a few thousand, so such a pattern never reaches it.
        guard nestingDepth(of: pattern) < 100 else { return false }
        do {
            _ = try Regex(pattern)
            return true
        } catch {
            // Features Swift's parser lacks, and groups nested deeper than its limit (62; ICU's is 99).
            let reason = String(describing: error)
            return reason.contains("not currently supported") || reason.contains("too deeply nested")
        }
    }

    /// How deeply the groups `(…)` and sets `[…]` of a regular expression nest (an escaped character
    /// and `\Q…\E` quoted text open nothing; inside a set, only `[` opens, a nested set).
    static func nestingDepth(of pattern: String) -> Int {
        var depth = 0
        var deepest = 0
        var sets = 0
        var bytes = pattern.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.next() else { break }
                guard escaped == UInt8(ascii: "Q") else { continue }
                // Quoted text runs to `\E` or the end.
                var previous: UInt8 = 0
                while let quoted = bytes.next() {
                    if previous == UInt8(ascii: "\\") && quoted == UInt8(ascii: "E") { break }
                    previous = quoted
                }
            case UInt8(ascii: "["):
                sets += 1
                depth += 1
            case UInt8(ascii: "]") where sets > 0:
                sets -= 1
                depth -= 1
            case UInt8(ascii: "(") where sets == 0:
                depth += 1
            case UInt8(ascii: ")") where sets == 0:
                depth = max(depth - 1, 0)
            default:
                break
            }
            deepest = max(deepest, depth)
        }
        return deepest
    }

    /// `text` without the spaces and tabs at its ends, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` trims them: general category Zs and U+0009. Text that
    /// starts and ends with an ASCII character other than a space or tab (the usual case) is returned
    /// as it is, without a look at its scalars.
    public static func trimmingWhitespace(_ text: String) -> String {
        trimming(text) { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// `text` without the white space and line breaks at its ends, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` trims them: general categories Z*, U+000A to
    /// U+000D and U+0085 (and the tab, which Foundation's set holds too).
    public static func trimmingWhitespaceAndNewlines(_ text: String) -> String {
        trimming(text) { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x85: return true
            default:
                switch scalar.properties.generalCategory {
                case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
                default: return false
                }
            }
        }
    }

    private static func trimming(_ text: String, _ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        func isPlainASCII(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte < 0x80 && byte > 0x20
        }
        if isPlainASCII(text.utf8.first) && isPlainASCII(text.utf8.last) { return text }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[start...last])
    }

    /// A Swift type as written in a `customClassName`: an optional leading `.` (Xcode's current module), then
    /// identifiers joined by `.`, with balanced `<…>` generic arguments, `[…]`/`[K: V]` collection sugar and
    /// `?`, separated by `,` `:` or spaces. Anything else (comments, quotes, newlines, `{`, `/`) would break the
    /// generated code.
    static func isTypeReference(_ text: String) -> Bool {
        let trimmed = trimmingWhitespace(text)
        // ASCII text (the usual case) is checked byte by byte; its characters are its bytes, but for "\r\n", which
        // is refused either way.
        let ascii = trimmed.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            bytes.allSatisfy { $0 < 0x80 } ? isASCIITypeReference(bytes) : nil
        }
        if case let result?? = ascii { return result }
        return isTypeReference(characters: trimmed)
    }

    /// ``isTypeReference(_:)`` for trimmed ASCII text, on its bytes.
    private static func isASCIITypeReference(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_")
        }
        func endsType(_ byte: UInt8) -> Bool {
            isWordByte(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "?")
        }
        func isOne(_ byte: UInt8, of set: StaticString) -> Bool {
            set.withUTF8Buffer { $0.contains(byte) }
        }
        var index = 0
        while index < bytes.count && bytes[index] == UInt8(ascii: ".") { index += 1 }
        var stack: [UInt8] = []
        var wordStart: Int?
        var previous = UInt8(ascii: ",")  // the last byte that is not a space
        var spaced = false
        func wordIsName(endingAt end: Int) -> Bool {
            guard let start = wordStart else { return true }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            return ModelNaming.isIdentifier(word) && !ModelNaming.nonTypeKeywords.contains(word)
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if isWordByte(byte) {
                // A name starts a type or follows `.`, `<`, `[`, `,` or `:` (so `Foo Bar` and `Foo<A>B` are refused).
                if wordStart == nil {
                    if !isOne(previous, of: "<[,:.") || (spaced && previous == UInt8(ascii: ".")) { return false }
                    wordStart = index
                }
                previous = byte
                spaced = false
                continue
            }
            guard wordIsName(endingAt: index) else { return false }
            wordStart = nil
            if byte == UInt8(ascii: " ") {
                spaced = true
                continue
            }
            let ends = endsType(previous)
            switch byte {
            case UInt8(ascii: "<"): guard ends, !spaced else { return false }
            case UInt8(ascii: "["): guard isOne(previous, of: "<[,:") else { return false }
            case UInt8(ascii: ">"): guard ends, stack.last == UInt8(ascii: "<") else { return false }
            case UInt8(ascii: "]"): guard ends, stack.last == UInt8(ascii: "[") else { return false }
            case UInt8(ascii: "."): guard ends, !spaced else { return false }
            case UInt8(ascii: ","), UInt8(ascii: ":"): guard ends, !stack.isEmpty else { return false }
            case UInt8(ascii: "?"): guard ends, !spaced else { return false }
            default: return false
            }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "["): stack.append(byte)
            case UInt8(ascii: ">"), UInt8(ascii: "]"): _ = stack.popLast()
            default: break
            }
            previous = byte
            spaced = false
        }
        return wordIsName(endingAt: bytes.count) && endsType(previous) && stack.isEmpty
    }

    /// ``isTypeReference(_:)`` for trimmed text, character by character.
    static func isTypeReference(characters trimmed: String) -> Bool {
        var body = Substring(trimmed)
        while body.first == "." { body.removeFirst() }
        var stack: [Character] = []
        var word = ""
        var previous: Character = ","  // the last character that is not a space
        var spaced = false
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
        func wordIsName() -> Bool {
            word.isEmpty || (ModelNaming.isIdentifier(word) && !ModelNaming.nonTypeKeywords.contains(word))
        }
        for character in body {
            if isWordCharacter(character) {
                // A name starts a type or follows `.`, `<`, `[`, `,` or `:` (so `Foo Bar` and `Foo<A>B` are refused).
                if word.isEmpty, !"<[,:.".contains(previous) || (spaced && previous == ".") { return false }
                word.append(character)
                previous = character
                spaced = false
                continue
            }
            guard wordIsName() else { return false }
            word = ""
            if character == " " {
                spaced = true
                continue
            }
            let endsType = isWordCharacter(previous) || previous == ">" || previous == "]" || previous == "?"
            switch character {
            case "<": guard endsType, !spaced else { return false }
            case "[": guard "<[,:".contains(previous) else { return false }
            case ">": guard endsType, stack.last == "<" else { return false }
            case "]": guard endsType, stack.last == "[" else { return false }
            case ".": guard endsType, !spaced else { return false }
            case ",", ":": guard endsType, !stack.isEmpty else { return false }
            case "?": guard endsType, !spaced else { return false }
            default: return false
            }
            switch character {
            case "<", "[": stack.append(character)
            case ">", "]": _ = stack.popLast()
            default: break
            }
            previous = character
            spaced = false
        }
        let endsType = isWordCharacter(previous) || previous == ">" || previous == "]" || previous == "?"
        return wordIsName() && endsType && stack.isEmpty
    }
}

/// Parses default, minimum and maximum value strings for an attribute type.
public enum AttributeValueParser {
    /// The outcome of parsing a value string.
    public enum Outcome: Equatable, Sendable {
        /// The string is valid; the number is its numeric value (or length bound), when it has one.
        case valid(Double?)
        /// The string is invalid, with the reason as a sentence fragment.
        case invalid(String)
    }

    /// Parses `text` as a value of `type`. Minimum and maximum of String and Binary are lengths.
    public static func parse(_ text: String, as type: AttributeType, role: String) -> Outcome {
        let isBound = role == "minimum" || role == "maximum"
        switch type {
        case .integer16, .integer32, .integer64:
            let trimmed = trimmedSpaces(text)
            guard let value = Int64(trimmed) ?? wholeNumber(trimmed) else {
                return .invalid("is not an integer")
            }
            guard let range = type.integerRange, range.contains(value) else {
                return .invalid("is out of range for \(type.rawValue)")
            }
            return .valid(Double(value))
        case .double, .float, .decimal:
            guard let value = Double(trimmedSpaces(text)), value.isFinite else {
                return .invalid("is not a number")
            }
            return .valid(value)
        case .boolean:
            if isBound { return .valid(nil) }
            switch text {
            case "YES", "NO", "yes", "no", "true", "false", "TRUE", "FALSE", "1", "0": return .valid(nil)
            default: return .invalid("is not a Boolean (YES or NO)")
            }
        case .string, .binary, .uri, .transformable:
            if isBound {
                guard let length = Int(text), length >= 0 else { return .invalid("is not a length") }
                return .valid(Double(length))
            }
            if type == .uri, URL(string: text) == nil { return .invalid("is not a URL") }
            return .valid(nil)
        case .uuid:
            if isBound { return .valid(nil) }
            return UUID(uuidString: text) == nil ? .invalid("is not a UUID") : .valid(nil)
        case .date:
            if isBound { return .valid(nil) }
            return Double(text) == nil ? .invalid("is not a number of seconds") : .valid(nil)
        case .objectID, .composite, .undefined:
            return .valid(nil)
        }
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmedSpaces(_ text: String) -> Substring {
        var slice = text[...]
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }

    private static func wholeNumber(_ text: Substring) -> Int64? {
        guard let value = Double(text), value.isFinite, value.rounded() == value, abs(value) < 9.2e18 else {
            return nil
        }
        return Int64(value)
    }
}
