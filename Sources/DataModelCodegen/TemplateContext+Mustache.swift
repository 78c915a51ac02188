import Mustache

// Template contexts are Mustache objects: a template's lookups are answered by a `switch` over the key,
// and only the keys a template uses are ever computed, so no dictionary is built per entity or property.

extension ModelContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(ModelObject(self)) }
}

extension EntityContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(EntityObject(self)) }
}

extension AttributeContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(AttributeObject(self)) }
}

extension RelationshipContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(RelationshipObject(self)) }
}

extension FetchedPropertyContext: MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(FetchedPropertyObject(self)) }
}

/// The model's keys.
final class ModelObject: MustacheObject {
    let context: ModelContext
    /// Each entity's object, built once and shared by every template that renders the entity.
    let entities: [MustacheValue]

    init(_ context: ModelContext) {
        self.context = context
        self.entities = context.entities.map(\.mustacheValue)
    }

    private enum Key: Int, CaseIterable {
        case modelName, versionName, sourceFileName, accessPrefix, modelTypeName, entities
    }

    private static let keys: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ("\($0)", $0) })

    func mustacheValue(forKey key: String) -> MustacheValue? {
        guard let known = Self.keys[key] else { return nil }
        switch known {
        case .modelName: return .string(context.modelName)
        case .versionName: return .string(context.versionName)
        case .sourceFileName: return .string(context.sourceFileName)
        case .accessPrefix: return .string(context.accessPrefix)
        case .modelTypeName: return .string(context.modelTypeName)
        case .entities: return .array(entities)
        }
    }
}

/// An entity's keys, plus the runtime flavor's extra keys when present.
final class EntityObject: MustacheObject {
    let context: EntityContext
    let attributes: [MustacheValue]
    let relationships: [MustacheValue]
    let toManyRelationships: [MustacheValue]
    let fetchedProperties: [MustacheValue]
    let extra: [String: MustacheValue]

    init(_ context: EntityContext) {
        self.context = context
        attributes = context.attributes.map(\.mustacheValue)
        relationships = context.relationships.map(\.mustacheValue)
        toManyRelationships = context.toManyRelationships.map(\.mustacheValue)
        fetchedProperties = context.fetchedProperties.map(\.mustacheValue)
        extra = context.runtime?.mustacheEntries ?? [:]
    }

    private enum Key: Int, CaseIterable {
        case entityName, className, plainClassName, superclassName, hasParent, isAbstract, hasSubentities,
            classModifiers, codeGeneration, generatesClass, generatesProperties, classFileName, propertiesFileName,
            attributes, relationships, toManyRelationships, fetchedProperties
    }

    private static let keys: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ("\($0)", $0) })

    func mustacheValue(forKey key: String) -> MustacheValue? {
        guard let known = Self.keys[key] else { return extra[key] }
        switch known {
        case .entityName: return .string(context.entityName)
        case .className: return .string(context.className)
        case .plainClassName: return .string(context.plainClassName)
        case .superclassName: return .string(context.superclassName)
        case .hasParent: return .bool(context.hasParent)
        case .isAbstract: return .bool(context.isAbstract)
        case .hasSubentities: return .bool(context.hasSubentities)
        case .classModifiers: return .string(context.classModifiers)
        case .codeGeneration: return .string(context.codeGeneration)
        case .generatesClass: return .bool(context.generatesClass)
        case .generatesProperties: return .bool(context.generatesProperties)
        case .classFileName: return .string(context.classFileName)
        case .propertiesFileName: return .string(context.propertiesFileName)
        case .attributes: return .array(attributes)
        case .relationships: return .array(relationships)
        case .toManyRelationships: return .array(toManyRelationships)
        case .fetchedProperties: return .array(fetchedProperties)
        }
    }
}

/// An attribute's keys, plus the runtime flavor's extra keys when present.
final class AttributeObject: MustacheObject {
    let context: AttributeContext
    let extra: [String: MustacheValue]

    init(_ context: AttributeContext) {
        self.context = context
        extra = context.runtime?.mustacheEntries ?? [:]
    }

    private enum Key: Int, CaseIterable {
        case `name`, swiftName, attributeType, swiftType, isOptional, isTransient, isScalar
    }

    private static let keys: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ("\($0)", $0) })

    func mustacheValue(forKey key: String) -> MustacheValue? {
        guard let known = Self.keys[key] else { return extra[key] }
        switch known {
        case .name: return .string(context.name)
        case .swiftName: return .string(context.swiftName)
        case .attributeType: return .string(context.attributeType)
        case .swiftType: return .string(context.swiftType)
        case .isOptional: return .bool(context.isOptional)
        case .isTransient: return .bool(context.isTransient)
        case .isScalar: return .bool(context.isScalar)
        }
    }
}

/// A relationship's keys, plus the runtime flavor's extra keys when present.
final class RelationshipObject: MustacheObject {
    let context: RelationshipContext
    let extra: [String: MustacheValue]

    init(_ context: RelationshipContext) {
        self.context = context
        extra = context.runtime?.mustacheEntries ?? [:]
    }

    private enum Key: Int, CaseIterable {
        case `name`, swiftName, capitalizedName, destinationEntityName, destinationClassName, inverseName, isToMany,
            isToOne, isOrdered, isOptional, swiftType, collectionType, indexSetType, addToName, removeFromName,
            insertIntoName, replaceName, addObjectSelector, removeObjectSelector, addSetSelector, removeSetSelector,
            insertObjectSelector, removeObjectAtIndexSelector, insertAtIndexesSelector, removeAtIndexesSelector,
            replaceObjectSelector, replaceAtIndexesSelector
    }

    private static let keys: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ("\($0)", $0) })

    func mustacheValue(forKey key: String) -> MustacheValue? {
        guard let known = Self.keys[key] else { return extra[key] }
        switch known {
        case .name: return .string(context.name)
        case .swiftName: return .string(context.swiftName)
        case .capitalizedName: return .string(context.capitalizedName)
        case .destinationEntityName: return .string(context.destinationEntityName)
        case .destinationClassName: return .string(context.destinationClassName)
        case .inverseName: return .string(context.inverseName)
        case .isToMany: return .bool(context.isToMany)
        case .isToOne: return .bool(!context.isToMany)
        case .isOrdered: return .bool(context.isOrdered)
        case .isOptional: return .bool(context.isOptional)
        case .swiftType: return .string(context.swiftType)
        case .collectionType: return .string(context.collectionType)
        case .indexSetType: return .string(context.indexSetType)
        case .addToName: return .string(context.addToName)
        case .removeFromName: return .string(context.removeFromName)
        case .insertIntoName: return .string(context.insertIntoName)
        case .replaceName: return .string(context.replaceName)
        case .addObjectSelector: return .string(context.addObjectSelector)
        case .removeObjectSelector: return .string(context.removeObjectSelector)
        case .addSetSelector: return .string(context.addSetSelector)
        case .removeSetSelector: return .string(context.removeSetSelector)
        case .insertObjectSelector: return .string(context.insertObjectSelector)
        case .removeObjectAtIndexSelector: return .string(context.removeObjectAtIndexSelector)
        case .insertAtIndexesSelector: return .string(context.insertAtIndexesSelector)
        case .removeAtIndexesSelector: return .string(context.removeAtIndexesSelector)
        case .replaceObjectSelector: return .string(context.replaceObjectSelector)
        case .replaceAtIndexesSelector: return .string(context.replaceAtIndexesSelector)
        }
    }
}

/// A fetched property's keys.
final class FetchedPropertyObject: MustacheObject {
    let context: FetchedPropertyContext

    init(_ context: FetchedPropertyContext) {
        self.context = context
    }

    private enum Key: Int, CaseIterable {
        case `name`, swiftName, destinationClassName, destinationEntityName
    }

    private static let keys: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ("\($0)", $0) })

    func mustacheValue(forKey key: String) -> MustacheValue? {
        guard let known = Self.keys[key] else { return nil }
        switch known {
        case .name: return .string(context.name)
        case .swiftName: return .string(context.swiftName)
        case .destinationClassName: return .string(context.destinationClassName)
        case .destinationEntityName: return .string(context.destinationEntityName)
        }
    }
}
