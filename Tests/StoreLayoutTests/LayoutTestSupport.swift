import DataModelStoreLayout

// Short constructors for test models.

func entity(
    _ name: String, parent: String? = nil, abstract: Bool = false, attributes: [LayoutAttribute] = [],
    relationships: [LayoutRelationship] = [], unique: [[String]] = [], fetchIndexes: [LayoutFetchIndex] = []
) -> LayoutEntity {
    LayoutEntity(
        name: name, parentName: parent, isAbstract: abstract, attributes: attributes, relationships: relationships,
        uniquenessConstraints: unique, fetchIndexes: fetchIndexes)
}

func attribute(
    _ name: String, _ type: AttributeType = .string, transient: Bool = false, derived: Bool = false,
    indexed: Bool = false
) -> LayoutAttribute {
    LayoutAttribute(name: name, type: type, isTransient: transient, isDerived: derived, isIndexed: indexed)
}

func toOne(_ name: String, _ destination: String, inverse: String? = nil, transient: Bool = false) -> LayoutRelationship
{
    LayoutRelationship(name: name, destinationName: destination, inverseName: inverse, isTransient: transient)
}

func toMany(
    _ name: String, _ destination: String, inverse: String? = nil, ordered: Bool = false, transient: Bool = false
) -> LayoutRelationship {
    LayoutRelationship(
        name: name, destinationName: destination, inverseName: inverse, isToMany: true, isOrdered: ordered,
        isTransient: transient)
}

extension StoreLayout {
    /// Column names of the table called `name`, in order.
    func columnNames(of table: String) -> [String] {
        self.table(named: table)?.columns.map(\.name) ?? []
    }

    /// `Z_PRIMARYKEY` rows as `n|Name|super` strings, as `sqlite3` prints them.
    var primaryKeyListing: [String] {
        primaryKeyRows.map { "\($0.entityNumber)|\($0.name)|\($0.superentityNumber)" }
    }

    /// Join tables as `NAME (COL, COL, …)`.
    var joinTableListing: [String] {
        joinTables.map { "\($0.name) (\($0.table.columns.map(\.name).joined(separator: ", ")))" }
    }
}

/// The Company model of the design's runtime example.
let companyModel = LayoutModel(entities: [
    entity(
        "Employee",
        attributes: [attribute("name"), attribute("hiredOn", .date), attribute("salary", .decimal)],
        relationships: [
            toOne("business", "Business", inverse: "employees"),
            toOne("department", "Department", inverse: "employees"),
        ]),
    entity(
        "Business",
        attributes: [attribute("name", indexed: true), attribute("founded", .integer32)],
        relationships: [
            toMany("departments", "Department", inverse: "businesses"),
            toMany("employees", "Employee", inverse: "business"),
        ],
        unique: [["name"]]),
    entity(
        "Department",
        attributes: [attribute("name")],
        relationships: [
            toMany("businesses", "Business", inverse: "departments"),
            toMany("employees", "Employee", inverse: "department", ordered: true),
        ]),
])
