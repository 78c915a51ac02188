import DataModelRuntime
import Foundation
import GeneratedCompanyModel

/// `datamodelgen-benchmarks --postgres-counter URL setup|WORKER`: one of several processes sharing a PostgreSQL
/// store (`Scripts/postgres-counter-test.sh`). `setup` creates the store and the shared counter (an employee named
/// `counter`, its age the count); a worker then increments the counter 100 times, each time in a save that also
/// inserts a row of its own (`w<WORKER>-<step>`), and on a `MergeConflict` (another process saved the counter
/// first) forgets its changes and tries again. It prints `done <retries>`.
enum PostgresCounterWriter {
    static func run(url text: String, role: String) throws -> Never {
        guard let url = URL(string: text) else { throw StoreError.unsupportedStore("bad URL \(text)") }
        let container = try PersistentContainer(model: CompanyModel.model, store: .postgres(url: url))
        let context = container.viewContext
        let counterRequest = EmployeeEntity.fetchRequest().matching(\.name, equals: "counter")
        if role == "setup" {
            if try context.fetch(counterRequest).isEmpty {
                let counter = EmployeeEntity(context: context)
                counter.name = "counter"
                counter.age = 0
                try context.save()
            }
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            exit(0)
        }
        var retries = 0
        for step in 0..<100 {
            while true {
                context.reset()
                guard let counter = try context.fetch(counterRequest).first else {
                    throw StoreError.unexpected("no counter row: run setup first")
                }
                counter.age = (counter.age ?? 0) + 1
                let row = EmployeeEntity(context: context)
                row.name = "w\(role)-\(step)"
                do {
                    try context.save()
                    break
                } catch is MergeConflict {
                    retries += 1
                }
            }
        }
        FileHandle.standardOutput.write(Data("done \(retries)\n".utf8))
        exit(0)
    }
}
