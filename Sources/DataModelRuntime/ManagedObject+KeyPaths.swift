import Foundation

/// Key-value coding through key paths and several keys at once, with Core Data's (`NSObject`'s) spellings, so that
/// ported code such as `employee.value(forKeyPath: "department.name")` or
/// `department.value(forKeyPath: "employees.@count")` works as it is.
extension ManagedObject {
    /// The value at the dotted key path `keyPath`, as `NSObject.value(forKeyPath:)` reads it:
    ///
    /// - through to-ones: `"department.name"` is the department's name (`nil` when there is no department);
    /// - through to-manys: `"employees.name"` is the employees' names, a `Set<AnyHashable>` for an unordered
    ///   relationship and an `[Any]` in order for an ordered one (values that are `nil` are left out);
    /// - collection operators after a to-many: `"employees.@count"` (an `Int`), `"employees.@sum.age"`,
    ///   `"@avg"` (`Double`; `nil` for no values), `"@min"`, `"@max"` (the values' own type).
    ///
    /// A component that names no property stops the program, as ``value(forKey:)`` does.
    public func value(forKeyPath keyPath: String) -> Any? {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return Self.value(of: self, at: components[...], keyPath: keyPath)
    }

    /// Sets the value at the dotted key path `keyPath`: the last component on the object the to-ones before it
    /// reach (`"department.name"` sets the department's name). Nothing happens when one of them is `nil`, as
    /// messaging `nil` does nothing in Core Data.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        var components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        var target: ManagedObject = self
        for component in components {
            let next = target.value(forKey: component)
            guard let next else { return }
            guard let object = next as? ManagedObject else {
                preconditionFailure(
                    "setValue(_:forKeyPath: \"\(keyPath)\"): \(target.entity.name).\(component) is not a to-one "
                        + "relationship")
            }
            target = object
        }
        target.setValue(value, forKey: last)
    }

    /// Sets each key of `keyedValues` (`NSObject.setValuesForKeys(_:)`); `NSNull()` or an empty optional clears a
    /// property.
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        // In key order: the same dictionary changes the object the same way every time (relationships' inverses,
        // undo steps).
        for (key, value) in keyedValues.sorted(by: { $0.key < $1.key }) {
            setValue(unwrapped(value), forKey: key)
        }
    }

    /// The values of `keys` (`NSObject.dictionaryWithValues(forKeys:)`), `NSNull()` for those without a value.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    // MARK: Walking key paths

    private static func value(of object: ManagedObject, at path: ArraySlice<String>, keyPath: String) -> Any? {
        guard let key = path.first else { return object }
        if key.hasPrefix("@") {
            preconditionFailure(
                "value(forKeyPath: \"\(keyPath)\"): \(key) follows \(object.entity.name), not a to-many relationship")
        }
        let value = object.value(forKey: key)
        let rest = path.dropFirst()
        guard !rest.isEmpty, let value else { return value }
        if let destination = value as? ManagedObject { return Self.value(of: destination, at: rest, keyPath: keyPath) }
        if let objects = value as? [ManagedObject] {
            return collectionValue(of: objects, ordered: true, at: rest, keyPath: keyPath)
        }
        if let objects = value as? Set<ManagedObject> {
            return collectionValue(of: Array(objects), ordered: false, at: rest, keyPath: keyPath)
        }
        preconditionFailure(
            "value(forKeyPath: \"\(keyPath)\"): \(object.entity.name).\(key) is an attribute; nothing follows it")
    }

    /// The rest of a key path applied to the destinations of a to-many: the values (a set, or in order an array),
    /// or a collection operator's result.
    private static func collectionValue(
        of objects: [ManagedObject], ordered: Bool, at path: ArraySlice<String>, keyPath: String
    ) -> Any? {
        guard let first = path.first else { return ordered ? objects : Set(objects) }
        guard first.hasPrefix("@") else {
            let values = objects.compactMap { value(of: $0, at: path, keyPath: keyPath) }
            if ordered { return values }
            // Unordered: a set, as `NSSet` gives (to-manys through to-manys are merged into one set).
            var set: Set<AnyHashable> = []
            for value in values {
                if let nested = value as? Set<AnyHashable> {
                    set.formUnion(nested)
                } else if let hashable = value as? AnyHashable {
                    set.insert(hashable)
                }
            }
            return set
        }
        let operand = path.dropFirst()
        switch first {
        case "@count":
            return objects.count
        case "@sum", "@avg", "@min", "@max":
            guard !operand.isEmpty else {
                preconditionFailure("value(forKeyPath: \"\(keyPath)\"): \(first) needs a key path after it")
            }
            let values = objects.compactMap { value(of: $0, at: operand, keyPath: keyPath) }
            return aggregate(first, of: values, keyPath: keyPath)
        default:
            preconditionFailure(
                "value(forKeyPath: \"\(keyPath)\"): unknown collection operator \(first) (@count, @sum, @avg, @min, "
                    + "@max)")
        }
    }

    private static func aggregate(_ operation: String, of values: [Any], keyPath: String) -> Any? {
        switch operation {
        case "@sum", "@avg":
            let numbers = values.map { number(from: $0, keyPath: keyPath) }
            if operation == "@avg" {
                guard !numbers.isEmpty else { return nil }
                return numbers.reduce(0, +) / Double(numbers.count)
            }
            // An integer sum of integers (as `NSNumber` keeps it), a `Double` otherwise.
            if values.allSatisfy({ $0 is any BinaryInteger }) {
                return values.reduce(Int64(0)) { $0 &+ (Int64(exactly: number(from: $1, keyPath: keyPath)) ?? 0) }
            }
            return numbers.reduce(0, +)
        default:
            let ordered = values.sorted { lhs, rhs in isOrdered(lhs, before: rhs, keyPath: keyPath) }
            return operation == "@min" ? ordered.first : ordered.last
        }
    }

    private static func number(from value: Any, keyPath: String) -> Double {
        switch value {
        case let value as any BinaryInteger: return Double(value)
        case let value as any BinaryFloatingPoint: return Double(value)
        case let value as Decimal: return NSDecimalNumber(decimal: value).doubleValue
        case let value as Bool: return value ? 1 : 0
        default:
            preconditionFailure("value(forKeyPath: \"\(keyPath)\"): \(type(of: value)) values cannot be added up")
        }
    }

    private static func isOrdered(_ lhs: Any, before rhs: Any, keyPath: String) -> Bool {
        switch (lhs, rhs) {
        case (let lhs as String, let rhs as String): return lhs < rhs
        case (let lhs as Date, let rhs as Date): return lhs < rhs
        case (let lhs as Decimal, let rhs as Decimal): return lhs < rhs
        default: return number(from: lhs, keyPath: keyPath) < number(from: rhs, keyPath: keyPath)
        }
    }
}

/// Relationship faults, as Core Data asks about them.
extension ManagedObject {
    /// Whether relationship `name` is not loaded (Core Data's `hasFault(forRelationshipNamed:)`): a to-many whose
    /// destinations were not read yet, a to-one whose destination is a fault or not registered, or any relationship
    /// of an object that is a fault itself. Asking loads nothing.
    public func hasFault(forRelationshipNamed name: String) -> Bool {
        let relationship = relationshipOrStop(name)
        let index = relationship.index
        guard !isFault, values.relationshipIndices.contains(index) else { return true }
        if relationship.isToMany { return values.isToManyFault(index) }
        guard case .toOne(let id) = values[relationship: index], let id else { return false }
        guard let destination = context?.registeredObject(for: id) else { return true }
        return destination.isFault
    }

    /// The IDs of relationship `name`'s destinations (Core Data's `objectIDs(forRelationshipNamed:)`), in order for
    /// an ordered to-many, without making their objects: a to-many not loaded yet is read from the store.
    public func objectIDs(forRelationshipNamed name: String) -> [ObjectID] {
        let relationship = relationshipOrStop(name)
        switch relationshipValue(relationship) {
        case .toOne(let id)?: return id.map { [$0] } ?? []
        case .toMany(let list)?: return list.ids
        case .toManyFault?, nil: return []
        }
    }

    /// Whether a persistent (not transient) property has unsaved changes (Core Data's
    /// `hasPersistentChangedValues`): an inserted or deleted object, or one whose stored values changed.
    public var hasPersistentChangedValues: Bool {
        if isInserted || isDeleted { return true }
        return isUpdated && !changedValues().isEmpty
    }
}

extension ManagedObjectContext {
    /// The object of `id` when this context holds it (Core Data's `registeredObject(for:)`), without making a
    /// fault or reading the store; `nil` otherwise.
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        operation { registered[id] }
    }
}
