// MARK: - 4. Entity tables (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    static func isStored(_ attribute: LayoutAttribute) -> Bool {
        !attribute.isTransient && attribute.type.columnGroup != nil
    }

    /// Buffers reused from one table to the next.
    struct TableScratch {
        var registry = NameRegistry()
        var sorter = ModelNameSorter()
        /// Per ``ColumnGroup``, the position of the group's next column, and where the group ends.
        var groupCursor = [Int](repeating: 0, count: ColumnGroup.allCases.count)
        var groupEnd = [Int](repeating: 0, count: ColumnGroup.allCases.count)
        /// Per column of the table, the entity owning it (0 for `Z_PK`, `Z_ENT`, `Z_OPT`).
        var columnOwner: [Int] = []
        /// Per entity of the tree (by number minus the root's), where its positions start in
        /// `ownPositions` and in `positions`.
        var ownStart: [Int] = []
        var ownPositions: [Int] = []
        var positionsStart: [Int] = []
        var positions: [Int] = []
    }

    mutating func layOutEntityTables() {
        tableName = [String](repeating: "", count: entityCount + 1)
        attributeColumn = [Int32](repeating: -1, count: attributeTotal)
        attributeLayoutIndex = [Int32](repeating: -1, count: attributeTotal)
        toOneColumns = [ForeignKeyColumns?](repeating: nil, count: relationships.count)
        entityAttributes = [[AttributeLayout]](repeating: [], count: entityCount + 1)
        entityColumns = [[ColumnLayout]](repeating: [], count: entityCount + 1)
        entityTables.reserveCapacity(rootNumbers.count)
        for root in rootNumbers {
            tableName[root] = nameRegistry.claim(StoreNaming.zName(entityName(root)))
        }
        var scratch = TableScratch()
        for root in rootNumbers {
            layOutTable(root: root, scratch: &scratch)
        }
    }

    /// The columns a stored to-one relationship adds: `Z<REL>`, `Z<n>_<REL>` when the
    /// destination has sub-entities, `Z_FOK_<REL>` when the inverse is an ordered to-many.
    @inline(__always)
    func columnCount(ofToOne relationship: Int) -> Int {
        1 + (childNumbers[relationships[relationship].destination].isEmpty ? 0 : 1)
            + (inverseIsOrderedToMany(relationship) ? 1 : 0)
    }

    /// Names the columns of one root table, entity by entity in number order (collision
    /// suffixes go to the later entity; chosen, consistent with every observed store), and
    /// places them by ``ColumnGroup``: within a group, entity by entity in number order, each
    /// entity's columns in name order, to-one columns after the entity's integer attributes.
    mutating func layOutTable(root: Int, scratch: inout TableScratch) {
        let tree = root...lastDescendant[root]
        // Count each group's columns first, so that each column goes straight to its place.
        for group in scratch.groupCursor.indices { scratch.groupCursor[group] = 0 }
        for number in tree {
            let attributes = attributesOf[number]
            for index in attributes.indices where !attributes[index].isTransient {
                if let group = attributes[index].type.columnGroup { scratch.groupCursor[group.rawValue] += 1 }
            }
            for position in relationshipsByNameStart[number]..<relationshipsByNameStart[number + 1] {
                let relationship = relationshipsByName[position]
                if !relationships[relationship].isToMany {
                    scratch.groupCursor[ColumnGroup.integer.rawValue] += columnCount(ofToOne: relationship)
                }
            }
        }
        var columnCount = 3
        for group in scratch.groupCursor.indices {
            let count = scratch.groupCursor[group]
            scratch.groupCursor[group] = columnCount
            columnCount += count
            scratch.groupEnd[group] = columnCount
        }
        scratch.columnOwner.removeAll(keepingCapacity: true)
        scratch.columnOwner.append(contentsOf: repeatElement(0, count: columnCount))
        scratch.registry.reset(capacity: columnCount)
        scratch.registry.reserve("Z_PK", "Z_ENT", "Z_OPT")
        // Each column is created in its place: group by group, the places `groupCursor[group]
        // ..< groupEnd[group]`, each initialized once.
        let columns = [ColumnLayout](unsafeUninitializedCapacity: columnCount) { buffer, initializedCount in
            buffer.initializeElement(at: 0, to: ColumnLayout(name: "Z_PK", type: .integer, role: .primaryKey))
            buffer.initializeElement(at: 1, to: ColumnLayout(name: "Z_ENT", type: .integer, role: .entity))
            buffer.initializeElement(at: 2, to: ColumnLayout(name: "Z_OPT", type: .integer, role: .optimisticLock))
            nameColumns(of: tree, into: buffer, scratch: &scratch)
            precondition(scratch.groupCursor == scratch.groupEnd, "a table's columns were miscounted")
            initializedCount = columnCount
        }
        assignEntityColumns(tree: tree, columns: columns, scratch: &scratch)
        entityTables.append(
            TableLayout(
                name: tableName[root], kind: .entity(rootEntityNumber: root), columns: columns,
                primaryKey: Self.entityPrimaryKey))
    }

    /// Names the columns of the entities of `tree` and initializes each in its place in
    /// `buffer`, given by `scratch.groupCursor`.
    mutating func nameColumns(
        of tree: ClosedRange<Int>, into buffer: UnsafeMutableBufferPointer<ColumnLayout>, scratch: inout TableScratch
    ) {
        /// Puts `column`, owned by `number`, in the next place of `group`; returns the place.
        func place(_ column: ColumnLayout, group: ColumnGroup, owner number: Int) -> Int {
            let position = scratch.groupCursor[group.rawValue]
            precondition(position < scratch.groupEnd[group.rawValue], "a table's columns were miscounted")
            scratch.groupCursor[group.rawValue] += 1
            buffer.initializeElement(at: position, to: column)
            scratch.columnOwner[position] = number
            return position
        }

        for number in tree {
            let attributes = attributesOf[number]
            let firstAttribute = attributeStart[number]
            scratch.sorter.sort(items: attributes.indices.lazy.filter { Self.isStored(attributes[$0]) }) {
                attributes[$0].name
            }
            let parent = parentNumber[number]
            var layouts = parent == 0 ? [] : entityAttributes[parent]
            if scratch.sorter.count > 0 { layouts.reserveCapacity(layouts.count + scratch.sorter.count) }
            for rank in 0..<scratch.sorter.count {
                let index = scratch.sorter.item(at: rank)
                let attribute = attributes[index]
                let column = scratch.registry.claim(StoreNaming.zName(attribute.name))
                let sqlType = attribute.type.sqlColumnType ?? .blob
                let position = place(
                    ColumnLayout(
                        name: column, type: sqlType, role: .attribute, entityNumber: number,
                        propertyName: attribute.name, attributeType: attribute.type),
                    group: attribute.type.columnGroup ?? .binary, owner: number)
                attributeColumn[firstAttribute + index] = Int32(truncatingIfNeeded: position)
                attributeLayoutIndex[firstAttribute + index] = Int32(truncatingIfNeeded: layouts.count)
                layouts.append(
                    AttributeLayout(
                        name: attribute.name, type: attribute.type, column: column, sqlType: sqlType,
                        declaringEntityNumber: number, isDerived: attribute.isDerived))
            }
            entityAttributes[number] = layouts

            for position in relationshipsByNameStart[number]..<relationshipsByNameStart[number + 1] {
                let relationship = relationshipsByName[position]
                let toOne = relationships[relationship]
                guard !toOne.isToMany else { continue }
                let column = scratch.registry.claim(StoreNaming.zName(toOne.name))
                _ = place(
                    ColumnLayout(
                        name: column, type: .integer, role: .foreignKey, entityNumber: number, propertyName: toOne.name),
                    group: .integer, owner: number)
                var entityColumn: String?
                if !childNumbers[toOne.destination].isEmpty {
                    let name = scratch.registry.claim(
                        StoreNaming.foreignEntityColumn(forForeignKey: column, destinationNumber: toOne.destination))
                    entityColumn = name
                    _ = place(
                        ColumnLayout(
                            name: name, type: .integer, role: .foreignEntity, entityNumber: number,
                            propertyName: toOne.name),
                        group: .integer, owner: number)
                }
                var orderColumn: String?
                if inverseIsOrderedToMany(relationship) {
                    let name = scratch.registry.claim(StoreNaming.foreignOrderColumn(forForeignKey: column))
                    orderColumn = name
                    _ = place(
                        ColumnLayout(
                            name: name, type: .integer, role: .foreignOrder, entityNumber: number,
                            propertyName: toOne.name),
                        group: .integer, owner: number)
                }
                toOneColumns[relationship] = ForeignKeyColumns(
                    column: column, entityColumn: entityColumn, orderColumn: orderColumn)
            }
        }
    }

    /// Gives each entity of `tree` the columns of its table it uses: `Z_PK`, `Z_ENT`, `Z_OPT` and
    /// those of its own and inherited properties, in table order (its parent's list merged with
    /// its own columns).
    mutating func assignEntityColumns(
        tree: ClosedRange<Int>, columns: [ColumnLayout], scratch: inout TableScratch
    ) {
        let root = tree.lowerBound
        // A root without sub-entities uses every column of its table: share the table's list.
        guard tree.count > 1 else {
            entityColumns[root] = columns
            return
        }
        // Each entity's own columns, in table order.
        scratch.ownStart.removeAll(keepingCapacity: true)
        scratch.ownStart.append(contentsOf: repeatElement(0, count: tree.count + 1))
        for position in 3..<columns.count { scratch.ownStart[scratch.columnOwner[position] - root + 1] += 1 }
        for entity in 0..<tree.count { scratch.ownStart[entity + 1] += scratch.ownStart[entity] }
        scratch.ownPositions.removeAll(keepingCapacity: true)
        scratch.ownPositions.append(contentsOf: repeatElement(0, count: columns.count - 3))
        var next = scratch.ownStart
        for position in 3..<columns.count {
            let entity = scratch.columnOwner[position] - root
            scratch.ownPositions[next[entity]] = position
            next[entity] += 1
        }

        scratch.positionsStart.removeAll(keepingCapacity: true)
        scratch.positions.removeAll(keepingCapacity: true)
        for number in tree {
            let start = scratch.positions.count
            scratch.positionsStart.append(start)
            let parent = parentNumber[number]
            var inherited = 0..<3
            if parent != 0 {
                let parentStart = scratch.positionsStart[parent - root]
                inherited = parentStart..<(scratch.positionsStart[parent - root + 1])
            }
            var own = scratch.ownStart[number - root]..<scratch.ownStart[number - root + 1]
            // Merge the ascending inherited and own positions.
            while !inherited.isEmpty || !own.isEmpty {
                let inheritedPosition =
                    inherited.isEmpty
                    ? Int.max : parent == 0 ? inherited.lowerBound : scratch.positions[inherited.lowerBound]
                let ownPosition = own.isEmpty ? Int.max : scratch.ownPositions[own.lowerBound]
                if inheritedPosition <= ownPosition {
                    scratch.positions.append(inheritedPosition)
                    inherited = inherited.dropFirst()
                } else {
                    scratch.positions.append(ownPosition)
                    own = own.dropFirst()
                }
            }
            let end = scratch.positions.count
            entityColumns[number] =
                end - start == columns.count ? columns : scratch.positions[start..<end].map { columns[$0] }
        }
    }

    static let entityPrimaryKey = ["Z_PK"]
}
