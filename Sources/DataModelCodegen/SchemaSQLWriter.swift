import DataModel
import DataModelStoreLayout
import Mustache

/// Writes the schema file exactly as the default `schema.sql` template renders it, straight into a
/// byte buffer.
///
/// The template engine spends most of a large schema's time pushing a context per column; this
/// writer produces the same bytes (byte for byte, which `SchemaWriterTests` checks for every
/// model) without it. ``SchemaRenderer`` uses it only when the library's `schema.sql` is the
/// default template and renders without HTML escaping; a user's template always goes through the
/// engine. A change to `Templates/schema.sql.mustache` needs the same change here.
struct SchemaSQLWriter: ~Copyable {
    private var bytes: MustacheOutputBuffer
    private let ifNotExists: Bool

    private init(ifNotExists: Bool, capacity: Int) {
        self.ifNotExists = ifNotExists
        bytes = MustacheOutputBuffer(capacity: capacity)
    }

    /// The schema file's UTF-8 bytes for `model` laid out as `layout`.
    static func write(_ model: ObjectModel, layout: StoreLayout, ifNotExists: Bool) -> [UInt8] {
        var writer = SchemaSQLWriter(ifNotExists: ifNotExists, capacity: estimatedSize(of: layout))
        writer.writeHeader(model)
        for table in layout.entityTables {
            writer.writeTable(table, comment: SchemaContext.comment(for: table, layout: layout))
        }
        for join in layout.joinTables {
            writer.writeTable(join.table, comment: SchemaContext.comment(for: join, layout: layout))
        }
        for table in layout.systemTables {
            writer.writeTable(table, comment: SchemaContext.comment(for: table, layout: layout))
        }
        if !layout.indexes.isEmpty { writer.write("\n") }
        for index in layout.indexes { writer.writeIndex(index) }
        writer.write("\n")
        for row in layout.primaryKeyRows { writer.writePrimaryKeyRow(row) }
        return writer.bytes.bytes
    }

    /// Room for the whole file, so the buffer rarely grows: about 40 bytes per column, 100 per
    /// index or row.
    private static func estimatedSize(of layout: StoreLayout) -> Int {
        var columns = 0
        for table in layout.entityTables { columns += table.columns.count }
        return 4096 + 40 * columns + 200 * layout.joinTables.count
            + 100 * (layout.indexes.count + layout.primaryKeyRows.count)
    }

    private mutating func writeHeader(_ model: ObjectModel) {
        write("-- ")
        write(string: model.name)
        write(".sql — generated from ")
        write(string: model.name)
        write(".xcdatamodeld (version ")
        write(string: model.versionName)
        write(") by datamodelgen. Do not edit.\n")
        write("-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.\n")
    }

    private mutating func writeTable(_ table: TableLayout, comment: String) {
        write("\n-- ")
        write(string: comment)
        write("\nCREATE TABLE ")
        if ifNotExists { write("IF NOT EXISTS ") }
        writeIdentifier(table.name)
        write(" (\n")
        let singleKey = table.primaryKey.count == 1 ? table.primaryKey[0] : nil
        let hasKeyConstraint = table.primaryKey.count > 1
        for (position, column) in table.columns.enumerated() {
            write("    ")
            writeIdentifier(column.name)
            write(" ")
            write(string: column.type.rawValue)
            if singleKey == column.name { write(" PRIMARY KEY") }
            if position == table.columns.count - 1 && !hasKeyConstraint { write("\n") } else { write(",\n") }
        }
        if hasKeyConstraint {
            write("    PRIMARY KEY (")
            for (position, column) in table.primaryKey.enumerated() {
                if position > 0 { write(", ") }
                writeIdentifier(column)
            }
            write(")\n")
        }
        write(");\n")
    }

    private mutating func writeIndex(_ index: IndexLayout) {
        if index.isUnique { write("CREATE UNIQUE INDEX ") } else { write("CREATE INDEX ") }
        if ifNotExists { write("IF NOT EXISTS ") }
        writeIdentifier(index.name)
        write(" ON ")
        writeIdentifier(index.tableName)
        write(" (")
        for (position, column) in index.columns.enumerated() {
            if position > 0 { write(", ") }
            writeIdentifier(column.name)
            if let order = column.order {
                write(" ")
                write(string: order.rawValue)
            }
        }
        write(");\n")
    }

    private mutating func writePrimaryKeyRow(_ row: PrimaryKeyRow) {
        write(#"INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES ("#)
        write(string: String(row.entityNumber))
        write(", ")
        write(string: SQLQuoting.literal(row.name))
        write(", ")
        write(string: String(row.superentityNumber))
        write(", ")
        write(string: String(row.maximumPrimaryKey))
        write(");\n")
    }

    /// `name` double-quoted as ``SQLQuoting/identifier(_:)`` quotes it, without a string in between
    /// when it has no quote to double.
    private mutating func writeIdentifier(_ name: String) {
        let copied =
            name.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                guard !utf8.contains(UInt8(ascii: "\"")) else { return false }
                bytes.append(UInt8(ascii: "\""))
                bytes.append(utf8)
                bytes.append(UInt8(ascii: "\""))
                return true
            } ?? false
        if !copied { write(string: SQLQuoting.identifier(name)) }
    }

    private mutating func write(string text: String) {
        bytes.append(text)
    }

    /// Writes a literal's bytes, with no string in between.
    private mutating func write(_ literal: StaticString) {
        bytes.append(literal)
    }
}
