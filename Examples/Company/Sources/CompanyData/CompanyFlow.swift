import DataModelRuntime
import Foundation

/// The example's end-to-end flow over SQLite files, using the classes generated from the models.
public enum CompanyFlow {
    /// Builds a small company in a store at `companyStore`, reads it back through a second container, deletes a
    /// business (its employees cascade), and records a run in a store at `recordsStore`.
    ///
    /// - Returns: The report, one line per fact, the same on every run.
    public static func run(companyStore: URL, recordsStore: URL) throws -> [String] {
        try seedCompany(at: companyStore)
        var report = try describeCompany(at: companyStore, heading: "After the first save:")
        try deleteBusiness(named: "Globex", at: companyStore)
        report += try describeCompany(at: companyStore, heading: "After deleting Globex (employees cascade):")
        report += try recordRun(at: recordsStore)
        return report
    }

    /// The models `PersistentContainer(name:)` finds in this program: the generated ones register themselves.
    public static var modelNames: [String] { ManagedObjectModel.knownModelNames }

    static func seedCompany(at url: URL) throws {
        // Core Data's set-up: the model found by name among the generated ones, the store described, then loaded.
        let container = PersistentContainer(name: "Company")
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
        let context = container.viewContext
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let globex = BusinessEntity(context: context)
        globex.name = "Globex"
        let research = DepartmentEntity(context: context)
        research.name = "R&D"
        let sales = DepartmentEntity(context: context)
        sales.name = "Sales"
        acme.addToDepartments([research, sales])
        globex.addToDepartments(research)

        let people: [(String, Int16, BusinessEntity, DepartmentEntity)] = [
            ("Ada", 36, acme, research), ("Grace", 45, acme, sales), ("Linus", 28, globex, research),
        ]
        for (index, (name, age, business, department)) in people.enumerated() {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = age
            employee.dateJoined = Date(timeIntervalSinceReferenceDate: 86_400 * Double(1_000 + index))
            employee.business = business
            employee.department = department
        }
        try context.save()
    }

    static func describeCompany(at url: URL, heading: String) throws -> [String] {
        // A fresh container: everything below is read back from the SQLite file.
        let context = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: url)).viewContext
        var lines = [heading]
        for business in try context.fetch(BusinessEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])) {
            let departments = business.departments.compactMap(\.name).sorted()
            let employees = business.employees.sorted { ($0.name ?? "") < ($1.name ?? "") }.map { employee in
                "\(employee.name ?? "?") (\(employee.age ?? 0), \(employee.department?.name ?? "no department"))"
            }
            lines.append("  \(business.name ?? "?"): departments \(departments.joined(separator: ", "))")
            lines.append("    employees \(employees.joined(separator: ", "))")
        }
        let employees = try context.count(for: EmployeeEntity.fetchRequest())
        let departments = try context.count(for: DepartmentEntity.fetchRequest())
        lines.append("  \(employees) employees, \(departments) departments")
        return lines
    }

    static func deleteBusiness(named name: String, at url: URL) throws {
        let context = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: url)).viewContext
        for business in try context.fetch(BusinessEntity.fetchRequest()) where business.name == name {
            context.delete(business)
        }
        try context.save()
    }

    static func recordRun(at url: URL) throws -> [String] {
        let context = try PersistentContainer(model: RecordsModel.model, store: .sqlite(at: url)).viewContext
        let list = RecordsEntity(context: context)
        list.title = "Morning runs"
        for (index, distance) in [5.2, 7.8].enumerated() {
            let record = RecordEntity(context: context)
            record.distance = distance
            record.step = Int16(index + 1)
            record.locations = (0..<3).map { point in
                let location = LocationEntity(context: context)
                location.latitude = 52.5 + Double(point) / 100
                location.longitude = 13.4
                return location
            }
            list.addToRecords(record)
        }
        try context.save()

        let reread = try PersistentContainer(model: RecordsModel.model, store: .sqlite(at: url)).viewContext
        var lines = ["Records:"]
        for list in try reread.fetch(RecordsEntity.fetchRequest()) {
            lines.append("  \(list.title ?? "?"): \(list.records.count) runs, \(list.totalDistance) km")
            for record in list.records {
                let latitudes = record.locations.compactMap(\.latitude).map { String(format: "%.2f", $0) }
                lines.append(
                    "    run \(record.step ?? 0): \(record.distance ?? 0) km via \(latitudes.joined(separator: " → "))")
            }
        }
        return lines
    }
}
