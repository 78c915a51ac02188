import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("Company: businesses, departments, employees")
struct CompanyFlowTests {
    @Test("add, relate, save, read back through inverses", arguments: StoreKind.allCases)
    func flow(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context

        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let globex = BusinessEntity(context: context)
        globex.name = "Globex"
        let rnd = DepartmentEntity(context: context)
        rnd.name = "R&D"
        let sales = DepartmentEntity(context: context)
        sales.name = "Sales"
        acme.addToDepartments(rnd)
        acme.addToDepartments([sales])
        globex.addToDepartments(rnd)
        #expect(rnd.businesses == [acme, globex])
        #expect(sales.businesses == [acme])

        let ada = EmployeeEntity(context: context)
        ada.name = "Ada"
        ada.age = 36
        ada.dateJoined = Date(timeIntervalSinceReferenceDate: 1000)
        ada.business = acme
        ada.department = rnd
        #expect(acme.employees == [ada])
        #expect(rnd.employees == [ada])
        #expect(context.hasChanges)
        #expect(context.insertedObjects.count == 5)

        try context.save()
        #expect(!context.hasChanges)
        #expect(!acme.isInserted)

        let other = try store.reopened()
        let businesses = try other.fetch(BusinessEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(businesses.map(\.name) == ["Acme", "Globex"])
        let readAcme = try #require(businesses.first)
        #expect(readAcme !== acme)
        #expect(Set(readAcme.departments.compactMap(\.name)) == ["R&D", "Sales"])
        let readAda = try #require(readAcme.employees.first)
        #expect(readAda.name == "Ada")
        #expect(readAda.age == 36)
        #expect(readAda.dateJoined == Date(timeIntervalSinceReferenceDate: 1000))
        #expect(readAda.business === readAcme)
        #expect(readAda.department?.name == "R&D")
        #expect(Set(readAda.department?.businesses.compactMap(\.name) ?? []) == ["Acme", "Globex"])
        #expect(try other.count(for: EmployeeEntity.fetchRequest()) == 1)
        #expect(try other.count(for: DepartmentEntity.fetchRequest()) == 2)
    }

    @Test("one object per row per context", arguments: StoreKind.allCases)
    func identityMap(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let acme = BusinessEntity(context: store.context)
        acme.name = "Acme"
        try store.context.save()
        let first = try store.context.fetch(BusinessEntity.fetchRequest())
        #expect(first.count == 1 && first[0] === acme)
        #expect(try store.context.existingObject(with: acme.objectID) === acme)
        let other = try store.reopened()
        let found = try other.existingObject(with: acme.objectID)
        #expect(found !== acme)
        #expect(try other.existingObject(with: acme.objectID) === found)
        #expect((found as? BusinessEntity)?.name == "Acme")
    }

    @Test("fetch sorts, limits, offsets and includes unsaved objects", arguments: StoreKind.allCases)
    func fetching(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (name, age) in [("Cy", 40), ("Al", 30), ("Bo", 50), ("Di", 20)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = Int16(age)
        }
        // Unsaved: sorted in memory.
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age, order: .reverse)])
        #expect(try context.fetch(request).map(\.name) == ["Bo", "Cy", "Al", "Di"])
        try context.save()
        // Saved: sorted, limited and offset by SQLite.
        request.fetchLimit = 2
        request.fetchOffset = 1
        #expect(try context.fetch(request).map(\.name) == ["Cy", "Al"])
        #expect(try context.count(for: request) == 2)
        let byName = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        #expect(try store.reopened().fetch(byName).map(\.name) == ["Al", "Bo", "Cy", "Di"])
        // A pending insertion and deletion count before saving.
        let ed = EmployeeEntity(context: context)
        ed.name = "Ed"
        let first = try #require(try context.fetch(byName).first)
        context.delete(first)
        #expect(try context.count(for: EmployeeEntity.fetchRequest()) == 4)
        #expect(try context.fetch(byName).map(\.name) == ["Bo", "Cy", "Di", "Ed"])
    }

    @Test("updates bump Z_OPT and are written", arguments: StoreKind.allCases)
    func updates(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        try context.save()
        #expect(!acme.isUpdated)
        acme.name = "Acme Corp"
        #expect(acme.isUpdated)
        #expect(context.updatedObjects == [acme])
        try context.save()
        let other = try store.reopened()
        let read = try #require(try other.fetch(BusinessEntity.fetchRequest()).first)
        #expect(read.name == "Acme Corp")
        #expect(try StoreInspection.version(of: read) == 2)
    }

    @Test("a store written by another model is refused")
    func modelMismatch() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = BusinessEntity(context: store.context)
        try store.context.save()
        let other = ManagedObjectModel(
            name: "Other",
            entities: [
                EntityDescription(
                    name: "BusinessEntity", objectType: BusinessEntity.self,
                    attributes: [
                        AttributeDescription(name: "title", type: .string)
                    ])
            ])
        #expect {
            _ = try PersistentContainer(model: other, store: .sqlite(at: store.url))
        } throws: { error in
            guard case StoreError.modelMismatch(_, let differences)? = error as? StoreError else { return false }
            return differences.contains { $0.contains("ZBUSINESSENTITY") }
        }
        // The same model opens it again.
        _ = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
    }

    @Test("equality conditions: find-or-create without duplicates, saved and unsaved", arguments: StoreKind.allCases)
    func matching(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        func business(named name: String) throws -> BusinessEntity {
            if let found = try context.fetch(BusinessEntity.fetchRequest().matching(\.name, equals: name)).first {
                return found
            }
            let created = BusinessEntity(context: context)
            created.name = name
            return created
        }
        let acme = try business(named: "Acme")
        #expect(try business(named: "Acme") === acme)  // unsaved: found in memory
        try context.save()
        #expect(try business(named: "Acme") === acme)  // saved: found by SQL
        _ = try business(named: "Globex")
        #expect(try context.count(for: BusinessEntity.fetchRequest()) == 2)

        let ada = EmployeeEntity(context: context)
        ada.name = "Ada"
        ada.age = 36
        ada.business = acme
        let bob = EmployeeEntity(context: context)
        bob.name = "Bob"
        bob.business = acme
        try context.save()

        let other = try store.reopened()
        let readAcme = try #require(
            try other.fetch(BusinessEntity.fetchRequest().matching("name", equals: "Acme")).first)
        #expect(try other.count(for: EmployeeEntity.fetchRequest().matching(\.business, equals: readAcme)) == 2)
        #expect(
            try other.fetch(EmployeeEntity.fetchRequest().matching(\.age, equals: Int16(36))).map(\.name) == ["Ada"])
        #expect(try other.count(for: EmployeeEntity.fetchRequest().matching(\.dateJoined, equals: nil)) == 2)
        // An unsaved rename is seen by the next fetch and count.
        let readBob = try #require(try other.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Bob")).first)
        readBob.name = "Robert"
        #expect(try other.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Bob")).isEmpty)
        #expect(try other.count(for: EmployeeEntity.fetchRequest().matching(\.name, equals: "Robert")) == 1)
        #expect(throws: StoreError.self) {
            try other.fetch(EmployeeEntity.fetchRequest().matching("salary", equals: 1))
        }
    }
}
