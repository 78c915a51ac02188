/// Where one entity's rows and properties live.
///
/// Property lookups (`attribute(named:)`, `relationship(named:)`) are hashed. Inherited
/// properties are included, listed before the entity's own.
public struct EntityLayout: Sendable, Hashable {
    /// The entity name in its model spelling.
    public let name: String
    /// `Z_ENT`: the entity number (1-based, pre-order walk of the inheritance forest).
    public let number: Int
    /// `Z_SUPER`: the parent's number, `0` for a root entity.
    public let superentityNumber: Int
    /// The number of the root of the entity's inheritance tree (its own number for a root).
    public let rootEntityNumber: Int
    /// Whether the entity is abstract.
    public let isAbstract: Bool
    /// The table holding the entity's rows: the root entity's table.
    public let tableName: String
    /// The numbers of the direct sub-entities, ascending.
    public let subentityNumbers: [Int]
    /// The entity's number and those of all its descendants: a contiguous range, because
    /// numbering is a pre-order walk. Fetch rows of the entity with
    /// `Z_ENT BETWEEN lowerBound AND upperBound` (or ``entityNumbersForFetch`` with `IN`).
    public let hierarchyNumbers: ClosedRange<Int>
    /// Stored attributes, inherited ones first.
    public let attributes: [AttributeLayout]
    /// Stored (non-transient) relationships, inherited ones first.
    public let relationships: [RelationshipLayout]
    /// The columns of the table the entity's rows use (`Z_PK`, `Z_ENT`, `Z_OPT` and those of its
    /// own and inherited properties), in table order.
    public let columns: [ColumnLayout]

    /// The attributes' names, positioned as `attributes`.
    private let attributeIndex: NameIndex
    /// The relationships' names, positioned as `relationships`.
    private let relationshipIndex: NameIndex

    init(
        name: String, number: Int, superentityNumber: Int, rootEntityNumber: Int, isAbstract: Bool,
        tableName: String, subentityNumbers: [Int], hierarchyNumbers: ClosedRange<Int>,
        attributes: [AttributeLayout], relationships: [RelationshipLayout], columns: [ColumnLayout]
    ) {
        self.name = name
        self.number = number
        self.superentityNumber = superentityNumber
        self.rootEntityNumber = rootEntityNumber
        self.isAbstract = isAbstract
        self.tableName = tableName
        self.subentityNumbers = subentityNumbers
        self.hierarchyNumbers = hierarchyNumbers
        self.attributes = attributes
        self.relationships = relationships
        self.columns = columns
        var attributeIndex = NameIndex(capacity: attributes.count)
        for attribute in attributes { attributeIndex.insert(attribute.name) }
        self.attributeIndex = attributeIndex
        var relationshipIndex = NameIndex(capacity: relationships.count)
        for relationship in relationships { relationshipIndex.insert(relationship.name) }
        self.relationshipIndex = relationshipIndex
    }

    /// Whether the entity is a root (`Z_SUPER` = 0).
    public var isRoot: Bool { superentityNumber == 0 }

    /// Whether the entity has sub-entities, so its fetches must filter on `Z_ENT`.
    public var hasSubentities: Bool { !subentityNumbers.isEmpty }

    /// The entity numbers a fetch of this entity (including sub-entities) accepts, ascending.
    public var entityNumbersForFetch: [Int] { Array(hierarchyNumbers) }

    /// The stored attribute called `name` (own or inherited).
    public func attribute(named name: String) -> AttributeLayout? {
        attributeIndex.position(of: name).map { attributes[$0] }
    }

    /// The stored relationship called `name` (own or inherited).
    public func relationship(named name: String) -> RelationshipLayout? {
        relationshipIndex.position(of: name).map { relationships[$0] }
    }
}

/// Where a stored attribute lives.
public struct AttributeLayout: Sendable, Hashable {
    /// The attribute name in its model spelling.
    public let name: String
    /// The attribute type.
    public let type: LayoutAttributeType
    /// The column in the entity's table.
    public let column: String
    /// The column's declared type.
    public let sqlType: SQLColumnType
    /// The number of the entity declaring the attribute.
    public let declaringEntityNumber: Int
    /// Whether the runtime computes the value (the column is still written).
    public let isDerived: Bool
}

/// Where a stored relationship lives.
public struct RelationshipLayout: Sendable, Hashable {
    /// The relationship name in its model spelling.
    public let name: String
    /// The number of the entity declaring the relationship.
    public let declaringEntityNumber: Int
    /// The destination entity's number.
    public let destinationEntityNumber: Int
    /// The inverse relationship's name, when the two name each other (a one-sided inverse
    /// declaration is stored as if there were none).
    public let inverseName: String?
    /// Whether the relationship is to-many.
    public let isToMany: Bool
    /// Whether the relationship is an ordered to-many.
    public let isOrdered: Bool
    /// Which columns of which table hold it.
    public let storage: RelationshipStorage
}

/// The columns of a to-one relationship on the table of its source entity.
public struct ForeignKeyColumns: Sendable, Hashable {
    /// `Z<REL>`: the destination's `Z_PK`.
    public let column: String
    /// `Z<n>_<REL>`: the destination's `Z_ENT`, present when the destination entity has
    /// sub-entities (n is its number).
    public let entityColumn: String?
    /// `Z_FOK_<REL>`: the source's position in the inverse relationship, present when the
    /// inverse is an ordered to-many.
    public let orderColumn: String?

    /// Creates the description of a to-one relationship's columns.
    public init(column: String, entityColumn: String?, orderColumn: String?) {
        self.column = column
        self.entityColumn = entityColumn
        self.orderColumn = orderColumn
    }
}

/// The columns of a join table, seen from one relationship.
public struct JoinColumns: Sendable, Hashable {
    /// The join table.
    public let table: String
    /// The column holding the source object's `Z_PK`.
    public let sourceColumn: String
    /// The column holding the destination object's `Z_PK`.
    public let destinationColumn: String
    /// `Z_FOK_…`: the destination's position in this relationship, when it is ordered.
    public let orderColumn: String?
    /// `Z_FOK_…`: the source's position in the inverse relationship, when that is ordered.
    public let inverseOrderColumn: String?

    /// Creates the description of a join table seen from one relationship.
    public init(
        table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?,
        inverseOrderColumn: String?
    ) {
        self.table = table
        self.sourceColumn = sourceColumn
        self.destinationColumn = destinationColumn
        self.orderColumn = orderColumn
        self.inverseOrderColumn = inverseOrderColumn
    }
}

/// How a relationship is stored.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one relationship: columns on the source entity's table.
    case foreignKey(ForeignKeyColumns)
    /// A to-many relationship whose inverse is a to-one: the inverse's columns on the
    /// destination's table (`table`) point back at the source. Its `orderColumn`, when present,
    /// holds the destination's position in this (ordered) relationship.
    case inverseForeignKey(table: String, columns: ForeignKeyColumns)
    /// A many-to-many relationship, or a to-many without inverse: a join table.
    case joinTable(JoinColumns)
}
