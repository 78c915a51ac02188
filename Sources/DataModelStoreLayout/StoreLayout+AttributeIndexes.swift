/// What brings a store's attribute indexes in line with its layout.
///
/// An attribute's `indexed` flag is not part of an entity's version hash (nor of Core Data's): two model versions
/// that differ only there are the same version to a store, so no migration runs between them. The indexes are
/// compared with the ones the store has instead, whenever it is opened or migrated.
public struct AttributeIndexRepair: Sendable, Hashable {
    /// One line per index created or dropped, for a migration report.
    public var steps: [String]
    /// The statements, in order (`CREATE INDEX IF NOT EXISTS`, `DROP INDEX IF EXISTS`: running them twice is
    /// harmless).
    public var statements: [String]

    /// Creates a repair (empty: nothing to do).
    public init(steps: [String] = [], statements: [String] = []) {
        self.steps = steps
        self.statements = statements
    }

    /// Whether there is nothing to do.
    public var isEmpty: Bool { statements.isEmpty }
}

extension StoreLayout {
    /// The repair of the attribute indexes (``IndexKind/attribute``, `<TABLE>_<COLUMN>_INDEX`) of a store whose
    /// tables have this layout and which holds the indexes named `existing`.
    ///
    /// Every attribute index of the layout the store lacks is created. With `droppingStale`, every index named as an
    /// attribute index of an attribute column of one of the layout's tables, but which the layout does not have, is
    /// dropped; only a migration does that (a program of an older version that shares the store must not remove
    /// what the newer one created). Other indexes (a person's own, or any other kind) are never touched.
    public func attributeIndexRepair(
        existing: Set<String>, droppingStale: Bool, dialect: SQLDialect = .sqlite
    ) -> AttributeIndexRepair {
        var repair = AttributeIndexRepair()
        let writer = DDLWriter(dialect: dialect, ifNotExists: true)
        for index in indexes where index.kind == .attribute && !existing.contains(index.name) {
            repair.steps.append("create index \(index.name) (the store lacks it)")
            repair.statements.append(writer.createIndex(index, on: table(named: index.tableName)))
        }
        guard droppingStale else { return repair }
        let names = Set(indexes.map(\.name))
        for table in tables {
            for column in table.columns where column.role == .attribute {
                let name = StoreNaming.columnIndex(table: table.name, column: column.name)
                guard existing.contains(name), !names.contains(name) else { continue }
                repair.steps.append("drop index \(name) (the model no longer indexes \(column.name))")
                repair.statements.append("DROP INDEX IF EXISTS " + dialect.identifier(name))
            }
        }
        return repair
    }
}
