/// The SQL dialect DDL is written in: how identifiers and strings are quoted and how column types
/// are spelled.
///
/// Only SQLite exists today (Core Data's store); another dialect is another value of this type,
/// so the writer, the runtime and migrations keep one code path.
public struct SQLDialect: Sendable, Hashable {
    private enum Kind: Sendable, Hashable {
        case sqlite
    }

    private let kind: Kind

    /// SQLite, as Core Data writes its stores.
    public static let sqlite = SQLDialect(kind: .sqlite)

    /// `name` as a quoted identifier (`"order"`), so names that are keywords are safe.
    public func identifier(_ name: String) -> String {
        switch kind {
        case .sqlite: SQLQuoting.identifier(name)
        }
    }

    /// `text` as a string literal (`'O''Neil'`).
    public func literal(_ text: String) -> String {
        switch kind {
        case .sqlite: SQLQuoting.literal(text)
        }
    }

    /// The column type's name (`INTEGER`, `VARCHAR`).
    public func typeName(_ type: SQLColumnType) -> String {
        switch kind {
        case .sqlite: type.rawValue
        }
    }

    /// The start of an insert that leaves an existing row alone: `INSERT OR IGNORE INTO "T"`.
    func insertIgnoringExisting(into table: String) -> String {
        switch kind {
        case .sqlite: "INSERT OR IGNORE INTO " + identifier(table)
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

    /// Creates a writer.
    public init(dialect: SQLDialect = .sqlite, style: Style = .compact, ifNotExists: Bool = false) {
        self.dialect = dialect
        self.style = style
        self.ifNotExists = ifNotExists
    }

    // MARK: Statements

    /// The statements that create an empty store: every `CREATE TABLE` (entity tables, join
    /// tables, `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`), then every `CREATE INDEX`.
    public func statements(for layout: StoreLayout) -> [String] {
        var statements: [String] = []
        statements.reserveCapacity(layout.entityTables.count + layout.joinTables.count + 3 + layout.indexes.count)
        for table in layout.tables { statements.append(createTable(table)) }
        for index in layout.indexes { statements.append(createIndex(index)) }
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
        writeCreateTable(table, to: &text)
        return text
    }

    /// The `CREATE [UNIQUE] INDEX` statement for `index`.
    public func createIndex(_ index: IndexLayout) -> String {
        var text = ""
        writeCreateIndex(index, to: &text)
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
        forEachDefinition(of: table) { write in
            var text = ""
            write(&text)
            definitions.append(text)
        }
        return definitions
    }

    /// An index's column list without parentheses: `"ZNAME" COLLATE BINARY ASC, "Z_ENT"`.
    public func indexColumns(of index: IndexLayout) -> String {
        var text = ""
        writeIndexColumns(index, to: &text)
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
            writeCreateTable(table, to: &text)
            text += ";\n"
        }
        if !layout.indexes.isEmpty { text += "\n" }
        for index in layout.indexes {
            writeCreateIndex(index, to: &text)
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

    private func writeCreateTable(_ table: TableLayout, to text: inout String) {
        text += ifNotExists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE "
        writeIdentifier(table.name, to: &text)
        let pretty = style == .pretty
        text += pretty ? " (\n    " : " ("
        var first = true
        forEachDefinition(of: table) { write in
            if !first { text += pretty ? ",\n    " : ", " }
            first = false
            write(&text)
        }
        text += pretty ? "\n)" : ")"
    }

    /// Calls `body` once per column definition (and primary key constraint) of `table`, with a
    /// function that writes it.
    private func forEachDefinition(of table: TableLayout, _ body: ((inout String) -> Void) -> Void) {
        let singleKey = table.primaryKey.count == 1 ? table.primaryKey[0] : nil
        for column in table.columns {
            body { text in
                writeIdentifier(column.name, to: &text)
                text += " "
                text += dialect.typeName(column.type)
                if singleKey == column.name { text += " PRIMARY KEY" }
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

    private func writeCreateIndex(_ index: IndexLayout, to text: inout String) {
        text += index.isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX "
        if ifNotExists { text += "IF NOT EXISTS " }
        writeIdentifier(index.name, to: &text)
        text += " ON "
        writeIdentifier(index.tableName, to: &text)
        text += " ("
        writeIndexColumns(index, to: &text)
        text += ")"
    }

    private func writeIndexColumns(_ index: IndexLayout, to text: inout String) {
        for (position, column) in index.columns.enumerated() {
            if position > 0 { text += ", " }
            writeIdentifier(column.name, to: &text)
            if let order = column.order {
                text += " "
                text += order.rawValue
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
