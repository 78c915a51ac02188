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
        // Keys are reserved in blocks: Z_MAX is past every key handed out, for other containers.
        let reserved = try StoreInspection.primaryKeyRows(of: store.container)[0]
        #expect(reserved.hasPrefix("1|BusinessEntity|0|"))
        #expect((Int(reserved.split(separator: "|")[3]) ?? 0) >= 3)
        // A second container on the same file allocates above the first one's reservation.
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        let fourth = BusinessEntity(context: reopened.viewContext)
        #expect(fourth.objectID.primaryKey > 3)
        try reopened.viewContext.save()
        let more = BusinessEntity(context: store.context)
        try store.context.save()
        #expect(more.objectID.primaryKey != fourth.objectID.primaryKey)
        #expect(try reopened.viewContext.count(for: BusinessEntity.fetchRequest()) == 5)
    }

    @Test("a closed container hands back its unused keys: the next open continues after the last one")
    func keysHandedBack() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        do {
            let container = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
            for _ in 0..<3 { _ = BusinessEntity(context: container.viewContext) }
            try container.viewContext.save()
        }
        let reopened = try PersistentContainer(model: CompanyModel.model, store: .sqlite(at: store.url))
        #expect(try StoreInspection.primaryKeyRows(of: reopened)[0] == "1|BusinessEntity|0|3")
        #expect(BusinessEntity(context: reopened.viewContext).objectID.primaryKey == 4)
    }
}
