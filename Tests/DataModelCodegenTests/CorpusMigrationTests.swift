import DataModel
import DataModelCodegen
import DataModelStoreLayout
import Foundation
import SQLiteKit
import Testing

/// Every pair of consecutive versions of every multi-version bundle: when the migration is inferable, a store of
/// the old version filled with generated rows (every column of every entity, to-one keys, join rows and positions)
/// migrates, and every value is compared before and after. The expected mapping is worked out here again, from
/// the renaming identifiers, independently of the planner.
@Suite struct CorpusMigrationTests {
    static var bundles: [URL] {
        (TestPaths.exampleModels + TestPaths.corpusModels).filter { $0.pathExtension == "xcdatamodeld" }
    }

    @Test(.enabled(if: TestPaths.corpus != nil, "../shared/corpus/models is absent"))
    func consecutiveVersionsMigrateWithEveryValue() throws {
        var pairs = 0
        var migrated = 0
        var refused: [String] = []
        for bundle in Self.bundles {
            let versions = try ModelLoader.loadAllVersions(path: bundle.path)
            for (old, new) in zip(versions, versions.dropFirst()) {
                pairs += 1
                let oldModel = LayoutModel(old.model)
                let newModel = LayoutModel(new.model)
                let plan = try MigrationPlan(from: oldModel, to: newModel)
                guard plan.isInferable else {
                    refused.append("\(new.contentsPath): " + plan.blockers.joined(separator: "; "))
                    continue
                }
                try Self.check(from: oldModel, to: newModel, plan: plan, name: new.contentsPath)
                migrated += 1
            }
        }
        #expect(pairs > 0)
        #expect(migrated > 0)
        print(
            "corpus migration: \(pairs) version pairs, \(migrated) migrated with every value, \(refused.count) refused")
        for reason in refused { print("corpus migration refused: " + reason) }
    }

    typealias Row = [String: SQLiteValue]

    static func check(from oldModel: LayoutModel, to newModel: LayoutModel, plan: MigrationPlan, name: String) throws {
        let old = try StoreLayout(model: oldModel)
        let new = try StoreLayout(model: newModel)
        let db = try Database()
        for sql in old.ddlStatements() + old.primaryKeyRowStatements() { try db.execute(sql: sql) }
        try fill(db, old)
        var before: [String: [Int64: Row]] = [:]
        for table in old.entityTables { before[table.name] = try rows(db, table.name) }
        var joinsBefore: [String: [Row]] = [:]
        for join in old.joinTables { joinsBefore[join.name] = Array(try rows(db, join.name, keyed: false).values) }
        try db.transaction { for sql in plan.statements { try db.execute(sql: sql) } }
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")], "\(name)")

        try expectMigrated(
            from: old, to: new, oldModel: oldModel, newModel: newModel, name: name, before: before,
            joinsBefore: joinsBefore, integer: { .integer($0) }, null: .null, rows: { try rows(db, $0) },
            pairs: { table, source, destination in
                Set(
                    try db.fetchAll(
                        sql: "SELECT \(quote(source)), \(quote(destination)) FROM \(quote(table))"))
            })
    }

    /// Every row of every mapped entity kept with its key, version, new entity number, attribute values and to-one
    /// keys, and every many-to-many that stays one with its pairs: the comparison of a migrated store with its rows
    /// before, for either database (`Value` is its value type, `rows` reads a table by `Z_PK`, `pairs` a join
    /// table's two key columns).
    static func expectMigrated<Value: Hashable>(
        from old: StoreLayout, to new: StoreLayout, oldModel: LayoutModel, newModel: LayoutModel, name: String,
        before: [String: [Int64: [String: Value]]], joinsBefore: [String: [[String: Value]]],
        integer: (Int64) -> Value, null: Value, rows: (String) throws -> [Int64: [String: Value]],
        pairs: (_ table: String, _ source: String, _ destination: String) throws -> Set<[Value]>
    ) throws {
        for entity in new.entities {
            guard let source = mappedEntity(entity, old: old, oldModel: oldModel, newModel: newModel) else { continue }
            let after = try rows(entity.tableName)
            for (key, row) in before[source.tableName] ?? [:] where row["Z_ENT"] == integer(Int64(source.number)) {
                guard let migrated = after[key] else {
                    Issue.record("\(name): \(entity.name) row \(key) is gone")
                    continue
                }
                #expect(migrated["Z_ENT"] == integer(Int64(entity.number)), "\(name): \(entity.name) \(key)")
                #expect(migrated["Z_OPT"] == row["Z_OPT"], "\(name): \(entity.name) \(key)")
                for attribute in entity.attributes {
                    guard let previous = mappedAttribute(attribute, of: entity, in: source, oldModel, newModel)
                    else { continue }
                    #expect(
                        migrated[attribute.column] == row[previous.column],
                        "\(name): \(entity.name).\(attribute.name) of row \(key)")
                }
                for relationship in entity.relationships {
                    guard case .foreignKey(let columns) = relationship.storage,
                        let previous = source.relationships.first(where: {
                            identifier($0.name, of: source.name, in: oldModel, relationship: true)
                                == identifier(relationship.name, of: entity.name, in: newModel, relationship: true)
                        }),
                        case .foreignKey(let oldColumns) = previous.storage
                    else { continue }
                    #expect(
                        migrated[columns.column] == row[oldColumns.column],
                        "\(name): \(entity.name).\(relationship.name) of row \(key)")
                }
            }
        }
        // Many-to-many relationships that stay many-to-many keep their pairs.
        for entity in new.entities {
            guard let source = mappedEntity(entity, old: old, oldModel: oldModel, newModel: newModel) else { continue }
            for relationship in entity.relationships where relationship.declaringEntityNumber == entity.number {
                guard case .joinTable(let join) = relationship.storage,
                    let previous = source.relationships.first(where: {
                        identifier($0.name, of: source.name, in: oldModel, relationship: true)
                            == identifier(relationship.name, of: entity.name, in: newModel, relationship: true)
                    }),
                    case .joinTable(let oldJoin) = previous.storage
                else { continue }
                let pairs = try pairs(join.table, join.sourceColumn, join.destinationColumn)
                let oldPairs = Set(
                    (joinsBefore[oldJoin.table] ?? []).map {
                        [$0[oldJoin.sourceColumn] ?? null, $0[oldJoin.destinationColumn] ?? null]
                    })
                #expect(pairs == oldPairs, "\(name): \(entity.name).\(relationship.name)")
            }
        }
    }

    /// A value ``fillRows(_:)`` puts in a column, for each database to write as its own type.
    enum FillValue {
        /// A key, an entity number, a version or a position.
        case integer(Int64)
        /// The attribute `column` of row `key` (its `index` among the table's columns, of `entity`).
        case attribute(ColumnLayout, key: Int64, index: Int, entity: String)
        case null
    }

    /// One row ``fillRows(_:)`` inserts into `table`.
    struct FillRow {
        var table: String
        var columns: [String]
        var values: [FillValue]
        /// A join table's row (pairs are unique).
        var isJoin: Bool
    }

    /// A few rows of every concrete entity with a value in each of its columns, keys unique per table; to-one keys
    /// point at rows of their destination; each join table gets pairs with positions. The one plan of rows both
    /// corpus migration tests (SQLite and PostgreSQL) fill their stores with.
    static func fillRows(_ layout: StoreLayout) -> [FillRow] {
        var keys: [Int: [Int64]] = [:]  // entity number → its rows' keys
        var next: [String: Int64] = [:]
        for entity in layout.entities where !entity.isAbstract {
            for _ in 0..<3 {
                let key = (next[entity.tableName] ?? 0) + 1
                next[entity.tableName] = key
                keys[entity.number, default: []].append(key)
            }
        }
        func rowsOf(_ number: Int) -> [(key: Int64, entity: Int)] {
            guard let hierarchy = layout.entity(number: number)?.hierarchyNumbers else { return [] }
            return hierarchy.flatMap { entity in (keys[entity] ?? []).map { ($0, entity) } }
        }
        var rows: [FillRow] = []
        for entity in layout.entities where !entity.isAbstract {
            for key in keys[entity.number] ?? [] {
                var values: [FillValue] = []
                for (index, column) in entity.columns.enumerated() {
                    switch column.role {
                    case .primaryKey: values.append(.integer(key))
                    case .entity: values.append(.integer(Int64(entity.number)))
                    case .optimisticLock: values.append(.integer(key % 5 + 1))
                    case .attribute: values.append(.attribute(column, key: key, index: index, entity: entity.name))
                    case .foreignKey, .foreignEntity, .foreignOrder:
                        let relationship = entity.relationships.first {
                            if case .foreignKey(let columns) = $0.storage {
                                return [columns.column, columns.entityColumn, columns.orderColumn].contains(column.name)
                            }
                            return false
                        }
                        guard let relationship, case .foreignKey(let columns) = relationship.storage,
                            let target = rowsOf(relationship.destinationEntityNumber).first
                        else {
                            values.append(.null)
                            continue
                        }
                        if column.name == columns.column {
                            values.append(.integer(target.key))
                        } else if column.name == columns.entityColumn {
                            values.append(.integer(Int64(target.entity)))
                        } else {
                            values.append(.integer(key))
                        }
                    case .joinKey, .joinOrder, .system: values.append(.null)
                    }
                }
                rows.append(
                    FillRow(table: entity.tableName, columns: entity.columns.map(\.name), values: values, isJoin: false)
                )
            }
        }
        for join in layout.joinTables {
            let sources = rowsOf(join.ownerEntityNumber).map(\.key)
            let destinations = rowsOf(join.destinationEntityNumber).map(\.key)
            var position: Int64 = 0
            for source in sources.prefix(2) {
                for destination in destinations.prefix(2) {
                    position += 1
                    var columns = [join.sourceColumn, join.destinationColumn]
                    var values: [FillValue] = [.integer(source), .integer(destination)]
                    for order in [join.destinationOrderColumn, join.sourceOrderColumn].compactMap({ $0 }) {
                        columns.append(order)
                        values.append(.integer(position))
                    }
                    rows.append(FillRow(table: join.name, columns: columns, values: values, isJoin: true))
                }
            }
        }
        return rows
    }

    /// ``fillRows(_:)`` written into an SQLite store.
    static func fill(_ db: Database, _ layout: StoreLayout) throws {
        for row in fillRows(layout) {
            let values = row.values.map { value -> SQLiteValue in
                switch value {
                case .integer(let number): return .integer(number)
                case .null: return .null
                case .attribute(let column, let key, let index, let entity):
                    switch column.type {
                    case .integer: return .integer(key * 101 + Int64(index))
                    case .float, .timestamp: return .real(Double(key) * 1.5 + Double(index))
                    case .decimal: return .text("\(key).\(index)5")
                    case .varchar, .varchar255: return .text("\(entity)-\(key)-\(column.name)")
                    case .blob: return .blob(Data([UInt8(key & 0xFF), UInt8(index & 0xFF), 7]))
                    }
                }
            }
            let names = row.columns.map(quote).joined(separator: ", ")
            let marks = row.columns.map { _ in "?" }.joined(separator: ", ")
            try db.execute(sql: "INSERT INTO \(quote(row.table)) (\(names)) VALUES (\(marks))", arguments: values)
        }
    }

    /// The rows of `table` by `Z_PK` (or by position, for a join table), each as column name → value.
    static func rows(_ db: Database, _ table: String, keyed: Bool = true) throws -> [Int64: Row] {
        let statement = try db.prepare("SELECT * FROM \(quote(table))")
        var result: [Int64: Row] = [:]
        let names = (0..<statement.columnCount).map { statement.columnName(at: $0) ?? "" }
        var position: Int64 = 0
        while try statement.step() == .row {
            var row: Row = [:]
            for (index, name) in names.enumerated() { row[name] = statement.value(at: Int32(index)) }
            position += 1
            if !keyed {
                result[position] = row
            } else if case .integer(let key)? = row["Z_PK"] {
                result[key] = row
            }
        }
        return result
    }

    // MARK: The mapping, worked out again

    static func declared(_ model: LayoutModel, _ name: String) -> LayoutEntity? {
        model.entities.first { $0.name == name }
    }

    static func identifier(_ property: String, of entity: String, in model: LayoutModel, relationship: Bool) -> String {
        var current = declared(model, entity)
        var steps = 0
        while let found = current, steps <= model.entities.count {
            if relationship, let match = found.relationships.first(where: { $0.name == property }) {
                return match.renamingIdentifier ?? property
            }
            if !relationship, let match = found.attributes.first(where: { $0.name == property }) {
                return match.renamingIdentifier ?? property
            }
            current = found.parentName.flatMap { declared(model, $0) }
            steps += 1
        }
        return property
    }

    static func mappedEntity(_ entity: EntityLayout, old: StoreLayout, oldModel: LayoutModel, newModel: LayoutModel)
        -> EntityLayout?
    {
        let wanted = declared(newModel, entity.name)?.renamingIdentifier ?? entity.name
        return old.entities.first { (declared(oldModel, $0.name)?.renamingIdentifier ?? $0.name) == wanted }
            ?? old.entity(named: entity.name)
    }

    static func mappedAttribute(
        _ attribute: AttributeLayout, of entity: EntityLayout, in source: EntityLayout, _ oldModel: LayoutModel,
        _ newModel: LayoutModel
    ) -> AttributeLayout? {
        let wanted = identifier(attribute.name, of: entity.name, in: newModel, relationship: false)
        return source.attributes.first {
            identifier($0.name, of: source.name, in: oldModel, relationship: false) == wanted
                && $0.type == attribute.type
        }
    }

    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
