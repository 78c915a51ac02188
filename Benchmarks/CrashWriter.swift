import DataModelRuntime
import Foundation
import GeneratedCompanyModel

/// `datamodelgen-benchmarks --crash-writer PATH|URL`: saves batches of 100 employees (each batch
/// also re-ages the previous batch) into the store at PATH (an SQLite file) or URL (a `postgresql://` database)
/// until killed, printing `saved` on a line of its own after each save returns. Used by `Scripts/kill-test.sh` and
/// `Scripts/postgres-kill-test.sh`, which kill it with SIGKILL mid-save and check the store: every save reported
/// must be there, and no save is there in part.
enum CrashWriter {
    static func run(path: String) throws -> Never {
        let store: StoreDescription
        if path.hasPrefix("postgresql://") || path.hasPrefix("postgres://") {
            guard let url = URL(string: path) else { throw StoreError.unsupportedStore("bad URL \(path)") }
            store = .postgres(url: url)
        } else {
            store = .sqlite(at: URL(fileURLWithPath: path))
        }
        let container = try PersistentContainer(model: CompanyModel.model, store: store)
        let context = container.viewContext
        let department =
            try context.fetch(DepartmentEntity.fetchRequest()).first
            ?? {
                let department = DepartmentEntity(context: context)
                department.name = "Crash"
                return department
            }()
        var previous: [EmployeeEntity] = []
        var round = 0
        while true {
            round += 1
            for employee in previous { employee.age = Int16(truncatingIfNeeded: round) }
            var batch: [EmployeeEntity] = []
            for index in 0..<100 {
                let employee = EmployeeEntity(context: context)
                employee.name = "\(getpid())-\(round) #\(index)"
                employee.age = Int16(truncatingIfNeeded: round)
                employee.department = department
                batch.append(employee)
            }
            try context.save()
            FileHandle.standardOutput.write(Data("saved\n".utf8))
            previous = batch
        }
    }
}
