import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("DESIGN.md section 6, as written")
struct DesignContractTests {
    @Test("the contract's example runs", arguments: StoreKind.allCases)
    func example(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let container = store.container
        let context = container.viewContext
        let acme = BusinessEntity(context: context); acme.name = "Acme"
        let rnd = DepartmentEntity(context: context); rnd.name = "R&D"
        acme.addToDepartments(rnd)  // rnd.businesses now contains acme (inverse kept)
        #expect(rnd.businesses.contains(acme))
        try context.save()  // one transaction; validation first
        let found = try context.fetch(
            BusinessEntity.fetchRequest()
                .filtered(by: #Predicate { $0.name == "Acme" })
                .sorted(by: [SortDescriptor(\.name)]))
        #expect(found == [acme])
        let n = try context.count(for: EmployeeEntity.fetchRequest())
        #expect(n == 0)
        context.delete(acme)  // delete rules: nullify / cascade / deny / no action
        try context.save()
        #expect(rnd.businesses.isEmpty)
        #expect(try context.count(for: BusinessEntity.fetchRequest()) == 0)
    }

    @Test("predicates see unsaved changes and combine with sorting and windows", arguments: StoreKind.allCases)
    func predicates(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (name, age) in [("Ann", 50), ("Ben", 20), ("Cy", 35), ("Di", 41)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = Int16(age)
        }
        try context.save()
        let ben = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching(\.name, equals: "Ben")).first)
        ben.age = 60
        let senior = EmployeeEntity.fetchRequest()
            .filtered(by: #Predicate { ($0.age ?? 0) > 40 })
            .sorted(by: [SortDescriptor(\.age, order: .reverse)])
        #expect(try context.fetch(senior).map(\.name) == ["Ben", "Ann", "Di"])
        #expect(try context.fetch(senior.offset(by: 1).limited(to: 1)).map(\.name) == ["Ann"])
        #expect(try context.count(for: senior) == 3)
        #expect(try store.reopened().count(for: senior) == 2)
    }
}
