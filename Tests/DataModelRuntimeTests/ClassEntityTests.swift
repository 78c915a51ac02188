import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// A class no model names.
private final class StrayRecord: ManagedObject {}
/// A class two hand-made models share.
private final class SharedRecord: ManagedObject {}

@Suite("Entity.entity(): a class's entity, as Core Data's")
struct ClassEntityTests {
    @Test("a generated class finds its entity, which knows its model")
    func generatedClass() throws {
        let entity = EmployeeEntity.entity()
        #expect(entity.name == "EmployeeEntity")
        #expect(entity.objectType == EmployeeEntity.self)
        #expect(DepartmentEntity.entity().name == "DepartmentEntity")
        #expect(EmployeeEntity.entityIfKnown()?.name == "EmployeeEntity")
        // It makes objects as Core Data's `init(entity:insertInto:)` does.
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        defer { store.cleanUp() }
        let employee = EmployeeEntity(entity: entity, insertInto: store.context)
        #expect(employee.isInserted)
        #expect(try store.context.fetch(EmployeeEntity.fetchRequest()).count == 1)
    }

    @Test("a class no model names has no entity")
    func unknownClass() {
        #expect(StrayRecord.entityIfKnown() == nil)
    }

    @Test("a registered model is found, and a class two models share is ambiguous")
    func registeredModels() {
        let name = "ClassEntityTests-\(UUID().uuidString)"
        let first = ManagedObjectModel(
            name: name,
            entities: [EntityDescription(name: "Shared", objectType: SharedRecord.self, attributes: [])])
        ManagedObjectModel.register(first)
        #expect(SharedRecord.entityIfKnown()?.name == "Shared")
        let second = ManagedObjectModel(
            name: name + "-other",
            entities: [EntityDescription(name: "AlsoShared", objectType: SharedRecord.self, attributes: [])])
        ManagedObjectModel.register(second)
        #expect(SharedRecord.entityIfKnown() == nil)
    }
}
