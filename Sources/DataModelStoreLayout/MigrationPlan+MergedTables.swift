// MARK: - Hierarchies merged into one table, and the external-data files of removed values

/// Entities of separate old hierarchies that share one new hierarchy (two roots moved under a new common parent,
/// or a root moved under another entity) move from their old tables into one. Keys (`Z_PK`) are unique per table
/// only, so they would collide: the rows of the first old table keep their keys, and each other old table's keys
/// move above those of every old table it joins (by their largest key or `Z_MAX`, whichever is larger, worked
/// out in SQL when the migration runs). Every key read from such an old table is written moved: the rows' own
/// `Z_PK`, to-one keys pointing at them (in any table, the merged one included), both columns of join tables, and
/// the new root's `Z_MAX`. Positions (`Z_FOK_`) hold positions, not keys, and stay.
///
/// Core Data's inferred mapping refuses this change (it cannot merge entity hierarchies: two entities that do not
/// share a parent in the source cannot share one in the destination), so the plan lists it in
/// ``MigrationPlan/beyondCoreData``.
extension MigrationPlanner {
    /// Finds the new tables that receive rows of more than one old table, and plans the key offsets.
    mutating func planKeyOffsets() {
        var sources: [String: Set<String>] = [:]
        for entity in new.entities {
            guard let source = entityMap[entity.number] else { continue }
            sources[entity.tableName, default: []].insert(source.tableName)
        }
        let merged = sources.filter { $0.value.count > 1 }
        guard !merged.isEmpty else { return }
        // First the old tables whose root stays a root (its rows keep their keys), then by old root number.
        let order = old.entityTables.map(\.name).enumerated().sorted { first, second in
            let firstStays = staysRoot(oldTable: first.element)
            let secondStays = staysRoot(oldTable: second.element)
            return firstStays != secondStays ? firstStays : first.offset < second.offset
        }.map(\.element)
        let rank = Dictionary(
            order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for table in merged.keys.sorted() {
            let tables = (merged[table] ?? []).sorted { (rank[$0] ?? 0) < (rank[$1] ?? 0) }
            mergedTables[table] = tables
            let entities = new.entities.filter { $0.tableName == table }
            beyondCoreData.append(
                entities.filter { entityMap[$0.number] != nil }.map(\.name).joined(separator: ", ")
                    + ": entities of separate hierarchies (tables " + tables.joined(separator: ", ")
                    + ") share the hierarchy of \(table) now; Core Data's inferred mapping refuses to merge "
                    + "hierarchies, so on Apple platforms this version needs a mapping model")
        }
        for (position, table) in order.enumerated() {
            // The earlier old tables sharing a new table with this one: its keys move above all of theirs.
            let earlier = order[..<position].filter { previous in
                merged.values.contains { $0.contains(previous) && $0.contains(table) }
            }
            guard !earlier.isEmpty, let root = oldRoot(of: table) else { continue }
            let bounds = earlier.compactMap(upperKeyBound)
            let value = bounds.count == 1 ? bounds[0] : greatest(bounds)
            if keyOffsetStatements.isEmpty {
                keyOffsetStatements.append(
                    #"CREATE TEMPORARY TABLE "_DMG_KEY_OFFSET" ("Z_ENT" INTEGER PRIMARY KEY, "Z_OFFSET" INTEGER)"#)
            }
            keyOffsetStatements.append(
                #"INSERT INTO "_DMG_KEY_OFFSET" ("Z_ENT", "Z_OFFSET") SELECT \#(root.number), "# + value)
            keyOffsets[table] = #"(SELECT "Z_OFFSET" FROM "_DMG_KEY_OFFSET" WHERE "Z_ENT" = \#(root.number))"#
        }
    }

    /// The root entity of an old table.
    private func oldRoot(of table: String) -> EntityLayout? {
        old.entities.first { $0.tableName == table && $0.isRoot }
    }

    /// Whether the root of an old table maps to a root of the new model.
    private func staysRoot(oldTable table: String) -> Bool {
        guard let root = oldRoot(of: table), let number = numberMap[root.number] else { return false }
        return new.entity(number: number)?.isRoot ?? false
    }

    /// The largest key an old table's rows have once moved (before any table is changed): its offset plus the
    /// larger of its largest `Z_PK` and its hierarchy's largest `Z_MAX`.
    private func upperKeyBound(of table: String) -> String? {
        guard let root = oldRoot(of: table) else { return nil }
        let numbers = root.hierarchyNumbers
        let largest = greatest([
            #"COALESCE((SELECT MAX("Z_PK") FROM "# + ddl.dialect.identifier(table) + "), 0)",
            #"COALESCE((SELECT MAX("Z_MAX") FROM "Z_PRIMARYKEY" WHERE "Z_ENT" BETWEEN "#
                + "\(numbers.lowerBound) AND \(numbers.upperBound)), 0)",
        ])
        return keyOffsets[table].map { $0 + " + " + largest } ?? largest
    }

    /// `key` (an SQL expression holding a key of a row of old entity `number`) as the key that row has after the
    /// migration.
    func shiftedKey(_ key: String, ofOldEntity number: Int) -> String {
        guard let table = old.entity(number: number)?.tableName, let offset = keyOffsets[table] else { return key }
        return "(" + key + " + " + offset + ")"
    }

    /// Whether the rows of the old entity new entity `number` maps from get new keys.
    func movesKeys(ofNewEntity number: Int) -> Bool {
        guard let table = entityMap[number]?.tableName else { return false }
        return keyOffsets[table] != nil
    }

    /// Whether a new table's rows get new keys or hold to-one keys of rows that do: it cannot stay as it is.
    func refersToMovedKeys(table: String) -> Bool {
        guard !keyOffsets.isEmpty else { return false }
        return new.entities.contains { entity in
            entity.tableName == table
                && (movesKeys(ofNewEntity: entity.number)
                    || entity.relationships.contains { relationship in
                        guard case .foreignKey = relationship.storage else { return false }
                        return movesKeys(ofNewEntity: relationship.destinationEntityNumber)
                    })
        }
    }

    /// `Z_MAX` of a new root whose table receives rows of several old tables: the largest of its mapped value, each
    /// old hierarchy's `Z_MAX` moved with its keys, and the table's largest key; `nil` for other roots.
    func mergedMaximum(ofRoot number: Int, previous: String) -> String? {
        guard let table = new.entity(number: number)?.tableName, let tables = mergedTables[table] else { return nil }
        var terms = [previous]
        for oldTable in tables {
            guard let root = oldRoot(of: oldTable) else { continue }
            let numbers = root.hierarchyNumbers
            let maximum =
                #"COALESCE((SELECT MAX("Z_MAX") FROM "_DMG_OLD_PRIMARYKEY" WHERE "Z_ENT" BETWEEN "#
                + "\(numbers.lowerBound) AND \(numbers.upperBound)), 0)"
            terms.append(keyOffsets[oldTable].map { maximum + " + " + $0 } ?? maximum)
        }
        terms.append(#"(SELECT COALESCE(MAX("Z_PK"), 0) FROM "# + ddl.dialect.identifier(table) + ")")
        return greatest(terms)
    }

    /// One step per merged table, for people.
    func mergeSteps() -> [String] {
        mergedTables.keys.sorted().compactMap { table in
            guard let tables = mergedTables[table], let first = tables.first else { return nil }
            return "merge " + tables.joined(separator: ", ") + " into \(table): " + first + " rows keep their keys; "
                + tables.dropFirst().joined(separator: ", ")
                + " keys move above them, and every reference to those rows follows"
        }
    }

    // MARK: External-data files of removed values

    /// The queries finding the files of Binary values with external storage that the migration removes: the
    /// attribute is gone from the entity (or the entity is gone), so its values are.
    mutating func planExternalFileCleanup() {
        // A PostgreSQL store keeps every value in its column: there is no folder of files.
        guard !statements.isEmpty, ddl.dialect != .postgres else { return }
        // (old table, column) → the old entity numbers whose values in it go.
        var removed: [String: [String: [Int]]] = [:]
        for entity in old.entities {
            let target = numberMap[entity.number].flatMap { new.entity(number: $0) }
            for attribute in entity.attributes {
                guard let declared = self.attribute(attribute.name, of: entity.name, in: oldDeclared),
                    declared.type == .binary, declared.allowsExternalBinaryDataStorage
                else { continue }
                if let target,
                    target.attributes.contains(where: {
                        sourceAttribute($0.name, entity: target, source: entity)?.name == attribute.name
                    })
                {
                    continue
                }
                removed[entity.tableName, default: [:]][attribute.column, default: []].append(entity.number)
            }
        }
        guard !removed.isEmpty else { return }
        let dialect = ddl.dialect
        let reference = { (column: String) in "SUBSTR(" + dialect.identifier(column) + ", 1, 1) = X'02'" }
        var removedSQL: [String] = []
        for table in removed.keys.sorted() {
            let columns = removed[table] ?? [:]
            for column in columns.keys.sorted() {
                let numbers = (columns[column] ?? []).sorted().map(String.init).joined(separator: ", ")
                removedSQL.append(
                    "SELECT " + ddl.dialect.identifier(column) + " FROM " + ddl.dialect.identifier(table) + " WHERE "
                        + reference(column) + #" AND "Z_ENT" IN ("# + numbers + ")")
            }
        }
        var keptSQL: [String] = []
        for entity in new.entities {
            for attribute in entity.attributes where attribute.declaringEntityNumber == entity.number {
                guard let declared = self.attribute(attribute.name, of: entity.name, in: newDeclared),
                    declared.type == .binary, declared.allowsExternalBinaryDataStorage
                else { continue }
                keptSQL.append(
                    "SELECT " + ddl.dialect.identifier(attribute.column) + " FROM "
                        + ddl.dialect.identifier(entity.tableName) + " WHERE " + reference(attribute.column))
            }
        }
        externalFileCleanup = ExternalFileCleanup(removedValuesSQL: removedSQL, keptValuesSQL: keptSQL)
        steps.append("remove the external-data files of removed Binary values once the migration is committed")
    }
}
