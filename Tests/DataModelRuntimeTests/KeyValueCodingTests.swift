import DataModelRuntime
import Foundation
import Testing

/// Core Data's dynamic `value(forKey:)` / `setValue(_:forKey:)`, and the throwing variants tools use.
@Suite("Dynamic access by key")
struct KeyValueCodingTests {
    static let model = ManagedObjectModel(
        name: "Shelter",
        entities: [
            EntityDescription(
                name: "Person", objectType: ManagedObject.self,
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "age", type: .integer16),
                    AttributeDescription(name: "score", type: .double),
                    AttributeDescription(name: "born", type: .date),
                ],
                relationships: [
                    RelationshipDescription(
                        name: "pets", destinationEntityName: "Pet", inverseName: "owner", isToMany: true,
                        isOrdered: true)
                ]),
            EntityDescription(
                name: "Pet", objectType: ManagedObject.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(name: "owner", destinationEntityName: "Person", inverseName: "pets")
                ]),
        ])

    @Test func attributesAndRelationshipsByKey() throws {
        let store = try TestStore(.sqlite, model: Self.model)
        defer { store.cleanUp() }
        let context = store.context
        let ann = try context.insertNewObject(forEntityName: "Person")
        ann.setValue("Ann", forKey: "name")
        ann.setValue(42, forKey: "age")  // an Int literal fits Int16
        ann.setValue(3, forKey: "score")
        ann.setValue(Date(timeIntervalSinceReferenceDate: 10), forKey: "born")
        let rex = try context.insertNewObject(forEntityName: "Pet")
        rex.setValue("Rex", forKey: "name")
        rex.setValue(ann, forKey: "owner")
        try context.save()

        let reopened = try store.reopened()
        let person = try #require(try reopened.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first)
        #expect(person.value(forKey: "name") as? String == "Ann")
        #expect(person.value(forKey: "age") as? Int16 == 42)
        #expect(person.value(forKey: "score") as? Double == 3)
        #expect(person.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: 10))
        let pets = try #require(person.value(forKey: "pets") as? [ManagedObject])
        #expect(pets.map { $0.value(forKey: "name") as? String } == ["Rex"])
        #expect((pets.first?.value(forKey: "owner") as? ManagedObject) === person)
        person.setValue(nil, forKey: "name")
        #expect(person.value(forKey: "name") == nil)
        person.setValue([ManagedObject](), forKey: "pets")
        #expect((person.value(forKey: "pets") as? [ManagedObject])?.isEmpty == true)
    }

    @Test func anUnknownKeyOrAWrongTypeNeverPassesSilently() throws {
        let store = try TestStore(.inMemory, model: Self.model)
        defer { store.cleanUp() }
        let person = try store.context.insertNewObject(forEntityName: "Person")
        let pet = try store.context.insertNewObject(forEntityName: "Pet")
        #expect(throws: KeyValueError.unknownKey(entity: "Person", key: "nmae")) {
            try person.setCheckedValue("Ann", forKey: "nmae")
        }
        #expect(throws: KeyValueError.unknownKey(entity: "Person", key: "nmae")) {
            _ = try person.checkedValue(forKey: "nmae")
        }
        #expect(throws: KeyValueError.wrongType(entity: "Person", key: "name", expected: "String", got: "Int")) {
            try person.setCheckedValue(42, forKey: "name")
        }
        #expect(throws: KeyValueError.self) { try person.setCheckedValue(70_000, forKey: "age") }  // not an Int16
        #expect(throws: KeyValueError.self) { try person.setCheckedValue(true, forKey: "age") }
        #expect(throws: KeyValueError.self) { try pet.setCheckedValue(pet, forKey: "owner") }  // a Pet is no Person
        #expect(person.value(forKey: "name") == nil, "a refused value changes nothing")
        let error = KeyValueError.unknownKey(entity: "Person", key: "nmae")
        #expect((error as any Error).localizedDescription == "Person has no attribute or relationship 'nmae'")
    }

    /// As Core Data raises, the non-throwing spelling stops the program on a typo.
    @Test func aTypoStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let container = try PersistentContainer(model: KeyValueCodingTests.model)
            let person = try container.viewContext.insertNewObject(forEntityName: "Person")
            person.setValue("Ann", forKey: "nmae")
        }
    }
}
