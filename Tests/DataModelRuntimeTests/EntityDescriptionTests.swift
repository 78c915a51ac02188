import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Core Data's entity access from a context: `context.model`, `entitiesByName`, `entity(forName:)`,
/// `NSEntityDescription`'s class methods, `init(entity:insertInto:)` and `object.entity`.
@Suite("Entity descriptions")
struct EntityDescriptionTests {
    @Test func theContextsModelDescribesEveryEntity() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        let context = store.context
        #expect(context.model.name == "Company")
        #expect(context.persistentStoreCoordinator?.managedObjectModel.name == "Company")
        let byName = context.model.entitiesByName
        #expect(byName.keys.sorted() == ["BusinessEntity", "DepartmentEntity", "EmployeeEntity"])
        let employee = try #require(context.model.entity(forName: "EmployeeEntity"))
        #expect(employee.name == "EmployeeEntity")
        #expect(employee.objectType == EmployeeEntity.self)
        #expect(!employee.isAbstract)
        #expect(employee.superentity == nil)
        #expect(employee.subentities.isEmpty)
        let age = try #require(employee.attributesByName["age"])
        #expect(age.type == .integer16)
        #expect(age.isOptional)
        #expect(age.defaultValue == .integer(0))
        #expect(employee.attributesByName.keys.sorted() == ["age", "dateJoined", "name"])
        let department = try #require(employee.relationshipsByName["department"])
        #expect(department.destinationEntityName == "DepartmentEntity")
        #expect(department.destinationEntity(in: context.model)?.name == "DepartmentEntity")
        #expect(department.inverseName == "employees")
        #expect(!department.isToMany)
        let employees = try #require(byName["DepartmentEntity"]?.relationshipsByName["employees"])
        #expect(employees.isToMany)
        #expect(!employees.isOrdered)
        #expect(employees.deleteRule == .deny)
        #expect(byName["BusinessEntity"]?.relationshipsByName["employees"]?.deleteRule == .cascade)
        #expect(context.model.entity(forName: "Nothing") == nil)
        #expect(EntityDescription.entity(forEntityName: "Nothing", in: context) == nil)
    }

    @Test func hierarchiesAndInheritedProperties() throws {
        let store = try TestStore(.inMemory, model: NotebookModel.model)
        let context = store.context
        let checklist = try #require(EntityDescription.entity(forEntityName: "ChecklistNote", in: context))
        #expect(checklist.superentity?.name == "Note")
        #expect(checklist.attributesByName.keys.sorted() == ["itemCount", "pinned", "text"])
        #expect(checklist.relationshipsByName.keys.sorted() == ["notebook", "tags"])
        #expect(checklist.relationshipsByName["tags"]?.isOrdered == true)
        let note = try #require(checklist.superentity)
        #expect(note.subentities.map(\.name) == ["ChecklistNote"])
        #expect(note.attributesByName.keys.sorted() == ["pinned", "text"])
        #expect(checklist.isKindOf(entity: note))
        #expect(!note.isKindOf(entity: checklist))

        // Objects know their entity, connected to the model.
        let object = ChecklistNote(context: context)
        #expect(object.entity.name == "ChecklistNote")
        #expect(object.entity.superentity?.name == "Note")
        #expect(object.entity.attributesByName["pinned"]?.defaultValue == .boolean(false))
    }

    @Test func initEntityInsertIntoMakesAnObjectOfTheEntity() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        let context = store.context
        let entity = try #require(EntityDescription.entity(forEntityName: "BusinessEntity", in: context))
        let acme = BusinessEntity(entity: entity, insertInto: context)
        acme.name = "Acme"
        #expect(acme.isInserted)
        #expect(context.insertedObjects == [acme])
        let made = EntityDescription.insertNewObject(forEntityName: "EmployeeEntity", into: context)
        #expect(made is EmployeeEntity)
        #expect((made as? EmployeeEntity)?.age == 0)
        try context.save()
        #expect(try context.count(for: BusinessEntity.fetchRequest()) == 1)
        #expect(try context.count(for: EmployeeEntity.fetchRequest()) == 1)
    }

    /// As Core Data raises, misuses stop the program (each with a message saying what to do instead).
    @Test func misusesStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: CompanyModel.model).viewContext
            _ = EntityDescription.insertNewObject(forEntityName: "Employee", into: context)
        }
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: CompanyModel.model).viewContext
            guard let entity = EntityDescription.entity(forEntityName: "EmployeeEntity", in: context) else { return }
            _ = BusinessEntity(entity: entity, insertInto: context)  // the class of another entity
        }
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: NotebookModel.model).viewContext
            _ = ManagedObject(context: context)  // the generic class names no entity
        }
        await #expect(processExitsWith: .failure) {
            _ = PersistentContainer(name: "Company").viewContext  // not loaded
        }
    }
}
