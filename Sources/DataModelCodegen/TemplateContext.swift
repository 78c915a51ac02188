import DataModel
import DataModelNaming
import DataModelStoreLayout
import Mustache

/// The typed values templates see: every derived fact is computed here, never in a template.
///
/// Each key is documented in `Templates/README.md`. Entities and properties are immutable objects that
/// templates read directly (see `TemplateContext+Mustache.swift`): each is built once and shared by every
/// template, on any thread. Keys most templates use are stored; keys a template uses once per file (the
/// runtime model's description arguments, relationship types, accessor names) are derived when asked for.
public struct ModelContext: Sendable {
    /// The model's name (`Company`).
    public var modelName: String
    /// The version's name (`Company 2`).
    public var versionName: String
    /// The model file's name as the user knows it (`Company.xcdatamodeld`).
    public var sourceFileName: String
    /// `public ` or empty.
    public var accessPrefix: String
    /// The `<ModelName>Model` enum name of the runtime flavor (no second `Model` suffix), or the name
    /// `--model-type-name` gives.
    public var modelTypeName: String
    /// The runtime flavor's model file (`Company+DataModel.swift`).
    public var modelFileName: String
    /// Entities in the model's file order.
    public var entities: [EntityContext]
    /// The files to render and their names (``ModelNaming/outputFiles(modelName:entities:flavor:includeManual:)``,
    /// the names the plugins predict), sorted by name.
    public var outputFiles: [ModelNaming.OutputFile] = []
    /// The bundle's versions before this one, oldest first (runtime flavor: described for store migration).
    public var earlierVersions: [ModelContext] = []
    /// The model's fetch request templates whose entity exists, sorted by name.
    public var fetchRequestTemplates: [FetchRequestTemplateContext] = []
}

/// One entity as templates see it.
public final class EntityContext: Sendable {
    /// The entity's name in the model.
    public let entityName: String
    /// The Swift class name (from `representedClassName`, module prefix stripped), escaped when needed.
    public let className: String
    /// The class name without escaping, for `@objc(…)` and file names.
    public let plainClassName: String
    /// The superclass: the parent entity's class, or the flavor's base class.
    public let superclassName: String
    /// Whether the entity has a parent entity.
    public let hasParent: Bool
    /// Whether the entity is abstract.
    public let isAbstract: Bool
    /// Whether other entities inherit from this one.
    public let hasSubentities: Bool
    /// `open ` for classes with sub-entities in the runtime flavor, else `public final ` or `final ` (runtime)
    /// or the access prefix (coredata).
    public let classModifiers: String
    /// `class`, `category` or `manual`.
    public let codeGeneration: String
    /// Whether the entity's codegen is Manual/None: its files (written with `--include-manual`, like Xcode's
    /// "Create NSManagedObject Subclass") are the user's to edit, so they say so instead of "Do not edit", and
    /// `generate` never overwrites them (``ModelNaming/CodeGeneration/filesAreUserOwned``, the one place that decides).
    public var isUserOwned: Bool { ModelNaming.CodeGeneration(attributeValue: codeGeneration).filesAreUserOwned }
    /// Whether this run writes the class file.
    public let generatesClass: Bool
    /// Whether this run writes the properties file.
    public let generatesProperties: Bool
    /// The class file's name (`BusinessEntity+CoreDataClass.swift`).
    public let classFileName: String
    /// The properties file's name (`BusinessEntity+CoreDataProperties.swift`).
    public let propertiesFileName: String
    /// Stored and transient attributes, sorted by name (Xcode's order).
    public let attributes: [AttributeContext]
    /// Relationships sorted by name.
    public let relationships: [RelationshipContext]
    /// Fetched properties sorted by name.
    public let fetchedProperties: [FetchedPropertyContext]
    /// The model's fetch request templates of this entity, sorted by name (a typed function each).
    public let fetchRequestTemplates: [FetchRequestTemplateContext]
    /// Keys of the `runtime` flavor (see `RuntimeTemplateContext.swift`).
    public let runtime: RuntimeEntityContext?
    /// The fields of the generated class (runtime flavor, see ``FieldPlanner``), or `nil`.
    let fields: EntityFields?

    /// The lists as template values, made once: every template rendering the entity shares them.
    let attributeValues: [MustacheValue]
    let relationshipValues: [MustacheValue]
    let toManyRelationshipValues: [MustacheValue]
    let fetchedPropertyValues: [MustacheValue]

    /// To-many relationships sorted by name (each gets a block of accessors).
    public var toManyRelationships: [RelationshipContext] { relationships.filter(\.isToMany) }

    init(_ parts: EntityParts, runtime: RuntimeEntityContext?) {
        entityName = parts.entityName
        className = parts.className
        plainClassName = parts.plainClassName
        superclassName = parts.superclassName
        hasParent = parts.hasParent
        isAbstract = parts.isAbstract
        hasSubentities = parts.hasSubentities
        classModifiers = parts.classModifiers
        codeGeneration = parts.codeGeneration
        generatesClass = parts.generatesClass
        generatesProperties = parts.generatesProperties
        classFileName = parts.classFileName
        propertiesFileName = parts.propertiesFileName
        attributes = parts.attributes
        relationships = parts.relationships
        fetchedProperties = parts.fetchedProperties
        fetchRequestTemplates = parts.fetchRequestTemplates
        self.runtime = runtime
        fields = parts.fields
        attributeValues = parts.attributes.map { .object($0) }
        relationshipValues = parts.relationships.map { .object($0) }
        var toMany: [MustacheValue] = []
        for (index, relationship) in parts.relationships.enumerated() where relationship.isToMany {
            toMany.append(relationshipValues[index])
        }
        toManyRelationshipValues = toMany
        fetchedPropertyValues = parts.fetchedProperties.map { .object($0) }
    }
}

/// An entity's keys before its runtime keys, which need its ancestors' parts, are known.
struct EntityParts {
    var entityName: String
    var className: String
    var plainClassName: String
    var superclassName: String
    var hasParent: Bool
    var isAbstract: Bool
    var hasSubentities: Bool
    var classModifiers: String
    var codeGeneration: String
    var generatesClass: Bool
    var generatesProperties: Bool
    var classFileName: String
    var propertiesFileName: String
    var attributes: [AttributeContext]
    var relationships: [RelationshipContext]
    var fetchedProperties: [FetchedPropertyContext]
    var fetchRequestTemplates: [FetchRequestTemplateContext] = []
    /// The fields of the generated class, when it keeps fetched rows in fields (``FieldPlanner``).
    var fields: EntityFields?
}

/// One attribute as templates see it.
public final class AttributeContext: Sendable {
    /// The name in the model (used for storage, key paths and predicates).
    public let name: String
    /// The Swift property name, escaped (`` `default` ``, `context_` in the runtime flavor).
    public let swiftName: String
    /// The model's attribute type (`Integer 16`).
    public let attributeType: String
    /// The Swift type of the property in this flavor, including any `?` (`Int16`, `NSNumber?`, `String?`).
    public let swiftType: String
    /// Whether the model marks it optional.
    public let isOptional: Bool
    /// Whether it is transient.
    public let isTransient: Bool
    /// Whether it uses a scalar Swift type.
    public let isScalar: Bool
    /// Keys of the `runtime` flavor.
    public let runtime: RuntimeAttributeContext?
    /// The field the generated class keeps the attribute's fetched value in (runtime flavor; see ``FieldPlanner``).
    public let field: FieldContext?

    init(
        name: String, swiftName: String, attributeType: String, swiftType: String, isOptional: Bool,
        isTransient: Bool, isScalar: Bool, runtime: RuntimeAttributeContext?, field: FieldContext? = nil
    ) {
        self.name = name
        self.swiftName = swiftName
        self.attributeType = attributeType
        self.swiftType = swiftType
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isScalar = isScalar
        self.runtime = runtime
        self.field = field
    }

    /// This attribute with `field`.
    func with(field: FieldContext?) -> AttributeContext {
        AttributeContext(
            name: name, swiftName: swiftName, attributeType: attributeType, swiftType: swiftType,
            isOptional: isOptional, isTransient: isTransient, isScalar: isScalar, runtime: runtime, field: field)
    }

    /// Whether the generated getter reads the field while the object holds its fetched row: a field, read through
    /// the runtime's `value(for:)` (a `Codable` value is decoded from the values).
    public var readsField: Bool { field != nil && runtime?.usesCodable == false }

    /// The getter's expression for the field (`fieldValue(_nameField)`, `fieldValue(_ageField, nullBit: 0)` for a
    /// field with a null bit, with `?? .emptyValue` for a non-optional property).
    public var fieldValue: String {
        guard let field else { return "" }
        return "fieldValue(" + field.fieldName + field.nullBitArgument + ")"
            + (swiftType.hasSuffix("?") ? "" : " ?? .emptyValue")
    }
}

/// One relationship as templates see it.
public final class RelationshipContext: Sendable {
    /// The name in the model.
    public let name: String
    /// The Swift property name, escaped.
    public let swiftName: String
    /// The name with its first letter upper-cased, for accessor names (`Departments`).
    public let capitalizedName: String
    /// The destination entity's name.
    public let destinationEntityName: String
    /// The destination's Swift class name.
    public let destinationClassName: String
    /// The inverse relationship's name, or empty.
    public let inverseName: String
    /// Whether it is to-many.
    public let isToMany: Bool
    /// Whether it is an ordered to-many.
    public let isOrdered: Bool
    /// Whether the model marks it optional.
    public let isOptional: Bool
    /// Keys of the `runtime` flavor.
    public let runtime: RuntimeRelationshipContext?
    /// The flavor's collection type names, shared by the model's relationships.
    let typeNames: RelationshipTypeNames
    /// The field the generated class keeps a fetched to-one's destination key in (runtime flavor).
    public let field: FieldContext?

    init(
        name: String, swiftName: String, destinationEntityName: String, destinationClassName: String,
        inverseName: String, isToMany: Bool, isOrdered: Bool, isOptional: Bool, typeNames: RelationshipTypeNames,
        runtime: RuntimeRelationshipContext?, field: FieldContext? = nil
    ) {
        self.field = field
        self.name = name
        self.swiftName = swiftName
        self.capitalizedName = ModelNaming.capitalized(name)
        self.destinationEntityName = destinationEntityName
        self.destinationClassName = destinationClassName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.typeNames = typeNames
        self.runtime = runtime
    }

    /// The getter's expression for the field (`fieldObject(relationship: 0, _businessField, nullBit: 2)`).
    public var fieldObject: String {
        guard let field else { return "" }
        return "fieldObject(relationship: \(field.fieldIndex), " + field.fieldName + field.nullBitArgument + ")"
    }

    /// This relationship with `field`.
    func with(field: FieldContext?) -> RelationshipContext {
        RelationshipContext(
            name: name, swiftName: swiftName, destinationEntityName: destinationEntityName,
            destinationClassName: destinationClassName, inverseName: inverseName, isToMany: isToMany,
            isOrdered: isOrdered, isOptional: isOptional, typeNames: typeNames, runtime: runtime, field: field)
    }

    // Types, accessor names and selectors are derived when a template asks for them: the default templates
    // use each at most a few times per file (and compose accessor names from `capitalizedName`).

    /// The Swift type of the property in this flavor (`NSSet?`, `Set<DepartmentEntity>`, `BusinessEntity?`).
    public var swiftType: String {
        typeNames.propertyType(isToMany: isToMany, isOrdered: isOrdered, destination: destinationClassName)
    }
    /// The type of a collection argument of the bulk accessors (`NSSet`, `NSOrderedSet`, `some Sequence<T>`).
    public var collectionType: String {
        typeNames.collectionType(isToMany: isToMany, isOrdered: isOrdered, destination: destinationClassName)
    }
    /// The index-set type of the ordered accessors (`NSIndexSet`, `IndexSet`).
    public var indexSetType: String { isToMany ? typeNames.indexSet : "" }

    /// Accessor names.
    public var addToName: String { accessorName(.addTo) }
    public var removeFromName: String { accessorName(.removeFrom) }
    public var insertIntoName: String { accessorName(.insertInto) }
    public var replaceName: String { accessorName(.replace) }
    /// Objective-C selectors of the Core Data accessors.
    public var addObjectSelector: String { accessorName(.addObjectSelector) }
    public var removeObjectSelector: String { accessorName(.removeObjectSelector) }
    public var addSetSelector: String { accessorName(.addSetSelector) }
    public var removeSetSelector: String { accessorName(.removeSetSelector) }
    public var insertObjectSelector: String { accessorName(.insertObjectSelector) }
    public var removeObjectAtIndexSelector: String { accessorName(.removeObjectAtIndexSelector) }
    public var insertAtIndexesSelector: String { accessorName(.insertAtIndexesSelector) }
    public var removeAtIndexesSelector: String { accessorName(.removeAtIndexesSelector) }
    public var replaceObjectSelector: String { accessorName(.replaceObjectSelector) }
    public var replaceAtIndexesSelector: String { accessorName(.replaceAtIndexesSelector) }

    private func accessorName(_ accessor: ModelNaming.Accessor) -> String {
        accessor.name(capitalizedName: capitalizedName)
    }

    /// Writes the accessor name or selector that `key` names, as ``ModelNaming/Accessor`` spells it.
    func writeAccessorName(_ key: Key, to output: inout MustacheOutputBuffer) {
        guard let accessor = key.accessor else { return }
        let spelling = accessor.spelling
        output.append(spelling.prefix)
        output.append(capitalizedName)
        output.append(spelling.suffix)
        if spelling.repeatsName {
            output.append(capitalizedName)
            output.append(spelling.finalSuffix)
        }
    }
}

/// One fetched property as templates see it.
public final class FetchedPropertyContext: Sendable {
    /// The name in the model.
    public let name: String
    /// The Swift property name, escaped.
    public let swiftName: String
    /// The fetched entity's class name.
    public let destinationClassName: String
    /// The fetched entity's name.
    public let destinationEntityName: String
    /// The fetch request's predicate as written, or empty.
    public let predicateFormat: String
    /// The property's user info, in file order.
    let userInfo: [(key: String, value: String)]

    init(
        name: String, swiftName: String, destinationClassName: String, destinationEntityName: String,
        predicateFormat: String = "", userInfo: [(key: String, value: String)] = []
    ) {
        self.name = name
        self.swiftName = swiftName
        self.destinationClassName = destinationClassName
        self.destinationEntityName = destinationEntityName
        self.predicateFormat = predicateFormat
        self.userInfo = userInfo
    }

    /// The predicate for a `///` comment: on one line, or `every object`.
    public var predicateComment: String {
        predicateFormat.isEmpty
            ? "every object"
            : "`" + predicateFormat.split(whereSeparator: \.isNewline).joined(separator: " ") + "`"
    }

    /// The arguments of the runtime's `FetchedPropertyDescription(…)`.
    public var descriptionArguments: String {
        var arguments =
            "name: " + RuntimeContextBuilder.literal(name) + ", destinationEntityName: "
            + RuntimeContextBuilder.literal(destinationEntityName)
        if !predicateFormat.isEmpty {
            arguments += ", predicateFormat: " + RuntimeContextBuilder.literal(predicateFormat)
        }
        if !userInfo.isEmpty {
            var seen: Set<String> = []
            let entries = userInfo.filter { seen.insert($0.key).inserted }
            arguments +=
                ", userInfo: ["
                + entries.map {
                    RuntimeContextBuilder.literal($0.key) + ": " + RuntimeContextBuilder.literal($0.value)
                }.joined(separator: ", ") + "]"
        }
        return arguments
    }
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
        let names = EntityNames(model: model, flavor: options.flavor)
        let typeMapper = SwiftTypeMapper(
            flavor: options.flavor, generatedClassNames: Set(model.entities.map(\.className)),
            xcodeCompatible: options.xcodeCompatible)
        var parentNames: Set<String> = []
        for entity in model.entities {
            if let parent = entity.parentEntity { parentNames.insert(parent) }
        }
        let templates =
            model.fetchRequests.isEmpty
            ? []
            : FetchRequestTemplateBuilder(model: model, names: names, typeMapper: typeMapper, flavor: options.flavor)
                .templates()
        // Read through a buffer: an `Entity` is large, and indexing the array would copy each one.
        var parts = model.entities.withUnsafeBufferPointer { entities in
            entities.indices.map { index in
                entityParts(
                    entities[index], index: index, names: names,
                    hasSubentities: parentNames.contains(entities[index].name), typeMapper: typeMapper)
            }
        }
        for template in templates {
            if let index = names.firstIndex[template.entityName] { parts[index].fetchRequestTemplates.append(template) }
        }
        let entities: [EntityContext]
        if options.flavor == .runtime {
            FieldPlanner(names: names, parents: model.entities.map(\.parentEntity), parentNames: parentNames)
                .assignFields(to: &parts)
            let runtime = RuntimeContextBuilder(model: model, names: names).entityContexts(parts)
            entities = parts.indices.map { EntityContext(parts[$0], runtime: runtime[$0]) }
        } else {
            entities = parts.map { EntityContext($0, runtime: nil) }
        }
        return ModelContext(
            modelName: model.name, versionName: model.versionName,
            sourceFileName: ModelNaming.sourceFileName(modelName: model.name), accessPrefix: options.access.prefix,
            modelTypeName: ModelNaming.modelTypeName(modelName: model.name, configured: options.modelTypeName),
            modelFileName: ModelNaming.modelFileName(modelName: model.name), entities: entities,
            fetchRequestTemplates: templates)
    }

    private func entityParts(
        _ entity: borrowing Entity, index: Int, names: EntityNames, hasSubentities: Bool, typeMapper: SwiftTypeMapper
    ) -> EntityParts {
        let flavor = options.flavor
        let plainClass = names.plainClassNames[index]
        let parentIndex = entity.parentEntity.flatMap { names.firstIndex[$0] }
        let base = flavor == .coredata ? "NSManagedObject" : "ManagedObject"
        let modifiers: String
        switch flavor {
        case .coredata: modifiers = options.access.prefix
        case .runtime:
            modifiers = hasSubentities ? (options.access == .public ? "open " : "") : options.access.prefix + "final "
        }
        // An entity whose class is `NSManagedObject` (the generic class) gets no files, as in Xcode.
        let (generatesClass, generatesProperties) =
            ModelNaming.isGenericClass(plainClass, flavor: flavor)
            ? (false, false) : entity.codeGenerationType.generatedFiles(includeManual: options.includeManual)
        // Read through buffers: an `Attribute` is large, and indexing the array would copy each one.
        // safe (unsafelyUnwrapped): `$0` is an index of the buffer, so the buffer is not empty and has a base address.
        let attributes = entity.attributes.withUnsafeBufferPointer { buffer in
            Self.sortedIndicesByName(buffer, name: \.name).map {
                attributeContext(buffer.baseAddress.unsafelyUnwrapped + $0, typeMapper: typeMapper)
            }
        }
        let relationships = entity.relationships.withUnsafeBufferPointer { buffer in
            Self.sortedIndicesByName(buffer, name: \.name).map {
                relationshipContext(buffer.baseAddress.unsafelyUnwrapped + $0, names: names, typeMapper: typeMapper)
            }
        }
        let fetched = Self.sortedByName(entity.fetchedProperties, name: \.name).map { property in
            let destination = property.fetchRequest?.entity ?? ""
            return FetchedPropertyContext(
                name: property.name, swiftName: propertyName(property.name),
                destinationClassName: names.className(of: destination), destinationEntityName: destination,
                predicateFormat: property.fetchRequest?.predicateString ?? "",
                userInfo: property.userInfo.map { (key: $0.key, value: $0.value) })
        }
        return EntityParts(
            entityName: entity.name, className: names.classNames[index], plainClassName: plainClass,
            superclassName: parentIndex.map { names.classNames[$0] } ?? base, hasParent: parentIndex != nil,
            isAbstract: entity.isAbstract, hasSubentities: hasSubentities, classModifiers: modifiers,
            codeGeneration: entity.codeGenerationType.rawValue, generatesClass: generatesClass,
            generatesProperties: generatesProperties,
            classFileName: ModelNaming.classFileName(
                className: plainClass, flavor: flavor, xcodeCompatible: options.xcodeCompatible),
            propertiesFileName: ModelNaming.propertiesFileName(
                className: plainClass, flavor: flavor, xcodeCompatible: options.xcodeCompatible),
            attributes: attributes,
            relationships: relationships, fetchedProperties: fetched)
    }

    /// `items` in the order of their names (Unicode scalar order), moving indices rather than large values.
    static func sortedByName<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
        items.withUnsafeBufferPointer { buffer in sortedIndicesByName(buffer, name: name).map { buffer[$0] } }
    }

    /// The indices of `items` in the order of their names (Unicode scalar order).
    static func sortedIndicesByName<Item>(_ items: UnsafeBufferPointer<Item>, name: (Item) -> String) -> [Int] {
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
        ModelNaming.propertyName(name, flavor: options.flavor)
    }

    // Properties are read in place through pointers: an `Attribute` is large, and passing one by value
    // copies (retains) each of its many fields.

    private func attributeContext(_ attribute: UnsafePointer<Attribute>, typeMapper: SwiftTypeMapper)
        -> AttributeContext
    {
        let type = typeMapper.type(of: attribute)
        return AttributeContext(
            name: attribute.pointee.name, swiftName: propertyName(attribute.pointee.name),
            attributeType: attribute.pointee.type.rawValue, swiftType: type.name,
            isOptional: attribute.pointee.isOptional, isTransient: attribute.pointee.isTransient,
            isScalar: type.isScalar,
            runtime: options.flavor == .runtime
                ? RuntimeAttributeContext(attribute, usesCodable: type.usesCodable) : nil)
    }

    private func relationshipContext(
        _ relationship: UnsafePointer<Relationship>, names: EntityNames, typeMapper: SwiftTypeMapper
    ) -> RelationshipContext {
        let isToMany = relationship.pointee.isToMany
        return RelationshipContext(
            name: relationship.pointee.name, swiftName: propertyName(relationship.pointee.name),
            destinationEntityName: relationship.pointee.destinationEntity,
            destinationClassName: names.className(of: relationship.pointee.destinationEntity),
            inverseName: relationship.pointee.inverseName ?? "", isToMany: isToMany,
            isOrdered: isToMany && relationship.pointee.isOrdered, isOptional: relationship.pointee.isOptional,
            typeNames: typeMapper.relationshipTypeNames,
            runtime: options.flavor == .runtime
                ? RuntimeRelationshipContext(relationship, usesXcodeTypes: options.xcodeCompatible) : nil)
    }
}

/// The model's entities by name and their class names, looked up once per entity.
struct EntityNames {
    /// The index of the first entity of each name (later entities of the same name are shadowed).
    let firstIndex: [String: Int]
    /// Each entity's class name without escaping; in the runtime flavor `NSManagedObject` (older Xcode's
    /// "no custom class") is the runtime's generic `ManagedObject`.
    let plainClassNames: [String]
    /// Each entity's class name, escaped.
    let classNames: [String]

    init(model: ObjectModel, flavor: Flavor) {
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(model.entities.count)
        var plainClassNames: [String] = []
        plainClassNames.reserveCapacity(model.entities.count)
        for (index, entity) in model.entities.enumerated() {
            if firstIndex[entity.name] == nil { firstIndex[entity.name] = index }
            plainClassNames.append(
                ModelNaming.className(entityName: entity.name, className: entity.className, flavor: flavor))
        }
        self.firstIndex = firstIndex
        self.plainClassNames = plainClassNames
        self.classNames = plainClassNames.map(ModelNaming.escaped)
    }

    /// The escaped class name of the entity named `entityName`, or the name itself when no entity has it.
    func className(of entityName: String) -> String {
        firstIndex[entityName].map { classNames[$0] } ?? ModelNaming.escaped(entityName)
    }
}

extension RelationshipContext.Key {
    /// The accessor name or selector this key names, if any.
    var accessor: ModelNaming.Accessor? {
        switch self {
        case .addToName: .addTo
        case .removeFromName: .removeFrom
        case .insertIntoName: .insertInto
        case .replaceName: .replace
        case .addObjectSelector: .addObjectSelector
        case .removeObjectSelector: .removeObjectSelector
        case .addSetSelector: .addSetSelector
        case .removeSetSelector: .removeSetSelector
        case .insertObjectSelector: .insertObjectSelector
        case .removeObjectAtIndexSelector: .removeObjectAtIndexSelector
        case .insertAtIndexesSelector: .insertAtIndexesSelector
        case .removeAtIndexesSelector: .removeAtIndexesSelector
        case .replaceObjectSelector: .replaceObjectSelector
        case .replaceAtIndexesSelector: .replaceAtIndexesSelector
        default: nil
        }
    }
}
