import Foundation
import PredicateFormat

/// A derived attribute of an entity, its expression parsed once when the model is prepared.
struct DerivedAttributeRuntime {
    /// The attribute's index in the entity's attributes (inherited first).
    let index: Int
    let attribute: AttributeDescription
    /// The parsed derivation expression, or the parser's error.
    let expression: Result<FormatExpression, PredicateFormatError>

    static func derivedAttributes(of attributes: [AttributeDescription]) -> [DerivedAttributeRuntime] {
        attributes.enumerated().compactMap { index, attribute in
            guard attribute.isDerived, !attribute.isTransient, let text = attribute.derivationExpression else {
                return nil
            }
            return DerivedAttributeRuntime(
                index: index, attribute: attribute,
                expression: Result { () throws(PredicateFormatError) in try FormatExpression(format: text) })
        }
    }

    /// The key paths the expression reads.
    var keyPaths: [[FormatExpression.KeyPathComponent]] {
        guard case .success(let expression) = expression else { return [] }
        var paths: [[FormatExpression.KeyPathComponent]] = []
        // A comparison-free walk: derivations are key paths and functions of key paths.
        _ = expression.replacingExpressions { expression -> FormatExpression? in
            if case .keyPath(let components) = expression { paths.append(components) }
            return nil
        }
        return paths
    }
}

// MARK: - Computing derived attributes at save

/// Core Data computes derived attributes in the store when a context saves to it; this runtime computes them at the
/// same moment, before validation, for every object the save changes and every object whose derivation reads a
/// changed object through relationships (an inserted, moved or deleted employee changes its department's
/// `employees.@count`; a renamed department changes its employees' `department.name`), and writes them with the save.
extension ManagedObjectContext {
    func deriveAttributes(deleted: [ManagedObject]) throws(StoreError) {
        try deriveAttributes(of: insertedList.filter(\.isInserted) + updatedList + deleted)
    }

    /// Recomputes the derived attributes of `changed` and of the objects whose derivations read one of them through
    /// relationships, and of `also`; sets the values that changed (their objects become updated).
    func deriveAttributes(of changed: [ManagedObject], also: [ManagedObject] = []) throws(StoreError) {
        var targets: [ManagedObject] = []
        var seen: Set<ObjectIdentifier> = []
        func consider(_ object: ManagedObject) {
            guard !object.isDeleted, !object.isInvalid, !object.entityRuntime.derivedAttributes.isEmpty,
                seen.insert(ObjectIdentifier(object)).inserted
            else { return }
            targets.append(object)
        }
        for object in changed + also { consider(object) }
        for owner in try derivationOwners(of: changed) { consider(owner) }
        let now = Date()
        // Each entity's expressions with `now()` fixed, made once per save rather than once per object.
        var expressionsByEntity: [ObjectIdentifier: [FormatExpression]] = [:]
        let evaluator = FormatEvaluator(objects: [:])
        for object in targets {
            let entity = object.entityRuntime
            let expressions: [FormatExpression]
            if let known = expressionsByEntity[ObjectIdentifier(entity)] {
                expressions = known
            } else {
                var made: [FormatExpression] = []
                for derived in entity.derivedAttributes {
                    switch derived.expression {
                    case .success(let parsed): made.append(Self.fixingNow(parsed, to: now))
                    case .failure(let error):
                        throw .predicateFailed(
                            "the derivation of \(object.entity.name).\(derived.attribute.name) is invalid: \(error)")
                    }
                }
                expressionsByEntity[ObjectIdentifier(entity)] = made
                expressions = made
            }
            for (derived, expression) in zip(entity.derivedAttributes, expressions) {
                let value: FormatValue
                do {
                    value = try evaluator.value(expression, on: object)
                } catch {
                    throw .predicateFailed(
                        "the derivation of \(object.entity.name).\(derived.attribute.name) failed: \(error)")
                }
                let stored = Self.storedValue(value, as: derived.attribute.type)
                if object.values.attributeIndices.contains(derived.index),
                    object.values[attribute: derived.index] == stored
                {
                    continue
                }
                object.setPrimitiveValue(stored, for: derived.attribute.name)
            }
        }
    }

    /// The objects whose derivations read one of `changed` through relationships (now or as last saved).
    func derivationOwners(of changed: [ManagedObject]) throws(StoreError) -> [ManagedObject] {
        var found: [ManagedObject] = []
        for entity in runtime.entities where !entity.derivedAttributes.isEmpty {
            for chain in relationshipChains(of: entity) {
                found += try owners(through: chain, of: changed, entity: entity)
            }
        }
        return found
    }

    /// The relationship chains (`department`, `employees`, `department.business`) that the entity's derivations read
    /// through: a change to an object at the end of one can change the derived value.
    private func relationshipChains(of entity: EntityRuntime) -> [[RelationshipRuntime]] {
        var chains: [[RelationshipRuntime]] = []
        for derived in entity.derivedAttributes {
            for path in derived.keyPaths {
                var chain: [RelationshipRuntime] = []
                var current = entity
                for component in path {
                    guard case .key(let key) = component, let relationship = current.relationship(named: key) else {
                        break
                    }
                    chain.append(relationship)
                    current = relationship.destination
                }
                // Several derivations often read through the same relationships (`members.@sum.hours`,
                // `members.@count`): each chain once.
                if !chain.isEmpty
                    && !chains.contains(where: { $0.map(\.description.name) == chain.map(\.description.name) })
                {
                    chains.append(chain)
                }
            }
        }
        return chains
    }

    /// The objects of `entity` that reach one of `changed` through `chain` (before or after the changes).
    private func owners(through chain: [RelationshipRuntime], of changed: [ManagedObject], entity: EntityRuntime)
        throws(StoreError) -> [ManagedObject]
    {
        var found: [ManagedObject] = []
        for (level, relationship) in chain.enumerated() {
            let reached = changed.filter { relationship.destination.includes($0.entityRuntime) }
            guard !reached.isEmpty else { continue }
            // Back from the changed objects to the entity's objects, one inverse at a time.
            var objects = reached
            for step in chain[...level].reversed() {
                guard let inverseName = step.description.inverseName else {
                    // Without an inverse the owners cannot be found from the changed objects: recompute them all.
                    return try fetchInOperation(FetchRequest<ManagedObject>(entityName: entity.name))
                }
                var previous: [ManagedObject] = []
                var seen: Set<ObjectIdentifier> = []
                for object in objects {
                    for linked in linkedObjects(of: object, through: inverseName)
                    where seen.insert(ObjectIdentifier(linked)).inserted {
                        previous.append(linked)
                    }
                }
                objects = previous
            }
            found += objects.filter { entity.includes($0.entityRuntime) }
        }
        return found
    }

    /// The destinations of `object`'s relationship `name`, now and as last saved.
    private func linkedObjects(of object: ManagedObject, through name: String) -> [ManagedObject] {
        guard let relationship = object.entityRuntime.relationship(named: name) else { return [] }
        var linked = object.destinationObjects(name)
        if let snapshot = object.snapshot, snapshot.relationshipIndices.contains(relationship.index) {
            switch snapshot[relationship: relationship.index] {
            case .toOne(let id?): if let destination = self.object(with: id) { linked.append(destination) }
            case .toMany(let ids): linked += ids.ids.compactMap { self.object(with: $0) }
            case .toOne(nil), .toManyFault: break
            }
        }
        return linked
    }

    /// `now()` as one moment for the whole save.
    private static func fixingNow(_ expression: FormatExpression, to now: Date) -> FormatExpression {
        expression.replacingExpressions { expression in
            if case .function("now", let arguments) = expression, arguments.isEmpty { return .constant(.date(now)) }
            return nil
        }
    }

    /// A computed value as the attribute stores it (a count in a string attribute is its decimal text, a date in a
    /// number attribute its seconds since 2001, a fraction in an integer attribute its integer part).
    static func storedValue(_ value: FormatValue, as type: AttributeType) -> PrimitiveValue {
        switch (type, value) {
        case (_, .null): return .null
        case (.integer16, _), (.integer32, _), (.integer64, _), (.boolean, _):
            if case .integer(let integer) = value { return .integer(integer) }
            if case .date(let date) = value { return .integer(Int64(date.timeIntervalSinceReferenceDate)) }
            guard let number = value.number, number.isFinite, let integer = Int64(exactly: number.rounded(.towardZero))
            else { return .null }
            return .integer(integer)
        case (.double, _), (.float, _):
            if case .date(let date) = value { return .real(date.timeIntervalSinceReferenceDate) }
            guard let number = value.number else { return .null }
            return .real(type == .float ? Double(Float(number)) : number)
        case (.decimal, .decimal(let decimal)): return decimal.primitiveValue
        case (.decimal, _): return value.number.map { Decimal($0).primitiveValue } ?? .null
        case (.date, .date(let date)): return date.primitiveValue
        case (.date, _): return value.number.map { Date(timeIntervalSinceReferenceDate: $0).primitiveValue } ?? .null
        case (.string, .string(let text)), (.uri, .string(let text)): return .text(text)
        case (.string, .integer(let integer)): return .text(String(integer))
        case (.string, .real(let real)): return .text(String(real))
        case (.string, .decimal(let decimal)): return .text(decimal.description)
        case (.uuid, .uuid(let uuid)): return uuid.primitiveValue
        case (.binary, .data(let data)), (.transformable, .data(let data)): return .blob(data)
        default: return .null
        }
    }
}
