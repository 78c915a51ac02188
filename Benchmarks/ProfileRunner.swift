import DataModelRuntime
import DataModelStoreLayout
import Foundation
import GeneratedCompanyModel

/// `datamodelgen-benchmarks --profile CASE [EMPLOYEES]`: runs our side of one runtime case once,
/// for an instruction profiler. Only `profiledWork` is the case itself, so
/// `valgrind --tool=callgrind --toggle-collect='*profiledWork*' …` counts nothing else.
enum ProfileRunner {
    static func run(case name: String, employees: Int) throws {
        let departments = 100
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datamodelgen-profile-\(getpid()).sqlite"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dateJoined = Date(timeIntervalSinceReferenceDate: 700_000_000)
        if name != "insert" {
            let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
            let raw = try RawCompanyBaseline(
                path: path, schema: layout.ddlStatements() + layout.primaryKeyRowStatements())
            try raw.insert(
                employees: employees, departments: departments, dateJoined: dateJoined.timeIntervalSinceReferenceDate)
        }
        let container = try PersistentContainer(
            model: CompanyModel.model, store: .sqlite(at: URL(fileURLWithPath: path)))
        let count = try profiledWork(
            name, container: container, path: path, employees: employees, dateJoined: dateJoined)
        print("\(name): \(count)")
    }

    @inline(never)
    static func profiledWork(
        _ name: String, container: PersistentContainer, path: String, employees: Int, dateJoined: Date
    ) throws -> Int {
        let context = container.newBackgroundContext()
        switch name {
        case "insert":
            try RuntimeBenchmarks.insertWithRuntime(
                path: path + "-insert", employees: employees, departments: 100, dateJoined: dateJoined)
            try? FileManager.default.removeItem(atPath: path + "-insert")
            return employees
        case "fetch":
            return try context.fetch(EmployeeEntity.fetchRequest()).count
        case "traverse":
            var total = 0
            for department in try context.fetch(DepartmentEntity.fetchRequest()) { total += department.employees.count }
            return total
        case "update":
            let objects = try context.fetch(
                EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]).limited(to: employees / 10))
            for employee in objects { employee.age = 41 }
            try context.save()
            return objects.count
        case "predicate":
            let request = EmployeeEntity.fetchRequest()
                .filtered(
                    by: #Predicate<EmployeeEntity> { ($0.age ?? 0) > 30 && ($0.name?.starts(with: "A") ?? false) }
                )
                .sorted(by: [SortDescriptor(\.name)])
            return try context.fetch(request).count
        case "raw-insert":
            let layout = try StoreLayout(model: CompanyModel.model.layoutModel)
            let raw = try RawCompanyBaseline(
                path: path + "-raw", schema: layout.ddlStatements() + layout.primaryKeyRowStatements())
            try raw.insert(
                employees: employees, departments: 100, dateJoined: dateJoined.timeIntervalSinceReferenceDate)
            try? FileManager.default.removeItem(atPath: path + "-raw")
            return employees
        case "raw-fetch":
            return try RawCompanyBaseline(path: path, schema: []).fetchAll().count
        case "raw-traverse":
            return try RawCompanyBaseline(path: path, schema: []).traverseDepartments(count: 100)
        case "raw-update":
            try RawCompanyBaseline(path: path, schema: []).update(count: employees / 10, age: 41)
            return employees / 10
        case "raw-predicate":
            return try RawCompanyBaseline(path: path, schema: []).fetchFiltered().count
        default:
            throw StoreError.unknownEntity(
                "no profile case '\(name)' (insert, fetch, traverse, update, predicate, raw-insert, raw-fetch, "
                    + "raw-traverse, raw-update, raw-predicate)")
        }
    }
}
