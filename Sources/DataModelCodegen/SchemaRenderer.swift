import DataModel
import DataModelStoreLayout
import Mustache

/// Renders a model's SQLite schema, in Core Data's store layout, through the `schema.sql` template.
public struct SchemaRenderer: Sendable {
    /// The compiled templates (must include `schema.sql`).
    public var library: MustacheLibrary
    /// Whether statements say `IF NOT EXISTS`.
    public var ifNotExists: Bool

    /// Creates a renderer.
    public init(library: MustacheLibrary, ifNotExists: Bool = false) {
        self.library = library
        self.ifNotExists = ifNotExists
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
        try library.render(
            CodeGenerator.TemplateName.schema,
            with: SchemaContext(model: model, layout: layout, ifNotExists: ifNotExists))
    }
}

/// The keys of the `schema.sql` template (documented in `Templates/README.md`).
struct SchemaContext: MustacheRepresentable {
    var model: ObjectModel
    var layout: StoreLayout
    var ifNotExists: Bool

    var mustacheValue: MustacheValue {
        let existence = ifNotExists ? "IF NOT EXISTS " : ""
        let tables = layout.tables.map { table -> MustacheValue in
            var definitions = table.columns.map { column -> String in
                var definition = SQLQuoting.identifier(column.name) + " " + column.type.rawValue
                if table.primaryKey == [column.name] { definition += " PRIMARY KEY" }
                return definition
            }
            if table.primaryKey.count > 1 {
                definitions.append(
                    "PRIMARY KEY (" + table.primaryKey.map(SQLQuoting.identifier).joined(separator: ", ") + ")")
            }
            let columns = definitions.enumerated().map { index, definition -> MustacheValue in
                .dictionary([
                    "definition": .string(definition),
                    "separator": .string(index == definitions.count - 1 ? "" : ","),
                ])
            }
            return .dictionary([
                "name": .string(SQLQuoting.identifier(table.name)), "plainName": .string(table.name),
                "comment": .string(Self.comment(for: table, layout: layout)), "columns": .array(columns),
            ])
        }
        let indexes = layout.indexes.map { index -> MustacheValue in
            let columns = index.columns.map { column in
                SQLQuoting.identifier(column.name) + (column.order.map { " " + $0.rawValue } ?? "")
            }
            return .dictionary([
                "name": .string(SQLQuoting.identifier(index.name)),
                "table": .string(SQLQuoting.identifier(index.tableName)),
                "unique": .string(index.isUnique ? "UNIQUE " : ""), "columns": .string(columns.joined(separator: ", ")),
            ])
        }
        let rows = layout.primaryKeyRows.map { row -> MustacheValue in
            .dictionary([
                "entityNumber": .int(row.entityNumber), "name": .string(SQLQuoting.literal(row.name)),
                "superentityNumber": .int(row.superentityNumber),
                "maximumPrimaryKey": .string(String(row.maximumPrimaryKey)),
            ])
        }
        return .dictionary([
            "modelName": .string(model.name), "versionName": .string(model.versionName),
            "sourceFileName": .string(model.name + ".xcdatamodeld"), "ifNotExists": .string(existence),
            "tables": .array(tables), "indexes": .array(indexes), "hasIndexes": .bool(!indexes.isEmpty),
            "primaryKeyRows": .array(rows),
        ])
    }

    /// What a table stores, for the comment above it.
    static func comment(for table: TableLayout, layout: StoreLayout) -> String {
        switch table.kind {
        case .entity:
            let names = layout.entities.filter { $0.tableName == table.name }.map { "\($0.name) (\($0.number))" }
            return "Entities: " + names.joined(separator: ", ")
        case .join:
            guard let join = layout.joinTable(named: table.name) else { return "Many-to-many join table" }
            let owner = layout.entity(number: join.ownerEntityNumber)?.name ?? "?"
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

/// A model that passed validation but cannot be laid out as a store.
public struct SchemaLayoutError: Error, Sendable {
    /// What is wrong, located at the model.
    public var diagnostic: Diagnostic
}
