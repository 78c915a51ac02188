import DataModel
import DataModelNaming
import DataModelStoreLayout
import Mustache

/// How a schema is written: the SQL dialect, `IF NOT EXISTS`, real foreign keys.
public struct SchemaOptions: Sendable, Hashable {
    /// The dialect: SQLite (Core Data's store, the default) or PostgreSQL.
    public var dialect: SQLDialect
    /// Whether statements say `IF NOT EXISTS`.
    public var ifNotExists: Bool
    /// Whether key columns are declared as foreign keys (``DDLWriter/foreignKeys``).
    public var foreignKeys: Bool

    /// Creates options; the defaults are Core Data's SQLite schema.
    public init(dialect: SQLDialect = .sqlite, ifNotExists: Bool = false, foreignKeys: Bool = false) {
        self.dialect = dialect
        self.ifNotExists = ifNotExists
        self.foreignKeys = foreignKeys
    }

    /// The pretty writer for these options.
    var writer: DDLWriter {
        DDLWriter(dialect: dialect, style: .pretty, ifNotExists: ifNotExists, foreignKeys: foreignKeys)
    }
}

/// Renders a model's schema (SQLite, or PostgreSQL with ``SchemaOptions/dialect``), in Core Data's store
/// layout: the store layout's ``DDLWriter`` script, or a user's own `schema.sql` template.
///
/// The schema file is the ``DDLWriter``'s pretty script, the same writer whose compact statements
/// the runtime executes. A user's `schema.sql.mustache` (`--templates`) renders through the
/// template engine with the schema keys instead.
public struct SchemaRenderer: Sendable {
    /// The compiled templates: a user's `schema.sql`, if any.
    public var library: MustacheLibrary
    /// The dialect, `IF NOT EXISTS` and foreign keys.
    public var options: SchemaOptions
    /// Whether the schema is the default one, written by the ``DDLWriter``; `false` when the
    /// library's `schema.sql` is a user's template.
    public var usesDefaultTemplate: Bool

    /// Creates a renderer.
    ///
    /// - Parameter usesDefaultTemplate: Pass `false` when `library`'s `schema.sql` is a user's
    ///   template, to render it instead of the writer's script.
    public init(library: MustacheLibrary, options: SchemaOptions = SchemaOptions(), usesDefaultTemplate: Bool = false) {
        self.library = library
        self.options = options
        self.usesDefaultTemplate = usesDefaultTemplate
    }

    /// Whether the writer writes the schema: the default, or a library without a `schema.sql` template.
    private var writesDirectly: Bool {
        usesDefaultTemplate || !library.templateNames.contains(CodeGenerator.TemplateName.schema)
    }

    /// The default schema file: the ``DDLWriter``'s pretty script under a header naming the model.
    public static func script(
        for model: ObjectModel, layout: StoreLayout, options: SchemaOptions = SchemaOptions()
    ) -> String {
        options.writer.script(
            for: layout,
            header: [
                "\(model.name).sql — generated from \(model.name).xcdatamodeld (version \(model.versionName)) by datamodelgen. Do not edit.",
                "\(options.dialect.productName) schema in Core Data's store layout: the runtime reads and writes exactly these tables.",
            ])
    }

    /// The layout of `model`; throws a located diagnostic when the model cannot be laid out.
    public static func layout(of model: ObjectModel) throws(SchemaLayoutError) -> StoreLayout {
        do {
            return try StoreLayout(model: LayoutModel(model))
        } catch {
            throw SchemaLayoutError(
                diagnostic: .error(
                    "cannot lay out the store: \(error.description)", rule: .storeLayout, at: model.location))
        }
    }

    /// The schema file's text for `model` laid out as `layout`.
    public func render(_ model: ObjectModel, layout: StoreLayout) throws(MustacheError) -> String {
        if writesDirectly { return Self.script(for: model, layout: layout, options: options) }
        return try library.render(
            CodeGenerator.TemplateName.schema,
            with: SchemaContext(model: model, layout: layout, options: options))
    }

    /// The schema file's UTF-8 bytes for `model` laid out as `layout`.
    public func renderUTF8(_ model: ObjectModel, layout: StoreLayout) throws(MustacheError) -> [UInt8] {
        if writesDirectly { return Array(Self.script(for: model, layout: layout, options: options).utf8) }
        return try library.renderUTF8(
            CodeGenerator.TemplateName.schema,
            withContexts: [SchemaContext(model: model, layout: layout, options: options).mustacheValue])
    }
}

/// The keys of the `schema.sql` template (documented in `Templates/README.md`).
struct SchemaContext: MustacheRepresentable {
    var model: ObjectModel
    var layout: StoreLayout
    var options: SchemaOptions

    var mustacheValue: MustacheValue {
        .object(SchemaObject(model: model, layout: layout, options: options))
    }
}

/// A model that passed validation but cannot be laid out as a store.
public struct SchemaLayoutError: Error, Sendable {
    /// What is wrong, located at the model.
    public var diagnostic: Diagnostic
}

/// The `schema.sql` template's root keys.
final class SchemaObject: KeyedMustacheObject {
    let model: ObjectModel
    let options: SchemaOptions
    let tables: [MustacheValue]
    let indexes: [MustacheValue]
    let primaryKeyRows: [MustacheValue]
    let foreignKeys: [MustacheValue]

    init(model: ObjectModel, layout: StoreLayout, options: SchemaOptions) {
        self.model = model
        self.options = options
        let writer = options.writer
        tables = layout.tables.map { table in
            .object(SchemaTableObject(table: table, comment: layout.description(of: table), writer: writer))
        }
        indexes = layout.indexes.map { index in
            .object(SchemaIndexObject(index, table: layout.table(named: index.tableName), writer: writer))
        }
        primaryKeyRows = layout.primaryKeyRows.map { .object(SchemaPrimaryKeyRowObject($0, writer: writer)) }
        var foreignKeys: [MustacheValue] = []
        if options.foreignKeys {
            for table in layout.tables {
                for reference in writer.referencedTables(of: table, in: layout) {
                    foreignKeys.append(
                        .object(
                            SchemaForeignKeyObject(
                                table: table.name, column: reference.column, destination: reference.table,
                                dialect: options.dialect)))
                }
            }
        }
        self.foreignKeys = foreignKeys
    }

    enum Key: String, CaseIterable, Sendable {
        case modelName, versionName, sourceFileName, ifNotExists, tables, indexes, hasIndexes, primaryKeyRows
        case dialect, foreignKeys
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .modelName: return .string(model.name)
        case .versionName: return .string(model.versionName)
        case .sourceFileName: return .string(ModelNaming.sourceFileName(modelName: model.name))
        case .ifNotExists: return .string(options.ifNotExists ? "IF NOT EXISTS " : "")
        case .dialect: return .string(options.dialect.name)
        case .foreignKeys: return .array(foreignKeys)
        case .tables: return .array(tables)
        case .indexes: return .array(indexes)
        case .hasIndexes: return .bool(!indexes.isEmpty)
        case .primaryKeyRows: return .array(primaryKeyRows)
        }
    }
}

/// A table of `schema.sql`.
final class SchemaTableObject: KeyedMustacheObject {
    let table: TableLayout
    let comment: String
    let writer: DDLWriter

    init(table: TableLayout, comment: String, writer: DDLWriter) {
        self.table = table
        self.comment = comment
        self.writer = writer
    }

    /// The column definitions, then a table constraint for a primary key of several columns.
    var columns: [MustacheValue] {
        let definitions = writer.columnDefinitions(of: table)
        let last = definitions.count - 1
        return definitions.enumerated().map { index, definition in
            .object(SchemaColumnObject(definition: definition, isLast: index == last))
        }
    }

    enum Key: String, CaseIterable, Sendable {
        case `name`, plainName, comment, columns
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .name: return .string(SQLQuoting.identifier(table.name))
        case .plainName: return .string(table.name)
        case .comment: return .string(comment)
        case .columns: return .array(columns)
        }
    }
}

/// A column definition of `schema.sql`.
final class SchemaColumnObject: KeyedMustacheObject {
    let definition: String
    let isLast: Bool

    init(definition: String, isLast: Bool) {
        self.definition = definition
        self.isLast = isLast
    }

    enum Key: String, CaseIterable, Sendable {
        case definition, separator
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .definition: return .string(definition)
        case .separator: return .string(isLast ? "" : ",")
        }
    }
}

/// An index of `schema.sql`.
final class SchemaIndexObject: KeyedMustacheObject {
    let index: IndexLayout
    let table: TableLayout?
    let writer: DDLWriter

    init(_ index: IndexLayout, table: TableLayout?, writer: DDLWriter) {
        self.index = index
        self.table = table
        self.writer = writer
    }

    enum Key: String, CaseIterable, Sendable {
        case `name`, table, unique, columns
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .name: return .string(SQLQuoting.identifier(index.name))
        case .table: return .string(SQLQuoting.identifier(index.tableName))
        case .unique: return .string(index.isUnique ? "UNIQUE " : "")
        case .columns: return .string(writer.indexColumns(of: index, on: table))
        }
    }
}

/// A `Z_PRIMARYKEY` row of `schema.sql`.
final class SchemaPrimaryKeyRowObject: KeyedMustacheObject {
    let row: PrimaryKeyRow
    let writer: DDLWriter

    init(_ row: PrimaryKeyRow, writer: DDLWriter) {
        self.row = row
        self.writer = writer
    }

    enum Key: String, CaseIterable, Sendable {
        case entityNumber, `name`, superentityNumber, maximumPrimaryKey, statement
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .entityNumber: return .int(row.entityNumber)
        case .name: return .string(SQLQuoting.literal(row.name))
        case .superentityNumber: return .int(row.superentityNumber)
        case .maximumPrimaryKey: return .string(String(row.maximumPrimaryKey))
        case .statement: return .string(writer.insertPrimaryKeyRow(row))
        }
    }
}

/// A foreign key of `schema.sql` (only with ``SchemaOptions/foreignKeys``).
final class SchemaForeignKeyObject: KeyedMustacheObject {
    let table: String
    let column: String
    let destination: String
    let dialect: SQLDialect

    init(table: String, column: String, destination: String, dialect: SQLDialect) {
        self.table = table
        self.column = column
        self.destination = destination
        self.dialect = dialect
    }

    enum Key: String, CaseIterable, Sendable {
        case table, column, destination
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .table: return .string(dialect.identifier(table))
        case .column: return .string(dialect.identifier(column))
        case .destination: return .string(dialect.identifier(destination))
        }
    }
}
