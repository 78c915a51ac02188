/// Builds a ``StoreLayout`` from a ``LayoutModel`` in stages, each linear in the size of the
/// model and of the layout it produces (plus sorting names):
///
/// 1. number the entities (pre-order walk of the inheritance forest),
/// 2. index each entity's own properties and check for duplicates,
/// 3. resolve relationships' destinations and inverses,
/// 4. name and order each root table's columns,
/// 5. create join tables, owners first met in the many-to-many walk,
/// 6. create indexes,
/// 7. assemble per-entity layouts, working out where every relationship is stored.
///
/// Arrays indexed by entity number have an unused slot 0. Properties are numbered across the
/// whole model, so that per-property facts live in a few flat arrays rather than in arrays per
/// entity: entity `n`'s attributes are `attributeStart[n]..<attributeStart[n + 1]`, its
/// relationships `relationshipStart[n]..<relationshipStart[n + 1]`, each in declaration order.
struct StoreLayoutBuilder {
    private let source: [LayoutEntity]

    // Stage 1.
    private var entityCount = 0
    /// By number, the entity's index in `source`.
    private var sourceIndex: [Int] = []
    /// By index in `source`, the entity's number.
    private var numberOfSource: [Int] = []
    /// Entity names in `source` order.
    private var sourceNames = NameIndex()
    /// Entity names in number order, for the finished layout.
    private var entityIndex = NameIndex()
    /// Entity numbers in name order.
    private var numbersByName: [Int] = []
    private var parentNumber: [Int] = []
    private var childNumbers: [[Int]] = []
    private var lastDescendant: [Int] = []
    private var rootNumber: [Int] = []
    private var rootNumbers: [Int] = []

    // Stage 2.
    /// By entity number, the model's attributes and relationships of the entity.
    private var attributesOf: [[LayoutAttribute]] = []
    private var relationshipsOf: [[LayoutRelationship]] = []
    private var attributeStart: [Int] = []
    private var relationshipStart: [Int] = []
    /// The number of attributes in the model. A *property code* is an attribute's number, or the
    /// model's attribute count plus a relationship's number.
    private var attributeTotal = 0
    /// By property code, the number of the entity declaring the property.
    private var propertyOwner: [Int32] = []
    /// By property code, ``NameHash/hash(_:)`` of the property's name.
    private var propertyHash: [UInt64] = []
    /// Every entity's own properties keyed by (entity number, name): ``HashSlot`` entries whose
    /// positions are property codes.
    private var propertySlots: [UInt64] = []

    // Stage 3.
    /// By relationship number.
    private var relationships: [RelationshipFacts] = []
    /// Per entity (`relationshipsByNameStart[n]..<relationshipsByNameStart[n + 1]`), its stored
    /// relationships in name order.
    private var relationshipsByName: [Int] = []
    private var relationshipsByNameStart: [Int] = []

    // Stage 4.
    private var tableName: [String] = []  // by root number; "" elsewhere
    private var nameRegistry = NameRegistry()  // tables and indexes share SQLite's namespace
    private var entityTables: [TableLayout] = []
    /// By attribute number, the position of its column in its table; -1 for one not stored.
    private var attributeColumn: [Int32] = []
    /// By attribute number, its index in its entity's stored attributes (inherited ones first).
    private var attributeLayoutIndex: [Int32] = []
    /// By relationship number, the columns of a stored to-one.
    private var toOneColumns: [ForeignKeyColumns?] = []
    /// By entity number, its stored attributes, inherited ones first.
    private var entityAttributes: [[AttributeLayout]] = []
    /// By entity number, the columns of its table that it uses.
    private var entityColumns: [[ColumnLayout]] = []

    // Stage 5.
    private var joinColumnRegistry = NameRegistry()
    private var joinTables: [JoinTableLayout] = []
    /// By relationship number, the join columns of one stored in a join table.
    private var joinColumns: [JoinColumns?] = []

    init(model: LayoutModel) {
        self.source = model.entities
    }

    mutating func build() throws(StoreLayoutError) -> StoreLayout {
        try numberEntities()
        try indexProperties()
        try resolveRelationships()
        nameRegistry.reserve("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE")
        layOutEntityTables()
        layOutJoinTables()
        let indexes = try makeIndexes()
        let entityLayouts = assembleEntities()
        return StoreLayout(
            entities: entityLayouts, entityIndex: entityIndex,
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

    /// The name of the entity numbered `number`.
    @inline(__always)
    private func entityName(_ number: Int) -> String {
        source[sourceIndex[number]].name
    }

    /// The number of the entity called `name`.
    @inline(__always)
    private func number(ofEntityNamed name: String) -> Int? {
        sourceNames.position(of: name).map { numberOfSource[$0] }
    }

    // MARK: - 1. Numbering

    /// Entity numbers: a pre-order walk of the inheritance forest, roots in name order, each
    /// followed by its sub-entities in name order (observed).
    private mutating func numberEntities() throws(StoreLayoutError) {
        let count = source.count
        entityCount = count
        var hashes = [UInt64](repeating: 0, count: count)
        sourceNames = NameIndex(capacity: count)
        for (index, entity) in source.enumerated() {
            let hash = NameHash.hash(entity.name)
            guard sourceNames.insert(entity.name, hash: hash).inserted else { throw .duplicateEntity(entity.name) }
            hashes[index] = hash
        }
        var parentIndex = [Int](repeating: -1, count: count)
        var childStart = [Int](repeating: 0, count: count + 1)
        for (index, entity) in source.enumerated() {
            guard let parent = entity.parentName else { continue }
            guard let position = sourceNames.position(of: parent) else {
                throw .unknownParent(entity: entity.name, parent: parent)
            }
            parentIndex[index] = position
            childStart[position + 1] += 1
        }
        for index in 0..<count { childStart[index + 1] += childStart[index] }

        // Every entity in name order: so are the roots, and each entity's children.
        var sorter = ModelNameSorter()
        sorter.sort(count: count) { source[$0].name }
        var children = [Int](repeating: 0, count: childStart[count])
        var childEnd = childStart
        var roots: [Int] = []
        for rank in 0..<count {
            let index = sorter.item(at: rank)
            let parent = parentIndex[index]
            if parent < 0 {
                roots.append(index)
            } else {
                children[childEnd[parent]] = index
                childEnd[parent] += 1
            }
        }

        var order: [Int] = []
        order.reserveCapacity(count)
        var stack: [Int] = roots.reversed()
        while let index = stack.popLast() {
            order.append(index)
            stack.append(contentsOf: children[childStart[index]..<childStart[index + 1]].reversed())
        }
        guard order.count == count else {
            throw .inheritanceCycle(entity: Self.cycleMember(source: source, reached: order, names: sourceNames))
        }

        sourceIndex = [0] + order
        numberOfSource = [Int](repeating: 0, count: count)
        for (position, index) in order.enumerated() { numberOfSource[index] = position + 1 }
        entityIndex = NameIndex(capacity: count)
        for index in order { entityIndex.insert(source[index].name, hash: hashes[index]) }
        numbersByName = (0..<count).map { numberOfSource[sorter.item(at: $0)] }

        parentNumber = [Int](repeating: 0, count: count + 1)
        childNumbers = [[Int]](repeating: [], count: count + 1)
        lastDescendant = Array(0...count)
        rootNumber = [Int](repeating: 0, count: count + 1)
        for number in stride(from: 1, through: count, by: 1) {
            let index = sourceIndex[number]
            let parent = parentIndex[index] < 0 ? 0 : numberOfSource[parentIndex[index]]
            parentNumber[number] = parent
            rootNumber[number] = parent == 0 ? number : rootNumber[parent]
            if parent == 0 { rootNumbers.append(number) }
            if childStart[index] < childStart[index + 1] {
                childNumbers[number] = children[childStart[index]..<childStart[index + 1]].map { numberOfSource[$0] }
            }
        }
        for number in stride(from: count, through: 1, by: -1) {
            if let last = childNumbers[number].last { lastDescendant[number] = lastDescendant[last] }
        }
    }

    /// An entity on an inheritance cycle, for the error: walk up from an unreached entity until
    /// an entity repeats.
    private static func cycleMember(source: [LayoutEntity], reached: [Int], names: NameIndex) -> String {
        let reachedSet = Set(reached)
        guard var index = source.indices.first(where: { !reachedSet.contains($0) }) else { return "" }
        var seen: Set<Int> = []
        while seen.insert(index).inserted, let parent = source[index].parentName,
            let next = names.position(of: parent)
        {
            index = next
        }
        return source[index].name
    }

    // MARK: - 2. Properties

    private enum PropertyReference {
        /// An attribute, by its number.
        case attribute(Int)
        /// A relationship, by its number.
        case relationship(Int)
    }

    private mutating func indexProperties() throws(StoreLayoutError) {
        attributesOf = [[]] + sourceIndex.dropFirst().map { source[$0].attributes }
        relationshipsOf = [[]] + sourceIndex.dropFirst().map { source[$0].relationships }
        attributeStart = [Int](repeating: 0, count: entityCount + 2)
        relationshipStart = [Int](repeating: 0, count: entityCount + 2)
        for number in stride(from: 1, through: entityCount, by: 1) {
            attributeStart[number + 1] = attributeStart[number] + attributesOf[number].count
            relationshipStart[number + 1] = relationshipStart[number] + relationshipsOf[number].count
        }
        attributeTotal = attributeStart[entityCount + 1]
        let propertyTotal = attributeTotal + relationshipStart[entityCount + 1]
        propertyOwner = [Int32](repeating: 0, count: propertyTotal)
        propertyHash = [UInt64](repeating: 0, count: propertyTotal)
        propertySlots = [UInt64](repeating: 0, count: HashSlot.slotCount(for: propertyTotal))
        for number in stride(from: 1, through: entityCount, by: 1) {
            let attributes = attributesOf[number]
            for index in attributes.indices
            where !declareProperty(attributes[index].name, code: attributeStart[number] + index, of: number) {
                throw .duplicateProperty(entity: entityName(number), property: attributes[index].name)
            }
            let relationships = relationshipsOf[number]
            for index in relationships.indices
            where !declareProperty(
                relationships[index].name, code: attributeTotal + relationshipStart[number] + index, of: number)
            {
                throw .duplicateProperty(entity: entityName(number), property: relationships[index].name)
            }
        }
    }

    /// Adds property `code` to entity `number`'s own properties; false when the entity or an
    /// ancestor declares the name already.
    ///
    /// (Not a throwing function: a typed throw of the large error costs a copy per call.)
    private mutating func declareProperty(_ name: String, code: Int, of number: Int) -> Bool {
        propertyOwner[code] = Int32(truncatingIfNeeded: number)
        let hash = NameHash.hash(name)
        propertyHash[code] = hash
        let key = NameHash.combine(hash, number)
        switch HashSlot.probe(key, in: propertySlots, matches: { isProperty($0, named: name, of: number) }) {
        case .found: return false
        case .free(let slot): propertySlots[slot] = HashSlot.entry(hash: key, position: code)
        }
        return property(name, hash: hash, from: parentNumber[number]) == nil
    }

    @inline(__always)
    private func isProperty(_ code: Int, named name: String, of number: Int) -> Bool {
        guard Int(propertyOwner[code]) == number else { return false }
        if code < attributeTotal { return attributesOf[number][code - attributeStart[number]].name == name }
        return relationshipsOf[number][code - attributeTotal - relationshipStart[number]].name == name
    }

    /// The property called `name` on entity `number` or an ancestor: O(depth).
    @inline(__always)
    private func property(_ name: String, of number: Int) -> PropertyReference? {
        property(name, hash: NameHash.hash(name), from: number)
    }

    /// The property called `name` (hashing to `hash`) on entity `number` or an ancestor; nil
    /// when `number` is 0.
    @inline(__always)
    private func property(_ name: String, hash: UInt64, from number: Int) -> PropertyReference? {
        var current = number
        while current != 0 {
            let owner = current
            let key = NameHash.combine(hash, owner)
            if case .found(let code) = HashSlot.probe(
                key, in: propertySlots, matches: { isProperty($0, named: name, of: owner) })
            {
                return code < attributeTotal ? .attribute(code) : .relationship(code - attributeTotal)
            }
            current = parentNumber[current]
        }
        return nil
    }

    /// The number of the entity declaring relationship `relationship`.
    @inline(__always)
    private func owner(ofRelationship relationship: Int) -> Int {
        Int(propertyOwner[attributeTotal + relationship])
    }

    // MARK: - 3. Relationships

    /// A relationship with its destination and inverse found: the facts later stages need.
    private struct RelationshipFacts {
        let name: String
        let isToMany: Bool
        let isOrdered: Bool
        let isTransient: Bool
        /// The destination entity's number; 0 for a transient relationship.
        var destination = 0
        /// The inverse's number, when the two name each other and it is stored; -1 otherwise.
        var inverse = -1
    }

    @inline(__always)
    private func inverseIsOrderedToMany(_ relationship: Int) -> Bool {
        let inverse = relationships[relationship].inverse
        return inverse >= 0 && relationships[inverse].isToMany && relationships[inverse].isOrdered
    }

    /// A to-many stored through its inverse's foreign key.
    @inline(__always)
    private func usesInverseForeignKey(_ relationship: Int) -> Bool {
        let facts = relationships[relationship]
        return facts.isToMany && facts.inverse >= 0 && !relationships[facts.inverse].isToMany
    }

    /// A stored to-many kept in a join table.
    @inline(__always)
    private func usesJoinTable(_ relationship: Int) -> Bool {
        let facts = relationships[relationship]
        return facts.isToMany && !facts.isTransient && !usesInverseForeignKey(relationship)
    }

    private mutating func resolveRelationships() throws(StoreLayoutError) {
        relationships.reserveCapacity(relationshipStart[entityCount + 1])
        relationshipsByName.reserveCapacity(relationshipStart[entityCount + 1])
        relationshipsByNameStart = [Int](repeating: 0, count: entityCount + 2)
        var sorter = ModelNameSorter()
        for number in stride(from: 1, through: entityCount, by: 1) {
            let declared = relationshipsOf[number]
            for index in declared.indices {
                var facts = RelationshipFacts(
                    name: declared[index].name, isToMany: declared[index].isToMany,
                    isOrdered: declared[index].isOrdered, isTransient: declared[index].isTransient)
                if !facts.isTransient, let failure = resolve(&facts, index, declaredBy: number) {
                    let relationship = declared[index]
                    switch failure {
                    case .unknownDestination:
                        throw .unknownDestination(
                            entity: entityName(number), relationship: relationship.name,
                            destination: relationship.destinationName)
                    case .unknownInverse:
                        throw .unknownInverse(
                            entity: entityName(number), relationship: relationship.name,
                            inverse: relationship.inverseName ?? "")
                    }
                }
                relationships.append(facts)
            }
            let own = relationshipStart[number]..<relationshipStart[number + 1]
            let facts = relationships
            sorter.sort(items: own.lazy.filter { !facts[$0].isTransient }) { facts[$0].name }
            for rank in 0..<sorter.count { relationshipsByName.append(sorter.item(at: rank)) }
            relationshipsByNameStart[number + 1] = relationshipsByName.count
        }
    }

    private enum ResolutionFailure {
        case unknownDestination
        case unknownInverse
    }

    /// Finds the destination and inverse of relationship `index` of entity `number`; the
    /// failure, if any (not a throwing function: a typed throw of the large error costs a copy
    /// per call).
    @inline(__always)
    private func resolve(_ facts: inout RelationshipFacts, _ index: Int, declaredBy number: Int) -> ResolutionFailure? {
        let declared = relationshipsOf[number]
        guard let destination = self.number(ofEntityNamed: declared[index].destinationName) else {
            return .unknownDestination
        }
        facts.destination = destination
        guard let inverseName = declared[index].inverseName else { return nil }
        guard case .relationship(let inverse)? = property(inverseName, of: destination) else {
            return .unknownInverse
        }
        let owner = owner(ofRelationship: inverse)
        let candidate = inverse - relationshipStart[owner]
        let inverseDeclared = relationshipsOf[owner]
        if !inverseDeclared[candidate].isTransient && inverseDeclared[candidate].inverseName == facts.name {
            facts.inverse = inverse
        }
        return nil
    }

    // MARK: - 4. Entity tables

    private static func isStored(_ attribute: LayoutAttribute) -> Bool {
        !attribute.isTransient && attribute.type.columnGroup != nil
    }

    /// Buffers reused from one table to the next.
    private struct TableScratch {
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

    private mutating func layOutEntityTables() {
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
    private func columnCount(ofToOne relationship: Int) -> Int {
        1 + (childNumbers[relationships[relationship].destination].isEmpty ? 0 : 1)
            + (inverseIsOrderedToMany(relationship) ? 1 : 0)
    }

    /// Names the columns of one root table, entity by entity in number order (collision
    /// suffixes go to the later entity; chosen, consistent with every observed store), and
    /// places them by ``ColumnGroup``: within a group, entity by entity in number order, each
    /// entity's columns in name order, to-one columns after the entity's integer attributes.
    private mutating func layOutTable(root: Int, scratch: inout TableScratch) {
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
    private mutating func nameColumns(
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
                        propertyName: attribute.name),
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
    private mutating func assignEntityColumns(
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

    private static let entityPrimaryKey = ["Z_PK"]

    // MARK: - 5. Join tables

    /// One side of a join-stored relationship pair: a real relationship, or the inverse
    /// synthesized for a to-many without one.
    private struct JoinSide {
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
    private mutating func layOutJoinTables() {
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

    // MARK: - 6. Indexes

    private mutating func makeIndexes() throws(StoreLayoutError) -> [IndexLayout] {
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

    private mutating func singleColumnIndex(table: String, column: String, kind: IndexKind) -> IndexLayout {
        IndexLayout(
            name: nameRegistry.claim(StoreNaming.columnIndex(table: table, column: column)), tableName: table,
            columns: [IndexColumn(name: column)], kind: kind)
    }

    /// The column of a stored attribute or to-one relationship of `number` (own or inherited),
    /// and whether it is a to-one.
    @inline(__always)
    private func indexableColumn(_ name: String, of number: Int, table: TableLayout) -> (
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
    private mutating func makeFetchIndex(
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

    private mutating func makeUniquenessIndex(
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

    // MARK: - 7. Entities

    /// Where a stored relationship is kept, or nil when it is not.
    @inline(__always)
    private func storage(of relationship: Int) -> RelationshipStorage? {
        let facts = relationships[relationship]
        if !facts.isToMany {
            return toOneColumns[relationship].map { .foreignKey($0) }
        }
        if usesInverseForeignKey(relationship), let columns = toOneColumns[facts.inverse] {
            return .inverseForeignKey(
                table: tableName[rootNumber[owner(ofRelationship: facts.inverse)]], columns: columns)
        }
        return joinColumns[relationship].map { .joinTable($0) }
    }

    private mutating func assembleEntities() -> [EntityLayout] {
        var result: [EntityLayout] = []
        result.reserveCapacity(entityCount)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let parent = parentNumber[number]
            let root = rootNumber[number]
            let own = relationshipsByNameStart[number]..<relationshipsByNameStart[number + 1]
            var relationshipLayouts = parent == 0 ? [] : result[parent - 1].relationships
            var attributes: [AttributeLayout] = []
            swap(&attributes, &entityAttributes[number])
            var names = PropertyNameTable(
                extending: parent == 0 ? PropertyNameTable() : result[parent - 1].propertyNames,
                toHold: attributes.count + relationshipLayouts.count + own.count)
            for attribute in attributeStart[number]..<attributeStart[number + 1]
            where attributeLayoutIndex[attribute] >= 0 {
                names.insertAttribute(at: Int(attributeLayoutIndex[attribute]), hash: propertyHash[attribute])
            }
            if !own.isEmpty { relationshipLayouts.reserveCapacity(relationshipLayouts.count + own.count) }
            for position in own {
                let relationship = relationshipsByName[position]
                guard let storage = storage(of: relationship) else { continue }
                let facts = relationships[relationship]
                names.insertRelationship(
                    at: relationshipLayouts.count, hash: propertyHash[attributeTotal + relationship])
                relationshipLayouts.append(
                    RelationshipLayout(
                        name: facts.name, declaringEntityNumber: number, destinationEntityNumber: facts.destination,
                        inverseName: facts.inverse >= 0 ? relationships[facts.inverse].name : nil,
                        isToMany: facts.isToMany, isOrdered: facts.isToMany && facts.isOrdered, storage: storage))
            }
            var columns: [ColumnLayout] = []
            swap(&columns, &entityColumns[number])
            result.append(
                EntityLayout(
                    name: entityName(number), number: number, superentityNumber: parent, rootEntityNumber: root,
                    isAbstract: source[sourceIndex[number]].isAbstract, tableName: tableName[root],
                    subentityNumbers: childNumbers[number], hierarchyNumbers: number...lastDescendant[number],
                    attributes: attributes, relationships: relationshipLayouts, columns: columns,
                    propertyNames: names))
        }
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
