/// Core Data's SQLite store layout for a model: entity numbers, tables, columns and indexes.
///
/// Both the generator (which renders it through a template) and the runtime (which creates and
/// queries stores with it) use this one layout, so a store the runtime writes looks like one
/// Core Data writes. Everything is in a deterministic order; lookups by name are hashed.
///
/// ```swift
/// let layout = try StoreLayout(model: model)
/// layout.entity(named: "SportCar")?.number        // 2
/// layout.entity(named: "SportCar")?.tableName     // "ZCAR"
/// for sql in layout.ddlStatements(ifNotExists: true) { try db.execute(sql: sql) }
/// for sql in layout.primaryKeyRowStatements() { try db.execute(sql: sql) }
/// ```
///
/// The naming rules, and which of them were observed in real stores, are documented on
/// ``StoreNaming``, on the builder stages and in `Docs/StoreLayout.md`.
public struct StoreLayout: Sendable, Hashable {
    /// Every entity, in entity-number order: `entities[i].number == i + 1`.
    public let entities: [EntityLayout]
    /// The rows a new store's `Z_PRIMARYKEY` holds, in entity-number order.
    public let primaryKeyRows: [PrimaryKeyRow]
    /// One table per root entity, in root entity-number order.
    public let entityTables: [TableLayout]
    /// Join tables, in the order they were created (the many-to-many walk).
    public let joinTables: [JoinTableLayout]
    /// `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`.
    public let systemTables: [TableLayout]
    /// Every index: per entity table its foreign key, attribute, `Z_ENT`, fetch and uniqueness
    /// indexes, then the join tables' reverse indexes.
    public let indexes: [IndexLayout]

    /// Entity names in number order.
    private let entityIndex: NameIndex
    /// Table names in ``tables`` order.
    private let tableIndex: NameIndex

    /// Lays out `model`.
    ///
    /// - Throws: ``StoreLayoutError`` for a model that cannot be laid out: duplicate entities or
    ///   properties, unknown parents, destinations or inverses, inheritance cycles, indexes or
    ///   constraints naming no stored attribute or to-one relationship.
    public init(model: LayoutModel) throws(StoreLayoutError) {
        var builder = StoreLayoutBuilder(model: model)
        self = try builder.build()
    }

    /// Creates a layout; `entityIndex` holds the names of `entities`, in their order.
    init(
        entities: [EntityLayout], entityIndex: NameIndex, primaryKeyRows: [PrimaryKeyRow],
        entityTables: [TableLayout], joinTables: [JoinTableLayout], systemTables: [TableLayout],
        indexes: [IndexLayout]
    ) {
        self.entities = entities
        self.primaryKeyRows = primaryKeyRows
        self.entityTables = entityTables
        self.joinTables = joinTables
        self.systemTables = systemTables
        self.indexes = indexes
        self.entityIndex = entityIndex
        var tableIndex = NameIndex(capacity: entityTables.count + joinTables.count + systemTables.count)
        for table in entityTables { tableIndex.insert(table.name) }
        for join in joinTables { tableIndex.insert(join.name) }
        for table in systemTables { tableIndex.insert(table.name) }
        self.tableIndex = tableIndex
    }

    /// Every table in `CREATE TABLE` order: entity tables, join tables, system tables.
    public var tables: [TableLayout] {
        entityTables + joinTables.map(\.table) + systemTables
    }

    /// The entity called `name` (model spelling).
    public func entity(named name: String) -> EntityLayout? {
        entityIndex.position(of: name).map { entities[$0] }
    }

    /// The entity with `Z_ENT` = `number`.
    public func entity(number: Int) -> EntityLayout? {
        entities.indices.contains(number - 1) ? entities[number - 1] : nil
    }

    /// The table called `name`.
    public func table(named name: String) -> TableLayout? {
        guard var position = tableIndex.position(of: name) else { return nil }
        if position < entityTables.count { return entityTables[position] }
        position -= entityTables.count
        if position < joinTables.count { return joinTables[position].table }
        return systemTables[position - joinTables.count]
    }

    /// The join table called `name`.
    public func joinTable(named name: String) -> JoinTableLayout? {
        guard let position = tableIndex.position(of: name), position >= entityTables.count,
            position - entityTables.count < joinTables.count
        else { return nil }
        return joinTables[position - entityTables.count]
    }
}

// MARK: - DDL

extension StoreLayout {
    /// The statements that create an empty store, as the runtime executes them: ``DDLWriter``'s
    /// compact ``DDLWriter/statements(for:)``.
    ///
    /// - Parameter ifNotExists: write `IF NOT EXISTS`, so running them again is harmless.
    public func ddlStatements(ifNotExists: Bool = false) -> [String] {
        DDLWriter(ifNotExists: ifNotExists).statements(for: self)
    }

    /// `INSERT OR IGNORE INTO "Z_PRIMARYKEY" …` for each of ``primaryKeyRows``: run after
    /// ``ddlStatements(ifNotExists:)`` when creating a store.
    public func primaryKeyRowStatements() -> [String] {
        DDLWriter().primaryKeyRowStatements(for: self)
    }
}
