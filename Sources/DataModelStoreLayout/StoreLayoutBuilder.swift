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
    private var numberByName: [String: Int] = [:]
    private var parentNumber: [Int] = []
    private var childNumbers: [[Int]] = []
    private var lastDescendant: [Int] = []
    private var rootNumber: [Int] = []
    private var rootNumbers: [Int] = []
    private var keys: [ModelNameKey] = []

    // Stage 2.
    private var ownProperties: [[String: PropertyReference]] = []

    // Stage 3.
    private var ownRelationships: [[ResolvedRelationship]] = []

    // Stage 4.
    private var tableName: [String] = []  // by root number; "" elsewhere
    private var nameRegistry = NameRegistry()  // tables and indexes share SQLite's namespace
    private var ownAttributeLayouts: [[AttributeLayout]] = []
    private var ownAttributeColumns: [[String: String]] = []
    private var ownToOneColumns: [[String: ForeignKeyColumns]] = []
    private var entityTables: [TableLayout] = []
    private var columnPosition: [[String: Int]] = []  // by root number
    private var ownColumnPositions: [[Int]] = []

    // Stage 5.
    private var joinColumnRegistry = NameRegistry()
    private var joinTables: [JoinTableLayout] = []
    private var joinColumnsBySide: [SideKey: JoinColumns] = [:]

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

    // MARK: - 1. Numbering

    /// Entity numbers: a pre-order walk of the inheritance forest, roots in name order, each
    /// followed by its sub-entities in name order (observed).
    private mutating func numberEntities() throws(StoreLayoutError) {
        let source = model.entities
        var indexByName: [String: Int] = [:]
        indexByName.reserveCapacity(source.count)
        for (index, entity) in source.enumerated() {
            guard indexByName.updateValue(index, forKey: entity.name) == nil else {
                throw .duplicateEntity(entity.name)
            }
        }
        let sourceKeys = source.map { ModelNameKey($0.name) }
        var children = [[Int]](repeating: [], count: source.count)
        var roots: [Int] = []
        for (index, entity) in source.enumerated() {
            guard let parent = entity.parentName else {
                roots.append(index)
                continue
            }
            guard let parentIndex = indexByName[parent] else {
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
        numberByName.reserveCapacity(count)
        for number in stride(from: 1, through: count, by: 1) { numberByName[entities[number].name] = number }
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
    private static func cycleMember(source: [LayoutEntity], reached: [Int], indexByName: [String: Int]) -> String {
        let reachedSet = Set(reached)
        guard var index = source.indices.first(where: { !reachedSet.contains($0) }) else { return "" }
        var seen: Set<Int> = []
        while seen.insert(index).inserted, let parent = source[index].parentName, let next = indexByName[parent] {
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
        ownProperties = [[String: PropertyReference]](repeating: [:], count: entities.count)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let entity = entities[number]
            var own: [String: PropertyReference] = [:]
            own.reserveCapacity(entity.attributes.count + entity.relationships.count)
            for (index, attribute) in entity.attributes.enumerated() {
                guard own.updateValue(.attribute(entity: number, index: index), forKey: attribute.name) == nil,
                    inheritedProperty(attribute.name, of: number) == nil
                else { throw .duplicateProperty(entity: entity.name, property: attribute.name) }
            }
            for (index, relationship) in entity.relationships.enumerated() {
                guard own.updateValue(.relationship(entity: number, index: index), forKey: relationship.name) == nil,
                    inheritedProperty(relationship.name, of: number) == nil
                else { throw .duplicateProperty(entity: entity.name, property: relationship.name) }
            }
            ownProperties[number] = own
        }
    }

    private func inheritedProperty(_ name: String, of number: Int) -> PropertyReference? {
        var current = parentNumber[number]
        while current != 0 {
            if let found = ownProperties[current][name] { return found }
            current = parentNumber[current]
        }
        return nil
    }

    /// The property called `name` on entity `number` or an ancestor: O(depth).
    private func property(_ name: String, of number: Int) -> PropertyReference? {
        ownProperties[number][name] ?? inheritedProperty(name, of: number)
    }

    // MARK: - 3. Relationships

    private struct ResolvedRelationship {
        let entity: Int
        let relationship: LayoutRelationship
        let destination: Int
        /// The inverse, when the two name each other and it is stored.
        let inverse: (entity: Int, relationship: LayoutRelationship)?

        var name: String { relationship.name }
        var inverseIsOrderedToMany: Bool {
            guard let inverse else { return false }
            return inverse.relationship.isToMany && inverse.relationship.isOrdered
        }
        /// Stored through the inverse's foreign key.
        var usesInverseForeignKey: Bool {
            guard let inverse else { return false }
            return relationship.isToMany && !inverse.relationship.isToMany
        }
        /// Stored in a join table.
        var usesJoinTable: Bool {
            relationship.isToMany && !usesInverseForeignKey
        }
    }

    private mutating func resolveRelationships() throws(StoreLayoutError) {
        ownRelationships = [[ResolvedRelationship]](repeating: [], count: entities.count)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let entity = entities[number]
            var resolved: [ResolvedRelationship] = []
            for relationship in entity.relationships where !relationship.isTransient {
                guard let destination = numberByName[relationship.destinationName] else {
                    throw .unknownDestination(
                        entity: entity.name, relationship: relationship.name, destination: relationship.destinationName)
                }
                var inverse: (entity: Int, relationship: LayoutRelationship)?
                if let inverseName = relationship.inverseName {
                    guard case .relationship(let inverseEntity, let index)? = property(inverseName, of: destination)
                    else {
                        throw .unknownInverse(
                            entity: entity.name, relationship: relationship.name, inverse: inverseName)
                    }
                    let candidate = entities[inverseEntity].relationships[index]
                    if !candidate.isTransient && candidate.inverseName == relationship.name {
                        inverse = (inverseEntity, candidate)
                    }
                }
                resolved.append(
                    ResolvedRelationship(
                        entity: number, relationship: relationship, destination: destination, inverse: inverse))
            }
            ownRelationships[number] = resolved
        }
    }

    // MARK: - 4. Entity tables

    /// `items` sorted by ``ModelNameKey`` of their names (stably), each key made once rather than per comparison.
    private static func sortedByModelName<Item>(_ items: [Item], name: (Item) -> String, descending: Bool = false)
        -> [Item]
    {
        guard items.count > 1 else { return items }
        let keys = items.map { ModelNameKey(name($0)) }
        let order = keys.indices.sorted { descending ? keys[$1] < keys[$0] : keys[$0] < keys[$1] }
        return order.map { items[$0] }
    }

    private static func isStored(_ attribute: LayoutAttribute) -> Bool {
        !attribute.isTransient && attribute.type.columnGroup != nil
    }

    private mutating func layOutEntityTables() {
        tableName = [String](repeating: "", count: entities.count)
        ownAttributeLayouts = [[AttributeLayout]](repeating: [], count: entities.count)
        ownAttributeColumns = [[String: String]](repeating: [:], count: entities.count)
        ownToOneColumns = [[String: ForeignKeyColumns]](repeating: [:], count: entities.count)
        columnPosition = [[String: Int]](repeating: [:], count: entities.count)
        ownColumnPositions = [[Int]](repeating: [], count: entities.count)
        for root in rootNumbers {
            tableName[root] = nameRegistry.claim(StoreNaming.zName(entities[root].name))
        }
        for root in rootNumbers {
            layOutTable(root: root)
        }
    }

    /// Names the columns of one root table, entity by entity in number order (collision
    /// suffixes go to the later entity; chosen, consistent with every observed store), then
    /// orders them by ``ColumnGroup``.
    private mutating func layOutTable(root: Int) {
        let table = tableName[root]
        let tree = root...lastDescendant[root]
        var registry = NameRegistry()
        // Room for every column the tree can claim: its attributes, and up to three per to-one.
        var estimate = 3
        for number in tree {
            estimate += entities[number].attributes.count + 3 * ownRelationships[number].count
        }
        registry.reserveCapacity(estimate)
        registry.reserve("Z_PK", "Z_ENT", "Z_OPT")
        var toOneOrder: [Int: [(name: String, columns: ForeignKeyColumns)]] = [:]

        for number in tree {
            let attributes = Self.sortedByModelName(entities[number].attributes.filter(Self.isStored), name: \.name)
            ownAttributeLayouts[number] = attributes.map { attribute in
                AttributeLayout(
                    name: attribute.name, type: attribute.type,
                    column: registry.claim(StoreNaming.zName(attribute.name)),
                    sqlType: attribute.type.sqlColumnType ?? .blob, declaringEntityNumber: number,
                    isDerived: attribute.isDerived)
            }
            ownAttributeColumns[number].reserveCapacity(ownAttributeLayouts[number].count)
            for attribute in ownAttributeLayouts[number] {
                ownAttributeColumns[number][attribute.name] = attribute.column
            }
            let toOnes = Self.sortedByModelName(
                ownRelationships[number].filter { !$0.relationship.isToMany }, name: \.name)
            var ordered: [(name: String, columns: ForeignKeyColumns)] = []
            ordered.reserveCapacity(toOnes.count)
            ownToOneColumns[number].reserveCapacity(toOnes.count)
            for toOne in toOnes {
                let column = registry.claim(StoreNaming.zName(toOne.name))
                let entityColumn =
                    childNumbers[toOne.destination].isEmpty
                    ? nil
                    : registry.claim(
                        StoreNaming.foreignEntityColumn(forForeignKey: column, destinationNumber: toOne.destination))
                let orderColumn =
                    toOne.inverseIsOrderedToMany
                    ? registry.claim(StoreNaming.foreignOrderColumn(forForeignKey: column)) : nil
                let columns = ForeignKeyColumns(column: column, entityColumn: entityColumn, orderColumn: orderColumn)
                ownToOneColumns[number][toOne.name] = columns
                ordered.append((toOne.name, columns))
            }
            toOneOrder[number] = ordered
        }

        var columns: [ColumnLayout] = [
            ColumnLayout(name: "Z_PK", type: .integer, role: .primaryKey),
            ColumnLayout(name: "Z_ENT", type: .integer, role: .entity),
            ColumnLayout(name: "Z_OPT", type: .integer, role: .optimisticLock),
        ]
        var owner: [Int] = [0, 0, 0]  // entity number per column; 0 for the shared columns
        func appendAttributes(of number: Int, in group: ColumnGroup) {
            // Indices rather than elements: most attributes are in another group, and are not copied.
            for index in ownAttributeLayouts[number].indices
            where ownAttributeLayouts[number][index].type.columnGroup == group {
                let attribute = ownAttributeLayouts[number][index]
                columns.append(
                    ColumnLayout(
                        name: attribute.column, type: attribute.sqlType, role: .attribute, entityNumber: number,
                        propertyName: attribute.name))
                owner.append(number)
            }
        }
        for number in tree {
            appendAttributes(of: number, in: .integer)
            for (name, foreignKey) in toOneOrder[number] ?? [] {
                columns.append(
                    ColumnLayout(
                        name: foreignKey.column, type: .integer, role: .foreignKey, entityNumber: number,
                        propertyName: name))
                owner.append(number)
                if let entityColumn = foreignKey.entityColumn {
                    columns.append(
                        ColumnLayout(
                            name: entityColumn, type: .integer, role: .foreignEntity, entityNumber: number,
                            propertyName: name))
                    owner.append(number)
                }
                if let orderColumn = foreignKey.orderColumn {
                    columns.append(
                        ColumnLayout(
                            name: orderColumn, type: .integer, role: .foreignOrder, entityNumber: number,
                            propertyName: name))
                    owner.append(number)
                }
            }
        }
        for group in ColumnGroup.allCases where group != .integer {
            for number in tree { appendAttributes(of: number, in: group) }
        }

        var positions: [String: Int] = [:]
        positions.reserveCapacity(columns.count)
        for (position, column) in columns.enumerated() {
            positions[column.name] = position
            if owner[position] != 0 { ownColumnPositions[owner[position]].append(position) }
        }
        columnPosition[root] = positions
        entityTables.append(
            TableLayout(name: table, kind: .entity(rootEntityNumber: root), columns: columns, primaryKey: ["Z_PK"]))
    }

    // MARK: - 5. Join tables

    /// One side of a join-stored relationship pair: a real relationship, or the inverse
    /// synthesized for a to-many without one.
    private struct JoinSide {
        let entity: Int
        let name: String
        let destination: Int
        let isOrdered: Bool
        let isSynthesized: Bool
        let pair: Int
    }

    private struct SideKey: Hashable {
        let entity: Int
        let name: String
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
        var pairOfSide: [SideKey: Int] = [:]

        for number in stride(from: 1, through: entityCount, by: 1) {
            for resolved in ownRelationships[number] where resolved.usesJoinTable {
                let key = SideKey(entity: number, name: resolved.name)
                if pairOfSide[key] != nil { continue }
                let pair = pairs.count
                let side = JoinSide(
                    entity: number, name: resolved.name, destination: resolved.destination,
                    isOrdered: resolved.relationship.isOrdered, isSynthesized: false, pair: pair)
                let other: JoinSide
                if let inverse = resolved.inverse {
                    other = JoinSide(
                        entity: inverse.entity, name: inverse.relationship.name,
                        destination: numberByName[inverse.relationship.destinationName] ?? number,
                        isOrdered: inverse.relationship.isOrdered, isSynthesized: false, pair: pair)
                } else {
                    other = JoinSide(
                        entity: resolved.destination, name: StoreNaming.synthesizedInverseName(for: resolved.name),
                        destination: number, isOrdered: false, isSynthesized: true, pair: pair)
                }
                pairs.append((side, other))
                pairOfSide[key] = pair
                sidesByEntity[number].append(side)
                let otherKey = SideKey(entity: other.entity, name: other.name)
                if otherKey != key {
                    if !other.isSynthesized { pairOfSide[otherKey] = pair }
                    sidesByEntity[other.entity].append(other)
                }
            }
        }

        var created = [Bool](repeating: false, count: pairs.count)
        let walk = Array(stride(from: 1, through: entityCount, by: 1)).sorted { keys[$0] < keys[$1] }
        for number in walk {
            let sides = Self.sortedByModelName(sidesByEntity[number], name: \.name, descending: true)
            for owner in sides where !created[owner.pair] {
                created[owner.pair] = true
                let pair = pairs[owner.pair]
                let isFirst = pair.first.entity == owner.entity && pair.first.name == owner.name
                createJoinTable(owner: owner, inverse: isFirst ? pair.second : pair.first)
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
        if !owner.isSynthesized {
            joinColumnsBySide[SideKey(entity: owner.entity, name: owner.name)] = JoinColumns(
                table: name, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
                orderColumn: destinationOrderColumn, inverseOrderColumn: sourceOrderColumn)
        }
        let isSelfInverse = inverse.entity == owner.entity && inverse.name == owner.name
        if !inverse.isSynthesized && !isSelfInverse {
            joinColumnsBySide[SideKey(entity: inverse.entity, name: inverse.name)] = JoinColumns(
                table: name, sourceColumn: destinationColumn, destinationColumn: sourceColumn,
                orderColumn: sourceOrderColumn, inverseOrderColumn: destinationOrderColumn)
        }
    }

    // MARK: - 6. Relationship storage

    private func relationshipStorage() -> [[RelationshipLayout]] {
        var result = [[RelationshipLayout]](repeating: [], count: entities.count)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let relationships = Self.sortedByModelName(ownRelationships[number], name: \.name)
            result[number] = relationships.compactMap { resolved -> RelationshipLayout? in
                guard let storage = storage(of: resolved) else { return nil }
                return RelationshipLayout(
                    name: resolved.name, declaringEntityNumber: number, destinationEntityNumber: resolved.destination,
                    inverseName: resolved.inverse?.relationship.name, isToMany: resolved.relationship.isToMany,
                    isOrdered: resolved.relationship.isToMany && resolved.relationship.isOrdered, storage: storage)
            }
        }
        return result
    }

    private func storage(of resolved: ResolvedRelationship) -> RelationshipStorage? {
        if !resolved.relationship.isToMany {
            return ownToOneColumns[resolved.entity][resolved.name].map { .foreignKey($0) }
        }
        if resolved.usesInverseForeignKey, let inverse = resolved.inverse,
            let columns = ownToOneColumns[inverse.entity][inverse.relationship.name]
        {
            return .inverseForeignKey(table: tableName[rootNumber[inverse.entity]], columns: columns)
        }
        return joinColumnsBySide[SideKey(entity: resolved.entity, name: resolved.name)].map { .joinTable($0) }
    }

    // MARK: - 7. Indexes

    private mutating func makeIndexes() throws(StoreLayoutError) -> [IndexLayout] {
        var indexes: [IndexLayout] = []
        for (table, root) in zip(entityTables, rootNumbers) {
            let tree = root...lastDescendant[root]
            var indexedColumns: Set<String> = []
            for number in tree {
                for attribute in entities[number].attributes where attribute.isIndexed {
                    if let column = ownAttributeColumns[number][attribute.name] { indexedColumns.insert(column) }
                }
            }
            for column in table.columns where column.role == .foreignKey {
                indexes.append(singleColumnIndex(table: table.name, column: column.name, kind: .foreignKey))
            }
            for column in table.columns where column.role == .attribute && indexedColumns.contains(column.name) {
                indexes.append(singleColumnIndex(table: table.name, column: column.name, kind: .attribute))
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
        case .attribute(let entity, _)?:
            return ownAttributeColumns[entity][name].map { ($0, false) }
        case .relationship(let entity, _)?:
            return ownToOneColumns[entity][name].map { ($0.column, true) }
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
        var result: [EntityLayout] = []
        result.reserveCapacity(entityCount)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let parent = parentNumber[number]
            let root = rootNumber[number]
            attributes[number] = (parent == 0 ? [] : attributes[parent]) + ownAttributeLayouts[number]
            relationships[number] = (parent == 0 ? [] : relationships[parent]) + storage[number]
            positions[number] = Self.merge(parent == 0 ? [0, 1, 2] : positions[parent], ownColumnPositions[number])
            let tableColumns = entityTables[rootNumbers.firstIndexSorted(of: root)].columns
            result.append(
                EntityLayout(
                    name: entities[number].name, number: number, superentityNumber: parent, rootEntityNumber: root,
                    isAbstract: entities[number].isAbstract, tableName: tableName[root],
                    subentityNumbers: childNumbers[number], hierarchyNumbers: number...lastDescendant[number],
                    attributes: attributes[number], relationships: relationships[number],
                    columns: positions[number].map { tableColumns[$0] }))
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

extension Array where Element == Int {
    /// The index of `value` in this ascending array (binary search); `value` must be present.
    fileprivate func firstIndexSorted(of value: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
