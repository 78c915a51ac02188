/// The SQL dialect DDL is written in: how identifiers and strings are quoted and how column types
/// are spelled.
///
/// SQLite is Core Data's store; PostgreSQL gets the same tables and columns with the types a person
/// querying it with `psql` expects. Another dialect is another value of this type, so the writer, the
/// runtime and migrations keep one code path.
public struct SQLDialect: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: String, Sendable, Hashable, CaseIterable {
        case sqlite
        case postgres
    }

    private let kind: Kind

    /// SQLite, as Core Data writes its stores.
    public static let sqlite = SQLDialect(kind: .sqlite)
    /// PostgreSQL: Core Data's tables and columns with PostgreSQL's own types (`BIGINT`, `BOOLEAN`,
    /// `TIMESTAMPTZ`, `UUID`, `BYTEA`, `JSONB` …).
    public static let postgres = SQLDialect(kind: .postgres)

    /// Every dialect, in the order their names are listed.
    public static let all: [SQLDialect] = Kind.allCases.map(SQLDialect.init(kind:))

    /// The dialect named `name` (`sqlite`, `postgres`; `postgresql` is accepted too), or `nil`.
    public init?(name: String) {
        switch name.lowercased() {
        case "sqlite": self = .sqlite
        case "postgres", "postgresql": self = .postgres
        default: return nil
        }
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// The dialect's name as options spell it: `sqlite`, `postgres`.
    public var name: String { kind.rawValue }

    public var description: String { name }

    /// `name` as a quoted identifier (`"order"`), so names that are keywords are safe.
    public func identifier(_ name: String) -> String {
        // Both dialects quote identifiers with double quotes, doubling embedded ones.
        SQLQuoting.identifier(name)
    }

    /// `text` as a string literal (`'O''Neil'`).
    public func literal(_ text: String) -> String {
        SQLQuoting.literal(text)
    }

    /// The column type's name for a column of `type` that holds no attribute (`INTEGER`, `VARCHAR`).
    public func typeName(_ type: SQLColumnType) -> String {
        switch kind {
        case .sqlite: type.rawValue
        case .postgres:
            switch type {
            case .integer: "BIGINT"
            case .float: "DOUBLE PRECISION"
            case .timestamp: "TIMESTAMPTZ"
            case .decimal: "NUMERIC"
            case .varchar: "TEXT"
            case .varchar255: "VARCHAR(255)"
            case .blob: "BYTEA"
            }
        }
    }

    /// The type `column` is declared with: SQLite's is Core Data's (``ColumnLayout/type``); PostgreSQL's
    /// follows the attribute type (`SMALLINT` for Integer 16, `BOOLEAN`, `REAL` for Float, `UUID`,
    /// `JSONB` for Transformable and Composite values …), `BIGINT` for keys, `INTEGER` for `Z_ENT`,
    /// `Z_OPT` and positions.
    public func typeName(of column: ColumnLayout) -> String {
        switch kind {
        case .sqlite: return column.type.rawValue
        case .postgres:
            switch column.role {
            case .primaryKey, .foreignKey, .joinKey: return "BIGINT"
            case .entity, .optimisticLock, .foreignEntity, .foreignOrder, .joinOrder: return "INTEGER"
            case .attribute: break
            case .system:
                // Z_PRIMARYKEY's entity numbers and Z_METADATA's version are small; Z_MAX is a key.
                if ["Z_ENT", "Z_SUPER", "Z_VERSION"].contains(column.name) { return "INTEGER" }
            }
            guard let attributeType = column.attributeType else { return typeName(column.type) }
            switch attributeType {
            case .integer16: return "SMALLINT"
            case .integer32: return "INTEGER"
            case .integer64: return "BIGINT"
            case .boolean: return "BOOLEAN"
            case .float: return "REAL"
            case .double: return "DOUBLE PRECISION"
            case .decimal: return "NUMERIC"
            case .date: return "TIMESTAMPTZ"
            case .string, .uri: return "TEXT"
            case .uuid: return "UUID"
            case .transformable, .composite: return "JSONB"
            case .binary, .objectID, .undefined: return typeName(column.type)
            }
        }
    }

    /// How an index column's collation and direction are written: SQLite's `COLLATE BINARY ASC`,
    /// PostgreSQL's `COLLATE "C" ASC` (byte order: code-point order for UTF-8).
    func indexOrder(_ order: IndexColumnOrder) -> String {
        switch kind {
        case .sqlite: order.rawValue
        case .postgres: order == .ascending ? #"COLLATE "C" ASC"# : #"COLLATE "C" DESC"#
        }
    }

    /// Whether `COLLATE` applies to `column` (PostgreSQL collates text only: the `VARCHAR` columns, String and URI).
    func collates(_ column: ColumnLayout?) -> Bool {
        switch kind {
        case .sqlite: true
        case .postgres: column?.type == .varchar || column?.type == .varchar255
        }
    }

    /// The start of an insert that leaves an existing row alone: `INSERT OR IGNORE INTO "T"`
    /// (PostgreSQL: `INSERT INTO "T"`, ended by ``insertIgnoringExistingSuffix``).
    func insertIgnoringExisting(into table: String) -> String {
        switch kind {
        case .sqlite: "INSERT OR IGNORE INTO " + identifier(table)
        case .postgres: "INSERT INTO " + identifier(table)
        }
    }

    /// The end of an insert that leaves an existing row alone: nothing, or PostgreSQL's
    /// ` ON CONFLICT DO NOTHING`.
    var insertIgnoringExistingSuffix: String {
        switch kind {
        case .sqlite: ""
        case .postgres: " ON CONFLICT DO NOTHING"
        }
    }

    /// Whether foreign key constraints are added after every table exists (`ALTER TABLE … ADD FOREIGN KEY`,
    /// PostgreSQL), rather than written in the column definitions (SQLite, which cannot add them later).
    var addsForeignKeysAfterTables: Bool { kind == .postgres }

    /// The product's name for messages and headers: `SQLite`, `PostgreSQL`.
    public var productName: String {
        switch kind {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }
}

/// The one writer of a store's DDL: the runtime executes its compact statements, and
/// `datamodelgen schema` and `generate`'s `<Model>.sql` are its pretty script.
///
/// The two styles differ in whitespace only: a pretty `CREATE TABLE` puts each column on its own
/// indented line, and the script ends every statement with `;` and puts a comment above each
/// table. Every identifier is quoted, so names that are SQL keywords (`Order`, `group`) are safe.
/// Core Data adds no `NOT NULL`, `FOREIGN KEY` or `CHECK` constraints; neither does this.
///
/// ```swift
/// DDLWriter().createTable(table)
/// // CREATE TABLE "ZCAR" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZMODEL" VARCHAR)
/// DDLWriter(style: .pretty).createTable(table)
/// // CREATE TABLE "ZCAR" (
/// //     "Z_PK" INTEGER PRIMARY KEY,
/// //     …
/// // )
/// ```
public struct DDLWriter: Sendable {
    /// How statements are laid out.
    public enum Style: Sendable, Hashable {
        /// Each statement on one line: what the runtime executes.
        case compact
        /// A `CREATE TABLE`'s columns one per indented line: the schema file.
        case pretty
    }

    /// The dialect statements are written in.
    public var dialect: SQLDialect
    /// How statements are laid out.
    public var style: Style
    /// Whether `CREATE` statements say `IF NOT EXISTS`, so running them again is harmless.
    public var ifNotExists: Bool
    /// Whether to-one foreign keys and join-table keys are declared as real foreign keys (`REFERENCES` the
    /// destination's table, deferred to the end of the transaction, as a save writes rows in any order).
    /// Core Data declares none; only ``statements(for:)`` and ``script(for:header:)`` write them, because they
    /// need the whole layout: inline in SQLite, `ALTER TABLE … ADD FOREIGN KEY` after the tables in PostgreSQL.
    public var foreignKeys: Bool

    /// Creates a writer.
    public init(
        dialect: SQLDialect = .sqlite, style: Style = .compact, ifNotExists: Bool = false, foreignKeys: Bool = false
    ) {
        self.dialect = dialect
        self.style = style
        self.ifNotExists = ifNotExists
        self.foreignKeys = foreignKeys
    }

    // MARK: Statements

    /// The statements that create an empty store: every `CREATE TABLE` (entity tables, join
    /// tables, `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`), then every `CREATE INDEX`.
    public func statements(for layout: StoreLayout) -> [String] {
        var statements: [String] = []
        statements.reserveCapacity(layout.entityTables.count + layout.joinTables.count + 3 + layout.indexes.count)
        for table in layout.tables {
            var text = ""
            writeCreateTable(table, references: inlineReferences(of: table, in: layout), to: &text)
            statements.append(text)
        }
        for index in layout.indexes {
            var text = ""
            writeCreateIndex(index, table: layout.table(named: index.tableName), to: &text)
            statements.append(text)
        }
        statements += addedForeignKeys(in: layout)
        return statements
    }

    /// The inserts of the rows a new store's `Z_PRIMARYKEY` holds: run after ``statements(for:)``.
    public func primaryKeyRowStatements(for layout: StoreLayout) -> [String] {
        layout.primaryKeyRows.map(insertPrimaryKeyRow)
    }

    /// The `CREATE TABLE` statement for `table`.
    ///
    /// A one-column primary key is written inline (`"Z_PK" INTEGER PRIMARY KEY`, so it is the
    /// rowid); a two-column one as a table constraint.
    public func createTable(_ table: TableLayout) -> String {
        var text = ""
        writeCreateTable(table, references: [:], to: &text)
        return text
    }

    /// The `CREATE [UNIQUE] INDEX` statement for `index` on `table` (which tells a dialect that collates text
    /// only which columns are text).
    public func createIndex(_ index: IndexLayout, on table: TableLayout? = nil) -> String {
        var text = ""
        writeCreateIndex(index, table: table, to: &text)
        return text
    }

    /// The insert of one `Z_PRIMARYKEY` row, leaving an existing row alone.
    public func insertPrimaryKeyRow(_ row: PrimaryKeyRow) -> String {
        var text = ""
        writeInsert(row, to: &text)
        return text
    }

    // MARK: Parts (also the schema template's keys)

    /// A table's column definitions (`"ZNAME" VARCHAR`, `"Z_PK" INTEGER PRIMARY KEY`), then a
    /// `PRIMARY KEY (…)` constraint for a primary key of several columns.
    public func columnDefinitions(of table: TableLayout) -> [String] {
        var definitions: [String] = []
        definitions.reserveCapacity(table.columns.count + 1)
        forEachDefinition(of: table, references: [:]) { write in
            var text = ""
            write(&text)
            definitions.append(text)
        }
        return definitions
    }

    /// An index's column list without parentheses: `"ZNAME" COLLATE BINARY ASC, "Z_ENT"` (`table`, the index's
    /// table, tells a dialect that collates text only which columns are text).
    public func indexColumns(of index: IndexLayout, on table: TableLayout? = nil) -> String {
        var text = ""
        writeIndexColumns(index, table: table, to: &text)
        return text
    }

    // MARK: Script

    /// The schema file: `header` as `--` comment lines, each table under a comment saying what it
    /// holds (``StoreLayout/description(of:)``), then the indexes and the `Z_PRIMARYKEY` rows;
    /// every statement ends with `;`.
    public func script(for layout: StoreLayout, header: [String]) -> String {
        var text = ""
        var columns = 0
        for table in layout.entityTables { columns += table.columns.count }
        text.reserveCapacity(
            4096 + 40 * columns + 200 * layout.joinTables.count
                + 100 * (layout.indexes.count + layout.primaryKeyRows.count))
        for line in header {
            text += "-- "
            text += line
            text += "\n"
        }
        for table in layout.tables {
            text += "\n-- "
            text += layout.description(of: table)
            text += "\n"
            writeCreateTable(table, references: inlineReferences(of: table, in: layout), to: &text)
            text += ";\n"
        }
        if !layout.indexes.isEmpty { text += "\n" }
        for index in layout.indexes {
            writeCreateIndex(index, table: layout.table(named: index.tableName), to: &text)
            text += ";\n"
        }
        let constraints = addedForeignKeys(in: layout)
        if !constraints.isEmpty { text += "\n" }
        for constraint in constraints {
            text += constraint
            text += ";\n"
        }
        text += "\n"
        for row in layout.primaryKeyRows {
            writeInsert(row, to: &text)
            text += ";\n"
        }
        return text
    }

    // MARK: Writing

    /// The destination table of each key column of `table` (to-one foreign keys, join-table keys), by column.
    public func referencedTables(of table: TableLayout, in layout: StoreLayout) -> [(column: String, table: String)] {
        var references: [(column: String, table: String)] = []
        switch table.kind {
        case .entity:
            for column in table.columns where column.role == .foreignKey {
                guard let number = column.entityNumber, let name = column.propertyName,
                    let relationship = layout.entity(number: number)?.relationship(named: name),
                    let destination = layout.entity(number: relationship.destinationEntityNumber)
                else { continue }
                references.append((column.name, destination.tableName))
            }
        case .join:
            guard let join = layout.joinTable(named: table.name) else { break }
            if let owner = layout.entity(number: join.ownerEntityNumber) {
                references.append((join.sourceColumn, owner.tableName))
            }
            if let destination = layout.entity(number: join.destinationEntityNumber) {
                references.append((join.destinationColumn, destination.tableName))
            }
        case .primaryKey, .metadata, .modelCache: break
        }
        return references
    }

    /// The references written in `table`'s column definitions: none unless ``foreignKeys`` is set and the
    /// dialect declares them inline.
    private func inlineReferences(of table: TableLayout, in layout: StoreLayout) -> [String: String] {
        guard foreignKeys, !dialect.addsForeignKeysAfterTables else { return [:] }
        var references: [String: String] = [:]
        for reference in referencedTables(of: table, in: layout) { references[reference.column] = reference.table }
        return references
    }

    /// `ALTER TABLE … ADD FOREIGN KEY` for every key column, when ``foreignKeys`` is set and the dialect adds
    /// them after the tables.
    private func addedForeignKeys(in layout: StoreLayout) -> [String] {
        guard foreignKeys, dialect.addsForeignKeysAfterTables else { return [] }
        var statements: [String] = []
        for table in layout.tables {
            for reference in referencedTables(of: table, in: layout) {
                var text = "ALTER TABLE "
                writeIdentifier(table.name, to: &text)
                text += " ADD FOREIGN KEY ("
                writeIdentifier(reference.column, to: &text)
                text += ") "
                writeReference(to: reference.table, to: &text)
                statements.append(text)
            }
        }
        return statements
    }

    /// `REFERENCES "ZTABLE" ("Z_PK") DEFERRABLE INITIALLY DEFERRED`.
    private func writeReference(to table: String, to text: inout String) {
        text += "REFERENCES "
        writeIdentifier(table, to: &text)
        text += #" ("Z_PK") DEFERRABLE INITIALLY DEFERRED"#
    }

    private func writeCreateTable(_ table: TableLayout, references: [String: String], to text: inout String) {
        text += ifNotExists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE "
        writeIdentifier(table.name, to: &text)
        let pretty = style == .pretty
        text += pretty ? " (\n    " : " ("
        var first = true
        forEachDefinition(of: table, references: references) { write in
            if !first { text += pretty ? ",\n    " : ", " }
            first = false
            write(&text)
        }
        text += pretty ? "\n)" : ")"
    }

    /// Calls `body` once per column definition (and primary key constraint) of `table`, with a
    /// function that writes it.
    private func forEachDefinition(
        of table: TableLayout, references: [String: String], _ body: ((inout String) -> Void) -> Void
    ) {
        let singleKey = table.primaryKey.count == 1 ? table.primaryKey[0] : nil
        for column in table.columns {
            body { text in
                writeIdentifier(column.name, to: &text)
                text += " "
                text += dialect.typeName(of: column)
                if singleKey == column.name { text += " PRIMARY KEY" }
                if let destination = references[column.name] {
                    text += " "
                    writeReference(to: destination, to: &text)
                }
            }
        }
        if table.primaryKey.count > 1 {
            body { text in
                text += "PRIMARY KEY ("
                for (position, column) in table.primaryKey.enumerated() {
                    if position > 0 { text += ", " }
                    writeIdentifier(column, to: &text)
                }
                text += ")"
            }
        }
    }

    private func writeCreateIndex(_ index: IndexLayout, table: TableLayout?, to text: inout String) {
        text += index.isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX "
        if ifNotExists { text += "IF NOT EXISTS " }
        writeIdentifier(index.name, to: &text)
        text += " ON "
        writeIdentifier(index.tableName, to: &text)
        text += " ("
        writeIndexColumns(index, table: table, to: &text)
        text += ")"
    }

    private func writeIndexColumns(_ index: IndexLayout, table: TableLayout?, to text: inout String) {
        for (position, column) in index.columns.enumerated() {
            if position > 0 { text += ", " }
            writeIdentifier(column.name, to: &text)
            if let order = column.order {
                text += " "
                if dialect.collates(table?.columns.first { $0.name == column.name }) {
                    text += dialect.indexOrder(order)
                } else {
                    text += order == .ascending ? "ASC" : "DESC"
                }
            }
        }
    }

    private func writeInsert(_ row: PrimaryKeyRow, to text: inout String) {
        text += dialect.insertIgnoringExisting(into: "Z_PRIMARYKEY")
        text += #" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES ("#
        text += String(row.entityNumber)
        text += ", "
        text += dialect.literal(row.name)
        text += ", "
        text += String(row.superentityNumber)
        text += ", "
        text += String(row.maximumPrimaryKey)
        text += ")"
        text += dialect.insertIgnoringExistingSuffix
    }

    private func writeIdentifier(_ name: String, to text: inout String) {
        text += dialect.identifier(name)
    }
}

extension StoreLayout {
    /// What `table` holds, for the comment above it in the schema file: `Entities: Car (1),
    /// SportCar (2)`, `Many-to-many: Owner.relationship ↔ inverse`, or the system table's purpose.
    public func description(of table: TableLayout) -> String {
        switch table.kind {
        case .entity(let root):
            var comment = "Entities: "
            guard let rootEntity = entity(number: root) else { return comment }
            for number in rootEntity.hierarchyNumbers {
                guard let entity = entity(number: number) else { continue }
                if number != root { comment += ", " }
                comment += entity.name
                comment += " ("
                comment += String(number)
                comment += ")"
            }
            return comment
        case .join:
            guard let join = joinTable(named: table.name) else { return "Many-to-many join table" }
            let owner = entity(number: join.ownerEntityNumber)?.name ?? "?"
            return "Many-to-many: \(owner).\(join.ownerRelationshipName) ↔ \(join.inverseRelationshipName)"
        case .primaryKey:
            return "Entity numbers and the last primary key handed out per entity"
        case .metadata:
            return "Store metadata"
        case .modelCache:
            return "Cached compiled model"
        }
    }
}
