/// Builds a ``StoreLayout`` from a ``LayoutModel`` in stages, each linear in the size of the
/// model and of the layout it produces (plus sorting names):
///
/// 1. number the entities (pre-order walk of the inheritance forest),
/// 2. index each entity's own properties and check for duplicates,
/// 3. resolve relationships' destinations and inverses,
/// 4. name and order each root table's columns,
/// 5. create join tables, owners first met in the many-to-many walk,
/// 6. work out where every relationship is stored,
/// 7. create indexes,
/// 8. assemble per-entity layouts.
///
/// Arrays indexed by entity number have an unused slot 0.
struct StoreLayoutBuilder {
    private let model: LayoutModel

    // Stage 1.
    private var entities: [LayoutEntity] = []
    /// Entity names in number order: an entity's position is its number minus one.
    private var entityNames = NameIndex()
    private var parentNumber: [Int] = []
    private var childNumbers: [[Int]] = []
    private var lastDescendant: [Int] = []
    private var rootNumber: [Int] = []
    private var rootNumbers: [Int] = []
    private var keys: [ModelNameKey] = []

    // Stage 2.
    /// Per entity, its own attributes' names then its own relationships' names.
    private var ownProperties: [NameIndex] = []

    // Stage 3.
    private var ownRelationships: [[ResolvedRelationship]] = []
    /// Per entity, positions in `ownRelationships` in name order.
    private var relationshipsByName: [[Int]] = []

    // Stage 4.
    private var tableName: [String] = []  // by root number; "" elsewhere
    private var nameRegistry = NameRegistry()  // tables and indexes share SQLite's namespace
    private var ownAttributeLayouts: [[AttributeLayout]] = []
    /// Per entity, the column of each own attribute (by its index), nil for one not stored.
    private var attributeColumns: [[String?]] = []
    /// Per entity, the columns of each own relationship (by its index) that is a stored to-one.
    private var toOneColumns: [[ForeignKeyColumns?]] = []
    private var entityTables: [TableLayout] = []
    private var ownColumnPositions: [[Int]] = []

    // Stage 5.
    private var joinColumnRegistry = NameRegistry()
    private var joinTables: [JoinTableLayout] = []
    /// Per entity, the join columns of each own relationship (by its index) stored in a join table.
    private var joinColumns: [[JoinColumns?]] = []

    init(model: LayoutModel) {
        self.model = model
    }

    mutating func build() throws(StoreLayoutError) -> StoreLayout {
        try numberEntities()
        try indexProperties()
        try resolveRelationships()
        nameRegistry.reserve("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE")
        layOutEntityTables()
        layOutJoinTables()
        let storage = relationshipStorage()
        let indexes = try makeIndexes()
        let entityLayouts = assembleEntities(storage: storage)
        return StoreLayout(
            entities: entityLayouts,
            primaryKeyRows: entityLayouts.map {
                PrimaryKeyRow(
                    entityNumber: $0.number, name: $0.name, superentityNumber: $0.superentityNumber,
                    maximumPrimaryKey: 0)
            },
            entityTables: entityTables,
            joinTables: joinTables,
            systemTables: Self.systemTables,
            indexes: indexes)
    }

    private var entityCount: Int { entities.count - 1 }

    /// The number of the entity called `name`.
    private func number(ofEntityNamed name: String) -> Int? {
        entityNames.position(of: name).map { $0 + 1 }
    }

    // MARK: - 1. Numbering

    /// Entity numbers: a pre-order walk of the inheritance forest, roots in name order, each
    /// followed by its sub-entities in name order (observed).
    private mutating func numberEntities() throws(StoreLayoutError) {
        let source = model.entities
        var indexByName = NameIndex(capacity: source.count)
        for entity in source {
            guard indexByName.insert(entity.name).inserted else { throw .duplicateEntity(entity.name) }
        }
        let sourceKeys = source.map { ModelNameKey($0.name) }
        var children = [[Int]](repeating: [], count: source.count)
        var roots: [Int] = []
        for (index, entity) in source.enumerated() {
            guard let parent = entity.parentName else {
                roots.append(index)
                continue
            }
            guard let parentIndex = indexByName.position(of: parent) else {
                throw .unknownParent(entity: entity.name, parent: parent)
            }
            children[parentIndex].append(index)
        }
        roots.sort { sourceKeys[$0] < sourceKeys[$1] }
        for index in children.indices where children[index].count > 1 {
            children[index].sort { sourceKeys[$0] < sourceKeys[$1] }
        }

        var order: [Int] = []
        order.reserveCapacity(source.count)
        var stack: [Int] = roots.reversed()
        while let index = stack.popLast() {
            order.append(index)
            stack.append(contentsOf: children[index].reversed())
        }
        guard order.count == source.count else {
            throw .inheritanceCycle(entity: Self.cycleMember(source: source, reached: order, indexByName: indexByName))
        }

        var numberOfIndex = [Int](repeating: 0, count: source.count)
        for (position, index) in order.enumerated() { numberOfIndex[index] = position + 1 }
        let count = source.count
        entities = [LayoutEntity(name: "")] + order.map { source[$0] }
        keys = [ModelNameKey("")] + order.map { sourceKeys[$0] }
        entityNames = NameIndex(capacity: count)
        for number in stride(from: 1, through: count, by: 1) { entityNames.insert(entities[number].name) }
        parentNumber = [Int](repeating: 0, count: count + 1)
        childNumbers = [[Int]](repeating: [], count: count + 1)
        for index in order {
            let number = numberOfIndex[index]
            childNumbers[number] = children[index].map { numberOfIndex[$0] }
            for child in childNumbers[number] { parentNumber[child] = number }
        }
        lastDescendant = Array(0...count)
        for number in stride(from: count, through: 1, by: -1) {
            if let last = childNumbers[number].last { lastDescendant[number] = lastDescendant[last] }
        }
        rootNumber = [Int](repeating: 0, count: count + 1)
        for number in stride(from: 1, through: count, by: 1) {
            let parent = parentNumber[number]
            rootNumber[number] = parent == 0 ? number : rootNumber[parent]
            if parent == 0 { rootNumbers.append(number) }
        }
    }

    /// An entity on an inheritance cycle, for the error: walk up from an unreached entity until
    /// an entity repeats.
    private static func cycleMember(source: [LayoutEntity], reached: [Int], indexByName: NameIndex) -> String {
        let reachedSet = Set(reached)
        guard var index = source.indices.first(where: { !reachedSet.contains($0) }) else { return "" }
        var seen: Set<Int> = []
        while seen.insert(index).inserted, let parent = source[index].parentName,
            let next = indexByName.position(of: parent)
        {
            index = next
        }
        return source[index].name
    }

    // MARK: - 2. Properties

    private enum PropertyReference {
        case attribute(entity: Int, index: Int)
        case relationship(entity: Int, index: Int)
    }

    private mutating func indexProperties() throws(StoreLayoutError) {
        ownProperties = [NameIndex](repeating: NameIndex(), count: entities.count)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let attributes = entities[number].attributes
            let relationships = entities[number].relationships
            var own = NameIndex(capacity: attributes.count + relationships.count)
            for attribute in attributes {
                guard own.insert(attribute.name).inserted, inheritedProperty(attribute.name, of: number) == nil else {
                    throw .duplicateProperty(entity: entities[number].name, property: attribute.name)
                }
            }
            for relationship in relationships {
                guard own.insert(relationship.name).inserted, inheritedProperty(relationship.name, of: number) == nil
                else { throw .duplicateProperty(entity: entities[number].name, property: relationship.name) }
            }
            ownProperties[number] = own
        }
    }

    /// The property called `name` declared by entity `number` itself.
    private func ownProperty(_ name: String, of number: Int) -> PropertyReference? {
        guard let position = ownProperties[number].position(of: name) else { return nil }
        let attributeCount = entities[number].attributes.count
        return position < attributeCount
            ? .attribute(entity: number, index: position)
            : .relationship(entity: number, index: position - attributeCount)
    }

    private func inheritedProperty(_ name: String, of number: Int) -> PropertyReference? {
        var current = parentNumber[number]
        while current != 0 {
            if let found = ownProperty(name, of: current) { return found }
            current = parentNumber[current]
        }
        return nil
    }

    /// The property called `name` on entity `number` or an ancestor: O(depth).
    private func property(_ name: String, of number: Int) -> PropertyReference? {
        ownProperty(name, of: number) ?? inheritedProperty(name, of: number)
    }

    // MARK: - 3. Relationships

    /// A stored relationship with its destination and inverse found: the facts later stages
    /// need, without copying the model's relationship.
    private struct ResolvedRelationship {
        /// The declaring entity's number.
        let entity: Int
        /// The relationship's index among the declaring entity's relationships.
        let index: Int
        let name: String
        let isToMany: Bool
        let isOrdered: Bool
        let destination: Int
        /// The inverse, when the two name each other and it is stored.
        let inverse: Inverse?

        struct Inverse {
            let entity: Int
            let index: Int
            let name: String
            let isToMany: Bool
            let isOrdered: Bool
        }

        var inverseIsOrderedToMany: Bool {
            guard let inverse else { return false }
            return inverse.isToMany && inverse.isOrdered
        }
        /// Stored through the inverse's foreign key.
        var usesInverseForeignKey: Bool {
            guard let inverse else { return false }
            return isToMany && !inverse.isToMany
        }
        /// Stored in a join table.
        var usesJoinTable: Bool {
            isToMany && !usesInverseForeignKey
        }
    }

    private mutating func resolveRelationships() throws(StoreLayoutError) {
        ownRelationships = [[ResolvedRelationship]](repeating: [], count: entities.count)
        relationshipsByName = [[Int]](repeating: [], count: entities.count)
        for number in stride(from: 1, through: entityCount, by: 1) {
            var resolved: [ResolvedRelationship] = []
            resolved.reserveCapacity(entities[number].relationships.count)
            for (index, relationship) in entities[number].relationships.enumerated() where !relationship.isTransient {
                guard let destination = self.number(ofEntityNamed: relationship.destinationName) else {
                    throw .unknownDestination(
                        entity: entities[number].name, relationship: relationship.name,
                        destination: relationship.destinationName)
                }
                var inverse: ResolvedRelationship.Inverse?
                if let inverseName = relationship.inverseName {
                    guard
                        case .relationship(let inverseEntity, let inverseIndex)? = property(
                            inverseName, of: destination)
                    else {
                        throw .unknownInverse(
                            entity: entities[number].name, relationship: relationship.name, inverse: inverseName)
                    }
                    let candidate = entities[inverseEntity].relationships[inverseIndex]
                    if !candidate.isTransient && candidate.inverseName == relationship.name {
                        inverse = .init(
                            entity: inverseEntity, index: inverseIndex, name: candidate.name,
                            isToMany: candidate.isToMany, isOrdered: candidate.isOrdered)
                    }
                }
                resolved.append(
                    ResolvedRelationship(
                        entity: number, index: index, name: relationship.name, isToMany: relationship.isToMany,
                        isOrdered: relationship.isOrdered, destination: destination, inverse: inverse))
            }
            relationshipsByName[number] = Self.orderByModelName(resolved, name: \.name)
            ownRelationships[number] = resolved
        }
    }

    // MARK: - 4. Entity tables

    /// The indices of `items` in the order of ``ModelNameKey`` of their names (stably), each key
    /// made once rather than per comparison.
    private static func orderByModelName<Item>(_ items: [Item], name: (Item) -> String, descending: Bool = false)
        -> [Int]
    {
        guard items.count > 1 else { return Array(items.indices) }
        let keys = items.map { ModelNameKey(name($0)) }
        return keys.indices.sorted { descending ? keys[$1] < keys[$0] : keys[$0] < keys[$1] }
    }

    private static func isStored(_ attribute: LayoutAttribute) -> Bool {
        !attribute.isTransient && attribute.type.columnGroup != nil
    }

    private mutating func layOutEntityTables() {
        tableName = [String](repeating: "", count: entities.count)
        ownAttributeLayouts = [[AttributeLayout]](repeating: [], count: entities.count)
        attributeColumns = [[String?]](repeating: [], count: entities.count)
        toOneColumns = [[ForeignKeyColumns?]](repeating: [], count: entities.count)
        ownColumnPositions = [[Int]](repeating: [], count: entities.count)
        entityTables.reserveCapacity(rootNumbers.count)
        for root in rootNumbers {
            tableName[root] = nameRegistry.claim(StoreNaming.zName(entities[root].name))
        }
        for root in rootNumbers {
            layOutTable(root: root)
        }
    }

    /// A column of a table in the making: its ``ColumnGroup`` and the entity owning it.
    private struct PendingColumn {
        let column: ColumnLayout
        let group: ColumnGroup
        let owner: Int
    }

    /// Names the columns of one root table, entity by entity in number order (collision
    /// suffixes go to the later entity; chosen, consistent with every observed store), then
    /// orders them by ``ColumnGroup``: within a group, entity by entity in number order, each
    /// entity's columns in name order, to-one columns after the entity's integer attributes.
    private mutating func layOutTable(root: Int) {
        let tree = root...lastDescendant[root]
        var registry = NameRegistry()
        // Room for every column the tree can claim: its attributes, and up to three per to-one.
        var estimate = 3
        for number in tree {
            estimate += entities[number].attributes.count + 3 * ownRelationships[number].count
        }
        registry.reserveCapacity(estimate)
        registry.reserve("Z_PK", "Z_ENT", "Z_OPT")
        var pending: [PendingColumn] = []
        pending.reserveCapacity(estimate)

        for number in tree {
            let attributes = entities[number].attributes
            var columns = [String?](repeating: nil, count: attributes.count)
            var layouts: [AttributeLayout] = []
            layouts.reserveCapacity(attributes.count)
            let stored = attributes.indices.filter { Self.isStored(attributes[$0]) }
            let storedInNameOrder = Self.orderByModelName(stored, name: { attributes[$0].name }).map { stored[$0] }
            for index in storedInNameOrder {
                let attribute = attributes[index]
                let column = registry.claim(StoreNaming.zName(attribute.name))
                let sqlType = attribute.type.sqlColumnType ?? .blob
                columns[index] = column
                layouts.append(
                    AttributeLayout(
                        name: attribute.name, type: attribute.type, column: column, sqlType: sqlType,
                        declaringEntityNumber: number, isDerived: attribute.isDerived))
                pending.append(
                    PendingColumn(
                        column: ColumnLayout(
                            name: column, type: sqlType, role: .attribute, entityNumber: number,
                            propertyName: attribute.name),
                        group: attribute.type.columnGroup ?? .binary, owner: number))
            }
            ownAttributeLayouts[number] = layouts
            attributeColumns[number] = columns

            var foreignKeys = [ForeignKeyColumns?](repeating: nil, count: entities[number].relationships.count)
            for position in relationshipsByName[number] where !ownRelationships[number][position].isToMany {
                let toOne = ownRelationships[number][position]
                let column = registry.claim(StoreNaming.zName(toOne.name))
                pending.append(
                    PendingColumn(
                        column: ColumnLayout(
                            name: column, type: .integer, role: .foreignKey, entityNumber: number,
                            propertyName: toOne.name),
                        group: .integer, owner: number))
                var entityColumn: String?
                if !childNumbers[toOne.destination].isEmpty {
                    let name = registry.claim(
                        StoreNaming.foreignEntityColumn(forForeignKey: column, destinationNumber: toOne.destination))
                    entityColumn = name
                    pending.append(
                        PendingColumn(
                            column: ColumnLayout(
                                name: name, type: .integer, role: .foreignEntity, entityNumber: number,
                                propertyName: toOne.name),
                            group: .integer, owner: number))
                }
                var orderColumn: String?
                if toOne.inverseIsOrderedToMany {
                    let name = registry.claim(StoreNaming.foreignOrderColumn(forForeignKey: column))
                    orderColumn = name
                    pending.append(
                        PendingColumn(
                            column: ColumnLayout(
                                name: name, type: .integer, role: .foreignOrder, entityNumber: number,
                                propertyName: toOne.name),
                            group: .integer, owner: number))
                }
                foreignKeys[toOne.index] = ForeignKeyColumns(
                    column: column, entityColumn: entityColumn, orderColumn: orderColumn)
            }
            toOneColumns[number] = foreignKeys
        }

        var columnCounts = [Int](repeating: 0, count: tree.count)
        for entry in pending { columnCounts[entry.owner - root] += 1 }
        for number in tree { ownColumnPositions[number].reserveCapacity(columnCounts[number - root]) }
        var columns: [ColumnLayout] = []
        columns.reserveCapacity(3 + pending.count)
        columns.append(ColumnLayout(name: "Z_PK", type: .integer, role: .primaryKey))
        columns.append(ColumnLayout(name: "Z_ENT", type: .integer, role: .entity))
        columns.append(ColumnLayout(name: "Z_OPT", type: .integer, role: .optimisticLock))
        // A counting sort by group: each column is copied once.
        var groupStart = [Int](repeating: 0, count: ColumnGroup.allCases.count + 1)
        for entry in pending { groupStart[entry.group.rawValue + 1] += 1 }
        for group in 1..<groupStart.count { groupStart[group] += groupStart[group - 1] }
        var order = [Int](repeating: 0, count: pending.count)
        for (position, entry) in pending.enumerated() {
            order[groupStart[entry.group.rawValue]] = position
            groupStart[entry.group.rawValue] += 1
        }
        for position in order {
            ownColumnPositions[pending[position].owner].append(columns.count)
            columns.append(pending[position].column)
        }
        entityTables.append(
            TableLayout(
                name: tableName[root], kind: .entity(rootEntityNumber: root), columns: columns, primaryKey: ["Z_PK"]))
    }

    // MARK: - 5. Join tables

    /// One side of a join-stored relationship pair: a real relationship, or the inverse
    /// synthesized for a to-many without one.
    private struct JoinSide {
        let entity: Int
        /// The relationship's index among the entity's relationships; nil when synthesized.
        let index: Int?
        let name: String
        let destination: Int
        let isOrdered: Bool
        let pair: Int

        var isSynthesized: Bool { index == nil }

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
    private mutating func layOutJoinTables() {
        var sidesByEntity = [[JoinSide]](repeating: [], count: entities.count)
        var pairs: [(first: JoinSide, second: JoinSide)] = []
        // Per entity, the pair of each own relationship (by its index) already met as a side.
        var pairOfRelationship = entities.map { [Int?](repeating: nil, count: $0.relationships.count) }
        joinColumns = entities.map { [JoinColumns?](repeating: nil, count: $0.relationships.count) }

        for number in stride(from: 1, through: entityCount, by: 1) {
            for resolved in ownRelationships[number] where resolved.usesJoinTable {
                if pairOfRelationship[number][resolved.index] != nil { continue }
                let pair = pairs.count
                let side = JoinSide(
                    entity: number, index: resolved.index, name: resolved.name, destination: resolved.destination,
                    isOrdered: resolved.isOrdered, pair: pair)
                let other: JoinSide
                if let inverse = resolved.inverse {
                    let destinationName = entities[inverse.entity].relationships[inverse.index].destinationName
                    other = JoinSide(
                        entity: inverse.entity, index: inverse.index, name: inverse.name,
                        destination: self.number(ofEntityNamed: destinationName) ?? number,
                        isOrdered: inverse.isOrdered, pair: pair)
                } else {
                    other = JoinSide(
                        entity: resolved.destination, index: nil,
                        name: StoreNaming.synthesizedInverseName(for: resolved.name), destination: number,
                        isOrdered: false, pair: pair)
                }
                pairs.append((side, other))
                pairOfRelationship[number][resolved.index] = pair
                sidesByEntity[number].append(side)
                if !other.isSame(as: side) {
                    if let index = other.index { pairOfRelationship[other.entity][index] = pair }
                    sidesByEntity[other.entity].append(other)
                }
            }
        }

        var created = [Bool](repeating: false, count: pairs.count)
        let walk = Array(stride(from: 1, through: entityCount, by: 1)).sorted { keys[$0] < keys[$1] }
        for number in walk where !sidesByEntity[number].isEmpty {
            let sides = sidesByEntity[number]
            for position in Self.orderByModelName(sides, name: \.name, descending: true) {
                let owner = sides[position]
                guard !created[owner.pair] else { continue }
                created[owner.pair] = true
                let pair = pairs[owner.pair]
                createJoinTable(owner: owner, inverse: pair.first.isSame(as: owner) ? pair.second : pair.first)
            }
        }
    }

    private mutating func createJoinTable(owner: JoinSide, inverse: JoinSide) {
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

        var columns = [
            ColumnLayout(
                name: sourceColumn, type: .integer, role: .joinKey, entityNumber: inverse.entity,
                propertyName: inverse.name),
            ColumnLayout(
                name: destinationColumn, type: .integer, role: .joinKey, entityNumber: owner.entity,
                propertyName: owner.name),
        ]
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
        if let index = owner.index {
            joinColumns[owner.entity][index] = JoinColumns(
                table: name, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                orderColumn: destinationOrderColumn, inverseOrderColumn: sourceOrderColumn)
        }
        if let index = inverse.index, !inverse.isSame(as: owner) {
            joinColumns[inverse.entity][index] = JoinColumns(
                table: name, sourceColumn: destinationColumn, destinationColumn: sourceColumn,
                orderColumn: sourceOrderColumn, inverseOrderColumn: destinationOrderColumn)
        }
    }

    // MARK: - 6. Relationship storage

    private func relationshipStorage() -> [[RelationshipLayout]] {
        var result = [[RelationshipLayout]](repeating: [], count: entities.count)
        for number in stride(from: 1, through: entityCount, by: 1) {
            var layouts: [RelationshipLayout] = []
            layouts.reserveCapacity(relationshipsByName[number].count)
            for position in relationshipsByName[number] {
                let resolved = ownRelationships[number][position]
                guard let storage = storage(of: resolved) else { continue }
                layouts.append(
                    RelationshipLayout(
                        name: resolved.name, declaringEntityNumber: number,
                        destinationEntityNumber: resolved.destination, inverseName: resolved.inverse?.name,
                        isToMany: resolved.isToMany, isOrdered: resolved.isToMany && resolved.isOrdered,
                        storage: storage))
            }
            result[number] = layouts
        }
        return result
    }

    private func storage(of resolved: ResolvedRelationship) -> RelationshipStorage? {
        if !resolved.isToMany {
            return toOneColumns[resolved.entity][resolved.index].map { .foreignKey($0) }
        }
        if resolved.usesInverseForeignKey, let inverse = resolved.inverse,
            let columns = toOneColumns[inverse.entity][inverse.index]
        {
            return .inverseForeignKey(table: tableName[rootNumber[inverse.entity]], columns: columns)
        }
        return joinColumns[resolved.entity][resolved.index].map { .joinTable($0) }
    }

    // MARK: - 7. Indexes

    private mutating func makeIndexes() throws(StoreLayoutError) -> [IndexLayout] {
        var indexes: [IndexLayout] = []
        for (table, root) in zip(entityTables, rootNumbers) {
            let tree = root...lastDescendant[root]
            var indexedColumns: Set<String> = []
            for number in tree {
                for (index, attribute) in entities[number].attributes.enumerated() where attribute.isIndexed {
                    if let column = attributeColumns[number][index] { indexedColumns.insert(column) }
                }
            }
            for column in table.columns where column.role == .foreignKey {
                indexes.append(singleColumnIndex(table: table.name, column: column.name, kind: .foreignKey))
            }
            if !indexedColumns.isEmpty {
                for column in table.columns where column.role == .attribute && indexedColumns.contains(column.name) {
                    indexes.append(singleColumnIndex(table: table.name, column: column.name, kind: .attribute))
                }
            }
            if !childNumbers[root].isEmpty {
                indexes.append(singleColumnIndex(table: table.name, column: "Z_ENT", kind: .entityType))
            }
            for number in tree {
                for fetchIndex in entities[number].fetchIndexes {
                    if let index = try makeFetchIndex(fetchIndex, entity: number, table: table.name) {
                        indexes.append(index)
                    }
                }
            }
            for number in tree {
                for constraint in entities[number].uniquenessConstraints where !constraint.isEmpty {
                    indexes.append(try makeUniquenessIndex(constraint, entity: number, table: table.name))
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

    private mutating func singleColumnIndex(table: String, column: String, kind: IndexKind) -> IndexLayout {
        IndexLayout(
            name: nameRegistry.claim(StoreNaming.columnIndex(table: table, column: column)), tableName: table,
            columns: [IndexColumn(name: column)], kind: kind)
    }

    /// The column of a stored attribute or to-one relationship of `number` (own or inherited),
    /// and whether it is a to-one.
    private func indexableColumn(_ name: String, of number: Int) -> (column: String, isToOne: Bool)? {
        switch property(name, of: number) {
        case .attribute(let entity, let index)?:
            return attributeColumns[entity][index].map { ($0, false) }
        case .relationship(let entity, let index)?:
            return toOneColumns[entity][index].map { ($0.column, true) }
        case nil:
            return nil
        }
    }

    /// A fetch index, or `nil` when Core Data creates none: no stored elements, or a single to-one
    /// element (its foreign key index serves; observed for an ascending one, chosen for
    /// descending).
    private mutating func makeFetchIndex(
        _ fetchIndex: LayoutFetchIndex, entity number: Int, table: String
    ) throws(StoreLayoutError) -> IndexLayout? {
        var columns: [IndexColumn] = []
        var onlyToOnes = true
        for element in fetchIndex.elements {
            guard let found = indexableColumn(element.property, of: number) else {
                // A property with no column of its own (a to-many or transient one, which Xcode lets a
                // fetch index name) adds nothing to the SQL index; an unknown name is an error.
                if property(element.property, of: number) != nil { continue }
                throw .invalidFetchIndexProperty(
                    entity: entities[number].name, index: fetchIndex.name, property: element.property)
            }
            onlyToOnes = onlyToOnes && found.isToOne
            columns.append(IndexColumn(name: found.column, order: element.isAscending ? .ascending : .descending))
        }
        if columns.isEmpty || (columns.count == 1 && onlyToOnes) { return nil }
        return IndexLayout(
            name: nameRegistry.claim(StoreNaming.fetchIndex(entity: entities[number].name, index: fetchIndex.name)),
            tableName: table, columns: columns, kind: .fetchIndex, entityNumber: number)
    }

    private mutating func makeUniquenessIndex(
        _ constraint: [String], entity number: Int, table: String
    ) throws(StoreLayoutError) -> IndexLayout {
        var columns: [IndexColumn] = []
        for name in constraint {
            guard let found = indexableColumn(name, of: number) else {
                throw .invalidUniquenessProperty(entity: entities[number].name, property: name)
            }
            columns.append(IndexColumn(name: found.column, order: .ascending))
        }
        return IndexLayout(
            name: nameRegistry.claim(
                StoreNaming.uniquenessIndex(entity: entities[number].name, properties: constraint)),
            tableName: table, isUnique: true, columns: columns, kind: .uniquenessConstraint, entityNumber: number)
    }

    // MARK: - 8. Entities

    private func assembleEntities(storage: [[RelationshipLayout]]) -> [EntityLayout] {
        var attributes = [[AttributeLayout]](repeating: [], count: entities.count)
        var relationships = [[RelationshipLayout]](repeating: [], count: entities.count)
        var positions = [[Int]](repeating: [], count: entities.count)
        var tableOfRoot = [Int](repeating: 0, count: entities.count)
        for (table, root) in rootNumbers.enumerated() { tableOfRoot[root] = table }
        var result: [EntityLayout] = []
        result.reserveCapacity(entityCount)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let parent = parentNumber[number]
            let root = rootNumber[number]
            if parent == 0 {
                attributes[number] = ownAttributeLayouts[number]
                relationships[number] = storage[number]
                positions[number] = Self.merge([0, 1, 2], ownColumnPositions[number])
            } else {
                attributes[number] = attributes[parent] + ownAttributeLayouts[number]
                relationships[number] = relationships[parent] + storage[number]
                positions[number] = Self.merge(positions[parent], ownColumnPositions[number])
            }
            let tableColumns = entityTables[tableOfRoot[root]].columns
            // A root without sub-entities uses every column of its table: share the table's list.
            let columns =
                positions[number].count == tableColumns.count
                ? tableColumns : positions[number].map { tableColumns[$0] }
            result.append(
                EntityLayout(
                    name: entities[number].name, number: number, superentityNumber: parent, rootEntityNumber: root,
                    isAbstract: entities[number].isAbstract, tableName: tableName[root],
                    subentityNumbers: childNumbers[number], hierarchyNumbers: number...lastDescendant[number],
                    attributes: attributes[number], relationships: relationships[number], columns: columns))
        }
        return result
    }

    /// Merges two ascending lists.
    private static func merge(_ first: [Int], _ second: [Int]) -> [Int] {
        guard !second.isEmpty else { return first }
        var result: [Int] = []
        result.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count && j < second.count {
            if first[i] <= second[j] {
                result.append(first[i])
                i += 1
            } else {
                result.append(second[j])
                j += 1
            }
        }
        result.append(contentsOf: first[i...])
        result.append(contentsOf: second[j...])
        return result
    }

    // MARK: - System tables

    /// `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`, as Core Data creates them (observed).
    static let systemTables: [TableLayout] = [
        TableLayout(
            name: "Z_PRIMARYKEY", kind: .primaryKey,
            columns: [
                ColumnLayout(name: "Z_ENT", type: .integer, role: .system),
                ColumnLayout(name: "Z_NAME", type: .varchar, role: .system),
                ColumnLayout(name: "Z_SUPER", type: .integer, role: .system),
                ColumnLayout(name: "Z_MAX", type: .integer, role: .system),
            ], primaryKey: ["Z_ENT"]),
        TableLayout(
            name: "Z_METADATA", kind: .metadata,
            columns: [
                ColumnLayout(name: "Z_VERSION", type: .integer, role: .system),
                ColumnLayout(name: "Z_UUID", type: .varchar255, role: .system),
                ColumnLayout(name: "Z_PLIST", type: .blob, role: .system),
            ], primaryKey: ["Z_VERSION"]),
        TableLayout(
            name: "Z_MODELCACHE", kind: .modelCache,
            columns: [ColumnLayout(name: "Z_CONTENT", type: .blob, role: .system)], primaryKey: []),
    ]
}
