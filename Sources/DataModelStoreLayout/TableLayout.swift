/// A column type as Core Data writes it in `CREATE TABLE`.
public enum SQLColumnType: String, Sendable, Hashable, CaseIterable {
    /// `INTEGER`: integers, Booleans, `Z_PK`, `Z_ENT`, `Z_OPT`, foreign keys, `Z_FOK_` positions.
    case integer = "INTEGER"
    /// `FLOAT`: Float and Double.
    case float = "FLOAT"
    /// `TIMESTAMP`: Date, as seconds since 2001-01-01 00:00:00 UTC.
    case timestamp = "TIMESTAMP"
    /// `DECIMAL`: Decimal.
    case decimal = "DECIMAL"
    /// `VARCHAR`: String and URI.
    case varchar = "VARCHAR"
    /// `VARCHAR(255)`: only `Z_METADATA.Z_UUID`.
    case varchar255 = "VARCHAR(255)"
    /// `BLOB`: Binary, UUID, Transformable, Composite.
    case blob = "BLOB"
}

/// What a column holds.
public enum ColumnRole: String, Sendable, Hashable, CaseIterable {
    /// `Z_PK`: the row's primary key.
    case primaryKey
    /// `Z_ENT`: the row's entity number.
    case entity
    /// `Z_OPT`: the optimistic-locking version, bumped on each update.
    case optimisticLock
    /// A stored attribute's value.
    case attribute
    /// A to-one relationship's destination `Z_PK`.
    case foreignKey
    /// `Z<n>_<REL>`: a to-one relationship's destination `Z_ENT` (destination has sub-entities).
    case foreignEntity
    /// `Z_FOK_<REL>`: the row's position in the inverse ordered to-many relationship.
    case foreignOrder
    /// A join table column holding one side's `Z_PK`.
    case joinKey
    /// A join table `Z_FOK_` column holding a position in an ordered to-many relationship.
    case joinOrder
    /// A column of `Z_PRIMARYKEY`, `Z_METADATA` or `Z_MODELCACHE`.
    case system
}

/// One column of a table.
public struct ColumnLayout: Sendable, Hashable {
    /// The column name, e.g. `ZNAME1`.
    public let name: String
    /// The declared SQL type.
    public let type: SQLColumnType
    /// What the column holds.
    public let role: ColumnRole
    /// The number of the entity that declares the property, for property columns.
    public let entityNumber: Int?
    /// The attribute or relationship name in its model spelling, for property columns.
    public let propertyName: String?
    /// The attribute's type, for attribute columns: dialects other than SQLite choose the column type by it
    /// (PostgreSQL's `BOOLEAN`, `UUID`, `JSONB` …).
    public let attributeType: AttributeType?

    /// Creates a column.
    public init(
        name: String, type: SQLColumnType, role: ColumnRole, entityNumber: Int? = nil, propertyName: String? = nil,
        attributeType: AttributeType? = nil
    ) {
        self.name = name
        self.type = type
        self.role = role
        self.entityNumber = entityNumber
        self.propertyName = propertyName
        self.attributeType = attributeType
    }
}

/// What a table is for.
public enum TableKind: Sendable, Hashable {
    /// The table of a root entity and all its sub-entities.
    case entity(rootEntityNumber: Int)
    /// A many-to-many (or inverse-less to-many) join table.
    case join
    /// `Z_PRIMARYKEY`.
    case primaryKey
    /// `Z_METADATA`.
    case metadata
    /// `Z_MODELCACHE`.
    case modelCache
}

/// One table: its name, columns in `CREATE TABLE` order, and primary key.
public struct TableLayout: Sendable, Hashable {
    /// The table name, e.g. `ZCAR` or `Z_1ARTISTS`.
    public let name: String
    /// What the table is for.
    public let kind: TableKind
    /// Columns in `CREATE TABLE` order.
    public let columns: [ColumnLayout]
    /// The primary key's columns: one `INTEGER PRIMARY KEY` column (written inline) or the two
    /// columns of a join table (written as a table constraint).
    public let primaryKey: [String]

    /// Creates a table.
    public init(name: String, kind: TableKind, columns: [ColumnLayout], primaryKey: [String]) {
        self.name = name
        self.kind = kind
        self.columns = columns
        self.primaryKey = primaryKey
    }

    /// The column called `name`, found by a linear search.
    public func column(named name: String) -> ColumnLayout? {
        columns.first { $0.name == name }
    }
}

/// A join table and what its columns mean.
///
/// The **owner** is the relationship that named the table (`Z_<n><OWNER>`, n = the number of
/// the entity declaring it). The first key column holds the `Z_PK` of the owner's source
/// objects and is named after the *inverse* (`Z_<n><INVERSE>`); the second holds the `Z_PK` of
/// the owner's destination objects (`Z_<m><OWNER>`, m = the destination entity's number).
public struct JoinTableLayout: Sendable, Hashable {
    /// The table: key columns, then `Z_FOK_` columns, primary key over both keys.
    public let table: TableLayout
    /// The entity number declaring the owning relationship.
    public let ownerEntityNumber: Int
    /// The owning relationship's name (for an inverse-less to-many whose synthesized inverse
    /// owns the table, the synthesized name, `<relationship>Inverse`).
    public let ownerRelationshipName: String
    /// The owning relationship's destination entity number.
    public let destinationEntityNumber: Int
    /// The inverse relationship's name (possibly synthesized).
    public let inverseRelationshipName: String
    /// The column holding the `Z_PK` of objects of `ownerEntityNumber`.
    public let sourceColumn: String
    /// The column holding the `Z_PK` of objects of `destinationEntityNumber`.
    public let destinationColumn: String
    /// `Z_FOK_…`: a destination's position in the owning relationship, when that is ordered.
    public let destinationOrderColumn: String?
    /// `Z_FOK_…`: a source's position in the inverse relationship, when that is ordered.
    public let sourceOrderColumn: String?

    /// The table name.
    public var name: String { table.name }
}

/// How an index column is written.
public enum IndexColumnOrder: String, Sendable, Hashable {
    /// `COLLATE BINARY ASC`.
    case ascending = "COLLATE BINARY ASC"
    /// `COLLATE BINARY DESC`.
    case descending = "COLLATE BINARY DESC"
}

/// One column of an index.
public struct IndexColumn: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The collation and direction, for fetch indexes and uniqueness constraints; `nil` writes
    /// the bare column, as Core Data does for its own indexes.
    public let order: IndexColumnOrder?

    /// Creates an index column.
    public init(name: String, order: IndexColumnOrder? = nil) {
        self.name = name
        self.order = order
    }
}

/// Why an index exists.
public enum IndexKind: String, Sendable, Hashable, CaseIterable {
    /// `<TABLE>_Z_ENT_INDEX` on a table holding a hierarchy.
    case entityType
    /// `<TABLE>_<FK>_INDEX` on each to-one column.
    case foreignKey
    /// `<TABLE>_<COLUMN>_INDEX` for an attribute marked indexed.
    case attribute
    /// `Z_<Entity>_<index>` for a fetch index.
    case fetchIndex
    /// `Z_<Entity>_UNIQUE_<a>_<b>` for a uniqueness constraint.
    case uniquenessConstraint
    /// `<JOIN>_<second>_INDEX` over a join table's columns in reverse order.
    case joinReverse
}

/// One `CREATE [UNIQUE] INDEX`.
public struct IndexLayout: Sendable, Hashable {
    /// The index name.
    public let name: String
    /// The indexed table.
    public let tableName: String
    /// Whether it is a `UNIQUE` index.
    public let isUnique: Bool
    /// Indexed columns, in order.
    public let columns: [IndexColumn]
    /// Why the index exists.
    public let kind: IndexKind
    /// The number of the entity whose fetch index or constraint this is.
    public let entityNumber: Int?

    /// Creates an index.
    public init(
        name: String, tableName: String, isUnique: Bool = false, columns: [IndexColumn], kind: IndexKind,
        entityNumber: Int? = nil
    ) {
        self.name = name
        self.tableName = tableName
        self.isUnique = isUnique
        self.columns = columns
        self.kind = kind
        self.entityNumber = entityNumber
    }
}

/// One row of `Z_PRIMARYKEY` as a new store holds it.
public struct PrimaryKeyRow: Sendable, Hashable {
    /// `Z_ENT`: the entity number.
    public let entityNumber: Int
    /// `Z_NAME`: the entity name in its model spelling.
    public let name: String
    /// `Z_SUPER`: the parent's entity number, `0` for a root.
    public let superentityNumber: Int
    /// `Z_MAX`: the last primary key handed out, `0` in a new store.
    public let maximumPrimaryKey: Int64
}
