/// A data model as the store layout needs it: entities, their stored properties and indexes.
///
/// This is the layout's own plain description, so that both the generator (from its parsed
/// model) and the runtime (from generated code) can build one without depending on each other.
/// Entity order does not matter: the layout sorts everything it emits.
///
/// ```swift
/// let model = LayoutModel(entities: [
///     LayoutEntity(name: "Car", attributes: [LayoutAttribute(name: "model", type: .string)]),
///     LayoutEntity(name: "SportCar", parentName: "Car"),
/// ])
/// let layout = try StoreLayout(model: model)
/// ```
public struct LayoutModel: Sendable, Hashable {
    /// Every entity of the model, in any order.
    public var entities: [LayoutEntity]

    /// Creates a model from its entities.
    public init(entities: [LayoutEntity]) {
        self.entities = entities
    }
}

/// One entity: its place in the inheritance tree and its **own** properties.
///
/// Inherited properties are not repeated here; they come from the entity named `parentName`.
public struct LayoutEntity: Sendable, Hashable {
    /// The entity name in its model spelling, e.g. `SportCar`.
    public var name: String
    /// The parent entity's name, or `nil` for a root entity.
    public var parentName: String?
    /// Whether the entity is abstract (it still gets an entity number and `Z_PRIMARYKEY` row).
    public var isAbstract: Bool
    /// The entity's own attributes.
    public var attributes: [LayoutAttribute]
    /// The entity's own relationships.
    public var relationships: [LayoutRelationship]
    /// Uniqueness constraints: each a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    /// Fetch indexes declared on the entity.
    public var fetchIndexes: [LayoutFetchIndex]
    /// The renaming identifier (`elementID`): the entity's name in an earlier model version, for migration.
    public var renamingIdentifier: String?

    /// Creates an entity.
    public init(
        name: String,
        parentName: String? = nil,
        isAbstract: Bool = false,
        attributes: [LayoutAttribute] = [],
        relationships: [LayoutRelationship] = [],
        uniquenessConstraints: [[String]] = [],
        fetchIndexes: [LayoutFetchIndex] = [],
        renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
    }
}

/// An attribute the entity declares.
public struct LayoutAttribute: Sendable, Hashable {
    /// The attribute name in its model spelling.
    public var name: String
    /// The attribute type.
    public var type: AttributeType
    /// A transient attribute has no column.
    public var isTransient: Bool
    /// A derived attribute has a column like any other (Core Data stores derived values); the
    /// runtime computes its value.
    public var isDerived: Bool
    /// `indexed="YES"`: the attribute gets a single-column index.
    public var isIndexed: Bool
    /// Whether the attribute may be nil.
    public var isOptional: Bool
    /// The default value: a new object's, and what migration writes into existing rows when the attribute is
    /// added (or made non-optional).
    public var defaultValue: AttributeValue?
    /// The renaming identifier (`elementID`): the attribute's name in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// `allowsExternalBinaryDataStorage="YES"` on a Binary attribute: the column holds Core Data's marked form (a
    /// marker byte, then the bytes or the name of a file in the store's external-data folder), not the bare bytes.
    public var allowsExternalBinaryDataStorage: Bool

    /// Creates an attribute.
    public init(
        name: String, type: AttributeType, isTransient: Bool = false, isDerived: Bool = false,
        isIndexed: Bool = false, isOptional: Bool = true, defaultValue: AttributeValue? = nil,
        renamingIdentifier: String? = nil, allowsExternalBinaryDataStorage: Bool = false
    ) {
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.defaultValue = defaultValue
        self.isOptional = isOptional
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.type = type
        self.isTransient = isTransient
        self.isDerived = isDerived
        self.isIndexed = isIndexed
    }
}

/// A relationship the entity declares.
public struct LayoutRelationship: Sendable, Hashable {
    /// The relationship name in its model spelling.
    public var name: String
    /// The destination entity's name.
    public var destinationName: String
    /// The inverse relationship's name on the destination entity (or one of its ancestors).
    public var inverseName: String?
    /// Whether the relationship is to-many.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool
    /// A transient relationship is not stored.
    public var isTransient: Bool
    /// The renaming identifier (`elementID`): the relationship's name in an earlier model version, for migration.
    public var renamingIdentifier: String?

    /// Creates a relationship.
    public init(
        name: String, destinationName: String, inverseName: String? = nil, isToMany: Bool = false,
        isOrdered: Bool = false, isTransient: Bool = false, renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.destinationName = destinationName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isTransient = isTransient
    }
}

/// A fetch index (`<fetchIndex>`): an ordered list of properties.
public struct LayoutFetchIndex: Sendable, Hashable {
    /// The index name in its model spelling, e.g. `byTitle`.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [LayoutFetchIndexElement]

    /// Creates a fetch index.
    public init(name: String, elements: [LayoutFetchIndexElement]) {
        self.name = name
        self.elements = elements
    }
}

/// One element of a fetch index.
public struct LayoutFetchIndexElement: Sendable, Hashable {
    /// An attribute or to-one relationship of the entity (own or inherited).
    public var property: String
    /// Ascending (`true`) or descending.
    public var isAscending: Bool

    /// Creates an element.
    public init(property: String, isAscending: Bool = true) {
        self.property = property
        self.isAscending = isAscending
    }
}

/// Why a ``LayoutModel`` cannot be laid out.
public enum StoreLayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two entities share a name.
    case duplicateEntity(String)
    /// An entity names a parent that does not exist.
    case unknownParent(entity: String, parent: String)
    /// An entity is its own ancestor.
    case inheritanceCycle(entity: String)
    /// An entity declares a property twice, or redeclares an inherited one.
    case duplicateProperty(entity: String, property: String)
    /// A relationship's destination entity does not exist.
    case unknownDestination(entity: String, relationship: String, destination: String)
    /// A relationship's inverse is not a relationship of the destination entity.
    case unknownInverse(entity: String, relationship: String, inverse: String)
    /// A fetch index names no stored attribute or to-one relationship of the entity.
    case invalidFetchIndexProperty(entity: String, index: String, property: String)
    /// A uniqueness constraint names no stored attribute or to-one relationship of the entity.
    case invalidUniquenessProperty(entity: String, property: String)

    /// A one-line description naming the entity and property involved.
    public var description: String {
        switch self {
        case .duplicateEntity(let name):
            "duplicate entity '\(name)'"
        case .unknownParent(let entity, let parent):
            "entity '\(entity)' has unknown parent entity '\(parent)'"
        case .inheritanceCycle(let entity):
            "entity '\(entity)' is its own ancestor"
        case .duplicateProperty(let entity, let property):
            "entity '\(entity)' declares property '\(property)' more than once (or redeclares an inherited one)"
        case .unknownDestination(let entity, let relationship, let destination):
            "relationship '\(entity).\(relationship)' has unknown destination entity '\(destination)'"
        case .unknownInverse(let entity, let relationship, let inverse):
            "relationship '\(entity).\(relationship)' has unknown inverse '\(inverse)'"
        case .invalidFetchIndexProperty(let entity, let index, let property):
            "fetch index '\(entity).\(index)' names '\(property)', not a stored attribute or to-one relationship"
        case .invalidUniquenessProperty(let entity, let property):
            "uniqueness constraint of '\(entity)' names '\(property)', not a stored attribute or to-one relationship"
        }
    }
}
