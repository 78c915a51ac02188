/// How a store laid out for one model version becomes a store of another: whether Core Data's inferred
/// (lightweight) mapping covers the change, why not when it does not, and the SQL that migrates the data in place.
///
/// The statements run in order inside one transaction (SQLite's DDL is transactional): killed at any moment, the
/// store is whole in the old version or whole in the new one. `Z_PK`s are kept, so relationships, join tables and
/// ordered positions survive; entity numbers follow the new model (a new entity whose name sorts first
/// renumbers the others, and every `Z_ENT` and `Z<n>_` entity column is rewritten to match). The one exception to
/// kept keys: entities of separate hierarchies moved into one share a table, so the rows of all but the first old
/// table get keys above the others' and every reference follows. Core Data's inferred mapping refuses that change,
/// so the plan does too unless asked (`mergingHierarchies`, what `datamodelgen migrate --merge-hierarchies`
/// passes); ``beyondCoreData`` says what it is either way.
///
/// ```swift
/// let plan = try MigrationPlan(from: oldModel, to: newModel)
/// guard plan.isInferable else { throw … plan.blockers … }
/// for sql in plan.statements { try db.execute(sql: sql) }
/// ```
public struct MigrationPlan: Sendable, Hashable {
    /// Why Core Data would not infer the mapping, one line per blocking change
    /// (`Entity.property: non-optional attribute added without a default`); empty when it would.
    public let blockers: [String]
    /// What the migration does, one line per step, for people.
    public let steps: [String]
    /// The SQL, in order, to run inside one transaction; empty when the layouts are equal or when not inferable.
    public let statements: [String]
    /// Binary attributes whose *Allows External Storage* flag changes: after ``statements``, in the same
    /// transaction, their values are rewritten row by row (not expressible in SQL: an external value's bytes are
    /// in a file), see ``ExternalStorageChange``.
    public let externalStorageChanges: [ExternalStorageChange]
    /// The files of the store's external-data folder whose values the migration removes (a Binary attribute with
    /// external storage removed, or an entity holding one): how to find them, to remove them once the migration is
    /// committed; `nil` when it removes none.
    public let externalFileCleanup: ExternalFileCleanup?
    /// What this migration does that Core Data's inferred mapping refuses, one line each (entities of separate
    /// hierarchies moved into one: on Apple platforms such a version needs a mapping model); empty when Core Data
    /// would infer the whole migration. Without `mergingHierarchies` each line is a blocker too.
    public let beyondCoreData: [String]

    /// Whether the change is one Core Data's lightweight migration infers.
    public var isInferable: Bool { blockers.isEmpty }

    /// Whether the two versions store data the same way (nothing to migrate).
    public var isEmpty: Bool { isInferable && statements.isEmpty && externalStorageChanges.isEmpty }

    /// Plans the migration of a store of `old` into one of `new`.
    ///
    /// `mergingHierarchies`: also migrate entities of separate hierarchies moved into one (their tables merge, one
    /// side's keys move), which Core Data's inferred mapping refuses; by default that change is a blocker, as in
    /// Core Data.
    ///
    /// `dialect`: the SQL the statements are written in — SQLite's (a Core Data store), or PostgreSQL's for a
    /// store on a server (the same tables; its own column types, literals and functions, see
    /// `Docs/Migration.md`).
    ///
    /// - Throws: ``StoreLayoutError`` when either model cannot be laid out.
    public init(
        from old: LayoutModel, to new: LayoutModel, mergingHierarchies: Bool = false, dialect: SQLDialect = .sqlite
    ) throws(StoreLayoutError) {
        try self.init(
            from: old, to: new, oldLayout: try StoreLayout(model: old), newLayout: try StoreLayout(model: new),
            mergingHierarchies: mergingHierarchies, dialect: dialect)
    }

    /// Plans the migration with the two models' layouts already computed (`StoreLayout(model: old)`, and `new`'s).
    public init(
        from old: LayoutModel, to new: LayoutModel, oldLayout: StoreLayout, newLayout: StoreLayout,
        mergingHierarchies: Bool = false, dialect: SQLDialect = .sqlite
    ) throws(StoreLayoutError) {
        var planner = MigrationPlanner(
            old: old, new: new, oldLayout: oldLayout, newLayout: newLayout, dialect: dialect)
        planner.plan()
        if !mergingHierarchies {
            planner.blockers += planner.beyondCoreData.map {
                $0 + " (datamodelgen migrate --merge-hierarchies migrates such a store)"
            }
        }
        blockers = planner.blockers
        steps = planner.steps
        statements = planner.blockers.isEmpty ? planner.statements : []
        externalStorageChanges = planner.blockers.isEmpty ? planner.externalStorageChanges : []
        externalFileCleanup = planner.blockers.isEmpty ? planner.externalFileCleanup : nil
        beyondCoreData = planner.beyondCoreData
    }
}

/// How to find the external-data files of values a migration removes, so they are removed after it commits (never
/// before: a migration that does not commit leaves the old version whole, files included). Each query returns one
/// column of stored values; those that are Core Data's file references (`0x02` + name) name the files.
public struct ExternalFileCleanup: Sendable, Hashable {
    /// Run on the store before ``MigrationPlan/statements``: the references held by the values that go.
    public let removedValuesSQL: [String]
    /// Run after the statements, in the same transaction: the references the migrated store still holds (their
    /// files stay, whatever the queries above found).
    public let keptValuesSQL: [String]
}

/// A Binary attribute whose *Allows External Storage* flag differs between the two versions. Its column holds Core
/// Data's marked form (a marker byte, then the bytes or a file name: `ExternalBinaryData` in `DataModelStore`) only
/// while the flag is set, so the migration rewrites each non-empty value of the column: to the marked form
/// (``toExternalFormat``: the bytes stay in the column behind the `0x01` marker) or back to the bare bytes (a value
/// in a file is read back into the column; the file is removed once the migration is committed).
public struct ExternalStorageChange: Sendable, Hashable {
    /// The entity declaring the attribute, and the attribute (new model's names).
    public let entityName: String
    public let attributeName: String
    /// The new table and column.
    public let table: String
    public let column: String
    /// The entity numbers (new model) of the rows holding the attribute: the entity and its sub-entities.
    public let entityNumbers: ClosedRange<Int>
    /// `true`: the flag is turned on (bare bytes → marked form); `false`: turned off.
    public let toExternalFormat: Bool

    /// `SELECT "Z_PK", <column> FROM <table> WHERE <column> IS NOT NULL AND "Z_ENT" BETWEEN …`: the rows to rewrite.
    public var selectSQL: String {
        "SELECT \"Z_PK\", " + SQLQuoting.identifier(column) + " FROM " + SQLQuoting.identifier(table) + " WHERE "
            + SQLQuoting.identifier(column)
            + #" IS NOT NULL AND "Z_ENT" BETWEEN \#(entityNumbers.lowerBound) AND \#(entityNumbers.upperBound)"#
    }

    /// `UPDATE <table> SET <column> = ? WHERE "Z_PK" = ?`.
    public var updateSQL: String {
        "UPDATE " + SQLQuoting.identifier(table) + " SET " + SQLQuoting.identifier(column) + #" = ? WHERE "Z_PK" = ?"#
    }
}

/// The renaming identifier rule Core Data uses: an element's identifier is its renaming identifier when it has
/// one, else its name; an element of the new model maps from the old element with the same identifier.
public enum RenamingIdentifier {
    /// The identifier of an element called `name` with `renamingIdentifier`.
    public static func of(name: String, renamingIdentifier: String?) -> String {
        guard let renamingIdentifier, !renamingIdentifier.isEmpty else { return name }
        return renamingIdentifier
    }
}

/// A model's entities by name, and each entity's attributes and relationships by name, inherited ones included (an
/// entity's own property hides an ancestor's of the same name).
struct DeclaredProperties {
    var entities: [String: LayoutEntity] = [:]
    var attributes: [String: [String: LayoutAttribute]] = [:]
    var relationships: [String: [String: LayoutRelationship]] = [:]

    init(_ model: LayoutModel) {
        for entity in model.entities where entities[entity.name] == nil { entities[entity.name] = entity }
        for entity in model.entities where attributes[entity.name] == nil {
            var ownAttributes: [String: LayoutAttribute] = [:]
            var ownRelationships: [String: LayoutRelationship] = [:]
            var current: LayoutEntity? = entities[entity.name]
            var seen = 0
            while let declaring = current, seen <= model.entities.count {
                for attribute in declaring.attributes where ownAttributes[attribute.name] == nil {
                    ownAttributes[attribute.name] = attribute
                }
                for relationship in declaring.relationships where ownRelationships[relationship.name] == nil {
                    ownRelationships[relationship.name] = relationship
                }
                current = declaring.parentName.flatMap { entities[$0] }
                seen += 1
            }
            attributes[entity.name] = ownAttributes
            relationships[entity.name] = ownRelationships
        }
    }
}

/// Builds a ``MigrationPlan``: maps entities and properties, checks Core Data's inference rules, writes the SQL.
struct MigrationPlanner {
    let oldModel: LayoutModel
    let newModel: LayoutModel
    /// Each model's entities and their properties (own and inherited) by name, built once: the rules look them up
    /// for every property.
    let oldDeclared: DeclaredProperties
    let newDeclared: DeclaredProperties
    let old: StoreLayout
    let new: StoreLayout
    var blockers: [String] = []
    var steps: [String] = []
    var statements: [String] = []
    var externalStorageChanges: [ExternalStorageChange] = []
    var externalFileCleanup: ExternalFileCleanup?
    var beyondCoreData: [String] = []
    /// Old table name → the SQL expression of the amount its keys move by, for old tables whose rows join those of
    /// another old table in one new table (all but the first of them; see `planKeyOffsets`).
    var keyOffsets: [String: String] = [:]
    /// The statements that work out ``keyOffsets`` (into a temporary table), run before any table changes.
    var keyOffsetStatements: [String] = []
    /// New table name → the old tables whose rows it receives, when more than one, first kept key first.
    var mergedTables: [String: [String]] = [:]
    /// Writes the new tables and indexes exactly as a new store gets them, in the store's dialect.
    let ddl: DDLWriter

    /// New entity number → old entity layout it maps from.
    var entityMap: [Int: EntityLayout] = [:]
    /// Old entity number → new entity number.
    var numberMap: [Int: Int] = [:]
    /// New entity number → each of its attributes' old attribute (in the entity it maps from), by name.
    private var attributeSources: [Int: [String: AttributeLayout]] = [:]
    /// The tables a rebuild leaves as they are (``keptTables()``).
    private var keptTableNames: Set<String> = []

    init(
        old: LayoutModel, new: LayoutModel, oldLayout: StoreLayout, newLayout: StoreLayout,
        dialect: SQLDialect = .sqlite
    ) {
        ddl = DDLWriter(dialect: dialect)
        oldModel = old
        newModel = new
        oldDeclared = DeclaredProperties(old)
        newDeclared = DeclaredProperties(new)
        self.old = oldLayout
        self.new = newLayout
    }

    // MARK: Mapping

    private func declared(_ model: DeclaredProperties, entity name: String) -> LayoutEntity? {
        model.entities[name]
    }

    /// The attribute `name` as declared on `entity` or an ancestor, in `model`.
    func attribute(_ name: String, of entity: String, in model: DeclaredProperties) -> LayoutAttribute? {
        model.attributes[entity]?[name]
    }

    private func relationship(_ name: String, of entity: String, in model: DeclaredProperties) -> LayoutRelationship? {
        model.relationships[entity]?[name]
    }

    /// Maps each new entity to the old one with its renaming identifier (or, failing that, its name).
    private mutating func mapEntities() {
        var oldByIdentifier: [String: EntityLayout] = [:]
        var oldByName: [String: EntityLayout] = [:]
        for entity in old.entities {
            let identifier = RenamingIdentifier.of(
                name: entity.name, renamingIdentifier: declared(oldDeclared, entity: entity.name)?.renamingIdentifier)
            if oldByIdentifier[identifier] == nil { oldByIdentifier[identifier] = entity }
            oldByName[entity.name] = entity
        }
        var used = Set<Int>()
        for entity in new.entities {
            let identifier = RenamingIdentifier.of(
                name: entity.name, renamingIdentifier: declared(newDeclared, entity: entity.name)?.renamingIdentifier)
            guard let source = oldByIdentifier[identifier] ?? oldByName[entity.name], !used.contains(source.number)
            else { continue }
            used.insert(source.number)
            entityMap[entity.number] = source
            numberMap[source.number] = entity.number
        }
        for entity in new.entities {
            guard let source = entityMap[entity.number] else { continue }
            var sources: [String: AttributeLayout] = [:]
            for attribute in entity.attributes {
                sources[attribute.name] = matchedAttribute(attribute.name, entity: entity, source: source)
            }
            attributeSources[entity.number] = sources
        }
    }

    /// The old property the new property `name` of `entity` maps from, among `candidates` of old entity `source`:
    /// the one with the same renaming identifier, else the one with the same name.
    private func sourceProperty<Property>(
        _ name: String, entity: EntityLayout, source: EntityLayout, candidates: [Property],
        named nameOf: (Property) -> String, renaming: (String, String, DeclaredProperties) -> String?
    ) -> Property? {
        let identifier = RenamingIdentifier.of(
            name: name, renamingIdentifier: renaming(name, entity.name, newDeclared))
        return candidates.first {
            RenamingIdentifier.of(
                name: nameOf($0), renamingIdentifier: renaming(nameOf($0), source.name, oldDeclared))
                == identifier
        } ?? candidates.first { nameOf($0) == name }
    }

    /// The old attribute the new attribute `name` of new entity `entity` maps from, in old entity `source`.
    func sourceAttribute(_ name: String, entity: EntityLayout, source: EntityLayout) -> AttributeLayout? {
        // The mapped entity's answers were worked out once (`mapEntities`): the rules ask for every attribute.
        if let known = attributeSources[entity.number], entityMap[entity.number]?.number == source.number {
            return known[name]
        }
        return matchedAttribute(name, entity: entity, source: source)
    }

    /// Whether `previous`, an attribute of `source` in the old model, was optional there; `true` when its old
    /// declaration is not found (treated as possibly empty: a default fill is then the safe answer).
    private func wasOptional(_ previous: AttributeLayout, of source: EntityLayout) -> Bool {
        attribute(previous.name, of: source.name, in: oldDeclared)?.isOptional ?? true
    }

    private func matchedAttribute(_ name: String, entity: EntityLayout, source: EntityLayout) -> AttributeLayout? {
        sourceProperty(
            name, entity: entity, source: source, candidates: source.attributes, named: \.name,
            renaming: { attribute($0, of: $1, in: $2)?.renamingIdentifier })
    }

    /// The old relationship the new relationship `name` of `entity` maps from, in old entity `source`.
    func sourceRelationship(_ name: String, entity: EntityLayout, source: EntityLayout) -> RelationshipLayout? {
        sourceProperty(
            name, entity: entity, source: source, candidates: source.relationships, named: \.name,
            renaming: { relationship($0, of: $1, in: $2)?.renamingIdentifier })
    }

    // MARK: Rules

    /// Attribute type changes whose values convert without loss in SQLite's storage classes: integers widen,
    /// `Float` becomes `Double`. Every other change needs a mapping model, as in Core Data.
    static func convertsValue(from old: AttributeType, to new: AttributeType) -> Bool {
        func rank(_ type: AttributeType) -> Int? {
            switch type {
            case .integer16: 1
            case .integer32: 2
            case .integer64: 3
            default: nil
            }
        }
        if let from = rank(old), let to = rank(new) { return from <= to }
        return old == new || (old == .float && new == .double) || (old == .boolean && new == .integer64)
    }

    private mutating func checkRules() {
        for entity in new.entities {
            guard let source = entityMap[entity.number] else { continue }
            for attribute in entity.attributes {
                guard let declared = self.attribute(attribute.name, of: entity.name, in: newDeclared) else { continue }
                let path = "\(entity.name).\(attribute.name)"
                if let previous = sourceAttribute(attribute.name, entity: entity, source: source) {
                    if !Self.convertsValue(from: previous.type, to: attribute.type) {
                        blockers.append(
                            "\(path): attribute type changed from \(previous.type.rawValue) to \(attribute.type.rawValue), which needs a mapping model"
                        )
                    }
                    if wasOptional(previous, of: source) && !declared.isOptional && !Self.hasDefault(declared) {
                        blockers.append("\(path): attribute made non-optional without a default value")
                    }
                } else if !declared.isOptional && !Self.hasDefault(declared) {
                    blockers.append("\(path): non-optional attribute added without a default value")
                }
            }
        }
    }

    /// Whether an attribute has a default value, which fills it in existing rows.
    static func hasDefault(_ attribute: LayoutAttribute) -> Bool { attribute.defaultValue != nil }

    /// `value` as an SQL literal, stored as the runtime stores it: numbers and dates (seconds since 2001) as
    /// numbers, Booleans as 0 or 1, text and decimal digits quoted, a UUID as its 16 bytes. PostgreSQL's columns
    /// have types of their own: `TRUE`/`FALSE`, a `TIMESTAMPTZ`, a `UUID`.
    func literal(_ value: AttributeValue) -> String {
        if ddl.dialect == .postgres { return postgresLiteral(value) }
        return switch value {
        case .integer(let number): String(number)
        case .double(let number), .date(let number): number.isFinite ? "\(number)" : "NULL"
        case .boolean(let flag): flag ? "1" : "0"
        case .string(let text), .decimal(let text): ddl.dialect.literal(text)
        case .uuid(let text):
            "X'" + String(text.unicodeScalars.filter { $0.properties.isASCIIHexDigit }.map(Character.init)) + "'"
        }
    }

    // MARK: Plan

    mutating func plan() {
        mapEntities()
        checkRules()
        planKeyOffsets()
        guard blockers.isEmpty else { return }
        defer {
            planExternalStorageChanges()
            planExternalFileCleanup()
        }
        // Equal layouts still need statements when an attribute becomes non-optional with a default: its empty
        // values get the default (the additive path writes them).
        if old == new && sameIdentities() && !anAttributeBecomesRequiredWithADefault() { return }
        if keyOffsets.isEmpty, let additions = additiveStatements() {
            statements = additions
            return
        }
        rebuild()
    }

    /// Binary attributes whose external-storage flag changes (``ExternalStorageChange``), one step each.
    private mutating func planExternalStorageChanges() {
        for entity in new.entities {
            guard let source = entityMap[entity.number] else { continue }
            for attribute in entity.attributes where attribute.declaringEntityNumber == entity.number {
                guard let previous = sourceAttribute(attribute.name, entity: entity, source: source),
                    let declared = self.attribute(attribute.name, of: entity.name, in: newDeclared),
                    let before = self.attribute(previous.name, of: source.name, in: oldDeclared)
                else { continue }
                let now = declared.allowsExternalBinaryDataStorage && declared.type == .binary
                let then = before.allowsExternalBinaryDataStorage && before.type == .binary
                guard now != then else { continue }
                externalStorageChanges.append(
                    ExternalStorageChange(
                        entityName: entity.name, attributeName: attribute.name, table: entity.tableName,
                        column: attribute.column, entityNumbers: entity.hierarchyNumbers, toExternalFormat: now))
                steps.append(
                    now
                        ? "\(entity.name).\(attribute.name): allows external storage now; values get Core Data's marker byte"
                        : "\(entity.name).\(attribute.name): no longer allows external storage; values move back into the column"
                )
            }
        }
    }

    /// Whether some attribute that maps from an optional one is non-optional with a default value now.
    private func anAttributeBecomesRequiredWithADefault() -> Bool {
        new.entities.contains { entity in
            guard let source = entityMap[entity.number] else { return false }
            return entity.attributes.contains { attribute in
                guard let declared = self.attribute(attribute.name, of: entity.name, in: newDeclared),
                    !declared.isOptional, declared.defaultValue != nil,
                    let previous = sourceAttribute(attribute.name, entity: entity, source: source)
                else { return false }
                return self.attribute(previous.name, of: source.name, in: oldDeclared)?.isOptional ?? true
            }
        }
    }

    /// Whether every entity maps from the old entity of the same name and number.
    private func sameIdentities() -> Bool {
        new.entities.allSatisfy { entityMap[$0.number]?.name == $0.name && entityMap[$0.number]?.number == $0.number }
    }

    /// When the new layout only adds (columns at the end of existing tables, tables, indexes) and keeps every entity
    /// number, `ALTER TABLE … ADD COLUMN` and `CREATE` statements migrate in constant time.
    private mutating func additiveStatements() -> [String]? {
        guard old.entities.count <= new.entities.count,
            old.entities.allSatisfy({
                numberMap[$0.number] == $0.number && new.entity(number: $0.number)?.name == $0.name
            }),
            !hierarchiesChanged()
        else { return nil }
        var sql: [String] = []
        var added: [String] = []
        for table in new.tables {
            guard let previous = old.table(named: table.name) else {
                sql.append(ddl.createTable(table))
                added.append("create table \(table.name)")
                continue
            }
            // Columns are read and written by name: new ones are added at the end, whatever the layout's order.
            guard previous.columns.allSatisfy({ table.column(named: $0.name)?.type == $0.type }) else { return nil }
            for column in table.columns where previous.column(named: column.name) == nil {
                sql.append(
                    "ALTER TABLE " + ddl.dialect.identifier(table.name) + " ADD COLUMN "
                        + ddl.dialect.identifier(column.name) + " " + ddl.dialect.typeName(of: column))
                added.append("add column \(table.name).\(column.name)")
            }
        }
        for table in old.tables where new.table(named: table.name) == nil { return nil }
        // Attributes stay in their columns: a renamed attribute keeps its old column name only when names agree.
        for entity in new.entities {
            guard let source = entityMap[entity.number] else { continue }
            for attribute in entity.attributes {
                guard let previous = sourceAttribute(attribute.name, entity: entity, source: source) else { continue }
                if previous.column != attribute.column || previous.type != attribute.type { return nil }
            }
            for relationship in entity.relationships {
                guard let previous = sourceRelationship(relationship.name, entity: entity, source: source) else {
                    // A new to-many or to-one reads empty from new columns or tables; nothing to copy.
                    continue
                }
                if previous.storage != relationship.storage { return nil }
            }
        }
        for entity in new.entities {
            for attribute in entity.attributes where attribute.declaringEntityNumber == entity.number {
                guard let declared = self.attribute(attribute.name, of: entity.name, in: newDeclared),
                    let value = declared.defaultValue
                else { continue }
                // Added attributes get their default in existing rows; one made non-optional, where it is empty. One
                // that was non-optional already has no empty values: no statement (and no scan of its table).
                if let source = entityMap[entity.number],
                    let previous = sourceAttribute(attribute.name, entity: entity, source: source),
                    declared.isOptional || !wasOptional(previous, of: source)
                {
                    continue
                }
                var update =
                    "UPDATE " + ddl.dialect.identifier(entity.tableName) + " SET "
                    + ddl.dialect.identifier(attribute.column) + " = " + literal(value) + " WHERE "
                    + ddl.dialect.identifier(attribute.column) + " IS NULL"
                if old.entity(number: entity.rootEntityNumber) != nil || entity.hierarchyNumbers.count > 1
                    || !entity.isRoot
                {
                    update +=
                        #" AND "Z_ENT" BETWEEN \#(entity.hierarchyNumbers.lowerBound) AND \#(entity.hierarchyNumbers.upperBound)"#
                }
                sql.append(update)
                added.append("fill \(entity.name).\(attribute.name) with its default")
            }
        }
        let oldIndexes = Set(old.indexes.map(\.name))
        let newIndexes = Set(new.indexes.map(\.name))
        for index in old.indexes where !newIndexes.contains(index.name) {
            sql.append("DROP INDEX IF EXISTS " + ddl.dialect.identifier(index.name))
            added.append("drop index \(index.name)")
        }
        for index in new.indexes where !oldIndexes.contains(index.name) {
            sql.append(ddl.createIndex(index))
            added.append("create index \(index.name)")
        }
        if entityRows(old) != entityRows(new) {
            sql += primaryKeyStatements()
            added.append("update Z_PRIMARYKEY entity rows")
        }
        steps = added
        return sql
    }

    /// `Z_PRIMARYKEY`'s entity rows as `number|name|super`.
    private func entityRows(_ layout: StoreLayout) -> [String] {
        layout.primaryKeyRows.map { "\($0.entityNumber)|\($0.name)|\($0.superentityNumber)" }
    }

    /// Rewrites `Z_PRIMARYKEY`'s entity rows for the new model, keeping each mapped entity's `Z_MAX`.
    private func primaryKeyStatements() -> [String] {
        var sql = [#"CREATE TEMPORARY TABLE "_DMG_OLD_PRIMARYKEY" AS SELECT "Z_ENT", "Z_MAX" FROM "Z_PRIMARYKEY""#]
        sql.append(#"DELETE FROM "Z_PRIMARYKEY""#)
        for row in new.primaryKeyRows {
            let previous = entityMap[row.entityNumber].map {
                #"(SELECT "Z_MAX" FROM "_DMG_OLD_PRIMARYKEY" WHERE "Z_ENT" = \#($0.number))"#
            }
            var maximum = previous.map { "COALESCE(\($0), 0)" } ?? "0"
            if row.superentityNumber == 0, let merged = mergedMaximum(ofRoot: row.entityNumber, previous: maximum) {
                maximum = merged
            }
            sql.append(
                #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES ("#
                    + "\(row.entityNumber), \(ddl.dialect.literal(row.name)), \(row.superentityNumber), "
                    + maximum + ")")
        }
        sql.append(#"DROP TABLE "_DMG_OLD_PRIMARYKEY""#)
        return sql
    }

    // MARK: Rebuild

    static func oldName(_ table: String) -> String { "_DMG_OLD_" + table }

    /// Where an old table's rows are read during a rebuild: moved aside, or where it was when the rebuild keeps it.
    private func oldRows(_ table: String) -> String {
        keptTableNames.contains(table) ? table : Self.oldName(table)
    }

    /// Moves every old table aside, creates the new ones, copies every row of every mapped entity with its `Z_PK`,
    /// fills join tables and positions, drops the old tables, then creates the indexes.
    private mutating func rebuild() {
        var sql = keyOffsetStatements
        let kept = keptTables()
        keptTableNames = kept
        let oldTables = (old.entityTables + old.joinTables.map(\.table)).filter { !kept.contains($0.name) }
        for table in oldTables {
            sql.append(
                "ALTER TABLE " + ddl.dialect.identifier(table.name) + " RENAME TO "
                    + ddl.dialect.identifier(Self.oldName(table.name)))
        }
        if ddl.dialect == .postgres && !oldTables.isEmpty {
            // A renamed table keeps its indexes' names (`ZPERSON_pkey`), which the new tables' own need.
            sql.append(Self.postgresIndexesMovedAside)
        }
        for table in new.entityTables + new.joinTables.map(\.table) where !kept.contains(table.name) {
            sql.append(ddl.createTable(table))
        }
        steps.append(
            "move the old tables aside and create the new model's tables"
                + (kept.isEmpty ? "" : " (" + kept.sorted().joined(separator: ", ") + " stay as they are)"))
        steps += mergeSteps()
        for entity in new.entities where !kept.contains(entity.tableName) {
            guard let source = entityMap[entity.number] else { continue }
            sql.append(copyRows(of: entity, from: source))
            steps.append(
                source.name == entity.name
                    ? "copy \(entity.name) rows" : "copy \(source.name) rows into \(entity.name) (renamed)")
        }
        for join in new.joinTables where !kept.contains(join.name) {
            sql += fillJoinTable(join)
        }
        if old.entities.contains(where: { numberMap[$0.number] == nil }) || hierarchiesChanged() {
            sql += danglingReferenceCleanup()
            steps.append("clear references to rows of removed entities or of entities that left the hierarchy")
        }
        for table in oldTables { sql.append("DROP TABLE " + ddl.dialect.identifier(Self.oldName(table.name))) }
        // A kept table's rows are not copied, so no COALESCE fills them: an attribute made non-optional with a
        // default gets it in its empty values here (one that was non-optional already has none).
        for entity in new.entities where kept.contains(entity.tableName) {
            for attribute in entity.attributes where attribute.declaringEntityNumber == entity.number {
                guard let declared = self.attribute(attribute.name, of: entity.name, in: newDeclared),
                    !declared.isOptional, let value = declared.defaultValue
                else { continue }
                if let source = entityMap[entity.number],
                    let previous = sourceAttribute(attribute.name, entity: entity, source: source),
                    !wasOptional(previous, of: source)
                {
                    continue
                }
                sql.append(
                    "UPDATE " + ddl.dialect.identifier(entity.tableName) + " SET "
                        + ddl.dialect.identifier(attribute.column) + " = " + literal(value) + " WHERE "
                        + ddl.dialect.identifier(attribute.column) + #" IS NULL AND "Z_ENT" BETWEEN "#
                        + "\(entity.hierarchyNumbers.lowerBound) AND \(entity.hierarchyNumbers.upperBound)")
                steps.append("fill \(entity.name).\(attribute.name) with its default")
            }
        }
        // Indexes of the tables that stay: the ones the new model no longer has go, new ones come.
        let oldIndexes = Dictionary(old.indexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newIndexNames = Set(new.indexes.map(\.name))
        for index in old.indexes where kept.contains(index.tableName) && !newIndexNames.contains(index.name) {
            sql.append("DROP INDEX IF EXISTS " + ddl.dialect.identifier(index.name))
        }
        for index in new.indexes where !(kept.contains(index.tableName) && oldIndexes[index.name] == index) {
            if kept.contains(index.tableName), oldIndexes[index.name] != nil {
                sql.append("DROP INDEX IF EXISTS " + ddl.dialect.identifier(index.name))
            }
            sql.append(ddl.createIndex(index))
        }
        steps.append("drop the old tables and create the indexes")
        if entityRows(old) != entityRows(new) || !keyOffsets.isEmpty {
            sql += primaryKeyStatements()
            steps.append("update Z_PRIMARYKEY entity rows")
        }
        if !keyOffsetStatements.isEmpty { sql.append(#"DROP TABLE "_DMG_KEY_OFFSET""#) }
        for entity in old.entities where numberMap[entity.number] == nil {
            steps.insert("drop \(entity.name) rows (entity removed)", at: 0)
        }
        statements = sql
    }

    /// Tables a rebuild leaves alone: every entity keeps its number, the table is defined exactly as before, every
    /// entity in it maps from the old entity of the same number in the same table (none removed from it), and each
    /// column holds the same property as before.
    private func keptTables() -> Set<String> {
        guard old.entities.allSatisfy({ numberMap[$0.number] == $0.number }) else { return [] }
        var kept: Set<String> = []
        for table in new.entityTables {
            guard let previous = old.table(named: table.name), previous.columns == table.columns,
                !refersToMovedKeys(table: table.name)
            else { continue }
            let entities = new.entities.filter { $0.tableName == table.name }
            let oldEntities = old.entities.filter { $0.tableName == table.name }
            guard entities.count == oldEntities.count,
                entities.allSatisfy({ entity in
                    guard let source = entityMap[entity.number], source.number == entity.number,
                        source.tableName == table.name
                    else { return false }
                    return entity.attributes.allSatisfy {
                        sourceAttribute($0.name, entity: entity, source: source)?.column == $0.column
                    }
                        && entity.relationships.allSatisfy {
                            sourceRelationship($0.name, entity: entity, source: source)?.storage == $0.storage
                        }
                })
            else { continue }
            kept.insert(table.name)
        }
        // A join table holds keys, which every migration keeps: it stays when its relationship maps from the one
        // that owned the same table.
        for join in new.joinTables {
            guard let previous = old.joinTable(named: join.name), previous == join,
                !movesKeys(ofNewEntity: join.ownerEntityNumber), !movesKeys(ofNewEntity: join.destinationEntityNumber),
                let owner = new.entity(number: join.ownerEntityNumber), let source = entityMap[owner.number],
                let relationship = owner.relationship(named: join.ownerRelationshipName)
                    ?? new.entity(number: join.destinationEntityNumber)?.relationship(
                        named: join.inverseRelationshipName),
                relationship.storage == sourceRelationship(relationship.name, entity: owner, source: source)?.storage
                    || owner.relationship(named: join.ownerRelationshipName) == nil
            else { continue }
            kept.insert(join.name)
        }
        return kept
    }

    /// Whether some mapped entity has other (mapped) ancestors than before: its rows then leave the hierarchy of a
    /// relationship's source or destination (a sub-entity moved to another parent, or made a root), and references to
    /// them must go like references to rows of removed entities.
    private func hierarchiesChanged() -> Bool {
        func ancestors(_ entity: EntityLayout, in layout: StoreLayout, mapped: (Int) -> Int?) -> [Int?] {
            var result: [Int?] = []
            var current = entity.superentityNumber
            while current != 0, result.count <= layout.entities.count, let parent = layout.entity(number: current) {
                result.append(mapped(parent.number))
                current = parent.superentityNumber
            }
            return result
        }
        return new.entities.contains { entity in
            guard let source = entityMap[entity.number] else { return false }
            return ancestors(entity, in: new, mapped: { $0 }) != ancestors(source, in: old, mapped: { numberMap[$0] })
        }
    }

    /// `"Z_PK" NOT IN` the rows of `entity`'s hierarchy (the whole table when the hierarchy fills it).
    private func notARowOf(_ entity: EntityLayout, column: String) -> String {
        var rows = #"SELECT "Z_PK" FROM "# + ddl.dialect.identifier(entity.tableName)
        if entity.hierarchyNumbers != new.entity(number: entity.rootEntityNumber)?.hierarchyNumbers {
            rows +=
                #" WHERE "Z_ENT" BETWEEN \#(entity.hierarchyNumbers.lowerBound) AND \#(entity.hierarchyNumbers.upperBound)"#
        }
        return ddl.dialect.identifier(column) + " NOT IN (" + rows + ")"
    }

    /// After rows of removed entities are gone, and rows moved out of a hierarchy: to-one keys that pointed at them
    /// become NULL, join rows go.
    private func danglingReferenceCleanup() -> [String] {
        var sql: [String] = []
        for entity in new.entities {
            for relationship in entity.relationships where relationship.declaringEntityNumber == entity.number {
                guard case .foreignKey(let columns) = relationship.storage,
                    let destination = new.entity(number: relationship.destinationEntityNumber)
                else { continue }
                let cleared = [columns.column, columns.entityColumn, columns.orderColumn].compactMap { $0 }
                sql.append(
                    "UPDATE " + ddl.dialect.identifier(entity.tableName) + " SET "
                        + cleared.map { ddl.dialect.identifier($0) + " = NULL" }.joined(separator: ", ") + " WHERE "
                        + notARowOf(destination, column: columns.column))
            }
        }
        for join in new.joinTables {
            guard let owner = new.entity(number: join.ownerEntityNumber),
                let destination = new.entity(number: join.destinationEntityNumber)
            else { continue }
            sql.append(
                "DELETE FROM " + ddl.dialect.identifier(join.name) + " WHERE "
                    + notARowOf(owner, column: join.sourceColumn) + " OR "
                    + notARowOf(destination, column: join.destinationColumn))
        }
        return sql
    }

    /// `Z_ENT` of old entity numbers as new ones: `CASE <column> WHEN 1 THEN 2 … END`.
    private func entityNumberExpression(_ column: String) -> String {
        let cases = numberMap.keys.sorted().compactMap { key in numberMap[key].map { " WHEN \(key) THEN \($0)" } }
        return "CASE " + column + cases.joined() + " END"
    }

    /// `INSERT INTO <new table> (…) SELECT … FROM <old table> WHERE "Z_ENT" = <old number>`.
    private func copyRows(of entity: EntityLayout, from source: EntityLayout) -> String {
        let table = Self.oldName(source.tableName)
        var columns: [String] = []
        var values: [String] = []
        for column in entity.columns {
            columns.append(ddl.dialect.identifier(column.name))
            values.append(value(for: column, entity: entity, source: source, table: table))
        }
        var text =
            "INSERT INTO " + ddl.dialect.identifier(entity.tableName) + " (" + columns.joined(separator: ", ")
            + ") SELECT " + values.joined(separator: ", ") + " FROM " + ddl.dialect.identifier(table) + " AS o"
        if old.entity(number: source.rootEntityNumber)?.hierarchyNumbers.count ?? 1 > 1 || !source.isRoot {
            text += #" WHERE o."Z_ENT" = \#(source.number)"#
        }
        return text
    }

    private func value(for column: ColumnLayout, entity: EntityLayout, source: EntityLayout, table: String) -> String {
        let q = { (name: String) in "o." + ddl.dialect.identifier(name) }
        switch column.role {
        case .primaryKey: return shiftedKey(q("Z_PK"), ofOldEntity: source.number)
        case .entity: return String(entity.number)
        case .optimisticLock: return q("Z_OPT")
        case .attribute:
            // A column of a sibling entity's attribute stays empty in this entity's rows.
            guard let name = column.propertyName, entity.attribute(named: name)?.column == column.name else {
                return "NULL"
            }
            let declared = attribute(name, of: entity.name, in: newDeclared)
            let fill = declared?.defaultValue.map(literal)
            guard let previous = sourceAttribute(name, entity: entity, source: source) else { return fill ?? "NULL" }
            let old = converted(q(previous.column), from: previous.type, to: column)
            if let fill, declared?.isOptional == false { return "COALESCE(" + old + ", " + fill + ")" }
            return old
        case .foreignKey, .foreignEntity, .foreignOrder:
            guard let name = column.propertyName, let current = entity.relationship(named: name),
                case .foreignKey(let columns) = current.storage,
                let previous = sourceRelationship(name, entity: entity, source: source)
            else { return "NULL" }
            return foreignKeyValue(column, current: columns, previous: previous, source: source, q: q)
        case .joinKey, .joinOrder, .system: return "NULL"
        }
    }

    /// The value of one of a to-one relationship's columns, from the old relationship it maps from.
    private func foreignKeyValue(
        _ column: ColumnLayout, current: ForeignKeyColumns, previous: RelationshipLayout, source: EntityLayout,
        q: (String) -> String
    ) -> String {
        // The old destination `Z_PK`, whatever the old relationship's storage.
        var key: String
        var oldEntityColumn: String?
        var oldOrderColumn: String?
        switch previous.storage {
        case .foreignKey(let columns):
            key = q(columns.column)
            oldEntityColumn = columns.entityColumn.map(q)
            oldOrderColumn = columns.orderColumn.map(q)
        case .inverseForeignKey(let table, let columns):
            // A to-many became a to-one: one of its objects (the one with the lowest key).
            key =
                #"(SELECT MIN(d."Z_PK") FROM "# + ddl.dialect.identifier(oldRows(table)) + " AS d WHERE d."
                + ddl.dialect.identifier(columns.column) + #" = o."Z_PK")"#
        case .joinTable(let join):
            key =
                "(SELECT MIN(j." + ddl.dialect.identifier(join.destinationColumn) + ") FROM "
                + ddl.dialect.identifier(oldRows(join.table)) + " AS j WHERE j."
                + ddl.dialect.identifier(join.sourceColumn) + #" = o."Z_PK")"#
        }
        key = shiftedKey(key, ofOldEntity: previous.destinationEntityNumber)
        if column.name == current.column { return key }
        if column.name == current.entityColumn {
            if let oldEntityColumn { return entityNumberExpression(oldEntityColumn) }
            // The destination row's own entity (a sub-entity's row in a hierarchy), in the new numbering.
            guard let destination = old.entity(number: previous.destinationEntityNumber) else { return "NULL" }
            return entityNumberExpression(
                #"(SELECT e."Z_ENT" FROM "# + ddl.dialect.identifier(oldRows(destination.tableName))
                    + #" AS e WHERE e."Z_PK" = "# + key + ")")
        }
        if column.name == current.orderColumn {
            if let oldOrderColumn { return oldOrderColumn }
            return "CASE WHEN \(key) IS NULL THEN NULL ELSE ROW_NUMBER() OVER (PARTITION BY \(key) ORDER BY "
                + q("Z_PK") + ") END"
        }
        return "NULL"
    }

    /// Rows of a new join table, from the old storage of its owning relationship (or of its inverse).
    private func fillJoinTable(_ join: JoinTableLayout) -> [String] {
        guard let owner = new.entity(number: join.ownerEntityNumber) else { return [] }
        // The entity and its sub-entities, which inherit the relationship: when the entity itself is new (renamed
        // without a renaming identifier, say), a sub-entity that maps still has the old relationship's rows.
        func hierarchy(_ entity: EntityLayout) -> [EntityLayout] {
            [entity] + entity.hierarchyNumbers.filter { $0 != entity.number }.compactMap { new.entity(number: $0) }
        }
        // (source key, destination key, destination position, source position) in the old store.
        var select: (from: String, source: String, destination: String, order: String?, inverseOrder: String?)?
        for entity in hierarchy(owner) where select == nil {
            guard let source = entityMap[entity.number],
                let previous = sourceRelationship(join.ownerRelationshipName, entity: entity, source: source)
            else { continue }
            select = rows(of: previous, in: source)
        }
        if select == nil, let destination = new.entity(number: join.destinationEntityNumber) {
            for entity in hierarchy(destination) where select == nil {
                guard let oldDestination = entityMap[entity.number],
                    let previousInverse = sourceRelationship(
                        join.inverseRelationshipName, entity: entity, source: oldDestination),
                    let rows = rows(of: previousInverse, in: oldDestination)
                else { continue }
                select = (rows.from, rows.destination, rows.source, rows.inverseOrder, rows.order)
            }
        }
        guard let select else { return [] }
        var columns = [join.sourceColumn, join.destinationColumn]
        var values = [select.source, select.destination]
        if let order = join.destinationOrderColumn {
            columns.append(order)
            values.append(
                select.order ?? "ROW_NUMBER() OVER (PARTITION BY \(select.source) ORDER BY \(select.destination))")
        }
        if let order = join.sourceOrderColumn {
            columns.append(order)
            values.append(
                select.inverseOrder
                    ?? "ROW_NUMBER() OVER (PARTITION BY \(select.destination) ORDER BY \(select.source))")
        }
        return [
            "INSERT INTO " + ddl.dialect.identifier(join.name) + " ("
                + columns.map(ddl.dialect.identifier).joined(separator: ", ") + ") SELECT "
                + values.joined(separator: ", ") + " FROM " + select.from
        ]
    }

    /// The old rows of a relationship as (source key, destination key, positions) over some old table.
    private func rows(of relationship: RelationshipLayout, in entity: EntityLayout) -> (
        from: String, source: String, destination: String, order: String?, inverseOrder: String?
    )? {
        let q = { (name: String) in "o." + ddl.dialect.identifier(name) }
        let source = { (key: String) in shiftedKey(key, ofOldEntity: entity.number) }
        let destination = { (key: String) in shiftedKey(key, ofOldEntity: relationship.destinationEntityNumber) }
        switch relationship.storage {
        case .joinTable(let join):
            return (
                ddl.dialect.identifier(oldRows(join.table)) + " AS o", source(q(join.sourceColumn)),
                destination(q(join.destinationColumn)), join.orderColumn.map(q), join.inverseOrderColumn.map(q)
            )
        case .foreignKey(let columns):
            return (
                ddl.dialect.identifier(oldRows(entity.tableName)) + " AS o WHERE " + q(columns.column)
                    + " IS NOT NULL", source(q("Z_PK")), destination(q(columns.column)), nil,
                columns.orderColumn.map(q)
            )
        case .inverseForeignKey(let table, let columns):
            return (
                ddl.dialect.identifier(oldRows(table)) + " AS o WHERE " + q(columns.column) + " IS NOT NULL",
                source(q(columns.column)), destination(q("Z_PK")), columns.orderColumn.map(q), nil
            )
        }
    }
}
