import DataModelNaming
import DataModelStoreLayout
import FoundationEssentials

// Entity checks of a validation run: names, inheritance, property lists.
extension ValidationRun {
    func checkEntities() {
        var classNames: [String: (entity: String, className: String)] = [:]
        for index in model.entities.indices {
            let entity = model.entities[index]
            if canonical[index] != index {
                let first = model.entities[canonical[index]].location
                error(
                    "duplicate entity '\(entity.name)' (first declared at line \(first.line))", .duplicateEntity,
                    entity.location)
            }
            checkIdentifier(entity.name, kind: "entity", location: entity.location, uppercase: true)
            if let represented = entity.representedClassName, !represented.isEmpty,
                !ModelNaming.isIdentifier(entity.className)
            {
                // The class name becomes a Swift declaration and a file name: `Foo Bar`, `1Foo` or `../x` cannot be either.
                error(
                    "entity '\(entity.name)' has class name '\(represented)', whose class part '\(entity.className)' is not a valid identifier",
                    .invalidClassName, entity.location)
            }
            // Entities whose class is `NSManagedObject` share the generic class and generate none.
            if entity.codeGenerationType != .manual && !ModelNaming.isGenericClass(entity.className, flavor: .coredata)
            {
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
                        "entities '\(other.entity)' and '\(entity.name)' \(what)", .duplicateClassName,
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
                    .missingParent, entity.location)
                continue
            }
            let depth = depths[canonical[index]]
            guard depth >= 0 else {
                error("entity '\(entity.name)' inherits from itself", .cyclicInheritance, entity.location)
                continue
            }
            if depth == limit + 1 {
                // Reported where a chain first passes the limit, not for every entity below it.
                error(
                    "entity '\(entity.name)' has more than \(limit) ancestor entities; inheritance this deep is not supported",
                    .inheritanceTooDeep, entity.location)
            }
        }
    }

    /// Canonical entity index → number of ancestors (0 for a root or an entity whose parent is missing); -1 for
    /// an entity on or below an inheritance cycle. Linear: each entity is walked over once.
    func inheritanceDepths() -> [Int] {
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
    func ancestors(of index: Int) -> [Int] {
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
    func inheritedEntities(of index: Int) -> ArraySlice<Int> {
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
    func checkEveryEntity(threads: Int, on scheduler: any WorkScheduler) {
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
        scheduler.forEach(count: parts, threads: parts) { part in
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
                    .unknownFetchEntity, property.location)
            }
        }
        checkPropertyLists(entity, at: index)
    }

    func checkPropertyName(
        _ name: String, at location: SourceLocation, in entity: Entity, seen: inout Set<String>?,
        inherited: ArraySlice<Int>
    ) {
        if let inserted = seen?.insert(name).inserted, !inserted {
            error("duplicate property '\(name)' in entity '\(entity.name)'", .duplicateProperty, location)
        }
        if let owner = inherited.first(where: { propertyNames[$0].contains(name) }) {
            error(
                "property '\(name)' of entity '\(entity.name)' shadows the property of the same name in its parent entity '\(model.entities[owner].name)'",
                .shadowedProperty, location)
        }
        checkIdentifier(name, kind: "property", location: location, uppercase: false)
        if Validator.isReservedPropertyName(name) {
            error(
                "'\(name)' is a reserved name in Core Data (a member of NSManagedObject); rename the property",
                .reservedName, location)
        } else if case let swiftName = ModelNaming.runtimePropertyName(name), swiftName != name {
            warning(
                "the runtime flavor declares '\(entity.name).\(name)' as '\(swiftName)': '\(name)' is a member of the runtime's ManagedObject (the stored name stays '\(name)')",
                .renamedProperty, location)
        }
    }

    func checkPropertyLists(_ entity: Entity, at index: Int) {
        guard !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty
        else { return }
        let known = KnownNames(
            own: propertyNames[canonical[index]], inherited: inheritedEntities(of: index).map { propertyNames[$0] })
        for constraint in entity.uniquenessConstraints {
            for name in constraint.properties where !known.contains(name) {
                error(
                    "uniqueness constraint of entity '\(entity.name)' names '\(name)', which is not one of its properties",
                    .unknownConstraintProperty, constraint.location)
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements where !known.contains(element.property) && isPlainName(element.property) {
                error(
                    "fetch index '\(index.name)' of entity '\(entity.name)' names '\(element.property)', which is not one of its properties",
                    .unknownIndexProperty, element.location)
            }
        }
        for index in entity.compoundIndexes {
            for name in index.properties where !known.contains(name) {
                error(
                    "compound index of entity '\(entity.name)' names '\(name)', which is not one of its properties",
                    .unknownIndexProperty, index.location)
            }
        }
    }
}
