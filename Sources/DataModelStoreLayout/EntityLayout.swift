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

    /// The attributes' and relationships' names, hashed.
    let propertyNames: PropertyNameTable

    init(
        name: String, number: Int, superentityNumber: Int, rootEntityNumber: Int, isAbstract: Bool,
        tableName: String, subentityNumbers: [Int], hierarchyNumbers: ClosedRange<Int>,
        attributes: [AttributeLayout], relationships: [RelationshipLayout], columns: [ColumnLayout],
        propertyNames: PropertyNameTable
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
        self.propertyNames = propertyNames
    }

    /// Whether the entity is a root (`Z_SUPER` = 0).
    public var isRoot: Bool { superentityNumber == 0 }

    /// Whether the entity has sub-entities, so its fetches must filter on `Z_ENT`.
    public var hasSubentities: Bool { !subentityNumbers.isEmpty }

    /// The entity numbers a fetch of this entity (including sub-entities) accepts, ascending.
    public var entityNumbersForFetch: [Int] { Array(hierarchyNumbers) }

    /// The stored attribute called `name` (own or inherited).
    public func attribute(named name: String) -> AttributeLayout? {
        guard
            case .attribute(let index)? = propertyNames.find(name, attributes: attributes, relationships: relationships)
        else { return nil }
        return attributes[index]
    }

    /// The stored relationship called `name` (own or inherited).
    public func relationship(named name: String) -> RelationshipLayout? {
        guard
            case .relationship(let index)? = propertyNames.find(
                name, attributes: attributes, relationships: relationships)
        else { return nil }
        return relationships[index]
    }
}

/// The names of an entity's stored attributes and relationships (no name is both), hashed:
/// ``HashSlot`` entries whose positions are indexes in the entity's `attributes`, or indexes in
/// its `relationships` plus ``relationshipFlag``.
///
/// A sub-entity's table starts from its parent's: inherited properties come first in both
/// lists, so their entries hold as they are, and no inherited name is hashed again.
struct PropertyNameTable: Sendable, Hashable {
    /// Marks the position of a relationship.
    static let relationshipFlag = 1 << 30

    /// What a name is.
    enum Property {
        /// The attribute at this index.
        case attribute(Int)
        /// The relationship at this index.
        case relationship(Int)
    }

    private var slots: [UInt64] = []

    /// An empty table.
    init() {}

    /// A table holding `parent`'s entries, with room for `count` names in all.
    init(extending parent: PropertyNameTable, toHold count: Int) {
        guard count > 0 else { return }
        let wanted = HashSlot.slotCount(for: count)
        slots = parent.slots.count >= wanted ? parent.slots : HashSlot.replaced(parent.slots, slotCount: wanted)
    }

    /// Adds the attribute at `index`, whose name's ``NameHash/hash(_:)`` is `hash`.
    mutating func insertAttribute(at index: Int, hash: UInt64) {
        HashSlot.place(HashSlot.entry(hash: hash, position: index), in: &slots)
    }

    /// Adds the relationship at `index`, whose name's ``NameHash/hash(_:)`` is `hash`.
    mutating func insertRelationship(at index: Int, hash: UInt64) {
        HashSlot.place(HashSlot.entry(hash: hash, position: index | Self.relationshipFlag), in: &slots)
    }

    /// The attribute or relationship called `name`.
    func find(_ name: String, attributes: [AttributeLayout], relationships: [RelationshipLayout]) -> Property? {
        guard !slots.isEmpty else { return nil }
        let found = HashSlot.probe(NameHash.hash(name), in: slots) { position in
            position & Self.relationshipFlag == 0
                ? attributes[position].name == name : relationships[position ^ Self.relationshipFlag].name == name
        }
        guard case .found(let position) = found else { return nil }
        return position & Self.relationshipFlag == 0
            ? .attribute(position) : .relationship(position ^ Self.relationshipFlag)
    }
}

/// Where a stored attribute lives.
public struct AttributeLayout: Sendable, Hashable {
    /// The attribute name in its model spelling.
    public let name: String
    /// The attribute type.
    public let type: AttributeType
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
