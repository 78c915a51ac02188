// MARK: - 5. Join tables (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    /// One side of a join-stored relationship pair: a real relationship, or the inverse
    /// synthesized for a to-many without one.
    struct JoinSide {
        let entity: Int
        /// The relationship's number; -1 when synthesized.
        let relationship: Int
        let name: String
        let destination: Int
        let isOrdered: Bool
        let pair: Int

        func isSame(as other: JoinSide) -> Bool {
            entity == other.entity && name == other.name
        }
    }

    /// Creates join tables. Ownership: walk the entities in name order (not number order: macOS's
    /// AddressBook store has `Z_22PARENTGROUPS` owned by `ABCDContact` (22) over `ABCDGroup`
    /// (19), Photos has `Z_33ASSETS` owned by album entity 33 over `Asset` (3)); within an
    /// entity, its own join-stored to-many relationships in descending name order (observed:
    /// `Z_3SHOWS` takes `Z_3ARTWORKS1` before `Z_3LOCATIONS` takes `Z_3ARTWORKS2`); the first
    /// side met owns the table.
    mutating func layOutJoinTables() {
        var pairs: [(first: JoinSide, second: JoinSide)] = []
        /// Every side, in the order met; each entity's sides keep that order.
        var sides: [JoinSide] = []
        /// By relationship number, the pair it was already met in as a side.
        var pairOfRelationship = [Int](repeating: -1, count: relationships.count)
        joinColumns = [JoinColumns?](repeating: nil, count: relationships.count)

        for number in stride(from: 1, through: entityCount, by: 1) {
            for relationship in relationshipStart[number]..<relationshipStart[number + 1]
            where usesJoinTable(relationship) && pairOfRelationship[relationship] < 0 {
                let facts = relationships[relationship]
                let pair = pairs.count
                let side = JoinSide(
                    entity: number, relationship: relationship, name: facts.name, destination: facts.destination,
                    isOrdered: facts.isOrdered, pair: pair)
                let other: JoinSide
                if facts.inverse >= 0 {
                    let inverse = relationships[facts.inverse]
                    other = JoinSide(
                        entity: owner(ofRelationship: facts.inverse), relationship: facts.inverse, name: inverse.name,
                        destination: inverse.destination, isOrdered: inverse.isOrdered, pair: pair)
                } else {
                    other = JoinSide(
                        entity: facts.destination, relationship: -1,
                        name: StoreNaming.synthesizedInverseName(for: facts.name), destination: number,
                        isOrdered: false, pair: pair)
                }
                pairs.append((side, other))
                pairOfRelationship[relationship] = pair
                sides.append(side)
                if !other.isSame(as: side) {
                    if other.relationship >= 0 { pairOfRelationship[other.relationship] = pair }
                    sides.append(other)
                }
            }
        }

        // Each entity's sides, grouped by entity (a stable counting sort).
        var sideStart = [Int](repeating: 0, count: entityCount + 2)
        for side in sides { sideStart[side.entity + 1] += 1 }
        for number in stride(from: 1, through: entityCount + 1, by: 1) { sideStart[number] += sideStart[number - 1] }
        var sidesByEntity = [Int](repeating: 0, count: sides.count)
        var next = sideStart
        for (position, side) in sides.enumerated() {
            sidesByEntity[next[side.entity]] = position
            next[side.entity] += 1
        }

        var created = [Bool](repeating: false, count: pairs.count)
        var sorter = ModelNameSorter()
        for number in numbersByName where sideStart[number] < sideStart[number + 1] {
            sorter.sort(items: sidesByEntity[sideStart[number]..<sideStart[number + 1]], descending: true) {
                sides[$0].name
            }
            for rank in 0..<sorter.count {
                let owner = sides[sorter.item(at: rank)]
                guard !created[owner.pair] else { continue }
                created[owner.pair] = true
                let pair = pairs[owner.pair]
                createJoinTable(owner: owner, inverse: pair.first.isSame(as: owner) ? pair.second : pair.first)
            }
        }
    }

    mutating func createJoinTable(owner: JoinSide, inverse: JoinSide) {
        let name = nameRegistry.claim(StoreNaming.joinName(entityNumber: owner.entity, relationshipName: owner.name))
        let sourceColumn = joinColumnRegistry.claim(
            StoreNaming.joinName(entityNumber: owner.entity, relationshipName: inverse.name))
        let destinationColumn = joinColumnRegistry.claim(
            StoreNaming.joinName(entityNumber: owner.destination, relationshipName: owner.name))
        let sourceOrderColumn =
            inverse.isOrdered ? joinColumnRegistry.claim(StoreNaming.joinOrderColumn(forJoinColumn: sourceColumn)) : nil
        let destinationOrderColumn =
            owner.isOrdered
            ? joinColumnRegistry.claim(StoreNaming.joinOrderColumn(forJoinColumn: destinationColumn)) : nil

        var columns: [ColumnLayout] = []
        columns.reserveCapacity(2 + (sourceOrderColumn == nil ? 0 : 1) + (destinationOrderColumn == nil ? 0 : 1))
        columns.append(
            ColumnLayout(
                name: sourceColumn, type: .integer, role: .joinKey, entityNumber: inverse.entity,
                propertyName: inverse.name))
        columns.append(
            ColumnLayout(
                name: destinationColumn, type: .integer, role: .joinKey, entityNumber: owner.entity,
                propertyName: owner.name))
        if let sourceOrderColumn {
            columns.append(
                ColumnLayout(
                    name: sourceOrderColumn, type: .integer, role: .joinOrder, entityNumber: inverse.entity,
                    propertyName: inverse.name))
        }
        if let destinationOrderColumn {
            columns.append(
                ColumnLayout(
                    name: destinationOrderColumn, type: .integer, role: .joinOrder, entityNumber: owner.entity,
                    propertyName: owner.name))
        }
        let table = TableLayout(
            name: name, kind: .join, columns: columns, primaryKey: [sourceColumn, destinationColumn])
        joinTables.append(
            JoinTableLayout(
                table: table, ownerEntityNumber: owner.entity, ownerRelationshipName: owner.name,
                destinationEntityNumber: owner.destination, inverseRelationshipName: inverse.name,
                sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                destinationOrderColumn: destinationOrderColumn, sourceOrderColumn: sourceOrderColumn))
        if owner.relationship >= 0 {
            joinColumns[owner.relationship] = JoinColumns(
                table: name, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                orderColumn: destinationOrderColumn, inverseOrderColumn: sourceOrderColumn)
        }
        if inverse.relationship >= 0, !inverse.isSame(as: owner) {
            joinColumns[inverse.relationship] = JoinColumns(
                table: name, sourceColumn: destinationColumn, destinationColumn: sourceColumn,
                orderColumn: sourceOrderColumn, inverseOrderColumn: destinationOrderColumn)
        }
    }
}
