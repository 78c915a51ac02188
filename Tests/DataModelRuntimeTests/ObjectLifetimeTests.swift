import Dispatch
import Foundation
import GeneratedCompanyModel
import Testing

@testable import DataModelRuntime

/// What a context's objects share (``ContextShared``) lives as long as the context, and after it as long as any of
/// its objects: objects in the identity map are not counted, those that outlive it are.
@Suite("Object lifetime: what a context's objects share")
struct ObjectLifetimeTests {
    private static let count = 200

    /// `count` employees `E000`, `E001`, … saved in a context of `store`'s container.
    private func fill(_ store: TestStore) throws {
        let context = store.container.newBackgroundContext()
        for index in 0..<Self.count {
            let employee = EmployeeEntity(context: context)
            employee.name = String(format: "E%03d", index)
            employee.age = Int16(index % 60)
        }
        try context.save()
    }

    private func fetchAll(_ context: ManagedObjectContext) throws -> [EmployeeEntity] {
        try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
    }

    @Test("objects that live and go inside their context are not counted", arguments: StoreKind.allCases)
    func objectsInsideTheContextAreNotCounted(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store)
        weak var shared: ContextShared?
        weak var gone: ManagedObjectContext?
        do {
            let context = store.container.newBackgroundContext()
            shared = context.shared
            gone = context
            for _ in 0..<2 {
                let employees = try fetchAll(context)
                #expect(employees.count == Self.count)
                #expect(employees.allSatisfy { !$0.sharesContext })
            }
            let inserted = EmployeeEntity(context: context)
            inserted.name = "new"
            #expect(!inserted.sharesContext)
            #expect(context.shared.sharerCount == 0)
        }
        #expect(gone == nil)
        #expect(shared == nil, "nothing outlived the context")
    }

    @Test("objects that outlive their context keep what it shared, until the last goes", arguments: StoreKind.allCases)
    func survivorsKeepTheShared(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store)
        weak var shared: ContextShared?
        weak var gone: ManagedObjectContext?
        var kept: [EmployeeEntity] = []
        do {
            let context = store.container.newBackgroundContext()
            shared = context.shared
            gone = context
            let employees = try fetchAll(context)
            kept = [employees[3], employees[150]]
            // One of them turned its fields into values, as a change does.
            employees[150].age = 59
            #expect(context.shared.sharerCount == 0)
        }
        #expect(gone == nil)
        #expect(shared?.sharerCount == 2)
        #expect(kept.allSatisfy { $0.sharesContext && $0.context == nil })
        // Their values, from the fields and from the values, and their entity (held through what the context shared).
        #expect(kept[0].name == "E003" && kept[0].age == 3)
        #expect(kept[1].name == "E150" && kept[1].age == 59)
        #expect(kept[0].value(for: "name") as String? == "E003")
        #expect(kept[1].entity.name == "EmployeeEntity")
        kept.removeLast()
        #expect(shared?.sharerCount == 1)
        kept.removeAll()
        #expect(shared == nil, "the last survivor let go of it")
    }

    @Test("objects that left the identity map (reset) keep what their context shares", arguments: StoreKind.allCases)
    func unregisteredObjectsKeepTheShared(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store)
        weak var shared: ContextShared?
        var kept: [EmployeeEntity] = []
        do {
            let context = store.container.newBackgroundContext()
            shared = context.shared
            kept = Array(try fetchAll(context).prefix(5))
            let unsaved = EmployeeEntity(context: context)
            unsaved.name = "unsaved"
            kept.append(unsaved)
            context.reset()
            #expect(kept.allSatisfy { $0.sharesContext && $0.context == nil })
            #expect(context.shared.sharerCount == kept.count)
            // Fetched again: new objects in the map, not counted.
            let again = try fetchAll(context)
            #expect(!again[0].sharesContext && again[0] !== kept[0])
            #expect(context.shared.sharerCount == kept.count)
        }
        #expect(shared?.sharerCount == kept.count)
        #expect(kept[1].objectID.primaryKey > 0)
        kept.removeAll()
        #expect(shared == nil)
    }

    @Test("objects an undo took out and a redo put back are counted once", arguments: [false, true])
    func redoneInsertionIsCountedOnce(keepsObject: Bool) throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        weak var shared: ContextShared?
        var kept: EmployeeEntity?
        do {
            let context = container.newBackgroundContext()
            context.undoManager = UndoManager()
            shared = context.shared
            let employee = EmployeeEntity(context: context)
            employee.name = "Ann"
            context.processPendingChanges()
            context.undo()
            #expect(employee.sharesContext && context.shared.sharerCount == 1)
            context.redo()
            #expect(employee.context === context && employee.name == "Ann")
            #expect(context.shared.sharerCount == 1, "back in the map, still counted")
            if keepsObject { kept = employee }
        }
        #expect((shared != nil) == keepsObject)
        if keepsObject { #expect(shared?.sharerCount == 1 && kept?.name == "Ann") }
        kept = nil
        #expect(shared == nil)
    }

    @Test("to-many loads, objects by ID and a missing row make objects that are not counted")
    func otherRegisteringPathsAreNotCounted() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let seeding = store.container.newBackgroundContext()
        let department = DepartmentEntity(context: seeding)
        department.name = "D"
        for index in 0..<10 {
            let employee = EmployeeEntity(context: seeding)
            employee.name = "E\(index)"
            employee.department = department
        }
        try seeding.save()
        let departmentID = department.objectID
        weak var shared: ContextShared?
        do {
            let context = store.container.newBackgroundContext()
            shared = context.shared
            let loaded = try #require(context.object(with: departmentID) as? DepartmentEntity)
            #expect(loaded.employees.count == 10)
            let missing = ObjectID(
                storeNumber: departmentID.storeNumber, entityNumber: departmentID.entityNumber, primaryKey: 999)
            #expect(throws: StoreError.self) { try context.existingObject(with: missing) }
            #expect(try context.existingObject(with: departmentID) === loaded)
            #expect(context.shared.sharerCount == 0)
            #expect(!loaded.sharesContext && loaded.employees.allSatisfy { !$0.sharesContext })
        }
        #expect(shared == nil)
    }

    @Test("a detached copy is counted from the start")
    func detachedCopyIsCounted() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        weak var shared: ContextShared?
        var copy: EmployeeEntity?
        do {
            let context = container.newBackgroundContext()
            shared = context.shared
            let entity = try #require(context.runtime.entity(named: "EmployeeEntity"))
            let id = ObjectID(storeNumber: 0, entityNumber: entity.number, primaryKey: 1)
            copy = EmployeeEntity(ObjectSeed(entity: entity, objectID: id, context: context, isFault: false))
            #expect(copy?.sharesContext == true && context.shared.sharerCount == 1)
        }
        #expect(shared?.sharerCount == 1)
        copy = nil
        #expect(shared == nil)
    }

    @Test("a child context's objects outlive it", arguments: [StoreKind.inMemory, .sqlite])
    func childObjectsOutliveTheChild(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store)
        weak var shared: ContextShared?
        var kept: [EmployeeEntity] = []
        do {
            let child = ManagedObjectContext(parent: store.context)
            shared = child.shared
            kept = Array(try fetchAll(child).suffix(3))
            kept[0].age = 1
            let inserted = EmployeeEntity(context: child)
            inserted.name = "child"
            kept.append(inserted)
            try child.save()
        }
        #expect(shared?.sharerCount == 4)
        #expect(kept[0].age == 1 && kept[3].name == "child" && kept[3].context == nil)
        kept.removeAll()
        #expect(shared == nil)
        #expect(try store.context.count(for: EmployeeEntity.fetchRequest()) == Self.count + 1)
    }

    @Test("survivors let go on many threads at once")
    func survivorsGoOnManyThreads() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        try fill(store)
        weak var shared: ContextShared?
        let groups: Groups
        do {
            let context = store.container.newBackgroundContext()
            shared = context.shared
            let employees = try fetchAll(context)
            groups = Groups(stride(from: 0, to: employees.count, by: 25).map { Array(employees[$0..<$0 + 25]) })
        }
        #expect(shared?.sharerCount == Self.count)
        // Only dropped there: the objects still share one observation probe and inbox, used from one thread at a time.
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            let keys = groups.drop(index).map(\.objectID.primaryKey)
            #expect(keys.count == 25)
        }
        #expect(shared == nil)
    }
}

/// Arrays of objects handed to other threads, each taken by exactly one of them.
private final class Groups: @unchecked Sendable {
    private var groups: [[EmployeeEntity]?]
    private let lock = NSLock()

    init(_ groups: [[EmployeeEntity]]) { self.groups = groups }

    var count: Int { groups.count }

    /// Group `index`, taken out: the caller holds its objects' last references.
    func drop(_ index: Int) -> [EmployeeEntity] {
        lock.withLock {
            defer { groups[index] = nil }
            return groups[index] ?? []
        }
    }
}
