import DataModel
import DataModelCodegen
import DataModelGenCLI
import DataModelStoreLayout
import Foundation
import SQLiteKit
import Testing

/// `datamodelgen schema`: golden DDL, DDL that SQLite accepts for every model, and a usable layout.
@Suite struct SchemaTests {
    static let models = TestPaths.exampleModels.map(\.lastPathComponent)

    static func schema(_ model: URL, _ extra: [String] = []) -> ToolRun {
        ToolRun.run(["schema", model.path] + extra)
    }

    @Test(arguments: models)
    func schemaMatchesGolden(model: String) throws {
        let name = String(model.dropLast(".xcdatamodeld".count))
        let run = Self.schema(TestPaths.models.appendingPathComponent(model))
        #expect(run.exitCode == .success, "\(run.err)")
        let path = TestPaths.golden.appendingPathComponent("\(name)/\(name).sql").path
        let expected = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(
            expected == run.out,
            "schema of \(model) differs from \(path); if intended, run \(GoldenTests.regenerate)\n\(UnifiedDiffText.of(expected, run.out))"
        )
    }

    @Test func companyGoldenShowsTheStoreLayout() throws {
        let sql = try String(
            contentsOf: TestPaths.golden.appendingPathComponent("Company/Company.sql"), encoding: .utf8)
        #expect(sql.contains(#"CREATE TABLE "Z_1DEPARTMENTS" ("#))
        #expect(sql.contains(#"PRIMARY KEY ("Z_1BUSINESSES", "Z_2DEPARTMENTS")"#))
        #expect(sql.contains(#""ZBUSINESS" INTEGER"#))
        #expect(sql.contains(#"CREATE INDEX "ZEMPLOYEEENTITY_ZBUSINESS_INDEX" ON "ZEMPLOYEEENTITY" ("ZBUSINESS");"#))
        #expect(sql.contains(#"CREATE TABLE "Z_PRIMARYKEY""#))
        #expect(sql.contains(#"CREATE TABLE "Z_METADATA""#))
        #expect(!sql.contains("20"), "no dates or versions that vary")
    }

    /// Every model in `Models/` and the corpus: the DDL runs in a fresh database and the result is sound,
    /// and the template-rendered schema creates exactly what the layout's own statements create.
    @Test func ddlExecutesForEveryModel() throws {
        if TestPaths.corpus == nil { print("corpus: ../shared/corpus/models is absent; checking Models/ only") }
        var count = 0
        for model in TestPaths.exampleModels + TestPaths.corpusModels {
            let run = Self.schema(model)
            #expect(run.exitCode == .success, "\(model.path): \(run.err)")
            guard run.exitCode == .success else { continue }
            let rendered = try Database(location: .inMemory)
            try rendered.execute(sql: run.out)
            let integrity = try rendered.fetchOne(sql: "PRAGMA integrity_check")
            #expect(integrity?.first == .text("ok"), "\(model.path)")

            let loaded = try ModelLoader.load(path: model.path)
            let layout = try SchemaRenderer.layout(of: loaded.model)
            let direct = try Database(location: .inMemory)
            for statement in layout.ddlStatements() + layout.primaryKeyRowStatements() {
                try direct.execute(sql: statement)
            }
            #expect(try Self.master(rendered) == Self.master(direct), "\(model.path): template and layout disagree")
            count += 1
        }
        print("schema: DDL of \(count) models executes in SQLite with integrity_check ok")
    }

    @Test func ifNotExistsCanRunTwice() throws {
        let run = Self.schema(TestPaths.models.appendingPathComponent("Company.xcdatamodeld"), ["--if-not-exists"])
        let database = try Database(location: .inMemory)
        try database.execute(sql: run.out)
        try database.execute(sql: run.out)
        #expect(run.out.contains("CREATE TABLE IF NOT EXISTS"))
    }

    @Test func reservedNamesLayout() throws {
        let loaded = try ModelLoader.load(
            path: TestPaths.models.appendingPathComponent("ReservedNames.xcdatamodeld").path)
        let layout = try SchemaRenderer.layout(of: loaded.model)
        let database = try Database(location: .inMemory)
        try database.execute(
            sql: Self.schema(TestPaths.models.appendingPathComponent("ReservedNames.xcdatamodeld")).out)
        func columns(_ table: String) throws -> [String] {
            try database.fetchAll(sql: "PRAGMA table_info(\(SQLQuoting.identifier(table)))").compactMap {
                if case .text(let name) = $0[1] { name } else { nil }
            }
        }
        #expect(try columns("ZORDER").contains("ZGROUP"))
        #expect(try columns("ZORDER").contains("ZSELECT"))
        #expect(try columns("ZORDER").contains("ZORDER"))
        #expect(try columns("ZCLASS").contains("ZDEFAULT"))
        // The abstract parent's table holds both children, told apart by Z_ENT.
        let asset = try #require(layout.entity(named: "Asset"))
        let photo = try #require(layout.entity(named: "Photo"))
        let document = try #require(layout.entity(named: "Document"))
        #expect(photo.tableName == "ZASSET" && document.tableName == "ZASSET" && asset.tableName == "ZASSET")
        #expect(photo.superentityNumber == asset.number && document.superentityNumber == asset.number)
        #expect(try columns("ZASSET").contains("Z_ENT"))
        // Transient attributes get no column.
        let type = try #require(loaded.model.entity(named: "Type"))
        for attribute in type.attributes where attribute.isTransient {
            #expect(try !columns("ZTYPE").contains("Z" + attribute.name.uppercased()))
        }
    }

    /// The layout is usable, not just valid: rows written through its names read back with joins.
    @Test func companyRowsRoundTripThroughTheLayout() throws {
        let loaded = try ModelLoader.load(path: TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path)
        let layout = try SchemaRenderer.layout(of: loaded.model)
        let database = try Database(location: .inMemory)
        for statement in layout.ddlStatements() + layout.primaryKeyRowStatements() {
            try database.execute(sql: statement)
        }
        let business = try #require(layout.entity(named: "BusinessEntity"))
        let department = try #require(layout.entity(named: "DepartmentEntity"))
        let employee = try #require(layout.entity(named: "EmployeeEntity"))
        let join = try #require(layout.joinTables.first)
        func column(_ entity: EntityLayout, _ property: String) throws -> String {
            let found = entity.attribute(named: property)?.column
            if let found { return SQLQuoting.identifier(found) }
            let relationship = try #require(entity.relationship(named: property))
            guard case .foreignKey(let columns) = relationship.storage else {
                Issue.record("\(property) is not stored as a foreign key")
                return ""
            }
            return SQLQuoting.identifier(columns.column)
        }
        let q = SQLQuoting.identifier
        try database.execute(
            sql:
                "INSERT INTO \(q(business.tableName)) (Z_PK, Z_ENT, Z_OPT, \(try column(business, "name"))) VALUES (1, \(business.number), 1, 'Acme')"
        )
        for (pk, name) in [(1, "R&D"), (2, "Sales")] {
            try database.execute(
                sql:
                    "INSERT INTO \(q(department.tableName)) (Z_PK, Z_ENT, Z_OPT, \(try column(department, "name"))) VALUES (\(pk), \(department.number), 1, '\(name)')"
            )
            try database.execute(
                sql:
                    "INSERT INTO \(q(join.name)) (\(q(join.sourceColumn)), \(q(join.destinationColumn))) VALUES (1, \(pk))"
            )
        }
        try database.execute(
            sql:
                "INSERT INTO \(q(employee.tableName)) (Z_PK, Z_ENT, Z_OPT, \(try column(employee, "name")), \(try column(employee, "age")), \(try column(employee, "business")), \(try column(employee, "department"))) VALUES (1, \(employee.number), 1, 'Ada', 36, 1, 1)"
        )
        let rows = try database.fetchAll(
            sql: """
                SELECT e.\(try column(employee, "name")), b.\(try column(business, "name")), d.\(try column(department, "name"))
                FROM \(q(employee.tableName)) e
                JOIN \(q(business.tableName)) b ON b.Z_PK = e.\(try column(employee, "business"))
                JOIN \(q(department.tableName)) d ON d.Z_PK = e.\(try column(employee, "department"))
                """)
        #expect(rows.count == 1)
        #expect(rows.first == [.text("Ada"), .text("Acme"), .text("R&D")])
        let departments = try database.fetchAll(
            sql: """
                SELECT d.\(try column(department, "name")) FROM \(q(join.name)) j
                JOIN \(q(department.tableName)) d ON d.Z_PK = j.\(q(join.destinationColumn))
                WHERE j.\(q(join.sourceColumn)) = 1 ORDER BY 1
                """)
        #expect(departments == [[.text("R&D")], [.text("Sales")]])
    }

    static func master(_ database: Database) throws -> [[SQLiteValue]] {
        try database.fetchAll(sql: "SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name")
    }
}

/// A unified diff for test failure messages.
enum UnifiedDiffText {
    static func of(_ old: String, _ new: String) -> String {
        UnifiedDiff.diff(old: old, new: new, oldName: "golden", newName: "generated")
    }
}
