import Foundation
import GeneratedCompanyModel
import Observation
import Testing

@testable import DataModelRuntime

/// Fetched rows kept in the generated class's fields (`ManagedObject+Fields.swift`): the properties read them, and
/// the first use of the values turns them into exactly the values the runtime's own decoding makes of the row.
@Suite("Fetched rows in fields")
struct FieldTests {
    /// Employees with every kind of value and `nil`, saved; a second context on the same store.
    private static func savedCompany(_ store: TestStore) throws -> ManagedObjectContext {
        let context = store.context
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let department = DepartmentEntity(context: context)
        department.name = "R&D"
        for index in 0..<6 {
            let employee = EmployeeEntity(context: context)
            employee.name = index == 3 ? nil : "Employee \(index) with a name longer than fifteen bytes é"
            employee.age = index == 4 ? nil : Int16(20 + index)
            employee.dateJoined = index == 2 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 1000.5)
            employee.business = index == 5 ? nil : acme
            employee.department = index % 2 == 0 ? department : nil
        }
        try context.save()
        return try store.reopened()
    }

    /// Each attribute and relationship value `object` holds, as the runtime keeps them.
    private static func values(of object: ManagedObject) -> ([PrimitiveValue], [RelationshipValue]) {
        let values = object.values
        return (
            values.attributeIndices.map { values[attribute: $0] },
            values.relationshipIndices.map { values[relationship: $0] }
        )
    }

    @Test(
        "a fetch reads rows into fields; the properties read them; values made from them are the row's",
        arguments: StoreKind.allCases)
    func fetchedObjectsHoldFields(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = try Self.savedCompany(store)
        #expect(context.entity(for: EmployeeEntity.self)?.fieldColumns != nil)
        let employees = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.dateJoined)]))
        #expect(employees.count == 6)
        for employee in employees {
            #expect(employee.holdsFields)
            #expect(!employee.isFault)
            let read = (employee.name, employee.age, employee.dateJoined, employee.business, employee.department)
            #expect(employee.holdsFields, "reading properties keeps the fields")
            // The values made from the fields against the values the runtime's own decoding reads from the row.
            let row = try #require(try context.storedRow(of: employee))
            let made = Self.values(of: employee)
            #expect(!employee.holdsFields)
            #expect(made.0 == row.values.attributeIndices.map { row.values[attribute: $0] })
            #expect(made.1 == row.values.relationshipIndices.map { row.values[relationship: $0] })
            // The properties read the values now, and give what they gave from the fields.
            #expect(employee.name == read.0)
            #expect(employee.age == read.1)
            #expect(employee.dateJoined == read.2)
            #expect(employee.business === read.3)
            #expect(employee.department === read.4)
            #expect(!employee.hasChanges)
        }
        let named = employees.filter { $0.name != nil }
        #expect(named.count == 5)
        #expect(employees.filter { $0.business?.name == "Acme" }.count == 5)
        #expect(employees.filter { $0.department?.name == "R&D" }.count == 3)
    }

    @Test("a row SQLite stores in another class than the column's reads as the runtime's decoding reads it")
    func unusualStorageClasses() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = try Self.savedCompany(store)
        let cases = [
            #"UPDATE ZEMPLOYEEENTITY SET ZAGE = 3.75 WHERE Z_PK = 1"#,  // a real in an integer column
            #"UPDATE ZEMPLOYEEENTITY SET ZAGE = 70000 WHERE Z_PK = 2"#,  // out of Int16's range
            #"UPDATE ZEMPLOYEEENTITY SET ZAGE = 'abc', ZNAME = 42 WHERE Z_PK = 3"#,  // text in integer, integer in text
            // An empty blob in a text column, text in a real column.
            #"UPDATE ZEMPLOYEEENTITY SET ZNAME = X'', ZDATEJOINED = 'soon' WHERE Z_PK = 4"#,
            #"UPDATE ZEMPLOYEEENTITY SET ZAGE = 9223372036854775807, ZDATEJOINED = 12 WHERE Z_PK = 5"#,
        ]
        for sql in cases { try StoreInspection.execute(sql, on: store.container) }
        let fresh = try store.reopened()
        let employees = try fresh.fetch(EmployeeEntity.fetchRequest())
        #expect(employees.count == 6)
        for employee in employees {
            #expect(employee.holdsFields)
            let read = (employee.name, employee.age, employee.dateJoined)
            let row = try #require(try fresh.storedRow(of: employee))
            let made = Self.values(of: employee)
            #expect(made.0 == row.values.attributeIndices.map { row.values[attribute: $0] }, "\(employee.objectID)")
            #expect(employee.name == read.0)
            #expect(employee.age == read.1)
            #expect(employee.dateJoined == read.2)
        }
        _ = context
    }

    @Test(
        "the first change turns the fields into values: changes, saves and rollback as before",
        arguments: StoreKind.allCases)
    func changesAfterFetch(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = try Self.savedCompany(store)
        let employees = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.dateJoined)]))
        let first = try #require(employees.first { $0.name != nil && $0.age != nil })
        let oldName = first.name
        first.age = 99
        #expect(!first.holdsFields)
        #expect(first.isUpdated)
        #expect(first.changedValues().keys.sorted() == ["age"])
        #expect(first.committedValues(forKeys: ["name"])["name"] as? String == oldName)
        #expect(first.name == oldName)
        context.rollback()
        #expect(first.age != 99)
        #expect(!first.hasChanges)
        first.name = "Renamed"
        try context.save()
        let again = try store.reopened()
        let reread = try again.fetch(EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.name == "Renamed" }))
        #expect(reread.count == 1)
        #expect(reread.first?.age == first.age)
        #expect(reread.first?.holdsFields == true)
    }

    @Test("an object holding fields sees other contexts' saves, and tells its observers", arguments: StoreKind.allCases)
    func mergesAndObservation(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try Self.savedCompany(store)
        let reader = store.container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let writer = store.container.newBackgroundContext()
        let employee = try #require(
            try reader.fetch(EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.age == 20 })).first)
        #expect(employee.holdsFields)
        let changed = Flag()
        withObservationTracking {
            _ = employee.name
        } onChange: {
            changed.set()
        }
        let same = try #require(try writer.existingObject(with: employee.objectID) as? EmployeeEntity)
        same.name = "Changed elsewhere"
        try writer.save()
        #expect(employee.name == "Changed elsewhere")
        #expect(changed.isSet)
        reader.refresh(employee, mergeChanges: false)
        #expect(employee.isFault)
        #expect(employee.name == "Changed elsewhere")
    }

    @Test(
        "a merged deletion clears the to-ones naming it; objects that cannot name it keep their fields",
        arguments: StoreKind.allCases)
    func mergedDeletions(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try Self.savedCompany(store)
        let reader = store.container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let writer = store.container.newBackgroundContext()
        let employees = try reader.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.dateJoined)]))
        #expect(employees.allSatisfy { $0.holdsFields })
        // An employee deleted elsewhere: no employee's to-one leads to employees, so the others keep their fields.
        let gone = try #require(employees.first { $0.department == nil && $0.business != nil })
        writer.delete(try #require(try writer.existingObject(with: gone.objectID)))
        try writer.save()
        _ = try reader.fetch(DepartmentEntity.fetchRequest())
        #expect(gone.isInvalid)
        let kept = employees.filter { $0 !== gone }
        #expect(kept.allSatisfy { $0.holdsFields })
        // The department deleted elsewhere: the employees that named it name nothing now.
        let department = try #require(kept.lazy.compactMap(\.department).first)
        let members = kept.filter { $0.department === department }
        #expect(members.count == 3)
        let writerDepartment = try #require(try writer.existingObject(with: department.objectID) as? DepartmentEntity)
        for member in writerDepartment.employees { member.department = nil }
        writer.delete(writerDepartment)
        try writer.save()
        _ = try reader.fetch(DepartmentEntity.fetchRequest())
        #expect(members.allSatisfy { $0.department == nil })
        #expect(kept.allSatisfy { !$0.hasChanges })
    }

    @Test("a layout that does not fit the entity's storage gets no fields")
    func layoutsThatDoNotFit() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let entity = try #require(container.viewContext.entity(for: EmployeeEntity.self))
        func columns(_ layout: FieldLayout) -> [Int32]? {
            FieldLayout.columns(
                layout, attributes: entity.attributes, decoding: entity.attributeDecoding,
                relationships: entity.relationshipDescriptions, relationshipDecoding: entity.relationshipDecoding)
        }
        let fitting = FieldLayout(
            attributes: [.integer("age"), .real("dateJoined"), .text("name")],
            relationships: [.toOne("business"), .toOne("department")])
        #expect(columns(fitting)?.count == 5)
        #expect(EmployeeEntity.fieldLayout == fitting)
        // Another kind, another name, another order, a missing or extra property: no fields.
        #expect(
            columns(
                .init(
                    attributes: [.text("age"), .real("dateJoined"), .text("name")], relationships: fitting.relationships
                ))
                == nil)
        #expect(
            columns(
                .init(
                    attributes: [.integer("years"), .real("dateJoined"), .text("name")],
                    relationships: fitting.relationships))
                == nil)
        #expect(
            columns(
                .init(
                    attributes: [.real("dateJoined"), .integer("age"), .text("name")],
                    relationships: fitting.relationships))
                == nil)
        #expect(
            columns(.init(attributes: [.integer("age"), .real("dateJoined")], relationships: fitting.relationships))
                == nil)
        #expect(
            columns(.init(attributes: fitting.attributes, relationships: [.toOne("business"), .toMany("department")]))
                == nil)
        // A class without a layout (the base class) has no fields either.
        #expect(ManagedObject.fieldLayout == nil)
    }

    @Test("inserted objects and faults never hold fields", arguments: StoreKind.allCases)
    func insertedAndFaults(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = try Self.savedCompany(store)
        let inserted = EmployeeEntity(context: context)
        #expect(!inserted.holdsFields)
        let request = EmployeeEntity.fetchRequest()
        request.fetchBatchSize = 2
        let batched = try context.fetch(request)
        let names = batched.map(\.name)
        #expect(names.count == 7)
        #expect(names.compactMap { $0 }.count == 5)
        // Batch faults fill as a fetch reads them: saved rows into fields, the inserted object keeps its values.
        #expect(batched.allSatisfy { !$0.isFault })
        #expect(batched.filter { $0.holdsFields }.count == 6)
        #expect(!inserted.holdsFields)
        // A to-one's fault fills from its own row through the runtime's decoding.
        let department = try #require(batched.lazy.compactMap(\.department).first)
        #expect(department.name == "R&D")
        #expect(!department.holdsFields)
    }
}

/// A flag an observation's `onChange` sets (on any thread).
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
