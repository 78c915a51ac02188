// MARK: - 6. Indexes (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    mutating func makeIndexes() throws(StoreLayoutError) -> [IndexLayout] {
        var indexes: [IndexLayout] = []
        var isIndexed: [Bool] = []
        for (table, root) in zip(entityTables, rootNumbers) {
            let tree = root...lastDescendant[root]
            // The columns of attributes marked indexed, by position.
            isIndexed.removeAll(keepingCapacity: true)
            for number in tree {
                let attributes = attributesOf[number]
                for index in attributes.indices where attributes[index].isIndexed {
                    let position = Int(attributeColumn[attributeStart[number] + index])
                    guard position >= 0 else { continue }
                    if isIndexed.isEmpty {
                        isIndexed.append(contentsOf: repeatElement(false, count: table.columns.count))
                    }
                    isIndexed[position] = true
                }
            }
            let columns = table.columns
            for position in columns.indices where columns[position].role == .foreignKey {
                indexes.append(singleColumnIndex(table: table.name, column: columns[position].name, kind: .foreignKey))
            }
            if !isIndexed.isEmpty {
                for position in columns.indices where columns[position].role == .attribute && isIndexed[position] {
                    indexes.append(
                        singleColumnIndex(table: table.name, column: columns[position].name, kind: .attribute))
                }
            }
            if !childNumbers[root].isEmpty {
                indexes.append(singleColumnIndex(table: table.name, column: "Z_ENT", kind: .entityType))
            }
            for number in tree {
                for fetchIndex in source[sourceIndex[number]].fetchIndexes {
                    if let index = try makeFetchIndex(fetchIndex, entity: number, table: table) {
                        indexes.append(index)
                    }
                }
            }
            for number in tree {
                for constraint in source[sourceIndex[number]].uniquenessConstraints where !constraint.isEmpty {
                    indexes.append(try makeUniquenessIndex(constraint, entity: number, table: table))
                }
            }
        }
        for join in joinTables {
            indexes.append(
                IndexLayout(
                    name: nameRegistry.claim(StoreNaming.columnIndex(table: join.name, column: join.destinationColumn)),
                    tableName: join.name,
                    columns: [IndexColumn(name: join.destinationColumn), IndexColumn(name: join.sourceColumn)],
                    kind: .joinReverse))
        }
        return indexes
    }

    mutating func singleColumnIndex(table: String, column: String, kind: IndexKind) -> IndexLayout {
        IndexLayout(
            name: nameRegistry.claim(StoreNaming.columnIndex(table: table, column: column)), tableName: table,
            columns: [IndexColumn(name: column)], kind: kind)
    }

    /// The column of a stored attribute or to-one relationship of `number` (own or inherited),
    /// and whether it is a to-one.
    @inline(__always)
    func indexableColumn(_ name: String, of number: Int, table: TableLayout) -> (
        column: String, isToOne: Bool
    )? {
        switch property(name, of: number) {
        case .attribute(let attribute)?:
            let position = Int(attributeColumn[attribute])
            return position >= 0 ? (table.columns[position].name, false) : nil
        case .relationship(let relationship)?:
            return toOneColumns[relationship].map { ($0.column, true) }
        case nil:
            return nil
        }
    }

    /// A fetch index, or `nil` when Core Data creates none: no stored elements, or a single to-one
    /// element (its foreign key index serves; observed for an ascending one, chosen for
    /// descending).
    mutating func makeFetchIndex(
        _ fetchIndex: LayoutFetchIndex, entity number: Int, table: TableLayout
    ) throws(StoreLayoutError) -> IndexLayout? {
        var columns: [IndexColumn] = []
        var onlyToOnes = true
        for element in fetchIndex.elements {
            guard let found = indexableColumn(element.property, of: number, table: table) else {
                // A property with no column of its own (a to-many or transient one, which Xcode lets a
                // fetch index name) adds nothing to the SQL index; an unknown name is an error.
                if property(element.property, of: number) != nil { continue }
                throw .invalidFetchIndexProperty(
                    entity: entityName(number), index: fetchIndex.name, property: element.property)
            }
            onlyToOnes = onlyToOnes && found.isToOne
            columns.append(IndexColumn(name: found.column, order: element.isAscending ? .ascending : .descending))
        }
        if columns.isEmpty || (columns.count == 1 && onlyToOnes) { return nil }
        return IndexLayout(
            name: nameRegistry.claim(StoreNaming.fetchIndex(entity: entityName(number), index: fetchIndex.name)),
            tableName: table.name, columns: columns, kind: .fetchIndex, entityNumber: number)
    }

    mutating func makeUniquenessIndex(
        _ constraint: [String], entity number: Int, table: TableLayout
    ) throws(StoreLayoutError) -> IndexLayout {
        var columns: [IndexColumn] = []
        for name in constraint {
            guard let found = indexableColumn(name, of: number, table: table) else {
                throw .invalidUniquenessProperty(entity: entityName(number), property: name)
            }
            columns.append(IndexColumn(name: found.column, order: .ascending))
        }
        return IndexLayout(
            name: nameRegistry.claim(
                StoreNaming.uniquenessIndex(entity: entityName(number), properties: constraint)),
            tableName: table.name, isUnique: true, columns: columns, kind: .uniquenessConstraint, entityNumber: number)
    }
}
