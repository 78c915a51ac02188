import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("Stores have Core Data's layout")
struct StoreSchemaTests {
    @Test("the store holds exactly the layout's tables and indexes", arguments: StoreKind.allCases)
    func schema(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RecordsModel.model)
        defer { store.cleanUp() }
        #expect(
            try StoreInspection.schema(of: store.container) == StoreInspection.layoutStatements(of: store.container))
    }

    @Test("Z_PRIMARYKEY numbers entities and keeps Z_MAX across reopening")
    func primaryKeys() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        #expect(
            try StoreInspection.primaryKeyRows(of: store.container) == [
                "1|BusinessEntity|0|0", "2|DepartmentEntity|0|0", "3|EmployeeEntity|0|0",
            ])
        for _ in 0..<3 { _ = BusinessEntity(context: store.context) }
        try store.context.save()
        #expect(try StoreInspection.primaryKeyRows(of: store.container)[0] == "1|BusinessEntity|0|3")
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        let fourth = BusinessEntity(context: reopened.viewContext)
        #expect(fourth.objectID.primaryKey == 4)
        try reopened.viewContext.save()
        #expect(try reopened.viewContext.count(for: BusinessEntity.fetchRequest()) == 4)
    }
}
