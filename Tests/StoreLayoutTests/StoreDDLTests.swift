import DataModelStoreLayout
import Foundation
import SQLiteKit
import Testing

/// A fresh in-memory store created from `layout`'s DDL and `Z_PRIMARYKEY` rows.
func makeStore(_ layout: StoreLayout) throws -> Database {
    let db = try Database()
    try db.transaction {
        for statement in layout.ddlStatements() + layout.primaryKeyRowStatements() {
            try db.execute(sql: statement)
        }
    }
    return db
}

private func q(_ name: String) -> String { SQLQuoting.identifier(name) }

@Suite("DDL in SQLite")
struct StoreDDLTests {
    @Test func exactStatementsForASmallModel() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Car", attributes: [attribute("model")], relationships: [toOne("owner", "Person", inverse: "cars")]),
                entity("SportCar", parent: "Car", attributes: [attribute("topSpeed", .double)]),
                entity(
                    "Person", attributes: [attribute("name")], relationships: [toMany("cars", "Car", inverse: "owner")]),
            ]))
        #expect(
            layout.ddlStatements() == [
                #"CREATE TABLE "ZCAR" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZOWNER" INTEGER, "ZTOPSPEED" FLOAT, "ZMODEL" VARCHAR)"#,
                #"CREATE TABLE "ZPERSON" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZNAME" VARCHAR)"#,
                #"CREATE TABLE "Z_PRIMARYKEY" ("Z_ENT" INTEGER PRIMARY KEY, "Z_NAME" VARCHAR, "Z_SUPER" INTEGER, "Z_MAX" INTEGER)"#,
                #"CREATE TABLE "Z_METADATA" ("Z_VERSION" INTEGER PRIMARY KEY, "Z_UUID" VARCHAR(255), "Z_PLIST" BLOB)"#,
                #"CREATE TABLE "Z_MODELCACHE" ("Z_CONTENT" BLOB)"#,
                #"CREATE INDEX "ZCAR_ZOWNER_INDEX" ON "ZCAR" ("ZOWNER")"#,
                #"CREATE INDEX "ZCAR_Z_ENT_INDEX" ON "ZCAR" ("Z_ENT")"#,
            ])
        #expect(
            layout.primaryKeyRowStatements() == [
                #"INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'Car', 0, 0)"#,
                #"INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'SportCar', 1, 0)"#,
                #"INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (3, 'Person', 0, 0)"#,
            ])
        #expect(layout.ddlStatements(ifNotExists: true)[0].hasPrefix(#"CREATE TABLE IF NOT EXISTS "ZCAR" ("#))
    }

    /// The Company model: the DDL runs, the store is sound, and a business, two departments and
    /// an employee written with the layout's own names read back through joins.
    @Test func companyStoreRoundTrip() throws {
        let layout = try StoreLayout(model: companyModel)
        let db = try makeStore(layout)
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        #expect(
            try db.fetchAll(sql: #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM "Z_PRIMARYKEY" ORDER BY 1"#) == [
                [1, "Business", 0, 0], [2, "Department", 0, 0], [3, "Employee", 0, 0],
            ])

        let business = try #require(layout.entity(named: "Business"))
        let department = try #require(layout.entity(named: "Department"))
        let employee = try #require(layout.entity(named: "Employee"))
        let businessName = try #require(business.attribute(named: "name")).column
        let departmentName = try #require(department.attribute(named: "name")).column
        let employeeName = try #require(employee.attribute(named: "name")).column
        guard case .joinTable(let departments)? = business.relationship(named: "departments")?.storage,
            case .foreignKey(let worksFor)? = employee.relationship(named: "business")?.storage,
            case .foreignKey(let worksIn)? = employee.relationship(named: "department")?.storage,
            case .inverseForeignKey(let staffTable, let staff)? = department.relationship(named: "employees")?.storage
        else {
            Issue.record("unexpected storage")
            return
        }
        #expect(staffTable == employee.tableName)
        let staffOrder = try #require(staff.orderColumn, "Department.employees is ordered")

        func insert(_ entity: EntityLayout, _ pk: Int64, _ nameColumn: String, _ name: String) throws {
            try db.execute(
                sql:
                    "INSERT INTO \(q(entity.tableName)) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \(q(nameColumn))) VALUES (?, ?, 1, ?)",
                arguments: [.integer(pk), .integer(Int64(entity.number)), .text(name)])
        }
        try db.transaction {
            try insert(business, 1, businessName, "Acme")
            try insert(department, 1, departmentName, "R&D")
            try insert(department, 2, departmentName, "Sales")
            try insert(employee, 1, employeeName, "Ada")
            for departmentPK: Int64 in [1, 2] {
                try db.execute(
                    sql:
                        "INSERT INTO \(q(departments.table)) (\(q(departments.sourceColumn)), \(q(departments.destinationColumn))) VALUES (?, ?)",
                    arguments: [1, .integer(departmentPK)])
            }
            try db.execute(
                sql:
                    "UPDATE \(q(employee.tableName)) SET \(q(worksFor.column)) = 1, \(q(worksIn.column)) = 1, \(q(staffOrder)) = 1 WHERE \"Z_PK\" = 1"
            )
            for (entity, number) in [(business, 1), (department, 2), (employee, 1)] {
                try db.execute(
                    sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = ? WHERE "Z_ENT" = ?"#,
                    arguments: [.integer(Int64(number)), .integer(Int64(entity.number))])
            }
        }

        let businessDepartments = try db.fetchAll(
            sql: """
                SELECT b.\(q(businessName)), d.\(q(departmentName))
                FROM \(q(business.tableName)) b
                JOIN \(q(departments.table)) j ON j.\(q(departments.sourceColumn)) = b."Z_PK"
                JOIN \(q(department.tableName)) d ON d."Z_PK" = j.\(q(departments.destinationColumn))
                WHERE b."Z_ENT" IN (\(business.entityNumbersForFetch.map(String.init).joined(separator: ", ")))
                ORDER BY 2
                """)
        #expect(businessDepartments == [["Acme", "R&D"], ["Acme", "Sales"]])

        let staffOfRandD = try db.fetchAll(
            sql: """
                SELECT e.\(q(employeeName)), b.\(q(businessName)), e.\(q(staffOrder))
                FROM \(q(department.tableName)) d
                JOIN \(q(staffTable)) e ON e.\(q(staff.column)) = d."Z_PK"
                JOIN \(q(business.tableName)) b ON b."Z_PK" = e.\(q(worksFor.column))
                WHERE d.\(q(departmentName)) = ?
                ORDER BY e.\(q(staffOrder))
                """, arguments: ["R&D"])
        #expect(staffOfRandD == [["Ada", "Acme", 1]])

        // The uniqueness constraint is enforced by its index.
        let duplicate = #expect(throws: SQLiteError.self) { try insert(business, 2, businessName, "Acme") }
        #expect(duplicate?.resultCode == .constraint)
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
    }

    @Test func ddlWithIfNotExistsRunsTwice() throws {
        let layout = try StoreLayout(model: companyModel)
        let db = try Database()
        for _ in 0..<2 {
            for statement in layout.ddlStatements(ifNotExists: true) + layout.primaryKeyRowStatements() {
                try db.execute(sql: statement)
            }
        }
        #expect(try db.fetchOne(sql: #"SELECT count(*) FROM "Z_PRIMARYKEY""#) == [3])
    }

    /// What SQLite reports back matches the structured layout: tables, columns, types, indexes.
    @Test func sqliteSchemaMatchesTheLayout() throws {
        let layout = try StoreLayout(model: JoinTableNamingTests.galleryModel)
        let db = try makeStore(layout)
        let tables = try db.fetchAll(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
        #expect(tables.compactMap { $0.first?.textValue } == layout.tables.map(\.name))
        for table in layout.tables {
            let info = try db.fetchAll(
                sql: "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [.text(table.name)])
            #expect(info.map { $0[0].textValue ?? "" } == table.columns.map(\.name))
            #expect(info.map { $0[1].textValue ?? "" } == table.columns.map(\.type.rawValue))
            #expect(info.filter { $0[2] != 0 }.map { $0[0].textValue ?? "" } == table.primaryKey)
        }
        let indexes = try db.fetchAll(
            sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid")
        #expect(indexes.compactMap { $0.first?.textValue } == layout.indexes.map(\.name))
    }

    /// Entity, property and index names that are SQL keywords work, in a hierarchy, because every
    /// identifier is quoted.
    @Test func sqlKeywordNamesInAHierarchy() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Order",
                    attributes: [attribute("order", .integer32), attribute("group"), attribute("select", .date)],
                    relationships: [
                        toOne("from", "Table", inverse: "orders"), toMany("where", "Table", inverse: "join"),
                    ],
                    unique: [["order", "group"]],
                    fetchIndexes: [LayoutFetchIndex(name: "index", elements: [.init(property: "select")])]),
                entity(
                    "Group", parent: "Order", attributes: [attribute("by", .integer16), attribute("values", .binary)]),
                entity("Select", parent: "Order", attributes: [attribute("by", .double, indexed: true)]),
                entity(
                    "Table", attributes: [attribute("primary")],
                    relationships: [
                        toMany("orders", "Order", inverse: "from", ordered: true),
                        toMany("join", "Order", inverse: "where"),
                    ]),
            ]))
        #expect(layout.primaryKeyListing == ["1|Order|0", "2|Group|1", "3|Select|1", "4|Table|0"])
        #expect(
            layout.columnNames(of: "ZORDER") == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZORDER", "ZFROM", "Z_FOK_FROM", "ZBY", "ZSELECT", "ZBY1", "ZGROUP",
                "ZVALUES",
            ])
        #expect(layout.joinTableListing == ["Z_1WHERE (Z_1JOIN, Z_4WHERE)"])
        let db = try makeStore(layout)
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        let group = try #require(layout.entity(named: "Group"))
        let by = try #require(group.attribute(named: "by")).column
        try db.execute(
            sql: "INSERT INTO \(q(group.tableName)) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \(q(by))) VALUES (1, ?, 1, 7)",
            arguments: [.integer(Int64(group.number))])
        #expect(try db.fetchOne(sql: "SELECT \(q(by)) FROM \(q(group.tableName)) WHERE \"Z_ENT\" = 2") == [7])
        #expect(layout.indexes.contains { $0.name == "Z_Order_index" })
        #expect(layout.indexes.contains { $0.name == "ZORDER_ZBY1_INDEX" })
    }

    @Test func nonASCIINamesCreateAValidStore() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Café", attributes: [attribute("straße"), attribute("prix", .decimal)]),
                entity("Größe", parent: "Café", attributes: [attribute("ñame", .integer16)]),
            ]))
        let db = try makeStore(layout)
        #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        #expect(layout.columnNames(of: "ZCAFÉ") == ["Z_PK", "Z_ENT", "Z_OPT", "ZÑAME", "ZPRIX", "ZSTRASSE"])
        try db.execute(sql: #"INSERT INTO "ZCAFÉ" ("Z_PK", "Z_ENT", "ZSTRASSE") VALUES (1, 2, 'Hauptstraße')"#)
        #expect(try db.fetchOne(sql: #"SELECT "ZSTRASSE" FROM "ZCAFÉ""#) == ["Hauptstraße"])
    }

    @Test func entityNameWithAQuoteIsEscaped() throws {
        let layout = try StoreLayout(model: LayoutModel(entities: [entity(#"Odd"One'"#, attributes: [attribute("x")])]))
        let db = try makeStore(layout)
        #expect(layout.entityTables.first?.name == #"ZODD"ONE'"#)
        #expect(try db.fetchOne(sql: #"SELECT "Z_NAME" FROM "Z_PRIMARYKEY""#) == [.text(#"Odd"One'"#)])
    }

    @Test func allDesignExampleStoresAreSound() throws {
        for model in [JoinTableNamingTests.galleryModel, IndexLayoutTests.notesModel, AddressBookModel.model] {
            let db = try makeStore(try StoreLayout(model: model))
            #expect(try db.fetchOne(sql: "PRAGMA integrity_check") == [.text("ok")])
        }
    }
}
