import DataModel
import DataModelNaming
import DataModelStoreLayout
import Mustache

/// Renders a model's SQLite schema, in Core Data's store layout, through the `schema.sql` template.
///
/// When the library's `schema.sql` is the default template (``usesDefaultTemplate``) and renders
/// without HTML escaping, the text is written directly, byte for byte what the template renders,
/// without the template engine's per-column work.
public struct SchemaRenderer: Sendable {
    /// The compiled templates (must include `schema.sql`).
    public var library: MustacheLibrary
    /// Whether statements say `IF NOT EXISTS`.
    public var ifNotExists: Bool
    /// Whether the library's `schema.sql` is the default template (not a user's override), so the
    /// renderer may write its text directly.
    public var usesDefaultTemplate: Bool

    /// Creates a renderer.
    ///
    /// - Parameter usesDefaultTemplate: Pass `true` only when `library`'s `schema.sql` was compiled
    ///   from the default template, `Templates/schema.sql.mustache`.
    public init(library: MustacheLibrary, ifNotExists: Bool = false, usesDefaultTemplate: Bool = false) {
        self.library = library
        self.ifNotExists = ifNotExists
        self.usesDefaultTemplate = usesDefaultTemplate
    }

    /// Whether rendering writes the default template's text directly.
    private var writesDirectly: Bool {
        usesDefaultTemplate && !library.options.escapesHTML
    }

    /// The layout of `model`; throws a located diagnostic when the model cannot be laid out.
    public static func layout(of model: ObjectModel) throws(SchemaLayoutError) -> StoreLayout {
        do {
            return try StoreLayout(model: LayoutModel(model))
        } catch {
            throw SchemaLayoutError(
                diagnostic: .error(
                    "cannot lay out the store: \(error.description)", rule: "store-layout", at: model.location))
        }
    }

    /// The schema file's text for `model` laid out as `layout`.
    public func render(_ model: ObjectModel, layout: StoreLayout) throws(MustacheError) -> String {
        if writesDirectly {
            return String(
                decoding: SchemaSQLWriter.write(model, layout: layout, ifNotExists: ifNotExists), as: UTF8.self)
        }
        return try library.render(
            CodeGenerator.TemplateName.schema,
            with: SchemaContext(model: model, layout: layout, ifNotExists: ifNotExists))
    }

    /// The schema file's UTF-8 bytes for `model` laid out as `layout`.
    public func renderUTF8(_ model: ObjectModel, layout: StoreLayout) throws(MustacheError) -> [UInt8] {
        if writesDirectly { return SchemaSQLWriter.write(model, layout: layout, ifNotExists: ifNotExists) }
        return try library.renderUTF8(
            CodeGenerator.TemplateName.schema,
            withContexts: [SchemaContext(model: model, layout: layout, ifNotExists: ifNotExists).mustacheValue])
    }
}

/// The keys of the `schema.sql` template (documented in `Templates/README.md`).
struct SchemaContext: MustacheRepresentable {
    var model: ObjectModel
    var layout: StoreLayout
    var ifNotExists: Bool

    var mustacheValue: MustacheValue {
        .object(SchemaObject(model: model, layout: layout, ifNotExists: ifNotExists))
    }

    /// What a table stores, for the comment above it.
    static func comment(for table: TableLayout, layout: StoreLayout) -> String {
        switch table.kind {
        case .entity(let root):
            return entitiesComment(root: root, layout: layout)
        case .join:
            guard let join = layout.joinTable(named: table.name) else { return "Many-to-many join table" }
            return comment(for: join, layout: layout)
        case .primaryKey:
            return "Entity numbers and the last primary key handed out per entity"
        case .metadata:
            return "Store metadata"
        case .modelCache:
            return "Cached compiled model"
        }
    }
}

extension SchemaContext {
    /// `Entities: Person (3), Employee (4)`: the entities stored in the table of hierarchy root `root`,
    /// the root first, then its descendants by number.
    static func entitiesComment(root: Int, layout: StoreLayout) -> String {
        var comment = "Entities: "
        guard let rootEntity = layout.entity(number: root) else { return comment }
        for number in rootEntity.hierarchyNumbers {
            guard let entity = layout.entity(number: number) else { continue }
            if number != root { comment += ", " }
            comment += entity.name
            comment += " ("
            comment += String(number)
            comment += ")"
        }
        return comment
    }

    /// What a join table stores: `Many-to-many: Owner.relationship ↔ inverse`.
    static func comment(for join: JoinTableLayout, layout: StoreLayout) -> String {
        let owner = layout.entity(number: join.ownerEntityNumber)?.name ?? "?"
        return "Many-to-many: \(owner).\(join.ownerRelationshipName) ↔ \(join.inverseRelationshipName)"
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
    let ifNotExists: Bool
    let tables: [MustacheValue]
    let indexes: [MustacheValue]
    let primaryKeyRows: [MustacheValue]

    init(model: ObjectModel, layout: StoreLayout, ifNotExists: Bool) {
        self.model = model
        self.ifNotExists = ifNotExists
        tables = layout.tables.map { table in
            .object(
                SchemaTableObject(
                    table: table,
                    comment: SchemaContext.comment(for: table, layout: layout)))
        }
        indexes = layout.indexes.map { .object(SchemaIndexObject($0)) }
        primaryKeyRows = layout.primaryKeyRows.map { .object(SchemaPrimaryKeyRowObject($0)) }
    }

    enum Key: String, CaseIterable, Sendable {
        case modelName, versionName, sourceFileName, ifNotExists, tables, indexes, hasIndexes, primaryKeyRows
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .modelName: return .string(model.name)
        case .versionName: return .string(model.versionName)
        case .sourceFileName: return .string(ModelNaming.sourceFileName(modelName: model.name))
        case .ifNotExists: return .string(ifNotExists ? "IF NOT EXISTS " : "")
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

    init(table: TableLayout, comment: String) {
        self.table = table
        self.comment = comment
    }

    /// The column definitions, then a table constraint for a primary key of several columns.
    var columns: [MustacheValue] {
        let singleKey = table.primaryKey.count == 1 ? table.primaryKey[0] : nil
        var definitions = table.columns.map { column -> String in
            // One allocation: `"NAME" TYPE[ PRIMARY KEY]`.
            StringConcat.concat(
                SQLQuoting.identifier(column.name), " ", column.type.rawValue,
                singleKey == column.name ? " PRIMARY KEY" : "")
        }
        if table.primaryKey.count > 1 {
            definitions.append(
                "PRIMARY KEY (" + table.primaryKey.map(SQLQuoting.identifier).joined(separator: ", ") + ")")
        }
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

    init(_ index: IndexLayout) {
        self.index = index
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
        case .columns:
            let columns = index.columns.map { column in
                SQLQuoting.identifier(column.name) + (column.order.map { " " + $0.rawValue } ?? "")
            }
            return .string(columns.joined(separator: ", "))
        }
    }
}

/// A `Z_PRIMARYKEY` row of `schema.sql`.
final class SchemaPrimaryKeyRowObject: KeyedMustacheObject {
    let row: PrimaryKeyRow

    init(_ row: PrimaryKeyRow) {
        self.row = row
    }

    enum Key: String, CaseIterable, Sendable {
        case entityNumber, `name`, superentityNumber, maximumPrimaryKey
    }

    static let keys = makeKeys()

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .entityNumber: return .int(row.entityNumber)
        case .name: return .string(SQLQuoting.literal(row.name))
        case .superentityNumber: return .int(row.superentityNumber)
        case .maximumPrimaryKey: return .string(String(row.maximumPrimaryKey))
        }
    }
}
