import DataModelRuntime
import Foundation
import GeneratedCompanyModel

/// The runtime's side of the runtime cases, one definition for every store they run on (SQLite in
/// ``RuntimeBenchmarks``, PostgreSQL in ``PostgresBenchmarks``, the profiler's runs): what each case does with the
/// generated classes. The baselines are each store's own raw code.
enum CompanyWorkload {
    /// Inserts one business, `departments` departments and `employees` employees, then saves once.
    static func insert(into store: StoreDescription, employees: Int, departments: Int, dateJoined: Date) throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: store)
        let context = container.viewContext
        let business = BusinessEntity(context: context)
        business.name = "Acme"
        var departmentObjects: [DepartmentEntity] = []
        for index in 1...departments {
            let department = DepartmentEntity(context: context)
            department.name = "Department \(index)"
            departmentObjects.append(department)
        }
        for index in 1...employees {
            let employee = EmployeeEntity(context: context)
            employee.name = BenchmarkData.name(index)
            employee.age = BenchmarkData.age(index)
            employee.dateJoined = dateJoined
            employee.business = business
            employee.department = departmentObjects[index % departments]
        }
        try context.save()
    }

    /// Every employee into objects in a new context, then two attributes of each read: how many, and a checksum
    /// of what was read (so a lazy fetch pays its deferred work in the measurement).
    static func fetchAndRead(_ container: PersistentContainer) throws -> (count: Int, checksum: Int) {
        let objects = try container.newBackgroundContext().fetch(EmployeeEntity.fetchRequest())
        return (objects.count, readTwoAttributes(objects))
    }

    /// `age` and the UTF-8 length of `name` of every object, summed (the raw baselines sum the same of their rows).
    static func readTwoAttributes(_ objects: [EmployeeEntity]) -> Int {
        var total = 0
        for employee in objects {
            total &+= Int(employee.age ?? 0) &+ (employee.name?.utf8.count ?? 0)
        }
        return total
    }

    /// The predicate fetch: employees older than 30 whose name starts with "A", sorted by name.
    static func predicateRequest() -> FetchRequest<EmployeeEntity> {
        EmployeeEntity.fetchRequest()
            .filtered(by: #Predicate<EmployeeEntity> { ($0.age ?? 0) > 30 && ($0.name?.starts(with: "A") ?? false) })
            .sorted(by: [SortDescriptor(\.name)])
    }

    /// Every department's employees from a cold context: how many in all.
    static func traverse(_ container: PersistentContainer) throws -> Int {
        let context = container.newBackgroundContext()
        var total = 0
        for department in try context.fetch(DepartmentEntity.fetchRequest()) {
            total += department.employees.count
        }
        return total
    }

    /// The first `count` employees by name get `age`, saved once.
    static func update(_ container: PersistentContainer, count: Int, age: Int16) throws {
        let context = container.newBackgroundContext()
        let objects = try context.fetch(
            EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]).limited(to: count))
        for employee in objects { employee.age = age }
        try context.save()
    }
}
