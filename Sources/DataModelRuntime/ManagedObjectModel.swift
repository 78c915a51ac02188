import DataModelStoreLayout

/// A data model as the runtime sees it: entities, their properties, inverses and delete rules.
///
/// Generated code declares one statically (`CompanyModel.model`), so no XML is read at run
/// time. The runtime derives Core Data's SQLite layout from it (``layoutModel``).
///
/// ```swift
/// let model = ManagedObjectModel(name: "Company", entities: [
///     EntityDescription(name: "BusinessEntity", objectType: BusinessEntity.self, attributes: [
///         AttributeDescription(name: "name", type: .string, isOptional: true),
///     ]),
/// ])
/// ```
public struct ManagedObjectModel: Sendable {
    /// The model's name (`Company`).
    public var name: String
    /// Every entity, in any order.
    public var entities: [EntityDescription]
    /// The version's name in its bundle (`Company 2`), when the model is one of several versions.
    public var versionName: String?
    /// The bundle's earlier versions, oldest first: a store written by one of them is migrated when a container
    /// opens it with this model (see ``PersistentContainer/init(model:store:migratesStoreAutomatically:)``).
    public var earlierVersions: [ManagedObjectModel]
    /// The model's fetch request templates (Xcode's *Fetch Requests*): see
    /// ``fetchRequestFromTemplate(withName:substitutionVariables:)``.
    public var fetchRequestTemplates: [FetchRequestTemplateDescription]

    /// Creates a model.
    public init(
        name: String, entities: [EntityDescription], versionName: String? = nil,
        earlierVersions: [ManagedObjectModel] = [], fetchRequestTemplates: [FetchRequestTemplateDescription] = []
    ) {
        self.name = name
        self.entities = entities
        self.versionName = versionName
        self.earlierVersions = earlierVersions
        self.fetchRequestTemplates = fetchRequestTemplates
    }

    /// The entity called `name`: ``entity(forName:)``.
    public func entity(named name: String) -> EntityDescription? {
        entity(forName: name)
    }

    /// The plain description the store layout is computed from.
    public var layoutModel: LayoutModel {
        LayoutModel(entities: entities.map(\.layoutEntity))
    }
}

/// One entity: its name, place in the inheritance tree, own properties and the class that
/// represents its objects.
public struct EntityDescription: Sendable {
    /// The entity name in its model spelling.
    public var name: String
    /// The parent entity's name, or `nil` for a root entity.
    public var parentName: String?
    /// Whether the entity is abstract (no objects of exactly this entity can be inserted).
    public var isAbstract: Bool
    /// The class of the entity's objects: a subclass of ``ManagedObject`` (the class factory).
    public var objectType: ManagedObject.Type
    /// The entity's **own** attributes (inherited ones come from the parent).
    public var attributes: [AttributeDescription]
    /// The entity's **own** relationships.
    public var relationships: [RelationshipDescription]
    /// Uniqueness constraints: each a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    /// Fetch indexes.
    public var fetchIndexes: [FetchIndexDescription]
    /// The entity's **own** fetched properties: read-only arrays a fetch request defines (see
    /// ``ManagedObject/fetchedObjects(for:)``).
    public var fetchedProperties: [FetchedPropertyDescription]
    /// Maps a key path of `objectType` (own and inherited properties) to the property name,
    /// for sorting and predicates; generated code supplies it.
    public var propertyNameForKeyPath: @Sendable (AnyKeyPath) -> String?
    /// The renaming identifier (`elementID`): the entity's name in an earlier model version.
    public var renamingIdentifier: String?
    /// Whether ``objectType`` is a class the generator rewrites on every run (Class Definition codegen), which
    /// overrides none of the lifecycle methods (``ManagedObject/awakeFromFetch()`` …): the runtime does not call them
    /// for the entity's objects, unless an ancestor entity's class is one of yours. `false` (the default) for classes
    /// you write; generated model files say `true`.
    public var hasGeneratedClass: Bool
    /// The model the description was taken from (``ManagedObjectModel/entity(forName:)``, ``ManagedObject/entity``),
    /// which answers for its hierarchy and inherited properties; `nil` for a description made by hand.
    var modelReference: ModelReference?

    /// Creates an entity.
    public init(
        name: String,
        parentName: String? = nil,
        isAbstract: Bool = false,
        objectType: ManagedObject.Type,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [],
        fetchIndexes: [FetchIndexDescription] = [],
        fetchedProperties: [FetchedPropertyDescription] = [],
        renamingIdentifier: String? = nil,
        hasGeneratedClass: Bool = false,
        propertyNameForKeyPath: @escaping @Sendable (AnyKeyPath) -> String? = { _ in nil }
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.hasGeneratedClass = hasGeneratedClass
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.objectType = objectType
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.fetchedProperties = fetchedProperties
        self.propertyNameForKeyPath = propertyNameForKeyPath
    }

    var layoutEntity: LayoutEntity {
        LayoutEntity(
            name: name, parentName: parentName, isAbstract: isAbstract,
            attributes: attributes.map {
                LayoutAttribute(
                    name: $0.name, type: $0.type, isTransient: $0.isTransient, isDerived: $0.isDerived,
                    isIndexed: $0.isIndexed, isOptional: $0.isOptional, defaultValue: $0.defaultValue,
                    renamingIdentifier: $0.renamingIdentifier,
                    allowsExternalBinaryDataStorage: $0.usesExternalBinaryDataFormat)
            },
            relationships: relationships.map {
                LayoutRelationship(
                    name: $0.name, destinationName: $0.destinationEntityName, inverseName: $0.inverseName,
                    isToMany: $0.isToMany, isOrdered: $0.isOrdered, isTransient: $0.isTransient,
                    renamingIdentifier: $0.renamingIdentifier)
            },
            uniquenessConstraints: uniquenessConstraints,
            fetchIndexes: fetchIndexes.map { index in
                LayoutFetchIndex(
                    name: index.name,
                    elements: index.elements.map {
                        LayoutFetchIndexElement(property: $0.property, isAscending: $0.isAscending)
                    })
            },
            renamingIdentifier: renamingIdentifier)
    }
}

/// An attribute's type: the store layout's type, shared with the generator so the two never drift.
public typealias AttributeType = DataModelStoreLayout.AttributeType

/// An attribute an entity declares.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute name in its model spelling.
    public var name: String
    /// The attribute type.
    public var type: AttributeType
    /// Whether the attribute may be `nil` when saved.
    public var isOptional: Bool
    /// A transient attribute lives in memory only.
    public var isTransient: Bool
    /// A derived attribute: stored, computed from ``derivationExpression`` whenever the context saves to the
    /// store (as Core Data does), never set by user code.
    public var isDerived: Bool
    /// The derivation expression of a derived attribute, in the expression format language
    /// (`employees.@count`, `canonical:(name)`, `now()`, `department.name`).
    public var derivationExpression: String?
    /// `indexed="YES"`.
    public var isIndexed: Bool
    /// The default value a new object starts with, typed: generated code writes what the
    /// generator's ``AttributeValueParser`` made of the model's text (`.integer(5)`, `.double(2.5)`,
    /// `.date(0)` for seconds since 2001), so the runtime parses no model text.
    public var defaultValue: AttributeValue?
    /// The minimum: the value for numbers, seconds since 2001 for dates, the length for
    /// strings and binary data.
    public var minValue: Double?
    /// The maximum, with the same meaning as ``minValue``.
    public var maxValue: Double?
    /// A regular expression a string value must match.
    public var regularExpression: String?
    /// The renaming identifier (`elementID`): the attribute's name in an earlier model version, so that a store
    /// migrates the values of a renamed attribute.
    public var renamingIdentifier: String?
    /// `allowsExternalBinaryDataStorage="YES"` (Xcode's *Allows External Storage*) on a Binary attribute: the store
    /// holds the value as Core Data does — a marker byte `0x01` and the bytes, or, above the store's threshold
    /// (``ExternalBinaryData/defaultThreshold``), `0x02` and the name of a file in the store's external-data folder.
    /// Reading and writing stay transparent: the attribute's value is always the bytes themselves.
    public var allowsExternalBinaryDataStorage: Bool

    /// Creates an attribute.
    public init(
        name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        isDerived: Bool = false, derivationExpression: String? = nil, isIndexed: Bool = false,
        defaultValue: AttributeValue? = nil, minValue: Double? = nil, maxValue: Double? = nil,
        regularExpression: String? = nil, renamingIdentifier: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false
    ) {
        self.derivationExpression = derivationExpression
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isDerived = isDerived
        self.isIndexed = isIndexed
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.regularExpression = regularExpression
    }

    /// Creates an attribute whose default is given as the model's text (`"5"`), as descriptions written
    /// before defaults were typed did: the text is read by the generator's one ``AttributeValueParser``
    /// (a text it rejects gives no default).
    @available(*, deprecated, message: "pass a typed default, e.g. defaultValue: .integer(5)")
    public init(
        name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        isDerived: Bool = false, isIndexed: Bool = false, defaultValue: String, minValue: Double? = nil,
        maxValue: Double? = nil, regularExpression: String? = nil
    ) {
        self.init(
            name: name, type: type, isOptional: isOptional, isTransient: isTransient, isDerived: isDerived,
            isIndexed: isIndexed,
            defaultValue: AttributeValueParser.parse(defaultValue, as: type, role: .defaultValue).value,
            minValue: minValue, maxValue: maxValue, regularExpression: regularExpression)
    }
}

extension AttributeDescription {
    /// Whether the column holds Core Data's external-storage form: a stored Binary attribute with the flag.
    var usesExternalBinaryDataFormat: Bool { allowsExternalBinaryDataStorage && type == .binary && !isTransient }
}

/// A default value, typed (see ``AttributeDescription/defaultValue``).
public typealias AttributeValue = DataModelStoreLayout.AttributeValue

/// What happens to a relationship's destinations when its source object is deleted: the store
/// layout's rule, shared with the generator.
public typealias DeleteRule = DataModelStoreLayout.DeleteRule

/// A relationship an entity declares.
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship name in its model spelling.
    public var name: String
    /// The destination entity's name.
    public var destinationEntityName: String
    /// The inverse relationship's name on the destination.
    public var inverseName: String?
    /// Whether it is to-many.
    public var isToMany: Bool
    /// Whether a to-many keeps its order.
    public var isOrdered: Bool
    /// Whether it may be empty when saved.
    public var isOptional: Bool
    /// A transient relationship is not stored.
    public var isTransient: Bool
    /// The delete rule.
    public var deleteRule: DeleteRule
    /// The least number of destinations of a to-many when saved (0: no minimum).
    public var minCount: Int
    /// The greatest number of destinations of a to-many when saved (0: no maximum).
    public var maxCount: Int
    /// The renaming identifier (`elementID`): the relationship's name in an earlier model version.
    public var renamingIdentifier: String?

    /// Creates a relationship.
    public init(
        name: String, destinationEntityName: String, inverseName: String? = nil, isToMany: Bool = false,
        isOrdered: Bool = false, isOptional: Bool = true, isTransient: Bool = false, deleteRule: DeleteRule = .nullify,
        minCount: Int = 0, maxCount: Int = 0, renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
    }
}

/// A fetch index: an ordered list of properties.
public struct FetchIndexDescription: Sendable, Hashable {
    /// One indexed property.
    public struct Element: Sendable, Hashable {
        /// An attribute or to-one relationship name.
        public var property: String
        /// Ascending or descending.
        public var isAscending: Bool

        /// Creates an element.
        public init(property: String, isAscending: Bool = true) {
            self.property = property
            self.isAscending = isAscending
        }
    }

    /// The index name.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]

    /// Creates a fetch index.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
