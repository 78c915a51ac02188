import DataModelNaming
import DataModelStoreLayout
import FoundationEssentials

/// A parsed Xcode data model version: the IR every later stage reads.
///
/// Built by ``ModelParser`` from one `contents` file; entities keep the order of the file.
/// Lookups by name are hashed (see ``entity(named:)``), so models with thousands of entities stay fast.
public struct ObjectModel: Hashable, Sendable, Codable {
    /// The model's name: the bundle's name without extension (`Company` for `Company.xcdatamodeld`).
    public var name: String
    /// The version's name: the `.xcdatamodel` directory's name without extension (`Company 2`).
    public var versionName: String
    /// Attributes of the root `<model>` element (type, documentVersion, lastSavedToolsVersion …), sorted by key.
    public var metadata: [String: String]
    /// Entities in file order.
    public var entities: [Entity] {
        didSet { rebuildIndex() }
    }
    /// Top-level fetch request templates.
    public var fetchRequests: [FetchRequestTemplate]
    /// Configurations (named subsets of entities).
    public var configurations: [Configuration]
    /// Model-level composite attribute definitions.
    public var composites: [CompositeDefinition]
    /// Where the `<model>` element is.
    public var location: SourceLocation

    private var entityIndex: [String: Int]

    /// Creates a model.
    public init(
        name: String, versionName: String, metadata: [String: String] = [:], entities: [Entity] = [],
        fetchRequests: [FetchRequestTemplate] = [], configurations: [Configuration] = [],
        composites: [CompositeDefinition] = [], location: SourceLocation
    ) {
        self.name = name
        self.versionName = versionName
        self.metadata = metadata
        self.entities = entities
        self.fetchRequests = fetchRequests
        self.configurations = configurations
        self.composites = composites
        self.location = location
        self.entityIndex = [:]
        rebuildIndex()
    }

    private mutating func rebuildIndex() {
        var index: [String: Int] = [:]
        index.reserveCapacity(entities.count)
        for (offset, entity) in entities.enumerated() where index[entity.name] == nil {
            index[entity.name] = offset
        }
        entityIndex = index
    }

    /// The first entity with this name, found by hash.
    public func entity(named name: String) -> Entity? {
        entityIndex[name].map { entities[$0] }
    }

    /// The index in ``entities`` of the first entity with this name, found by hash.
    func entityIndex(named name: String) -> Int? { entityIndex[name] }

    /// The chain of entities from `entity` up to its root (the entity first). Stops at cycles and missing parents.
    public func ancestry(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentEntity, let parent = self.entity(named: parentName),
            seen.insert(parent.name).inserted
        {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// Entity names mapped to the names of their direct sub-entities, in file order.
    public func subentityNames() -> [String: [String]] {
        var children: [String: [String]] = [:]
        for entity in entities {
            if let parent = entity.parentEntity { children[parent, default: []].append(entity.name) }
        }
        return children
    }

    enum CodingKeys: String, CodingKey {
        case name, versionName, metadata, entities, fetchRequests, configurations, composites, location
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            versionName: try container.decode(String.self, forKey: .versionName),
            metadata: try container.decode([String: String].self, forKey: .metadata),
            entities: try container.decode([Entity].self, forKey: .entities),
            fetchRequests: try container.decode([FetchRequestTemplate].self, forKey: .fetchRequests),
            configurations: try container.decode([Configuration].self, forKey: .configurations),
            composites: try container.decode([CompositeDefinition].self, forKey: .composites),
            location: try container.decode(SourceLocation.self, forKey: .location))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(versionName, forKey: .versionName)
        try container.encode(metadata, forKey: .metadata)
        try container.encode(entities, forKey: .entities)
        try container.encode(fetchRequests, forKey: .fetchRequests)
        try container.encode(configurations, forKey: .configurations)
        try container.encode(composites, forKey: .composites)
        try container.encode(location, forKey: .location)
    }

    public static func == (lhs: ObjectModel, rhs: ObjectModel) -> Bool {
        lhs.name == rhs.name && lhs.versionName == rhs.versionName && lhs.metadata == rhs.metadata
            && lhs.entities == rhs.entities && lhs.fetchRequests == rhs.fetchRequests
            && lhs.configurations == rhs.configurations && lhs.composites == rhs.composites
            && lhs.location == rhs.location
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(versionName)
        hasher.combine(entities.count)
    }
}

/// How Xcode generates code for an entity (`codeGenerationType`); the plugins read it too.
public typealias CodeGenerationType = ModelNaming.CodeGeneration

/// One `<entry key= value=>` of a `<userInfo>` dictionary.
public struct UserInfoEntry: Hashable, Sendable, Codable {
    /// The key.
    public var key: String
    /// The value.
    public var value: String
    /// Where the entry is.
    public var location: SourceLocation

    /// Creates an entry.
    public init(key: String, value: String, location: SourceLocation) {
        self.key = key
        self.value = value
        self.location = location
    }
}

/// A user-info dictionary in file order.
public typealias UserInfo = [UserInfoEntry]

/// An entity: a class of managed objects.
public struct Entity: Hashable, Sendable, Codable {
    /// The entity's name.
    public var name: String
    /// `representedClassName` as written (may carry a module prefix such as `MyApp.Person` or `.Person`).
    public var representedClassName: String?
    /// The parent entity's name.
    public var parentEntity: String?
    /// Whether the entity is abstract.
    public var isAbstract: Bool = false
    /// How Xcode generates code for it.
    public var codeGenerationType: CodeGenerationType = .manual
    /// `syncable`, when written (older files).
    public var syncable: Bool?
    /// `elementID` / `renamingIdentifier` (migration renaming).
    public var renamingIdentifier: String?
    /// `versionHashModifier`.
    public var versionHashModifier: String?
    /// Stored attributes in file order.
    public var attributes: [Attribute] = []
    /// Relationships in file order.
    public var relationships: [Relationship] = []
    /// Fetched properties in file order.
    public var fetchedProperties: [FetchedProperty] = []
    /// The entity's user info.
    public var userInfo: UserInfo = []
    /// Uniqueness constraints.
    public var uniquenessConstraints: [UniquenessConstraint] = []
    /// Fetch indexes.
    public var fetchIndexes: [FetchIndex] = []
    /// Deprecated compound indexes: each is a list of property names.
    public var compoundIndexes: [CompoundIndex] = []
    /// Where the `<entity>` element is.
    public var location: SourceLocation

    /// Creates an entity.
    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }

    /// The class name: `representedClassName` without any module prefix, or the entity name.
    public var className: String {
        ModelNaming.className(entityName: name, representedClassName: representedClassName)
    }

    /// The names of all properties (attributes, relationships, fetched properties) in file order.
    public var propertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }
}

/// An attribute of an entity.
public struct Attribute: Hashable, Sendable, Codable {
    /// The attribute's name.
    public var name: String
    /// Its type.
    public var type: AttributeType
    /// Whether nil is allowed.
    public var isOptional: Bool = false
    /// Whether it is transient (never stored).
    public var isTransient: Bool = false
    /// Whether it is derived.
    public var isDerived: Bool = false
    /// The derivation expression of a derived attribute.
    public var derivationExpression: String?
    /// `defaultValueString` (or the older `defaultValue`).
    public var defaultValueString: String?
    /// `defaultDateTimeInterval`: seconds since 2001-01-01 for Date defaults.
    public var defaultDateTimeInterval: String?
    /// `minValueString`.
    public var minValueString: String?
    /// `maxValueString`.
    public var maxValueString: String?
    /// `minDateTimeInterval`.
    public var minDateTimeInterval: String?
    /// `maxDateTimeInterval`.
    public var maxDateTimeInterval: String?
    /// `regularExpressionString`.
    public var regularExpressionString: String?
    /// `usesScalarValueType`, when written.
    public var usesScalarValueType: Bool?
    /// `allowsExternalBinaryDataStorage`.
    public var allowsExternalBinaryDataStorage: Bool = false
    /// `preserveAfterDeletion`.
    public var preserveAfterDeletion: Bool = false
    /// `allowsCloudEncryption`.
    public var allowsCloudEncryption: Bool = false
    /// `spotlightIndexingEnabled`.
    public var spotlightIndexingEnabled: Bool = false
    /// `storedInTruthFile`.
    public var storedInTruthFile: Bool = false
    /// `indexed`.
    public var isIndexed: Bool = false
    /// `syncable`, when written.
    public var syncable: Bool?
    /// `valueTransformerName` of a Transformable.
    public var valueTransformerName: String?
    /// `customClassName` of a Transformable (or Object ID / Composite).
    public var customClassName: String?
    /// `composite`: the name of the composite definition of a Composite attribute.
    public var composite: String?
    /// `elementID` / `renamingIdentifier`.
    public var renamingIdentifier: String?
    /// `versionHashModifier`.
    public var versionHashModifier: String?
    /// The attribute's user info.
    public var userInfo: UserInfo = []
    /// Where the `<attribute>` element is.
    public var location: SourceLocation

    /// Creates an attribute.
    public init(name: String, type: AttributeType, location: SourceLocation) {
        self.name = name
        self.type = type
        self.location = location
    }

    /// Creates an attribute with every property given; the parser builds each attribute in one step with it.
    @inline(__always)
    init(
        name: String, type: AttributeType, isOptional: Bool, isTransient: Bool, isDerived: Bool,
        derivationExpression: String?, defaultValueString: String?, defaultDateTimeInterval: String?,
        minValueString: String?, maxValueString: String?, minDateTimeInterval: String?, maxDateTimeInterval: String?,
        regularExpressionString: String?, usesScalarValueType: Bool?, allowsExternalBinaryDataStorage: Bool,
        preserveAfterDeletion: Bool, allowsCloudEncryption: Bool, spotlightIndexingEnabled: Bool,
        storedInTruthFile: Bool, isIndexed: Bool, syncable: Bool?, valueTransformerName: String?,
        customClassName: String?, composite: String?, renamingIdentifier: String?, versionHashModifier: String?,
        userInfo: UserInfo, location: SourceLocation
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpressionString = regularExpressionString
        self.usesScalarValueType = usesScalarValueType
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preserveAfterDeletion = preserveAfterDeletion
        self.allowsCloudEncryption = allowsCloudEncryption
        self.spotlightIndexingEnabled = spotlightIndexingEnabled
        self.storedInTruthFile = storedInTruthFile
        self.isIndexed = isIndexed
        self.syncable = syncable
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.composite = composite
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.location = location
    }

    /// Whether the value is stored as a scalar in generated Core Data code (`usesScalarValueType`).
    public var isScalar: Bool { usesScalarValueType ?? false }

    /// Whether the attribute has a column in the store: not transient.
    public var isStored: Bool { !isTransient }

    /// The model's text for the default value or a bound, which ``AttributeValueParser`` parses:
    /// for a date the `…DateTimeInterval` when there is one (Xcode then writes a display text such
    /// as `1/1/2000` in the `…ValueString`), else the `…ValueString`.
    public func valueText(_ role: AttributeValueRole) -> String? {
        switch role {
        case .defaultValue: type == .date ? defaultDateTimeInterval ?? defaultValueString : defaultValueString
        case .minimum: type == .date ? minDateTimeInterval ?? minValueString : minValueString
        case .maximum: type == .date ? maxDateTimeInterval ?? maxValueString : maxValueString
        }
    }
}

/// A relationship of an entity.
public struct Relationship: Hashable, Sendable, Codable {
    /// The relationship's name.
    public var name: String
    /// The destination entity's name (empty when missing).
    public var destinationEntity: String
    /// The inverse relationship's name.
    public var inverseName: String?
    /// The entity declaring the inverse.
    public var inverseEntity: String?
    /// Whether it is to-many.
    public var isToMany: Bool = false
    /// Whether a to-many keeps order.
    public var isOrdered: Bool = false
    /// The delete rule.
    public var deletionRule: DeleteRule = .nullify
    /// `minCount`.
    public var minCount: Int?
    /// `maxCount`.
    public var maxCount: Int?
    /// Whether it may be empty / nil.
    public var isOptional: Bool = false
    /// Whether it is transient.
    public var isTransient: Bool = false
    /// `indexed`.
    public var isIndexed: Bool = false
    /// `syncable`, when written.
    public var syncable: Bool?
    /// `elementID` / `renamingIdentifier`.
    public var renamingIdentifier: String?
    /// `versionHashModifier`.
    public var versionHashModifier: String?
    /// The relationship's user info.
    public var userInfo: UserInfo = []
    /// Where the `<relationship>` element is.
    public var location: SourceLocation

    /// Creates a relationship.
    public init(name: String, destinationEntity: String, location: SourceLocation) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.location = location
    }

    /// Creates a relationship with every property given; the parser builds each relationship in one step with it.
    @inline(__always)
    init(
        name: String, destinationEntity: String, inverseName: String?, inverseEntity: String?, isToMany: Bool,
        isOrdered: Bool, deletionRule: DeleteRule, minCount: Int?, maxCount: Int?, isOptional: Bool,
        isTransient: Bool, isIndexed: Bool, syncable: Bool?, renamingIdentifier: String?,
        versionHashModifier: String?, userInfo: UserInfo, location: SourceLocation
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.deletionRule = deletionRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.syncable = syncable
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.location = location
    }
}

/// A fetched property: a weak, one-way relationship defined by a fetch request.
public struct FetchedProperty: Hashable, Sendable, Codable {
    /// The property's name.
    public var name: String
    /// Whether it is optional.
    public var isOptional: Bool = false
    /// The fetch request that defines it.
    public var fetchRequest: FetchRequestTemplate?
    /// The property's user info.
    public var userInfo: UserInfo = []
    /// Where the `<fetchedProperty>` element is.
    public var location: SourceLocation

    /// Creates a fetched property.
    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// A fetch request template, at model level or inside a fetched property.
public struct FetchRequestTemplate: Hashable, Sendable, Codable {
    /// The request's name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in `NSPredicate` format.
    public var predicateString: String?
    /// Every other attribute of the element (fetchLimit, resultType, returnDistinctResults …), by name.
    public var options: [String: String]
    /// Where the `<fetchRequest>` element is.
    public var location: SourceLocation

    /// Creates a template.
    public init(
        name: String, entity: String, predicateString: String?, options: [String: String], location: SourceLocation
    ) {
        self.name = name
        self.entity = entity
        self.predicateString = predicateString
        self.options = options
        self.location = location
    }
}

/// A named configuration listing member entities.
public struct Configuration: Hashable, Sendable, Codable {
    /// The configuration's name.
    public var name: String
    /// `usedWithCloudKit`.
    public var usedWithCloudKit: Bool = false
    /// Member entity names in file order.
    public var memberEntities: [String] = []
    /// Where the `<configuration>` element is.
    public var location: SourceLocation

    /// Creates a configuration.
    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// A uniqueness constraint: the listed properties together are unique.
public struct UniquenessConstraint: Hashable, Sendable, Codable {
    /// Property names.
    public var properties: [String]
    /// Where the `<uniquenessConstraint>` element is.
    public var location: SourceLocation

    /// Creates a constraint.
    public init(properties: [String], location: SourceLocation) {
        self.properties = properties
        self.location = location
    }
}

/// A fetch index over one or more properties.
public struct FetchIndex: Hashable, Sendable, Codable {
    /// One property of a fetch index.
    public struct Element: Hashable, Sendable, Codable {
        /// The property's name (or an expression).
        public var property: String
        /// `Binary` or `RTree`.
        public var type: String
        /// Whether the order is ascending.
        public var isAscending: Bool
        /// Where the element is.
        public var location: SourceLocation

        /// Creates an element.
        public init(property: String, type: String, isAscending: Bool, location: SourceLocation) {
            self.property = property
            self.type = type
            self.isAscending = isAscending
            self.location = location
        }
    }

    /// The index's name.
    public var name: String
    /// Its elements in order.
    public var elements: [Element]
    /// Where the `<fetchIndex>` element is.
    public var location: SourceLocation

    /// Creates a fetch index.
    public init(name: String, elements: [Element], location: SourceLocation) {
        self.name = name
        self.elements = elements
        self.location = location
    }
}

/// A deprecated compound index (`<compoundIndex><index value=…/></compoundIndex>`).
public struct CompoundIndex: Hashable, Sendable, Codable {
    /// Property names.
    public var properties: [String]
    /// Where the element is.
    public var location: SourceLocation

    /// Creates a compound index.
    public init(properties: [String], location: SourceLocation) {
        self.properties = properties
        self.location = location
    }
}

/// A model-level composite attribute definition (`<composite name=…>` with attributes).
public struct CompositeDefinition: Hashable, Sendable, Codable {
    /// The composite's name.
    public var name: String
    /// Its element attributes.
    public var attributes: [Attribute]
    /// Where the element is.
    public var location: SourceLocation

    /// Creates a composite definition.
    public init(name: String, attributes: [Attribute], location: SourceLocation) {
        self.name = name
        self.attributes = attributes
        self.location = location
    }
}
