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
final class ModelObject: KeyedMustacheObject {
    let context: ModelContext
    /// Each entity's object, built once and shared by every template that renders the entity.
    let entities: [MustacheValue]

    init(_ context: ModelContext) {
        self.context = context
        self.entities = context.entities.map(\.mustacheValue)
    }

    enum Key: Int, CaseIterable {
        case modelName, versionName, sourceFileName, accessPrefix, modelTypeName, entities
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
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
final class EntityObject: KeyedMustacheObject {
    let context: EntityContext
    let attributes: [MustacheValue]
    let relationships: [MustacheValue]
    let toManyRelationships: [MustacheValue]
    let fetchedProperties: [MustacheValue]
    let runtime: RuntimeEntityContext?
    let fetchIndexes: [MustacheValue]
    let keyPathProperties: [MustacheValue]

    init(_ context: EntityContext) {
        self.context = context
        attributes = context.attributes.map(\.mustacheValue)
        relationships = context.relationships.map(\.mustacheValue)
        // The same relationships, sharing their objects.
        var toMany: [MustacheValue] = []
        for (index, relationship) in context.relationships.enumerated() where relationship.isToMany {
            toMany.append(relationships[index])
        }
        toManyRelationships =
            toMany.count == context.toManyRelationships.count
            ? toMany : context.toManyRelationships.map(\.mustacheValue)
        fetchedProperties = context.fetchedProperties.map(\.mustacheValue)
        runtime = context.runtime
        fetchIndexes = context.runtime?.fetchIndexes.map { .object(FetchIndexObject($0)) } ?? []
        keyPathProperties = context.runtime?.keyPathProperties.map { .object(KeyPathObject($0)) } ?? []
    }

    enum Key: Int, CaseIterable {
        case entityName, className, plainClassName, superclassName, hasParent, isAbstract, hasSubentities,
            classModifiers, codeGeneration, generatesClass, generatesProperties, classFileName, propertiesFileName,
            attributes, relationships, toManyRelationships, fetchedProperties,
            // The runtime flavor's keys.
            entityNameLiteral, parentNameLiteral, objectTypeName, uniquenessConstraintsLiteral, fetchIndexes,
            declaresFetchRequest, describeFunctionName, keyPathProperties
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
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
        default: break
        }
        guard let runtime else { return nil }
        switch known {
        case .entityNameLiteral: return .string(runtime.entityNameLiteral)
        case .parentNameLiteral: return .string(runtime.parentNameLiteral)
        case .objectTypeName: return .string(runtime.objectTypeName)
        case .uniquenessConstraintsLiteral: return .string(runtime.uniquenessConstraintsLiteral)
        case .fetchIndexes: return .array(fetchIndexes)
        case .declaresFetchRequest: return .bool(runtime.declaresFetchRequest)
        case .describeFunctionName: return .string(runtime.describeFunctionName)
        case .keyPathProperties: return .array(keyPathProperties)
        default: return nil
        }
    }
}

/// An attribute's keys, plus the runtime flavor's extra keys when present.
final class AttributeObject: KeyedMustacheObject {
    let context: AttributeContext

    init(_ context: AttributeContext) {
        self.context = context
    }

    enum Key: Int, CaseIterable {
        case `name`, swiftName, attributeType, swiftType, isOptional, isTransient, isScalar,
            // The runtime flavor's keys.
            nameLiteral, runtimeAttributeType, runtimeGetter, runtimeSetter, isDerived, isIndexed,
            defaultValueLiteral, minValueLiteral, maxValueLiteral, regularExpressionLiteral, descriptionArguments
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .name: return .string(context.name)
        case .swiftName: return .string(context.swiftName)
        case .attributeType: return .string(context.attributeType)
        case .swiftType: return .string(context.swiftType)
        case .isOptional: return .bool(context.isOptional)
        case .isTransient: return .bool(context.isTransient)
        case .isScalar: return .bool(context.isScalar)
        default: break
        }
        guard let runtime = context.runtime else { return nil }
        switch known {
        case .nameLiteral: return .string(runtime.nameLiteral)
        case .runtimeAttributeType: return .string(runtime.runtimeAttributeType)
        case .runtimeGetter: return .string(runtime.runtimeGetter)
        case .runtimeSetter: return .string(runtime.runtimeSetter)
        case .isDerived: return .bool(runtime.isDerived)
        case .isIndexed: return .bool(runtime.isIndexed)
        case .defaultValueLiteral: return .string(runtime.defaultValueLiteral)
        case .minValueLiteral: return .string(runtime.minValueLiteral)
        case .maxValueLiteral: return .string(runtime.maxValueLiteral)
        case .regularExpressionLiteral: return .string(runtime.regularExpressionLiteral)
        case .descriptionArguments: return .string(runtime.descriptionArguments)
        default: return nil
        }
    }
}

/// A relationship's keys, plus the runtime flavor's extra keys when present.
final class RelationshipObject: KeyedMustacheObject {
    let context: RelationshipContext
    /// The accessor names of a to-many relationship, made once: templates use each several times. Nil for a
    /// to-one, whose names are made if a template asks for them.
    private let accessorNames: AccessorNames?

    private struct AccessorNames {
        var addTo: MustacheValue
        var removeFrom: MustacheValue
        var insertInto: MustacheValue
        var replace: MustacheValue
    }

    init(_ context: RelationshipContext) {
        self.context = context
        accessorNames =
            context.isToMany
            ? AccessorNames(
                addTo: .string(context.addToName), removeFrom: .string(context.removeFromName),
                insertInto: .string(context.insertIntoName), replace: .string(context.replaceName))
            : nil
    }

    enum Key: Int, CaseIterable {
        case `name`, swiftName, capitalizedName, destinationEntityName, destinationClassName, inverseName, isToMany,
            isToOne, isOrdered, isOptional, swiftType, collectionType, indexSetType, addToName, removeFromName,
            insertIntoName, replaceName, addObjectSelector, removeObjectSelector, addSetSelector, removeSetSelector,
            insertObjectSelector, removeObjectAtIndexSelector, insertAtIndexesSelector, removeAtIndexesSelector,
            replaceObjectSelector, replaceAtIndexesSelector,
            // The runtime flavor's keys.
            nameLiteral, destinationNameLiteral, inverseNameLiteral, runtimeGetter, runtimeSetter, deleteRule,
            isTransient, minCount, maxCount, descriptionArguments
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
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
        case .addToName: return accessorNames?.addTo ?? .string(context.addToName)
        case .removeFromName: return accessorNames?.removeFrom ?? .string(context.removeFromName)
        case .insertIntoName: return accessorNames?.insertInto ?? .string(context.insertIntoName)
        case .replaceName: return accessorNames?.replace ?? .string(context.replaceName)
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
        default: break
        }
        guard let runtime = context.runtime else { return nil }
        switch known {
        case .nameLiteral: return .string(runtime.nameLiteral)
        case .destinationNameLiteral: return .string(runtime.destinationNameLiteral)
        case .inverseNameLiteral: return .string(runtime.inverseNameLiteral)
        case .runtimeGetter: return .string(runtime.runtimeGetter)
        case .runtimeSetter: return .string(runtime.runtimeSetter)
        case .deleteRule: return .string(runtime.deleteRule)
        case .isTransient: return .bool(runtime.isTransient)
        case .minCount: return .int(runtime.minCount)
        case .maxCount: return .int(runtime.maxCount)
        case .descriptionArguments: return .string(runtime.descriptionArguments)
        default: return nil
        }
    }
}

/// A fetched property's keys.
final class FetchedPropertyObject: KeyedMustacheObject {
    let context: FetchedPropertyContext

    init(_ context: FetchedPropertyContext) {
        self.context = context
    }

    enum Key: Int, CaseIterable {
        case `name`, swiftName, destinationClassName, destinationEntityName
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .name: return .string(context.name)
        case .swiftName: return .string(context.swiftName)
        case .destinationClassName: return .string(context.destinationClassName)
        case .destinationEntityName: return .string(context.destinationEntityName)
        }
    }
}

/// A fetch index of the runtime flavor.
final class FetchIndexObject: KeyedMustacheObject {
    let context: RuntimeFetchIndexContext

    init(_ context: RuntimeFetchIndexContext) {
        self.context = context
    }

    enum Key: Int, CaseIterable {
        case nameLiteral, elementsLiteral
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .nameLiteral: return .string(context.nameLiteral)
        case .elementsLiteral: return .string(context.elementsLiteral)
        }
    }
}

/// An entry of the runtime flavor's key-path map.
final class KeyPathObject: KeyedMustacheObject {
    let context: RuntimeKeyPathContext

    init(_ context: RuntimeKeyPathContext) {
        self.context = context
    }

    enum Key: Int, CaseIterable {
        case swiftName, nameLiteral
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .swiftName: return .string(context.swiftName)
        case .nameLiteral: return .string(context.nameLiteral)
        }
    }
}
