import DataModelRuntime
import Foundation
import GeneratedCompanyModel

/// A fetched results controller's incremental update against a refetch of its request.
enum FetchedResultsBenchmarks {
    static func run(_ suite: inout BenchmarkSuite) throws {
        guard suite.wants("controller") else { return }
        let employees = 10_000
        let work = suite.workRoot().appendingPathComponent("datamodelgen-controller-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let container = try PersistentContainer(
            model: CompanyModel.model, store: .sqlite(at: work.appendingPathComponent("store.sqlite")))
        let names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
        var ids: [ObjectID] = []
        do {
            let context = container.newBackgroundContext()
            for index in 0..<employees {
                let employee = EmployeeEntity(context: context)
                employee.name = names[index % names.count] + String(index)
                employee.age = Int16(20 + index % 50)
                ids.append(employee.objectID)
            }
            try context.save()
        }

        // Fifty sections (by age), ordered by age then name.
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age), SortDescriptor(\.name)])
        let view = container.newBackgroundContext()
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: \.age)
        try controller.performFetch()
        let writer = container.newBackgroundContext()

        // Before each run, another context moves one employee to another section and saves; the controller's side
        // merges that save (one row read, then the incremental update), the other fetches the request again.
        var step = 0
        var prepared = 0
        var changed: ObjectID?
        var fetched = 0
        let times = try suite.compare(
            prepare: {
                // `compare` prepares before each run, the baseline's first: only the controller's runs get a change.
                prepared += 1
                changed = nil
                guard prepared % 2 == 0 else { return }
                step += 1
                let id = ids[(step * 7919) % ids.count]
                guard let employee = try writer.existingObject(with: id) as? EmployeeEntity else { return }
                employee.age = Int16(20 + (step * 31) % 50)
                try writer.save()
                changed = id
            },
            baseline: { fetched = try view.fetch(request).count },
            ours: {
                guard let id = changed else { return }
                view.mergeChanges(StoreChanges(updated: [id]))
            })

        let expected = try view.fetch(request)
        if fetched != employees || controller.fetchedObjects?.count != employees
            || controller.fetchedObjects?.map(\.objectID) != expected.map(\.objectID)
        {
            suite.fail("controller: its results differ from a fetch of the same request")
        }
        suite.record(
            BenchmarkResult(
                name: "controller applies one saved change", ours: times.ours, baseline: times.baseline,
                target: "< 0.05x a refetch",
                note: "\(employees) objects in 50 sections; baseline: refetch of the same request"))
    }
}
