import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

@Suite("A failed save changes nothing")
struct SaveAtomicityTests {
    static let strictModel = ManagedObjectModel(
        name: "Strict",
        entities: [
            EntityDescription(
                name: "Account", objectType: ManagedObject.self,
                attributes: [
                    AttributeDescription(name: "name", type: .string, isOptional: false, minValue: 2, maxValue: 10),
                    AttributeDescription(
                        name: "balance", type: .integer64, isOptional: false, defaultValue: .integer(0), minValue: 0),
                    AttributeDescription(name: "opened", type: .date),
                ],
                uniquenessConstraints: [["name"]])
        ])

    @Test("validation failures are all reported; store and context are untouched", arguments: StoreKind.allCases)
    func failedSave(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.strictModel)
        defer { store.cleanUp() }
        let context = store.context
        let first = try context.insertNewObject(forEntityName: "Account")
        first.setValue("alpha", for: "name")
        try context.save()
        let before = store.fileBytes()

        first.setValue(Int64(5), for: "balance")
        let bad = try context.insertNewObject(forEntityName: "Account")
        bad.setValue("x", for: "name")
        bad.setValue(Int64(-1), for: "balance")
        let duplicate = try context.insertNewObject(forEntityName: "Account")
        duplicate.setValue("alpha", for: "name")
        let missing = try context.insertNewObject(forEntityName: "Account")
        _ = missing

        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            let rules = error.failures.map { "\($0.property):\($0.rule.rawValue)" }
            return Set(rules) == [
                "name:tooShort", "balance:valueTooSmall", "name:uniquenessViolation", "name:missingValue",
            ]
        }
        #expect(store.fileBytes() == before)
        #expect(context.hasChanges)
        #expect(context.insertedObjects.count == 3)
        #expect(context.updatedObjects == [first])
        #expect(first.value(for: "balance") == Int64(5))

        let other = try store.reopened()
        #expect(try other.count(for: FetchRequest<ManagedObject>(entityName: "Account")) == 1)

        // Fixing the objects makes the same save succeed.
        bad.setValue("bravo", for: "name")
        bad.setValue(Int64(1), for: "balance")
        duplicate.setValue("charlie", for: "name")
        context.delete(missing)
        try context.save()
        #expect(try store.reopened().count(for: FetchRequest<ManagedObject>(entityName: "Account")) == 3)
    }

    @Test("rollback restores saved values and forgets insertions", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let rnd = DepartmentEntity(context: context)
        acme.addToDepartments(rnd)
        try context.save()

        acme.name = "Changed"
        let globex = BusinessEntity(context: context)
        globex.addToDepartments(rnd)
        acme.removeFromDepartments(rnd)
        context.rollback()
        #expect(acme.name == "Acme")
        #expect(acme.departments == [rnd])
        #expect(rnd.businesses == [acme])
        #expect(globex.context == nil)
        #expect(!context.hasChanges)
        #expect(try context.count(for: BusinessEntity.fetchRequest()) == 1)
    }
}
