import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Docs/ComingFromCoreData.md's tutorial, the DataModelRuntime side, as written there (plus one line that keeps the
/// store in memory instead of a file in the default directory).
@Suite("Coming from Core Data: the tutorial")
struct ComingFromCoreDataGuideTests {
    @Test func tutorialRuns() throws {
        let container = PersistentContainer(name: "Company")
        container.persistentStoreDescriptions.first?.url = URL(fileURLWithPath: "/dev/null")
        container.loadPersistentStores { _, error in
            if let error { fatalError("\(error)") }
        }
        let context = container.viewContext

        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let rnd = DepartmentEntity(context: context)
        rnd.name = "R&D"
        acme.addToDepartments(rnd)
        try context.save()

        let request = BusinessEntity.fetchRequest()
        request.predicate = ManagedPredicate(format: "name == %@", "Acme")
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        let found = try context.fetch(request)

        var delete = BatchDeleteRequest(fetchRequest: DepartmentEntity.fetchRequest())
        delete.resultType = .count
        let result = try context.execute(delete)
        print(result.result as? Int ?? 0)

        #expect(found == [acme])
        #expect(result.result as? Int == 1)
        #expect(try context.count(for: DepartmentEntity.fetchRequest()) == 0)
    }
}
