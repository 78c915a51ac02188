import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Core Data's `reset()` and `object(with:)`.
@Suite("Context reset and objects by ID")
struct ContextResetTests {
    @Test func resetForgetsEveryObjectAndEveryChange() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        try context.save()
        acme.name = "Changed"
        let unsaved = BusinessEntity(context: context)
        unsaved.name = "Unsaved"
        context.reset()
        #expect(!context.hasChanges)
        #expect(context.registeredObjects.isEmpty)
        #expect(acme.managedObjectContext == nil && unsaved.managedObjectContext == nil)
        let fetched = try context.fetch(BusinessEntity.fetchRequest())
        #expect(fetched.map(\.name) == ["Acme"], "the saved state, not the discarded change")
        #expect(fetched.first !== acme, "a fresh object")
    }

    @Test func objectWithIDIsTheRegisteredObjectOrAFault() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let acme = BusinessEntity(context: store.context)
        acme.name = "Acme"
        try store.context.save()
        #expect(store.context.object(with: acme.objectID) === acme)
        let other = try store.reopened()
        let fault = try #require(other.object(with: acme.objectID) as? BusinessEntity)
        #expect(fault.name == "Acme", "loads its row when used")
        #expect(try other.existingObject(with: acme.objectID) === fault)
    }

    /// A fault for a row that no longer exists reads as empty instead of trapping.
    @Test func aFaultForAMissingRowReadsEmpty() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let acme = BusinessEntity(context: store.context)
        acme.name = "Acme"
        try store.context.save()
        let other = try store.reopened()
        store.context.delete(acme)
        try store.context.save()
        let fault = try #require(other.object(with: acme.objectID) as? BusinessEntity)
        #expect(fault.name == nil)
        #expect(throws: StoreError.objectNotFound(acme.objectID)) {
            try store.context.existingObject(with: acme.objectID)
        }
    }
}

/// An attribute named `id` keeps its name, as in Xcode's codegen; `Identifiable` still identifies the object
/// (the standard library's default for classes, as `NSManagedObject`'s).
@Suite("An attribute named id")
struct IDAttributeTests {
    static func identity<T: Identifiable>(_ value: T) -> T.ID { value.id }

    @Test func theAttributeIsIDAndObjectsStayIdentifiable() throws {
        let store = try TestStore(.sqlite, model: PersonModel.model)
        defer { store.cleanUp() }
        let person = Person(context: store.context)
        person.id = "p-1"
        try store.context.save()
        let fetched = try #require(
            try store.reopened().fetch(Person.fetchRequest().filtered(by: #Predicate { $0.id == "p-1" })).first)
        #expect(fetched.id == "p-1")
        #expect(Self.identity(person) == ObjectIdentifier(person))
    }
}
