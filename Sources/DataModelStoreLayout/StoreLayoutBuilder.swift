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
    let source: [LayoutEntity]

    // Stage 1.
    var entityCount = 0
    /// By number, the entity's index in `source`.
    var sourceIndex: [Int] = []
    /// By index in `source`, the entity's number.
    var numberOfSource: [Int] = []
    /// Entity names in `source` order.
    var sourceNames = NameIndex()
    /// Entity names in number order, for the finished layout.
    var entityIndex = NameIndex()
    /// Entity numbers in name order.
    var numbersByName: [Int] = []
    var parentNumber: [Int] = []
    var childNumbers: [[Int]] = []
    var lastDescendant: [Int] = []
    var rootNumber: [Int] = []
    var rootNumbers: [Int] = []

    // Stage 2.
    /// By entity number, the model's attributes and relationships of the entity.
    var attributesOf: [[LayoutAttribute]] = []
    var relationshipsOf: [[LayoutRelationship]] = []
    var attributeStart: [Int] = []
    var relationshipStart: [Int] = []
    /// The number of attributes in the model. A *property code* is an attribute's number, or the
    /// model's attribute count plus a relationship's number.
    var attributeTotal = 0
    /// By property code, the number of the entity declaring the property.
    var propertyOwner: [Int32] = []
    /// By property code, ``NameHash/hash(_:)`` of the property's name.
    var propertyHash: [UInt64] = []
    /// Every entity's own properties keyed by (entity number, name): ``HashSlot`` entries whose
    /// positions are property codes.
    var propertySlots: [UInt64] = []

    // Stage 3.
    /// By relationship number.
    var relationships: [RelationshipFacts] = []
    /// Per entity (`relationshipsByNameStart[n]..<relationshipsByNameStart[n + 1]`), its stored
    /// relationships in name order.
    var relationshipsByName: [Int] = []
    var relationshipsByNameStart: [Int] = []

    // Stage 4.
    var tableName: [String] = []  // by root number; "" elsewhere
    var nameRegistry = NameRegistry()  // tables and indexes share SQLite's namespace
    var entityTables: [TableLayout] = []
    /// By attribute number, the position of its column in its table; -1 for one not stored.
    var attributeColumn: [Int32] = []
    /// By attribute number, its index in its entity's stored attributes (inherited ones first).
    var attributeLayoutIndex: [Int32] = []
    /// By relationship number, the columns of a stored to-one.
    var toOneColumns: [ForeignKeyColumns?] = []
    /// By entity number, its stored attributes, inherited ones first.
    var entityAttributes: [[AttributeLayout]] = []
    /// By entity number, the columns of its table that it uses.
    var entityColumns: [[ColumnLayout]] = []

    // Stage 5.
    var joinColumnRegistry = NameRegistry()
    var joinTables: [JoinTableLayout] = []
    /// By relationship number, the join columns of one stored in a join table.
    var joinColumns: [JoinColumns?] = []

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
    func entityName(_ number: Int) -> String {
        source[sourceIndex[number]].name
    }

    /// The number of the entity called `name`.
    @inline(__always)
    func number(ofEntityNamed name: String) -> Int? {
        sourceNames.position(of: name).map { numberOfSource[$0] }
    }
}
