// libFuzzer target: the migration planner and `StoreFile.migrate` on random pairs of valid model versions
// (ModelGenerator.swift). A store of the first version, in memory, gets random rows: values of every attribute
// type (NULL in optional ones), a consistent object graph over every relationship (positions in ordered ones), Core
// Data's marked form in external-storage columns. Then:
//
// - not inferable: the reasons are non-empty, `migrate` refuses with the same reasons, and the store is byte for
//   byte as it was;
// - inferable: `migrate` succeeds, the store passes `PRAGMA integrity_check`, is recognised as the second version
//   and has its layout, and every row of every entity that maps (by renaming identifier, else by name) is there
//   with its key, lock and new entity number; every attribute that maps holds its old value (widened, marked or
//   unmarked when the external-storage flag changes, the default where a non-optional one was empty), every new
//   attribute its default or NULL; every relationship that maps has the old destinations that still exist in its
//   destination's hierarchy (a to-many become to-one keeps the lowest key), in their old order when it stays
//   ordered and in key order when it becomes ordered.
//
// The expected values are worked out here from the two models, independently of the planner. Any crash, error or
// mismatch is a finding.
import DataModelStore
import DataModelStoreLayout
import Foundation
import SQLiteKit

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    var generator = ModelGenerator(ByteChoices(bytes))
    let old = generator.firstVersion()
    for _ in 0..<(1 + generator.choices.int(6)) { generator.edit() }
    let new = generator.model
    do {
        var check = MigrationCheck(old: old, new: new, choices: generator.choices)
        try check.run()
    } catch {
        fatalError("migration: \(error)\nold: \(old)\nnew: \(new)")
    }
    return 0
}

struct Finding: Error, CustomStringConvertible {
    let description: String
}

typealias Row = [String: SQLiteValue]

struct MigrationCheck {
    let old: LayoutModel
    let new: LayoutModel
    var choices: ByteChoices

    func fail(_ message: String) -> Never {
        fatalError("migration: \(message)\nold: \(old)\nnew: \(new)")
    }

    mutating func run() throws {
        let oldLayout: StoreLayout
        let newLayout: StoreLayout
        do {
            oldLayout = try StoreLayout(model: old)
            newLayout = try StoreLayout(model: new)
        } catch {
            fail("a generated model cannot be laid out: \(error)")
        }
        let plan = try MigrationPlan(from: old, to: new)
        let db = try Database()
        for sql in oldLayout.ddlStatements() + oldLayout.primaryKeyRowStatements() { try db.execute(sql: sql) }
        let metadata: [String: PropertyListValue] = [
            "NSStoreType": .string("SQLite"),
            StoreFile.versionHashesKey: .dictionary(old.versionHashes.mapValues { .string($0) }),
        ]
        try db.execute(
            sql: #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, 'fuzz', ?)"#,
            arguments: [.blob(StoreFile.propertyList(metadata))])
        try fill(db, oldLayout)

        guard plan.isInferable else {
            if plan.blockers.isEmpty || plan.blockers.contains(where: \.isEmpty) { fail("empty reasons") }
            let before = try dump(db)
            do {
                _ = try StoreFile.migrate(db, versions: [old, new], to: 1)
                fail("migrate ran a plan that is not inferable: \(plan.blockers)")
            } catch .notInferable(_, let reasons) {
                if reasons != plan.blockers { fail("migrate refused with \(reasons), the plan says \(plan.blockers)") }
            } catch {
                fail("migrate failed otherwise than refusing: \(error)")
            }
            if try dump(db) != before { fail("a refused migration changed the store") }
            return
        }

        var mapping = Mapping(old: old, new: new, oldLayout: oldLayout, newLayout: newLayout)
        var before: [String: [Int64: Row]] = [:]
        for table in oldLayout.entityTables {
            before[table.name] = try rows(db, table.name)
            mapping.oldEntityOfRow[table.name] = (before[table.name] ?? [:]).compactMapValues {
                $0["Z_ENT"]?.integerValue.map(Int.init)
            }
        }
        var oldPairs: [String: [Int64: [Int64]]] = [:]  // "old entity.relationship" → source → ordered destinations
        for entity in oldLayout.entities {
            for relationship in entity.relationships {
                oldPairs[entity.name + "." + relationship.name] = try pairs(db, oldLayout, entity, relationship)
            }
        }

        let migration: StoreFile.Migration
        do {
            migration = try StoreFile.migrate(db, versions: [old, new], to: 1)
        } catch {
            fail("an inferable migration failed: \(error)\nstatements:\n" + plan.statements.joined(separator: "\n"))
        }
        let statements = "\nstatements:\n" + plan.statements.joined(separator: "\n")
        if try db.fetchOne(sql: "PRAGMA integrity_check") != [.text("ok")] { fail("integrity check" + statements) }
        let state = try StoreFile.state(of: db)
        if try state.snapshot.recognizedVersion(among: [old, new]) != 1 {
            fail("the migrated store is not recognised as the new version" + statements)
        }
        let differences = state.snapshot.differences(from: newLayout)
        if !differences.isEmpty { fail("the migrated store differs from the new layout: \(differences)" + statements) }
        // Every index of the new version is there, whatever the store was recognised as (an attribute's `indexed`
        // flag is not part of a version); one the old version had for an attribute and the new one does not is gone
        // when the store was migrated.
        let present = state.snapshot.indexNames ?? []
        let missing = newLayout.indexes.map(\.name).filter { !present.contains($0) }
        if !missing.isEmpty { fail("the migrated store lacks the indexes \(missing)" + statements) }
        if !migration.plan.isEmpty {
            let newIndexes = Set(newLayout.indexes.map(\.name))
            let newTables = Set(newLayout.tables.map(\.name))
            let stale = oldLayout.indexes.filter {
                $0.kind == .attribute && newTables.contains($0.tableName) && !newIndexes.contains($0.name)
                    && present.contains($0.name)
            }
            if !stale.isEmpty { fail("the migrated store keeps the indexes \(stale.map(\.name))" + statements) }
        }
        if migration.sourceIndex == 1 {
            // Recognised as the new version already: only when both store the same way (the version hashes ignore
            // an attribute's `indexed` flag, so two versions that differ only there are one version to a store).
            if oldLayout.entities != newLayout.entities || oldLayout.tables != newLayout.tables
                || oldLayout.primaryKeyRows != newLayout.primaryKeyRows
            {
                fail("a store of the old version was taken for the new one")
            }
            return
        }

        // Rows and attributes.
        for entity in newLayout.entities {
            guard let source = mapping.entities[entity.number] else {
                let count = try db.fetchOne(
                    sql: "SELECT COUNT(*) FROM \(quote(entity.tableName)) WHERE Z_ENT = \(entity.number)")
                if count != [.integer(0)] { fail("new entity \(entity.name) has rows" + statements) }
                continue
            }
            let after = try rows(db, entity.tableName)
            let oldRows = (before[source.tableName] ?? [:]).filter {
                $0.value["Z_ENT"] == .integer(Int64(source.number))
            }
            let newCount = after.values.filter { $0["Z_ENT"] == .integer(Int64(entity.number)) }.count
            if newCount != oldRows.count {
                fail("\(entity.name) has \(newCount) rows, \(source.name) had \(oldRows.count)" + statements)
            }
            for (key, row) in oldRows {
                guard let migrated = after[key] else { fail("\(entity.name) row \(key) is gone" + statements) }
                if migrated["Z_ENT"] != .integer(Int64(entity.number)) || migrated["Z_OPT"] != row["Z_OPT"] {
                    fail("\(entity.name) row \(key): Z_ENT/Z_OPT \(migrated) from \(row)" + statements)
                }
                for attribute in entity.attributes {
                    let expected = mapping.expectedValue(of: attribute, in: entity, from: source, row: row)
                    let actual = migrated[attribute.column] ?? .null
                    if !same(actual, expected) {
                        fail(
                            "\(entity.name).\(attribute.name) of row \(key) is \(actual), expected \(expected)"
                                + statements)
                    }
                }
            }
        }

        try checkReferences(db, newLayout, statements: statements)

        // Relationships.
        for entity in newLayout.entities {
            guard let source = mapping.entities[entity.number] else { continue }
            for relationship in entity.relationships {
                guard let previous = mapping.relationship(relationship.name, of: entity, from: source) else { continue }
                // A to-many kept in its inverse's key, where that inverse was a to-many that became a to-one: the
                // inverse keeps one destination each (checked with it), and this side is what that leaves.
                if case .inverseForeignKey = relationship.storage,
                    let inverse = relationship.inverseName.flatMap({ name in
                        newLayout.entity(number: relationship.destinationEntityNumber)?.relationship(named: name)
                    }),
                    let destination = newLayout.entity(number: relationship.destinationEntityNumber),
                    let oldDestination = mapping.entities[destination.number],
                    mapping.relationship(inverse.name, of: destination, from: oldDestination)?.isToMany ?? true
                {
                    continue
                }
                let before = oldPairs[source.name + "." + previous.name] ?? [:]
                let after = try pairs(db, newLayout, entity, relationship)
                let keys = Set((before.keys)).union(after.keys)
                for key in keys.sorted() {
                    // Only this entity's own rows (rows of sub-entities are checked with their entity).
                    guard mapping.oldEntityOfRow[source.tableName]?[key] == source.number else { continue }
                    var destinations = (before[key] ?? []).filter {
                        mapping.survives($0, destinationOf: previous, into: relationship)
                    }
                    let all = before[key] ?? []
                    if !relationship.isToMany {
                        let kept = previous.isToMany ? all.min() : all.first
                        destinations =
                            kept.map { mapping.survives($0, destinationOf: previous, into: relationship) ? [$0] : [] }
                            ?? []
                    } else if relationship.isOrdered && !previous.isOrdered {
                        destinations.sort()
                    }
                    var actual = after[key] ?? []
                    if !relationship.isOrdered {
                        actual.sort()
                        destinations.sort()
                    }
                    if actual != destinations {
                        fail(
                            "\(entity.name).\(relationship.name) of row \(key) is \(actual), expected \(destinations) "
                                + "(\(source.name).\(previous.name) was \(all))" + statements)
                    }
                }
            }
        }
    }

    /// Every to-one key names a row of its destination's hierarchy, its entity column that row's entity; every join
    /// row names rows on both sides.
    func checkReferences(_ db: Database, _ layout: StoreLayout, statements: String) throws {
        for entity in layout.entities {
            for relationship in entity.relationships where relationship.declaringEntityNumber == entity.number {
                guard let destination = layout.entity(number: relationship.destinationEntityNumber) else { continue }
                let range = destination.hierarchyNumbers
                switch relationship.storage {
                case .foreignKey(let columns):
                    let entityCheck = columns.entityColumn.map { " OR d.Z_ENT IS NOT o.\(quote($0))" } ?? ""
                    let bad = try db.fetchAll(
                        sql:
                            "SELECT o.Z_PK FROM \(quote(entity.tableName)) AS o LEFT JOIN \(quote(destination.tableName)) "
                            + "AS d ON d.Z_PK = o.\(quote(columns.column)) WHERE o.\(quote(columns.column)) IS NOT NULL AND "
                            + "(d.Z_PK IS NULL OR d.Z_ENT NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)\(entityCheck))"
                    )
                    if !bad.isEmpty {
                        fail(
                            "\(entity.name).\(relationship.name): rows \(bad) point at no \(destination.name)"
                                + statements)
                    }
                case .joinTable(let join):
                    let source = entity.hierarchyNumbers
                    let bad = try db.fetchAll(
                        sql:
                            "SELECT j.\(quote(join.sourceColumn)), j.\(quote(join.destinationColumn)) FROM \(quote(join.table)) AS j "
                            + "LEFT JOIN \(quote(entity.tableName)) AS s ON s.Z_PK = j.\(quote(join.sourceColumn)) "
                            + "LEFT JOIN \(quote(destination.tableName)) AS d ON d.Z_PK = j.\(quote(join.destinationColumn)) "
                            + "WHERE s.Z_PK IS NULL OR d.Z_PK IS NULL OR s.Z_ENT NOT BETWEEN \(source.lowerBound) AND "
                            + "\(source.upperBound) OR d.Z_ENT NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)")
                    if !bad.isEmpty {
                        fail("\(entity.name).\(relationship.name): join rows \(bad) name missing rows" + statements)
                    }
                case .inverseForeignKey:
                    break
                }
            }
        }
    }

    // MARK: Filling the old store

    mutating func value(_ type: AttributeType, external: Bool) -> SQLiteValue {
        switch type {
        case .integer16: return .integer(Int64(Int16(truncatingIfNeeded: choices.int(65536))))
        case .integer32: return .integer(Int64(Int32(truncatingIfNeeded: choices.int(65536) << 16 | choices.byte())))
        case .integer64: return .integer(Int64(choices.int(65536) - 32768) << (choices.int(4) * 12))
        case .boolean: return .integer(Int64(choices.int(2)))
        case .double, .float, .date: return .real(choices.pick([0, -1.5, 2.25, 1e10, -0.0, 3.0e-5, 123456.75]))
        case .decimal: return .text(choices.pick(["0", "1.5", "-2", "123456789.123456789"]))
        case .string, .uri: return .text(choices.pick(["", "a", "it's", "é", "\u{0}x", "NULL", "a\nb"]))
        case .binary where external:
            if choices.chance(20) { return .blob(Data([ExternalBinaryData.externalMarker]) + Data("missing\0".utf8)) }
            return .blob(ExternalBinaryData.inline(Data((0..<choices.int(4)).map { _ in UInt8(choices.byte()) })))
        case .uuid: return .blob(Data((0..<16).map { _ in UInt8(choices.byte()) }))
        default: return .blob(Data((0..<choices.int(5)).map { _ in UInt8(choices.byte()) }))
        }
    }

    /// Rows of every concrete entity, then an object graph over every relationship written to all its storage.
    mutating func fill(_ db: Database, _ layout: StoreLayout) throws {
        let declared = Declared(old)
        var keys: [Int: [Int64]] = [:]  // entity number → keys of its rows
        var next: [String: Int64] = [:]
        for entity in layout.entities where !entity.isAbstract {
            for _ in 0..<choices.int(5) {
                let key = (next[entity.tableName] ?? 0) + 1 + Int64(choices.int(3))
                next[entity.tableName] = key
                keys[entity.number, default: []].append(key)
                var names = [quote("Z_PK"), quote("Z_ENT"), quote("Z_OPT")]
                var values: [SQLiteValue] = [
                    .integer(key), .integer(Int64(entity.number)), .integer(Int64(1 + choices.int(5))),
                ]
                for attribute in entity.attributes {
                    let description = declared.attribute(attribute.name)
                    names.append(quote(attribute.column))
                    if description?.isOptional ?? true, choices.chance(25) {
                        values.append(.null)
                    } else {
                        values.append(
                            value(attribute.type, external: description?.allowsExternalBinaryDataStorage ?? false))
                    }
                }
                try db.execute(
                    sql: "INSERT INTO \(quote(entity.tableName)) (\(names.joined(separator: ", "))) VALUES ("
                        + names.map { _ in "?" }.joined(separator: ", ") + ")", arguments: values)
            }
        }
        func rows(of number: Int) -> [(key: Int64, entity: Int)] {
            guard let hierarchy = layout.entity(number: number)?.hierarchyNumbers else { return [] }
            return hierarchy.flatMap { entity in (keys[entity] ?? []).map { ($0, entity) } }
        }
        var done: Set<String> = []
        var joinTablesWritten: Set<String> = []
        for entity in layout.entities {
            for relationship in entity.relationships where relationship.declaringEntityNumber == entity.number {
                guard !done.contains("\(entity.number).\(relationship.name)") else { continue }
                done.insert("\(entity.number).\(relationship.name)")
                let destination = layout.entity(number: relationship.destinationEntityNumber)
                let inverse = relationship.inverseName.flatMap { name in
                    destination?.relationship(named: name).flatMap { $0.inverseName == relationship.name ? $0 : nil }
                }
                if let inverse, let destination {
                    let owner = layout.entity(number: inverse.declaringEntityNumber) ?? destination
                    done.insert("\(owner.number).\(inverse.name)")
                }
                // The graph: source → ordered destinations; a destination has one source when the inverse is to-one.
                var graph: [(source: (key: Int64, entity: Int), destinations: [(key: Int64, entity: Int)])] = []
                var taken: Set<Int64> = []
                let candidates = rows(of: relationship.destinationEntityNumber)
                for source in rows(of: entity.number) {
                    var chosen: [(key: Int64, entity: Int)] = []
                    let wanted = relationship.isToMany ? choices.int(4) : choices.int(2)
                    for _ in 0..<wanted where !candidates.isEmpty {
                        let candidate = choices.pick(candidates)
                        if chosen.contains(where: { $0.key == candidate.key }) { continue }
                        if let inverse, !inverse.isToMany, taken.contains(candidate.key) { continue }
                        taken.insert(candidate.key)
                        chosen.append(candidate)
                    }
                    graph.append((source, chosen))
                }
                // Positions in the inverse: a destination's sources, in the order met.
                var inverseOrder: [Int64: [Int64]] = [:]
                for (source, destinations) in graph {
                    for destination in destinations { inverseOrder[destination.key, default: []].append(source.key) }
                }
                let table = layout.entity(number: relationship.declaringEntityNumber)?.tableName ?? entity.tableName
                try write(
                    relationship, graph: graph, inverseOrder: inverseOrder, ownTable: table, db: db,
                    joinTablesWritten: &joinTablesWritten)
                if let inverse, let destination {
                    var reversed: [Int64: (key: Int64, entity: Int)] = [:]
                    var reversedGraph:
                        [(source: (key: Int64, entity: Int), destinations: [(key: Int64, entity: Int)])] = []
                    for (source, destinations) in graph {
                        for destination in destinations { reversed[destination.key] = destination }
                        _ = source
                    }
                    for (key, destinationRow) in reversed.sorted(by: { $0.key < $1.key }) {
                        let sources = graph.filter { $0.destinations.contains { $0.key == key } }.map(\.source)
                        reversedGraph.append((destinationRow, sources))
                    }
                    var order: [Int64: [Int64]] = [:]
                    for (source, destinations) in graph { order[source.key] = destinations.map(\.key) }
                    try write(
                        inverse, graph: reversedGraph, inverseOrder: order, ownTable: destination.tableName, db: db,
                        joinTablesWritten: &joinTablesWritten)
                }
            }
        }
    }

    /// Writes one side of a relationship: its own foreign key columns, or its join table (once per table); a to-many
    /// stored through the inverse's key is written by the inverse.
    func write(
        _ relationship: RelationshipLayout,
        graph: [(source: (key: Int64, entity: Int), destinations: [(key: Int64, entity: Int)])],
        inverseOrder: [Int64: [Int64]], ownTable: String, db: Database, joinTablesWritten: inout Set<String>
    ) throws {
        switch relationship.storage {
        case .foreignKey(let columns):
            for (source, destinations) in graph {
                guard let destination = destinations.first else { continue }
                var sets = ["\(quote(columns.column)) = \(destination.key)"]
                if let entityColumn = columns.entityColumn {
                    sets.append("\(quote(entityColumn)) = \(destination.entity)")
                }
                if let orderColumn = columns.orderColumn {
                    let position = (inverseOrder[destination.key]?.firstIndex(of: source.key) ?? 0) + 1
                    sets.append("\(quote(orderColumn)) = \(position)")
                }
                try db.execute(
                    sql: "UPDATE \(quote(ownTable)) SET \(sets.joined(separator: ", ")) WHERE Z_PK = \(source.key)")
            }
        case .inverseForeignKey:
            break
        case .joinTable(let join):
            guard !joinTablesWritten.contains(join.table) else { return }
            joinTablesWritten.insert(join.table)
            for (source, destinations) in graph {
                for (index, destination) in destinations.enumerated() {
                    var names = [join.sourceColumn, join.destinationColumn]
                    var values: [SQLiteValue] = [.integer(source.key), .integer(destination.key)]
                    if let order = join.orderColumn {
                        names.append(order)
                        values.append(.integer(Int64(index + 1)))
                    }
                    if let order = join.inverseOrderColumn {
                        names.append(order)
                        values.append(
                            .integer(Int64((inverseOrder[destination.key]?.firstIndex(of: source.key) ?? 0) + 1)))
                    }
                    try db.execute(
                        sql: "INSERT INTO \(quote(join.table)) (\(names.map(quote).joined(separator: ", "))) VALUES ("
                            + names.map { _ in "?" }.joined(separator: ", ") + ")", arguments: values)
                }
            }
        }
    }
}

// MARK: Reading a store

func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

/// Every row of `table` by `Z_PK`.
func rows(_ db: Database, _ table: String) throws -> [Int64: Row] {
    let statement = try db.prepare("SELECT * FROM \(quote(table))")
    let names = (0..<statement.columnCount).map { statement.columnName(at: $0) ?? "" }
    var result: [Int64: Row] = [:]
    while try statement.step() == .row {
        var row: Row = [:]
        for (index, name) in names.enumerated() { row[name] = statement.value(at: Int32(index)) }
        if case .integer(let key)? = row["Z_PK"] { result[key] = row }
    }
    return result
}

/// Everything the store holds, for "nothing was written".
func dump(_ db: Database) throws -> [String] {
    var lines: [String] = []
    for row in try db.fetchAll(sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name") {
        lines.append("\(row)")
        guard row.first == .text("table"), case .text(let name)? = row.dropFirst().first else { continue }
        lines += try db.fetchAll(sql: "SELECT * FROM \(quote(name))").map { "\($0)" }.sorted()
    }
    return lines
}

/// A relationship's rows: source key → destination keys, in the relationship's order when it is ordered.
func pairs(_ db: Database, _ layout: StoreLayout, _ entity: EntityLayout, _ relationship: RelationshipLayout) throws
    -> [Int64: [Int64]]
{
    let hierarchy = entity.hierarchyNumbers
    var found: [Int64: [(key: Int64, position: Int64)]] = [:]
    switch relationship.storage {
    case .foreignKey(let columns):
        for row in try db.fetchAll(
            sql: "SELECT Z_PK, \(quote(columns.column)) FROM \(quote(entity.tableName)) WHERE "
                + "\(quote(columns.column)) IS NOT NULL AND Z_ENT BETWEEN \(hierarchy.lowerBound) AND \(hierarchy.upperBound)"
        ) {
            guard let source = row[0].integerValue, let destination = row[1].integerValue else { continue }
            found[source, default: []].append((destination, 0))
        }
    case .inverseForeignKey(let table, let columns):
        let order = columns.orderColumn.map(quote) ?? "Z_PK"
        for row in try db.fetchAll(
            sql: "SELECT \(quote(columns.column)), Z_PK, \(order) FROM \(quote(table)) WHERE "
                + "\(quote(columns.column)) IS NOT NULL")
        {
            guard let source = row[0].integerValue, let destination = row[1].integerValue else { continue }
            found[source, default: []].append((destination, row[2].integerValue ?? 0))
        }
    case .joinTable(let join):
        let order = join.orderColumn.map(quote) ?? quote(join.destinationColumn)
        for row in try db.fetchAll(
            sql:
                "SELECT \(quote(join.sourceColumn)), \(quote(join.destinationColumn)), \(order) FROM \(quote(join.table))"
        ) {
            guard let source = row[0].integerValue, let destination = row[1].integerValue else { continue }
            found[source, default: []].append((destination, row[2].integerValue ?? 0))
        }
    }
    return found.mapValues { list in
        list.sorted { ($0.position, $0.key) < ($1.position, $1.key) }.map(\.key)
    }
}

/// Values equal as stored; numbers compared by value (a NUMERIC column keeps `1000.0` as an integer and `'1.5'` as
/// a real; `-0.0` and `0.0` are one value).
func same(_ lhs: SQLiteValue, _ rhs: SQLiteValue) -> Bool {
    func number(_ value: SQLiteValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        case .text(let text): Double(text)
        default: nil
        }
    }
    if lhs == rhs { return true }
    if let a = number(lhs), let b = number(rhs) { return a == b }
    return false
}

// MARK: The mapping, worked out again

/// A model's attributes by name (names are unique across a generated model).
struct Declared {
    var attributes: [String: LayoutAttribute] = [:]
    var relationships: [String: LayoutRelationship] = [:]
    var entities: [String: LayoutEntity] = [:]

    init(_ model: LayoutModel) {
        for entity in model.entities {
            entities[entity.name] = entity
            for attribute in entity.attributes { attributes[attribute.name] = attribute }
            for relationship in entity.relationships { relationships[relationship.name] = relationship }
        }
    }

    func attribute(_ name: String) -> LayoutAttribute? { attributes[name] }
}

struct Mapping {
    let oldDeclared: Declared
    let newDeclared: Declared
    let oldLayout: StoreLayout
    let newLayout: StoreLayout
    /// New entity number → the old entity it maps from.
    var entities: [Int: EntityLayout] = [:]
    /// Old entity number → new entity number.
    var numbers: [Int: Int] = [:]
    /// Old table → key → old entity number of the row.
    var oldEntityOfRow: [String: [Int64: Int]] = [:]

    init(old: LayoutModel, new: LayoutModel, oldLayout: StoreLayout, newLayout: StoreLayout) {
        oldDeclared = Declared(old)
        newDeclared = Declared(new)
        self.oldLayout = oldLayout
        self.newLayout = newLayout
        var used: Set<Int> = []
        for entity in newLayout.entities {
            let wanted = RenamingIdentifier.of(
                name: entity.name, renamingIdentifier: newDeclared.entities[entity.name]?.renamingIdentifier)
            let source =
                oldLayout.entities.first {
                    RenamingIdentifier.of(
                        name: $0.name, renamingIdentifier: oldDeclared.entities[$0.name]?.renamingIdentifier) == wanted
                } ?? oldLayout.entity(named: entity.name)
            guard let source, !used.contains(source.number) else { continue }
            used.insert(source.number)
            entities[entity.number] = source
            numbers[source.number] = entity.number
        }
    }

    func identifier(_ name: String, _ renamingIdentifier: String?) -> String {
        RenamingIdentifier.of(name: name, renamingIdentifier: renamingIdentifier)
    }

    func attribute(_ name: String, of entity: EntityLayout, from source: EntityLayout) -> AttributeLayout? {
        let wanted = identifier(name, newDeclared.attributes[name]?.renamingIdentifier)
        return source.attributes.first {
            identifier($0.name, oldDeclared.attributes[$0.name]?.renamingIdentifier) == wanted
        } ?? source.attribute(named: name)
    }

    func relationship(_ name: String, of entity: EntityLayout, from source: EntityLayout) -> RelationshipLayout? {
        let wanted = identifier(name, newDeclared.relationships[name]?.renamingIdentifier)
        return source.relationships.first {
            identifier($0.name, oldDeclared.relationships[$0.name]?.renamingIdentifier) == wanted
        } ?? source.relationship(named: name)
    }

    static func sqlValue(_ value: AttributeValue) -> SQLiteValue {
        switch value {
        case .integer(let number): .integer(number)
        case .double(let number), .date(let number): number.isFinite ? .real(number) : .null
        case .boolean(let flag): .integer(flag ? 1 : 0)
        case .string(let text), .decimal(let text): .text(text)
        case .uuid(let text):
            .blob(Data(hexDigits: String(text.unicodeScalars.filter(\.properties.isASCIIHexDigit).map(Character.init))))
        }
    }

    func expectedValue(of attribute: AttributeLayout, in entity: EntityLayout, from source: EntityLayout, row: Row)
        -> SQLiteValue
    {
        let declared = newDeclared.attribute(attribute.name)
        let fill = declared?.defaultValue.map(Self.sqlValue)
        guard let previous = self.attribute(attribute.name, of: entity, from: source) else { return fill ?? .null }
        var value = row[previous.column] ?? .null
        if value == .null, declared?.isOptional == false, let fill { value = fill }
        let then = oldDeclared.attribute(previous.name).map { $0.allowsExternalBinaryDataStorage && $0.type == .binary }
        let now = declared.map { $0.allowsExternalBinaryDataStorage && $0.type == .binary }
        if then != now, case .blob(let data) = value {
            if now == true {
                value = .blob(ExternalBinaryData.inline(data))
            } else {
                value = ExternalBinaryData.value(of: data, directory: nil).map { .blob($0) } ?? .null
            }
        }
        return value
    }

    /// Whether an old destination row still exists after the migration in the new relationship's destination.
    func survives(_ key: Int64, destinationOf previous: RelationshipLayout, into relationship: RelationshipLayout)
        -> Bool
    {
        guard let oldDestination = oldLayout.entity(number: previous.destinationEntityNumber),
            let oldEntity = oldEntityOfRow[oldDestination.tableName]?[key],
            let newEntity = numbers[oldEntity],
            let newDestination = newLayout.entity(number: relationship.destinationEntityNumber)
        else { return false }
        return newDestination.hierarchyNumbers.contains(newEntity)
    }
}

extension Data {
    init(hexDigits: String) {
        var bytes: [UInt8] = []
        var digits = hexDigits.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        self.init(bytes)
    }
}
