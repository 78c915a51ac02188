import DataModel
import DataModelStoreLayout

/// The typed values templates see: every derived fact is computed here, never in a template.
///
/// Each key is documented in `Templates/README.md`.
public struct ModelContext: Sendable {
    /// The model's name (`Company`).
    public var modelName: String
    /// The version's name (`Company 2`).
    public var versionName: String
    /// The model file's name as the user knows it (`Company.xcdatamodeld`).
    public var sourceFileName: String
    /// `public ` or empty.
    public var accessPrefix: String
    /// The `<ModelName>Model` enum name of the runtime flavor (no second `Model` suffix).
    public var modelTypeName: String
    /// Entities in the model's file order.
    public var entities: [EntityContext]
}

/// One entity as templates see it.
public struct EntityContext: Sendable {
    /// The entity's name in the model.
    public var entityName: String
    /// The Swift class name (from `representedClassName`, module prefix stripped), escaped when needed.
    public var className: String
    /// The class name without escaping, for `@objc(…)` and file names.
    public var plainClassName: String
    /// The superclass: the parent entity's class, or the flavor's base class.
    public var superclassName: String
    /// Whether the entity has a parent entity.
    public var hasParent: Bool
    /// Whether the entity is abstract.
    public var isAbstract: Bool
    /// Whether other entities inherit from this one.
    public var hasSubentities: Bool
    /// `open ` for classes with sub-entities in the runtime flavor, else `public final ` or `final ` (runtime)
    /// or the access prefix (coredata).
    public var classModifiers: String
    /// `class`, `category` or `manual`.
    public var codeGeneration: String
    /// Whether this run writes the class file.
    public var generatesClass: Bool
    /// Whether this run writes the properties file.
    public var generatesProperties: Bool
    /// The class file's name (`BusinessEntity+CoreDataClass.swift`).
    public var classFileName: String
    /// The properties file's name (`BusinessEntity+CoreDataProperties.swift`).
    public var propertiesFileName: String
    /// Stored and transient attributes, sorted by name (Xcode's order).
    public var attributes: [AttributeContext]
    /// Relationships sorted by name.
    public var relationships: [RelationshipContext]
    /// To-many relationships sorted by name (each gets a block of accessors).
    public var toManyRelationships: [RelationshipContext]
    /// Fetched properties sorted by name.
    public var fetchedProperties: [FetchedPropertyContext]
    /// Keys of the `runtime` flavor (see `RuntimeTemplateContext.swift`).
    public var runtime: RuntimeEntityContext? = nil
}

/// One attribute as templates see it.
public struct AttributeContext: Sendable {
    /// The name in the model (used for storage, key paths and predicates).
    public var name: String
    /// The Swift property name, escaped (`` `default` ``, `context_` in the runtime flavor).
    public var swiftName: String
    /// The model's attribute type (`Integer 16`).
    public var attributeType: String
    /// The Swift type of the property in this flavor, including any `?` (`Int16`, `NSNumber?`, `String?`).
    public var swiftType: String
    /// Whether the model marks it optional.
    public var isOptional: Bool
    /// Whether it is transient.
    public var isTransient: Bool
    /// Whether it uses a scalar Swift type.
    public var isScalar: Bool
    /// Keys of the `runtime` flavor.
    public var runtime: RuntimeAttributeContext? = nil
}

/// One relationship as templates see it.
public struct RelationshipContext: Sendable {
    /// The name in the model.
    public var name: String
    /// The Swift property name, escaped.
    public var swiftName: String
    /// The name with its first letter upper-cased, for accessor names (`Departments`).
    public var capitalizedName: String
    /// The destination entity's name.
    public var destinationEntityName: String
    /// The destination's Swift class name.
    public var destinationClassName: String
    /// The inverse relationship's name, or empty.
    public var inverseName: String
    /// Whether it is to-many.
    public var isToMany: Bool
    /// Whether it is an ordered to-many.
    public var isOrdered: Bool
    /// Whether the model marks it optional.
    public var isOptional: Bool
    /// The Swift type of the property in this flavor (`NSSet?`, `Set<DepartmentEntity>`, `BusinessEntity?`).
    public var swiftType: String
    /// The type of a collection argument of the bulk accessors (`NSSet`, `NSOrderedSet`, `some Sequence<T>`).
    public var collectionType: String
    /// The index-set type of the ordered accessors (`NSIndexSet`, `IndexSet`).
    public var indexSetType: String
    /// Keys of the `runtime` flavor.
    public var runtime: RuntimeRelationshipContext? = nil

    // Accessor names and selectors are derived from `capitalizedName` when a template asks for them.

    /// Accessor names.
    public var addToName: String { StringConcat.concat("addTo", capitalizedName) }
    public var removeFromName: String { StringConcat.concat("removeFrom", capitalizedName) }
    public var insertIntoName: String { StringConcat.concat("insertInto", capitalizedName) }
    public var replaceName: String { StringConcat.concat("replace", capitalizedName) }
    /// Objective-C selectors of the Core Data accessors.
    public var addObjectSelector: String { StringConcat.concat("add", capitalizedName, "Object:") }
    public var removeObjectSelector: String { StringConcat.concat("remove", capitalizedName, "Object:") }
    public var addSetSelector: String { StringConcat.concat("add", capitalizedName, ":") }
    public var removeSetSelector: String { StringConcat.concat("remove", capitalizedName, ":") }
    public var insertObjectSelector: String { StringConcat.concat("insertObject:in", capitalizedName, "AtIndex:") }
    public var removeObjectAtIndexSelector: String {
        StringConcat.concat("removeObjectFrom", capitalizedName, "AtIndex:")
    }
    public var insertAtIndexesSelector: String { StringConcat.concat("insert", capitalizedName, ":atIndexes:") }
    public var removeAtIndexesSelector: String { StringConcat.concat("remove", capitalizedName, "AtIndexes:") }
    public var replaceObjectSelector: String {
        StringConcat.concat("replaceObjectIn", capitalizedName, "AtIndex:withObject:")
    }
    public var replaceAtIndexesSelector: String {
        StringConcat.concat("replace", capitalizedName, "AtIndexes:with", capitalizedName, ":")
    }
}

/// One fetched property as templates see it.
public struct FetchedPropertyContext: Sendable {
    /// The name in the model.
    public var name: String
    /// The Swift property name, escaped.
    public var swiftName: String
    /// The fetched entity's class name.
    public var destinationClassName: String
    /// The fetched entity's name.
    public var destinationEntityName: String
}

/// Builds ``ModelContext`` values from the IR.
public struct TemplateContextBuilder: Sendable {
    /// The options of the run.
    public var options: GenerationOptions

    /// Creates a builder.
    public init(options: GenerationOptions) {
        self.options = options
    }

    /// The context for `model`, whose file the user knows as `sourceFileName`.
    public func context(for model: ObjectModel, sourceFileName: String) -> ModelContext {
        let subentities = model.subentityNames()
        let generatedClassNames = Set(model.entities.map(\.className))
        var classNames: [String: String] = [:]
        for entity in model.entities where classNames[entity.name] == nil {
            classNames[entity.name] = className(of: entity)
        }
        let typeMapper = SwiftTypeMapper(flavor: options.flavor, generatedClassNames: generatedClassNames)
        var entities = model.entities.map { entity in
            entityContext(
                entity, classNames: classNames, hasSubentities: !(subentities[entity.name] ?? []).isEmpty,
                typeMapper: typeMapper)
        }
        if options.flavor == .runtime { RuntimeContextBuilder(model: model).enrich(&entities) }
        let typeName = model.name.hasSuffix("Model") ? model.name : model.name + "Model"
        return ModelContext(
            modelName: model.name, versionName: model.versionName,
            sourceFileName: model.name + ".xcdatamodeld", accessPrefix: options.access.prefix,
            modelTypeName: SwiftIdentifier.typeName(RuntimeContextBuilder.typeIdentifier(typeName)), entities: entities)
    }

    private func entityContext(
        _ entity: Entity, classNames: [String: String], hasSubentities: Bool, typeMapper: SwiftTypeMapper
    ) -> EntityContext {
        let flavor = options.flavor
        let plainClass = className(of: entity)
        let parentClass = entity.parentEntity.flatMap { classNames[$0] }
        let base = flavor == .coredata ? "NSManagedObject" : "ManagedObject"
        let modifiers: String
        switch flavor {
        case .coredata: modifiers = options.access.prefix
        case .runtime:
            modifiers = hasSubentities ? (options.access == .public ? "open " : "") : options.access.prefix + "final "
        }
        let generatesClass: Bool
        let generatesProperties: Bool
        switch entity.codeGenerationType {
        case .class: (generatesClass, generatesProperties) = (true, true)
        case .category: (generatesClass, generatesProperties) = (false, true)
        case .manual: (generatesClass, generatesProperties) = (options.includeManual, options.includeManual)
        }
        let suffixes = flavor == .coredata ? ("+CoreDataClass", "+CoreDataProperties") : ("", "+Properties")
        // Read through buffers: an `Attribute` is large, and indexing the array would copy each one.
        let attributes = entity.attributes.withUnsafeBufferPointer { buffer in
            Self.sortedIndicesByName(entity.attributes, name: \.name).map {
                attributeContext(buffer[$0], typeMapper: typeMapper)
            }
        }
        let relationships = entity.relationships.withUnsafeBufferPointer { buffer in
            Self.sortedIndicesByName(entity.relationships, name: \.name).map {
                relationshipContext(buffer[$0], classNames: classNames, typeMapper: typeMapper)
            }
        }
        let fetched = Self.sortedByName(entity.fetchedProperties, name: \.name).map { property in
            let destination = property.fetchRequest?.entity ?? ""
            return FetchedPropertyContext(
                name: property.name, swiftName: propertyName(property.name),
                destinationClassName: SwiftIdentifier.typeName(classNames[destination] ?? destination),
                destinationEntityName: destination)
        }
        return EntityContext(
            entityName: entity.name, className: SwiftIdentifier.typeName(plainClass), plainClassName: plainClass,
            superclassName: parentClass.map(SwiftIdentifier.typeName) ?? base, hasParent: parentClass != nil,
            isAbstract: entity.isAbstract, hasSubentities: hasSubentities, classModifiers: modifiers,
            codeGeneration: entity.codeGenerationType.rawValue, generatesClass: generatesClass,
            generatesProperties: generatesProperties, classFileName: plainClass + suffixes.0 + ".swift",
            propertiesFileName: plainClass + suffixes.1 + ".swift", attributes: attributes,
            relationships: relationships, toManyRelationships: relationships.filter(\.isToMany),
            fetchedProperties: fetched)
    }

    /// The entity's class name; in the runtime flavor `NSManagedObject` (older Xcode's "no
    /// custom class") means the entity name.
    private func className(of entity: Entity) -> String {
        options.flavor == .runtime ? RuntimeContextBuilder.runtimeClassName(of: entity) : entity.className
    }

    /// `items` in the order of their names (Unicode scalar order), moving indices rather than large values.
    static func sortedByName<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
        sortedIndicesByName(items, name: name).map { items[$0] }
    }

    /// The indices of `items` in the order of their names (Unicode scalar order).
    static func sortedIndicesByName<Item>(_ items: [Item], name: (Item) -> String) -> [Int] {
        guard items.count > 1 else { return Array(items.indices) }
        let names = items.map(name)
        return names.indices.sorted { precedesInUTF8Order(names[$0], names[$1]) }
    }

    /// Whether `first` comes before `second` in UTF-8 byte order, which is Unicode scalar order.
    ///
    /// Native strings are compared in place, byte by byte, without copying their bytes out.
    static func precedesInUTF8Order(_ first: String, _ second: String) -> Bool {
        let inPlace = first.utf8.withContiguousStorageIfAvailable { firstBytes in
            second.utf8.withContiguousStorageIfAvailable { secondBytes in
                let count = min(firstBytes.count, secondBytes.count)
                var index = 0
                while index < count {
                    let (a, b) = (firstBytes[index], secondBytes[index])
                    if a != b { return a < b }
                    index += 1
                }
                return firstBytes.count < secondBytes.count
            }
        }
        if let inPlace, let result = inPlace { return result }
        return first.utf8.lexicographicallyPrecedes(second.utf8)
    }

    private func propertyName(_ name: String) -> String {
        switch options.flavor {
        case .coredata: SwiftNaming.escaped(name)
        case .runtime: SwiftNaming.escaped(SwiftNaming.runtimePropertyName(name))
        }
    }

    private func attributeContext(_ attribute: Attribute, typeMapper: SwiftTypeMapper) -> AttributeContext {
        let type = typeMapper.type(of: attribute)
        return AttributeContext(
            name: attribute.name, swiftName: propertyName(attribute.name), attributeType: attribute.type.rawValue,
            swiftType: type.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            isScalar: type.isScalar,
            runtime: options.flavor == .runtime
                ? RuntimeContextBuilder.attributeContext(attribute, usesCodable: type.usesCodable) : nil)
    }

    private func relationshipContext(
        _ relationship: Relationship, classNames: [String: String], typeMapper: SwiftTypeMapper
    ) -> RelationshipContext {
        let destinationClass = SwiftIdentifier.typeName(
            classNames[relationship.destinationEntity] ?? relationship.destinationEntity)
        let capitalized = SwiftNaming.capitalized(relationship.name)
        let types = typeMapper.types(of: relationship, destinationClass: destinationClass)
        return RelationshipContext(
            name: relationship.name, swiftName: propertyName(relationship.name), capitalizedName: capitalized,
            destinationEntityName: relationship.destinationEntity, destinationClassName: destinationClass,
            inverseName: relationship.inverseName ?? "", isToMany: relationship.isToMany,
            isOrdered: relationship.isToMany && relationship.isOrdered, isOptional: relationship.isOptional,
            swiftType: types.property, collectionType: types.collection, indexSetType: types.indexSet,
            runtime: options.flavor == .runtime ? RuntimeContextBuilder.relationshipContext(relationship) : nil)
    }
}

/// Escaping for names used as types.
enum SwiftIdentifier {
    /// A type name, in backticks when it is a keyword.
    static func typeName(_ name: String) -> String { SwiftNaming.escaped(name) }
}
