import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// `mutableSetValue(forKey:)` and `mutableOrderedSetValue(forKey:)`: Core Data's mutable to-many proxies, live views
/// that change the relationship itself.
@Suite("Mutable to-many views (mutableSetValue / mutableOrderedSetValue)")
struct MutableRelationshipTests {
    @Test(
        "a set view adds, removes and combines, keeping inverses; the changes are saved", arguments: StoreKind.allCases)
    func setView(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let sales = DepartmentEntity(context: context)
        let people = (0..<5).map { index in
            let employee = EmployeeEntity(context: context)
            employee.name = "E\(index)"
            return employee
        }
        let employees = sales.mutableSetValue(forKey: "employees")
        #expect(employees.count == 0)
        employees.add(people[0])
        employees.add(people[0])
        #expect(employees.count == 1)
        #expect(people[0].department === sales)
        #expect(sales.employees == [people[0]])

        employees.addObjects(from: [people[1], people[2]])
        #expect(employees.objects == Set(people[0...2]))
        #expect(employees.contains(people[1]))
        #expect(!employees.contains(people[3]))
        #expect(!employees.contains("E1"))
        #expect(employees.member(people[2]) === people[2])
        #expect(employees.member(people[4]) == nil)

        employees.remove(people[1])
        employees.remove(people[4])  // not there: nothing
        #expect(people[1].department == nil)
        #expect(Set(employees.allObjects) == [people[0], people[2]])

        // `NSMutableSet`'s set operations, with what ported code passes them: a `Set<AnyHashable>`, or a typed set.
        employees.union([AnyHashable(people[3]), AnyHashable(people[4])] as Set<AnyHashable>)
        #expect(employees.count == 4)
        employees.minus(Set([people[0]]))
        #expect(employees.objects == [people[2], people[3], people[4]])
        employees.intersect([people[3], people[4], people[1]])
        #expect(employees.objects == [people[3], people[4]])
        #expect(people[2].department == nil)

        var seen: Set<ManagedObject> = []
        for case let employee as EmployeeEntity in employees { seen.insert(employee) }
        #expect(seen == [people[3], people[4]])
        try context.save()

        let other = try store.reopened()
        let read = try #require(try other.fetch(DepartmentEntity.fetchRequest()).first)
        #expect(Set(read.employees.compactMap(\.name)) == ["E3", "E4"])
        let readEmployees = read.mutableSetValue(forKey: "employees")
        let all = try other.fetch(EmployeeEntity.fetchRequest())
        readEmployees.setSet(all.filter { $0.name == "E0" || $0.name == "E3" })
        #expect(Set(read.employees.compactMap(\.name)) == ["E0", "E3"])
        readEmployees.removeAllObjects()
        #expect(read.employees.isEmpty)
        #expect(all.allSatisfy { $0.department == nil })
        try other.save()
        #expect(try store.reopened().fetch(EmployeeEntity.fetchRequest()).allSatisfy { $0.department == nil })
    }

    @Test(
        "an ordered view inserts, moves, replaces and removes by position; the order is saved",
        arguments: StoreKind.allCases)
    func orderedView(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RecordsModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let list = RecordsEntity(context: context)
        let records = (0..<6).map { step in
            let record = RecordEntity(context: context)
            record.step = Int16(step)
            return record
        }
        func steps(_ list: RecordsEntity) -> [Int16] { list.records.compactMap(\.step) }

        let ordered = list.mutableOrderedSetValue(forKey: "records")
        ordered.add(records[0])
        ordered.addObjects(from: [records[1], records[2], records[0]])  // records[0] is there: not again
        #expect(steps(list) == [0, 1, 2])
        #expect(records[2].recordsEntity === list)
        ordered.insert(records[3], at: 0)
        #expect(steps(list) == [3, 0, 1, 2])
        ordered.insert(records[2], at: 1)  // there already: moved
        #expect(steps(list) == [3, 2, 0, 1])
        #expect(ordered.count == 4)
        #expect(ordered.index(of: records[0]) == 2)
        #expect(ordered.index(of: records[5]) == NSNotFound)
        #expect(ordered.object(at: 1) === records[2])
        #expect(ordered[3] === records[1])
        #expect(ordered.firstObject === records[3])
        #expect(ordered.lastObject === records[1])

        ordered.replaceObject(at: 0, with: records[4])
        #expect(steps(list) == [4, 2, 0, 1])
        #expect(records[3].recordsEntity == nil)
        ordered.exchangeObject(at: 0, withObjectAt: 3)
        #expect(steps(list) == [1, 2, 0, 4])
        ordered.moveObjects(at: IndexSet([0, 1]), to: 2)
        #expect(steps(list) == [0, 4, 1, 2])
        ordered.insert([records[5], records[3]], at: IndexSet([1, 2]))
        #expect(steps(list) == [0, 5, 3, 4, 1, 2])
        ordered.removeObject(at: 0)
        #expect(records[0].recordsEntity == nil)
        ordered.removeObjects(at: IndexSet([0, 4]))
        #expect(steps(list) == [3, 4, 1])
        ordered.remove(records[4])
        ordered.minus([records[1]])
        ordered.union([records[0], records[3]])
        #expect(ordered.array.compactMap { ($0 as? RecordEntity)?.step } == [3, 0])
        try context.save()

        let other = try store.reopened()
        let read = try #require(try other.fetch(RecordsEntity.fetchRequest()).first)
        #expect(steps(read) == [3, 0])
        let readOrdered = read.mutableOrderedSetValue(forKey: "records")
        let all = try other.fetch(RecordEntity.fetchRequest())
        readOrdered.intersect(all.filter { $0.step == 0 })
        #expect(steps(read) == [0])
        readOrdered.removeAllObjects()
        try other.save()
        #expect(try store.reopened().fetch(RecordsEntity.fetchRequest()).first?.records.isEmpty == true)
    }

    @Test("changes through a view are undoable like the generated accessors'")
    func undo() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        context.undoManager = UndoManager()
        let sales = DepartmentEntity(context: context)
        let ada = EmployeeEntity(context: context)
        try context.save()
        sales.mutableSetValue(forKey: "employees").add(ada)
        context.processPendingChanges()
        #expect(ada.department === sales)
        #expect(sales.isUpdated)
        context.undo()
        #expect(ada.department == nil)
        #expect(sales.employees.isEmpty)
    }

    /// As Core Data raises, misuses stop the program, saying what was wrong.
    @Test func misusesStopTheProgram() async {
        said(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
                _ = DepartmentEntity(context: context).mutableSetValue(forKey: "staff")
            }, "DepartmentEntity has no attribute or relationship 'staff'")
        said(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
                _ = EmployeeEntity(context: context).mutableSetValue(forKey: "department")
            }, "EmployeeEntity.department is a to-one relationship")
        said(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
                _ = DepartmentEntity(context: context).mutableOrderedSetValue(forKey: "employees")
            }, "DepartmentEntity.employees is not ordered: use mutableSetValue(forKey:)")
        said(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
                let sales = DepartmentEntity(context: context)
                sales.mutableSetValue(forKey: "employees").add(BusinessEntity(context: context))
            },
            "DepartmentEntity.employees takes objects of EmployeeEntity, not a value of type an object of BusinessEntity"
        )
        said(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
                DepartmentEntity(context: context).mutableSetValue(forKey: "employees").add("Ada")
            }, "DepartmentEntity.employees takes objects of EmployeeEntity, not a value of type String")
        said(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try PersistentContainer(model: RecordsModel.model, store: .inMemory).viewContext
                _ = RecordsEntity(context: context).mutableOrderedSetValue(forKey: "records").object(at: 0)
            }, "RecordsEntity.records: index 0 beyond bounds")
    }

    /// Whether the stopped process wrote `message` on its standard error.
    private func said(_ result: ExitTest.Result?, _ message: String) {
        let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(output.contains(message), "\(output)")
    }
}
