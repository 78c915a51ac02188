import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Run under the thread sanitizer in CI (`swift test --sanitize=thread --filter ConcurrencyTests`).
@Suite("Concurrency: background contexts on several tasks")
struct ConcurrencyTests {
    @Test("four writers and a merging reader on one store", arguments: StoreKind.allCases)
    func writersAndReader(kind: StoreKind) async throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let coordinator = store.container.persistentStoreCoordinator
        let setup = coordinator.newBackgroundContext()
        let department = DepartmentEntity(context: setup)
        department.name = "Shared"
        try setup.save()
        let departmentID = department.objectID
        let writers = 4
        let perWriter = 50

        try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let context = coordinator.newBackgroundContext()
                    context.mergePolicy = .mergeByPropertyObjectTrump
                    let shared = try #require(try context.existingObject(with: departmentID) as? DepartmentEntity)
                    for index in 0..<perWriter {
                        let employee = EmployeeEntity(context: context)
                        employee.name = "w\(writer)-\(index)"
                        employee.age = Int16(index)
                        employee.department = shared
                        if index % 10 == 9 { try context.save() }
                    }
                    try context.save()
                    return perWriter
                }
            }
            group.addTask {
                let reader = coordinator.newBackgroundContext()
                reader.automaticallyMergesChangesFromParent = true
                var last = 0
                for _ in 0..<40 {
                    let count = try reader.count(for: EmployeeEntity.fetchRequest())
                    #expect(count >= last)
                    last = count
                    await Task.yield()
                }
                return 0
            }
            var written = 0
            for try await count in group { written += count }
            #expect(written == writers * perWriter)
        }

        let check = coordinator.newBackgroundContext()
        let employees = try check.fetch(EmployeeEntity.fetchRequest())
        #expect(employees.count == writers * perWriter)
        #expect(Set(employees.map(\.objectID)).count == writers * perWriter)
        let shared = try #require(try check.existingObject(with: departmentID) as? DepartmentEntity)
        #expect(shared.employees.count == writers * perWriter)
    }

    @Test("contexts handed to tasks with newBackgroundContext() and performBackgroundTask")
    func handOver() async throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        let id = try await Task.detached {
            let employee = EmployeeEntity(context: context)
            employee.name = "Moved"
            try context.save()
            return employee.objectID
        }.value
        let count = try await container.performBackgroundTask { try $0.count(for: EmployeeEntity.fetchRequest()) }
        // The Sendable coordinator runs tasks in parallel.
        let coordinator = container.persistentStoreCoordinator
        async let first = coordinator.performBackgroundTask { try $0.count(for: EmployeeEntity.fetchRequest()) }
        async let second = coordinator.performBackgroundTask {
            ($0.registeredObjects.count, try $0.existingObject(with: id).objectID)
        }
        let (parallelCount, (registered, found)) = try await (first, second)
        #expect(parallelCount == 1)
        #expect(count == 1)
        #expect(registered == 0)
        #expect(found == id)
    }

    @Test("the fire-and-forget form runs the closure on a background task")
    func fireAndForget() async throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let (stream, continuation) = AsyncStream.makeStream(of: ObjectID.self)
        // From synchronous code (in async code the `async` form is chosen).
        func start() {
            container.performBackgroundTask { context in
                let employee = EmployeeEntity(context: context)
                employee.name = "Later"
                try? context.save()
                continuation.yield(employee.objectID)
                continuation.finish()
            }
        }
        start()
        var ids: [ObjectID] = []
        for await id in stream { ids.append(id) }
        #expect(ids.count == 1)
        #expect((try container.viewContext.existingObject(with: ids[0]) as? EmployeeEntity)?.name == "Later")
    }
}

@Suite("perform and performAndWait, as Core Data spells them")
struct PerformTests {
    @Test func synchronousForms() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let employee = EmployeeEntity(context: context)
            employee.name = "Sync"
            try context.save()
            return employee.objectID
        }
        var name: String?
        context.perform { name = (try? context.existingObject(with: id) as? EmployeeEntity)?.name }
        #expect(name == "Sync")
    }

    @MainActor @Test func asyncFormOnTheMainActor() async throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let count = try await context.perform {
            EmployeeEntity(context: context).name = "Main"
            try context.save()
            return try context.count(for: EmployeeEntity.fetchRequest())
        }
        #expect(count == 1)
    }
}
