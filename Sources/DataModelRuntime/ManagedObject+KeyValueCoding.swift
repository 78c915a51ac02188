import Foundation

/// Why a dynamic `value(forKey:)` / `setValue(_:forKey:)` was refused.
public enum KeyValueError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The entity has no attribute or relationship called `key`.
    case unknownKey(entity: String, key: String)
    /// The value's type is not the property's (`expected` names the type it takes).
    case wrongType(entity: String, key: String, expected: String, got: String)
    /// The key names a relationship where only attributes are taken (a ``BatchInsertRequest``'s dictionaries).
    case notAnAttribute(entity: String, key: String)
    /// The key names a property user code cannot set: a derived attribute (computed when the context saves) or a
    /// fetched property.
    case readOnly(entity: String, key: String, reason: String)
    /// The key names a fetched property whose fetch failed.
    case fetchFailed(entity: String, key: String, message: String)

    public var description: String {
        switch self {
        case .unknownKey(let entity, let key):
            "\(entity) has no attribute or relationship '\(key)'"
        case .wrongType(let entity, let key, let expected, let got):
            "\(entity).\(key) takes \(expected), not a value of type \(got)"
        case .notAnAttribute(let entity, let key):
            "\(entity).\(key) is a relationship; a batch insert sets attributes only"
        case .readOnly(let entity, let key, let reason):
            "\(entity).\(key) cannot be set: \(reason)"
        case .fetchFailed(_, _, let message):
            message
        }
    }

    public var errorDescription: String? { description }
}

// MARK: - Core Data's dynamic access

/// Core Data's `value(forKey:)` and `setValue(_:forKey:)`, for code without generated classes (tools, ports of
/// Core Data code, objects of entities whose class is `ManagedObject`).
///
/// Attributes read as their Swift type (`String`, `Int16`, `Int32`, `Int64`, `Double`, `Float`, `Decimal`, `Bool`,
/// `Date`, `Data`, `UUID`, `URL`; a transformable holding Core Data's `NSKeyedArchiver` archive reads as its value,
/// see ``archivedValue(for:)``, any other as `Data`; setting one to a value other than `Data` archives it); a to-one reads as `ManagedObject?`, an unordered to-many as
/// `Set<ManagedObject>`, an ordered one as `[ManagedObject]`. Setting converts integers to any integer attribute
/// they fit in and numbers to floating-point and decimal attributes, and nothing else: `42` is not a `String`.
/// As in Core Data, an unknown key or a value of the wrong type is a programming error and stops the program with
/// a message naming the entity and the key; ``checkedValue(forKey:)`` and ``setCheckedValue(_:forKey:)`` throw a
/// ``KeyValueError`` instead.
///
/// ```swift
/// let person = try context.insertNewObject(forEntityName: "Person")
/// person.setValue("Ann", forKey: "name")
/// let name = person.value(forKey: "name") as? String
/// ```
extension ManagedObject {
    /// The value of the attribute or relationship `key`; stops the program when the entity has no such property.
    public func value(forKey key: String) -> Any? {
        do {
            return try checkedValue(forKey: key)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// Sets the attribute or relationship `key` (`nil` clears it); stops the program when the entity has no such
    /// property or `value` is of the wrong type.
    public func setValue(_ value: Any?, forKey key: String) {
        do {
            try setCheckedValue(value, forKey: key)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// The value of the attribute or relationship `key`, or a ``KeyValueError`` when the entity has none.
    public func checkedValue(forKey key: String) throws(KeyValueError) -> Any? {
        if let index = entityRuntime.attributeIndex(key) {
            return Self.attributeValue(primitiveValue(for: key), of: entityRuntime.attributes[index].type)
        }
        guard let relationship = relationship(key) else {
            guard fetchedPropertyDescription(key) != nil else { throw .unknownKey(entity: entity.name, key: key) }
            do {
                return try checkedFetchedObjects(forKey: key)
            } catch {
                throw .fetchFailed(entity: entity.name, key: key, message: error.description)
            }
        }
        if !relationship.isToMany { return toOne(for: key) as ManagedObject? }
        return relationship.isOrdered
            ? toManyArray(for: key) as [ManagedObject] : toManySet(for: key) as Set<ManagedObject>
    }

    /// Sets the attribute or relationship `key`, or throws a ``KeyValueError`` (and changes nothing) when the
    /// entity has no such property or `value` is of the wrong type.
    public func setCheckedValue(_ value: Any?, forKey key: String) throws(KeyValueError) {
        if let index = entityRuntime.attributeIndex(key) {
            let type = entityRuntime.attributes[index].type
            if entityRuntime.attributes[index].isDerived {
                throw .readOnly(
                    entity: entity.name, key: key,
                    reason: "it is a derived attribute, computed from its derivation expression when the context saves")
            }
            guard let value else {
                setPrimitiveValue(.null, for: key)
                return
            }
            // A transformable takes `Data` as it is, or a value of Foundation's types, archived as Core Data's
            // default transformer does (an unchanged value keeps its bytes).
            if type == .transformable, !(value is Data) {
                guard setArchivedValue(value, for: key) else {
                    throw .wrongType(
                        entity: entity.name, key: key, expected: "Data or a property-list value",
                        got: String(describing: Swift.type(of: value)))
                }
                return
            }
            guard let stored = Self.primitiveValue(value, as: type) else {
                throw .wrongType(
                    entity: entity.name, key: key, expected: Self.swiftTypeName(of: type),
                    got: String(describing: Swift.type(of: value)))
            }
            setPrimitiveValue(stored, for: key)
            return
        }
        guard let relationship = relationship(key) else {
            guard fetchedPropertyDescription(key) != nil else { throw .unknownKey(entity: entity.name, key: key) }
            throw .readOnly(entity: entity.name, key: key, reason: "it is a fetched property, which is read-only")
        }
        func check(_ object: ManagedObject) throws(KeyValueError) {
            try checkDestination(object, of: relationship, key: key)
        }
        if !relationship.isToMany {
            guard let value else {
                setToOne(nil as ManagedObject?, for: key)
                return
            }
            guard let object = value as? ManagedObject else {
                throw .wrongType(
                    entity: entity.name, key: key, expected: "ManagedObject?",
                    got: String(describing: Swift.type(of: value)))
            }
            try check(object)
            setToOne(object, for: key)
            return
        }
        let objects: [ManagedObject]
        if value == nil {
            objects = []
        } else if let array = value as? [ManagedObject] {
            objects = array
        } else if let set = value as? Set<ManagedObject> {
            objects = Array(set)
        } else {
            throw .wrongType(
                entity: entity.name, key: key,
                expected: relationship.isOrdered ? "[ManagedObject]" : "Set<ManagedObject>",
                got: String(describing: Swift.type(of: value as Any)))
        }
        for object in objects { try check(object) }
        if relationship.isOrdered {
            setToManyArray(objects, for: key)
        } else {
            setToManySet(Set(objects), for: key)
        }
    }

    /// Throws ``KeyValueError/wrongType(entity:key:expected:got:)`` unless `object` is of relationship `key`'s
    /// destination entity (or one of its sub-entities).
    final func checkDestination(_ object: ManagedObject, of relationship: RelationshipRuntime, key: String)
        throws(KeyValueError)
    {
        let destination = relationship.destination
        guard destination.includes(object.entityRuntime) else {
            throw .wrongType(
                entity: entity.name, key: key, expected: "objects of \(destination.name)",
                got: "an object of \(object.entity.name)")
        }
    }

    // MARK: Conversions

    /// The value of an attribute of `type` as ``value(forKey:)`` reads it: ``swiftValue(_:of:)``, except that a
    /// transformable holding Core Data's archive (its default transformer's) reads as the archived value.
    static func attributeValue(_ stored: PrimitiveValue, of type: AttributeType) -> Any? {
        if type == .transformable, case .blob(let data) = stored, let value = KeyedArchive.decode(data) {
            return value
        }
        return swiftValue(stored, of: type)
    }

    /// The Swift value of a stored value of `type`.
    static func swiftValue(_ stored: PrimitiveValue, of type: AttributeType) -> Any? {
        if stored.isNull { return nil }
        switch type {
        case .integer16: return Int16(primitiveValue: stored)
        case .integer32: return Int32(primitiveValue: stored)
        case .integer64: return Int64(primitiveValue: stored)
        case .decimal: return Decimal(primitiveValue: stored)
        case .double: return Double(primitiveValue: stored)
        case .float: return Float(primitiveValue: stored)
        case .string: return String(primitiveValue: stored)
        case .boolean: return Bool(primitiveValue: stored)
        case .date: return Date(primitiveValue: stored)
        case .uuid: return UUID(primitiveValue: stored)
        case .uri: return URL(primitiveValue: stored)
        case .binary, .transformable, .composite, .objectID: return Data(primitiveValue: stored)
        case .undefined: return nil
        }
    }

    /// The Swift type an attribute of `type` takes, for messages.
    static func swiftTypeName(of type: AttributeType) -> String {
        switch type {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Bool"
        case .date: "Date"
        case .uuid: "UUID"
        case .uri: "URL"
        case .binary, .transformable, .composite, .objectID: "Data"
        case .undefined: "no value (an undefined attribute)"
        }
    }

    /// `value` stored as an attribute of `type`, or nil when it is not of a type the attribute takes.
    static func primitiveValue(_ value: Any, as type: AttributeType) -> PrimitiveValue? {
        switch type {
        case .integer16: return integer(value, fitting: Int16.self)
        case .integer32: return integer(value, fitting: Int32.self)
        case .integer64: return integer(value, fitting: Int64.self)
        case .double: return number(value).map { .real($0) }
        case .float: return number(value).map { .real(Double(Float($0))) }
        case .decimal:
            if let decimal = value as? Decimal { return decimal.primitiveValue }
            if let integer = value as? any BinaryInteger, let exact = Int64(exactly: integer) {
                return Decimal(exact).primitiveValue
            }
            if let double = value as? Double { return Decimal(double).primitiveValue }
            return nil
        case .string: return (value as? String).map { .text($0) } ?? (value as? Substring).map { .text(String($0)) }
        case .boolean: return (value as? Bool)?.primitiveValue
        case .date: return (value as? Date)?.primitiveValue
        case .uuid: return (value as? UUID)?.primitiveValue
        case .uri: return (value as? URL)?.primitiveValue
        case .binary, .transformable, .composite, .objectID: return (value as? Data)?.primitiveValue
        case .undefined: return nil
        }
    }

    private static func integer<T: FixedWidthInteger>(_ value: Any, fitting: T.Type) -> PrimitiveValue? {
        // `Int`, the common case, without the cast to an existential.
        if let integer = value as? Int { return T(exactly: integer).map { .integer(Int64($0)) } }
        guard !(value is Bool), let integer = value as? any BinaryInteger, let exact = T(exactly: integer) else {
            return nil
        }
        return .integer(Int64(exact))
    }

    private static func number(_ value: Any) -> Double? {
        if let double = value as? Double { return double }
        if let float = value as? Float { return Double(float) }
        if let integer = value as? any BinaryInteger { return Double(exactly: integer) }
        return nil
    }
}
