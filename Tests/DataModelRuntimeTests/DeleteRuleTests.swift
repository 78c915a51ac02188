import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("Delete rules")
struct DeleteRuleTests {
    @Test("Cascade deletes destinations; Nullify removes the object from inverses", arguments: StoreKind.allCases)
    func cascadeAndNullify(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let acme = BusinessEntity(context: context)
        let rnd = DepartmentEntity(context: context)
        acme.addToDepartments(rnd)
        let ada = EmployeeEntity(context: context)
        ada.business = acme
        try context.save()

        context.delete(acme)
        #expect(acme.isDeleted)
        #expect(ada.isDeleted)  // Business.employees: Cascade
        #expect(rnd.businesses.isEmpty)  // Business.departments: Nullify
        #expect(context.deletedObjects == [acme, ada])
        try context.save()

        let other = try store.reopened()
        #expect(try other.count(for: BusinessEntity.fetchRequest()) == 0)
        #expect(try other.count(for: EmployeeEntity.fetchRequest()) == 0)
        let readRnd = try #require(try other.fetch(DepartmentEntity.fetchRequest()).first)
        #expect(readRnd.businesses.isEmpty)
    }

    @Test(
        "Deny fails the save, naming the relationship, until the destinations are gone", arguments: StoreKind.allCases)
    func deny(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let rnd = DepartmentEntity(context: context)
        let ada = EmployeeEntity(context: context)
        ada.department = rnd
        try context.save()

        context.delete(rnd)
        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.failures.map(\.rule) == [.deleteDenied] && error.failures[0].property == "employees"
                && error.failures[0].entityName == "DepartmentEntity"
        }
        #expect(rnd.isDeleted)
        context.delete(ada)
        try context.save()
        #expect(try store.reopened().count(for: DepartmentEntity.fetchRequest()) == 0)
    }

    @Test("No Action leaves the inverse pointing at the deleted object")
    func noAction() throws {
        let model = ManagedObjectModel(
            name: "Tags",
            entities: [
                EntityDescription(
                    name: "Note", objectType: ManagedObject.self,
                    relationships: [
                        RelationshipDescription(name: "tag", destinationEntityName: "Tag", inverseName: "notes")
                    ]),
                EntityDescription(
                    name: "Tag", objectType: ManagedObject.self,
                    relationships: [
                        RelationshipDescription(
                            name: "notes", destinationEntityName: "Note", inverseName: "tag", isToMany: true,
                            deleteRule: .noAction)
                    ]),
            ])
        let container = try PersistentContainer(model: model, store: .inMemory)
        let context = container.viewContext
        let note = try context.insertNewObject(forEntityName: "Note")
        let tag = try context.insertNewObject(forEntityName: "Tag")
        note.setToOne(tag, for: "tag")
        try context.save()
        context.delete(tag)
        #expect(!note.isUpdated)
        #expect(note.toOne(for: "tag") as ManagedObject? === tag)
        try context.save()
    }

    @Test("deleting an unsaved object leaves nothing to save")
    func deleteInserted() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let acme = BusinessEntity(context: context)
        context.delete(acme)
        #expect(context.insertedObjects.isEmpty)
        #expect(context.deletedObjects.isEmpty)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.count(for: BusinessEntity.fetchRequest()) == 0)
    }
}
