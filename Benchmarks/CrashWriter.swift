import DataModelRuntime
import Foundation
import GeneratedCompanyModel

/// `datamodelgen-benchmarks --crash-writer PATH`: saves batches of 100 employees (each batch
/// also renames and re-ages the previous batch) into the store at PATH until killed, printing `saved` on a line
/// of its own after each save returns. Used by `Scripts/kill-test.sh`, which kills it with SIGKILL mid-save and
/// checks the store: every save reported must be there.
enum CrashWriter {
    static func run(path: String) throws -> Never {
        let container = try PersistentContainer(
            model: CompanyModel.model, store: .sqlite(at: URL(fileURLWithPath: path)))
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
