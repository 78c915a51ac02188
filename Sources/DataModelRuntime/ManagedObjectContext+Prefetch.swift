import DataModelStoreLayout
import SQLiteKit

extension ManagedObjectContext {
    /// Loads, for `objects`, the destinations of each relationship path of
    /// ``FetchRequest/relationshipKeyPathsForPrefetching``: one query per relationship and up to
    /// ``prefetchChunk`` sources, never one per object. Objects already loaded keep their values.
    func prefetch(_ paths: [String], for objects: [ManagedObject]) {
        guard !objects.isEmpty else { return }
        var tree: [String: [String]] = [:]
        var order: [String] = []
        for path in paths {
            let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
            guard let first = parts.first, !first.isEmpty else { continue }
            if tree[first] == nil { order.append(first) }
            tree[first, default: []] += parts.count > 1 ? [parts[1]] : []
        }
        for name in order {
            var reached: [ManagedObject] = []
            var byEntity: [ObjectIdentifier: (EntityRuntime, [ManagedObject])] = [:]
            for object in objects where !object.isInvalid {
                let key = ObjectIdentifier(object.entityRuntime)
                byEntity[key, default: (object.entityRuntime, [])].1.append(object)
            }
            for (entity, sources) in byEntity.values.sorted(by: { $0.0.number < $1.0.number }) {
                guard let index = entity.relationshipIndex[name] else { continue }
                let relationship = entity.relationships[index]
                reached +=
                    relationship.isToMany
                    ? prefetchToMany(relationship, of: sources) : prefetchToOne(relationship, of: sources)
            }
            if let rest = tree[name], !rest.isEmpty { prefetch(rest, for: reached) }
        }
    }

    private static let prefetchChunk = 500

    /// Loads the faults among the to-one destinations in `IN (…)` batches; returns the destinations.
    private func prefetchToOne(_ relationship: RelationshipRuntime, of sources: [ManagedObject]) -> [ManagedObject] {
        var destinations: [ManagedObject] = []
        var missing: [ObjectID] = []
        var seen = Set<ObjectID>()
        for source in sources {
            if source.isFault { source.fireFaultIfNeeded() }
            guard source.values.relationshipIndices.contains(relationship.index),
                case .toOne(let id?) = source.values[relationship: relationship.index], seen.insert(id).inserted
            else { continue }
            if let object = registered[id] {
                destinations.append(object)
                if object.isFault { missing.append(id) }
            } else {
                missing.append(id)
            }
        }
        let destination = relationship.destination
        var byTable: [String: (EntityRuntime, [ObjectID])] = [:]
        for id in missing {
            guard let entity = runtime.entity(number: id.entityNumber) else { continue }
            byTable[entity.tableName, default: (destination, [])].1.append(id)
        }
        for (_, ids) in byTable.values {
            guard let root = runtime.entity(number: ids[0].entityNumber) else { continue }
            for chunk in stride(from: 0, to: ids.count, by: Self.prefetchChunk) {
                let slice = ids[chunk..<min(chunk + Self.prefetchChunk, ids.count)]
                let sql =
                    root.selectColumnsSQL + #" WHERE "Z_PK" IN ("#
                    + Array(repeating: "?", count: slice.count).joined(separator: ", ") + ")"
                destinations += loadRows(sql, keys: slice.map(\.primaryKey), extraColumn: false).map(\.object)
            }
        }
        return destinations
    }

    /// Fills the to-many faults of `sources` in `IN (…)` batches; returns the destinations.
    private func prefetchToMany(_ relationship: RelationshipRuntime, of sources: [ManagedObject]) -> [ManagedObject] {
        let pending = sources.filter { source in
            if source.isFault { source.fireFaultIfNeeded() }
            guard !source.isInserted, source.values.relationshipIndices.contains(relationship.index),
                case .toManyFault = source.values[relationship: relationship.index]
            else { return false }
            return true
        }
        guard !pending.isEmpty else { return [] }
        let destination = relationship.destination
        let columns = [#""Z_PK""#, #""Z_ENT""#, #""Z_OPT""#] + destination.rowColumnNames.map(SQLQuoting.identifier)
        let select: (Int) -> String
        switch relationship.storage {
        case .inverseForeignKey(let table, let foreignKey)?:
            let order = foreignKey.orderColumn.map { SQLQuoting.identifier($0) + ", " } ?? ""
            select = { count in
                "SELECT " + columns.joined(separator: ", ") + ", " + SQLQuoting.identifier(foreignKey.column) + " FROM "
                    + SQLQuoting.identifier(table) + " WHERE " + SQLQuoting.identifier(foreignKey.column) + " IN ("
                    + Array(repeating: "?", count: count).joined(separator: ", ") + ") ORDER BY " + order + #""Z_PK""#
            }
        case .joinTable(let join)?:
            let destinationColumn = "j." + SQLQuoting.identifier(join.destinationColumn)
            let order = join.orderColumn.map { "j." + SQLQuoting.identifier($0) + ", " } ?? ""
            select = { count in
                "SELECT " + columns.map { "d." + $0 }.joined(separator: ", ") + ", j."
                    + SQLQuoting.identifier(join.sourceColumn) + " FROM " + SQLQuoting.identifier(join.table)
                    + " AS j JOIN " + SQLQuoting.identifier(destination.tableName) + #" AS d ON d."Z_PK" = "#
                    + destinationColumn + " WHERE j." + SQLQuoting.identifier(join.sourceColumn) + " IN ("
                    + Array(repeating: "?", count: count).joined(separator: ", ") + ") ORDER BY " + order
                    + destinationColumn
            }
        case .foreignKey?, nil:
            return []
        }
        var lists: [Int64: ObjectIDList] = [:]
        var destinations: [ManagedObject] = []
        for chunk in stride(from: 0, to: pending.count, by: Self.prefetchChunk) {
            let slice = pending[chunk..<min(chunk + Self.prefetchChunk, pending.count)]
            for (object, source) in loadRows(
                select(slice.count), keys: slice.map(\.objectID.primaryKey), extraColumn: true)
            {
                destinations.append(object)
                if object.isDeleted { continue }
                lists[source, default: ObjectIDList()].append(object.objectID)
            }
        }
        for source in pending {
            guard case .toManyFault = source.values[relationship: relationship.index] else { continue }
            let list = lists[source.objectID.primaryKey] ?? ObjectIDList()
            source.values[relationship: relationship.index] = .toMany(list)
            if source.snapshot != nil, case .toManyFault? = source.snapshot?[relationship: relationship.index] {
                source.snapshot?[relationship: relationship.index] = .toMany(list)
            }
        }
        return destinations
    }

    /// Runs `sql` (whole rows, then optionally one extra column) with `keys` bound, registering
    /// or filling the objects; returns each object with the extra column's value.
    private func loadRows(_ sql: String, keys: [Int64], extraColumn: Bool) -> [(object: ManagedObject, extra: Int64)] {
        // The objects whose values were read get `awakeFromFetch()` once the statement is done.
        var read: [ManagedObject] = []
        defer { deliverAwakeFromFetch(read) }
        return coordinator.locked {
            var loaded: [(ManagedObject, Int64)] = []
            do {
                let statement = try database.cachedStatement(sql)
                defer { statement.resetIgnoringErrors() }
                for (offset, key) in keys.enumerated() { try statement.bind(key, at: Int32(offset + 1)) }
                var vacancy = ObjectTable.Vacancy()
                var arena = ObjectValueArena()
                while try statement.step() == .row {
                    guard let entity = runtime.entity(number: statement.int(at: 1)) else { continue }
                    let id = ObjectID(
                        storeNumber: coordinator.storeNumber, entityNumber: entity.number,
                        primaryKey: statement.int64(at: 0))
                    let extra = extraColumn ? statement.int64(at: Int32(3 + entity.rowColumns.count)) : 0
                    if let existing = registered.find(id, orVacancy: &vacancy) {
                        if existing.isFault {
                            readRow(statement, entity: entity, into: existing, arena: &arena)
                            read.append(existing)
                        }
                        loaded.append((existing, extra))
                    } else {
                        let object = entity.objectType.init(
                            ObjectSeed(entity: entity, objectID: id, context: self, isFault: true, isRegistered: true))
                        readRow(statement, entity: entity, into: object, arena: &arena)
                        registered.fill(vacancy, with: object)
                        loaded.append((object, extra))
                        read.append(object)
                    }
                }
            } catch {
                return loaded
            }
            return loaded
        }
    }
}
