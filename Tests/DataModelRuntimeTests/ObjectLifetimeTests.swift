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

    /// A store of `kind` with ``count`` employees saved (the caller removes it: `cleanUp`).
    private func filledStore(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: CompanyModel.model)
        try fill(store)
        return store
    }

    /// Runs `body` with a context made for it (a background context of `container`, or a child of its view context),
    /// which is gone when this returns; returns what the context's objects shared, held weakly.
    private func sharedAfter(
        _ container: PersistentContainer, child: Bool = false, _ body: (ManagedObjectContext) throws -> Void
    ) rethrows -> WeakShared {
        let held = WeakShared()
        weak var gone: ManagedObjectContext?
        do {
            let context = child ? ManagedObjectContext(parent: container.viewContext) : container.newBackgroundContext()
            held.value = context.shared
            gone = context
            try body(context)
        }
        #expect(gone == nil, "the context is gone")
        return held
    }

    @Test("objects that live and go inside their context are not counted", arguments: StoreKind.allCases)
    func objectsInsideTheContextAreNotCounted(kind: StoreKind) throws {
        let store = try filledStore(kind)
        defer { store.cleanUp() }
        let shared = try sharedAfter(store.container) { context in
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
        #expect(shared.value == nil, "nothing outlived the context")
    }

    @Test("objects that outlive their context keep what it shared, until the last goes", arguments: StoreKind.allCases)
    func survivorsKeepTheShared(kind: StoreKind) throws {
        let store = try filledStore(kind)
        defer { store.cleanUp() }
        var kept: [EmployeeEntity] = []
        let shared = try sharedAfter(store.container) { context in
            let employees = try fetchAll(context)
            kept = [employees[3], employees[150]]
            // One of them turned its fields into values, as a change does.
            employees[150].age = 59
            #expect(context.shared.sharerCount == 0)
        }
        #expect(shared.value?.sharerCount == 2)
        #expect(kept.allSatisfy { $0.sharesContext && $0.context == nil })
        // Their values, from the fields and from the values, and their entity (held through what the context shared).
        #expect(kept[0].name == "E003" && kept[0].age == 3)
        #expect(kept[1].name == "E150" && kept[1].age == 59)
        #expect(kept[0].value(for: "name") as String? == "E003")
        #expect(kept[1].entity.name == "EmployeeEntity")
        kept.removeLast()
        #expect(shared.value?.sharerCount == 1)
        kept.removeAll()
        #expect(shared.value == nil, "the last survivor let go of it")
    }

    @Test("objects that left the identity map (reset) keep what their context shares", arguments: StoreKind.allCases)
    func unregisteredObjectsKeepTheShared(kind: StoreKind) throws {
        let store = try filledStore(kind)
        defer { store.cleanUp() }
        var kept: [EmployeeEntity] = []
        let shared = try sharedAfter(store.container) { context in
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
        #expect(shared.value?.sharerCount == kept.count)
        #expect(kept[1].objectID.primaryKey > 0)
        kept.removeAll()
        #expect(shared.value == nil)
    }

    @Test("objects an undo took out and a redo put back are counted once", arguments: [false, true])
    func redoneInsertionIsCountedOnce(keepsObject: Bool) throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        var kept: EmployeeEntity?
        let shared = sharedAfter(container) { context in
            context.undoManager = UndoManager()
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
        #expect((shared.value != nil) == keepsObject)
        if keepsObject { #expect(shared.value?.sharerCount == 1 && kept?.name == "Ann") }
        kept = nil
        #expect(shared.value == nil)
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
        let shared = try sharedAfter(store.container) { context in
            let loaded = try #require(context.object(with: departmentID) as? DepartmentEntity)
            #expect(loaded.employees.count == 10)
            let missing = ObjectID(
                storeNumber: departmentID.storeNumber, entityNumber: departmentID.entityNumber, primaryKey: 999)
            #expect(throws: StoreError.self) { try context.existingObject(with: missing) }
            #expect(try context.existingObject(with: departmentID) === loaded)
            #expect(context.shared.sharerCount == 0)
            #expect(!loaded.sharesContext && loaded.employees.allSatisfy { !$0.sharesContext })
        }
        #expect(shared.value == nil)
    }

    @Test("a detached copy is counted from the start")
    func detachedCopyIsCounted() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        var copy: EmployeeEntity?
        let shared = try sharedAfter(container) { context in
            let entity = try #require(context.runtime.entity(named: "EmployeeEntity"))
            let id = ObjectID(storeNumber: 0, entityNumber: entity.number, primaryKey: 1)
            copy = EmployeeEntity(ObjectSeed(entity: entity, objectID: id, context: context, isFault: false))
            #expect(copy?.sharesContext == true && context.shared.sharerCount == 1)
        }
        #expect(shared.value?.sharerCount == 1)
        copy = nil
        #expect(shared.value == nil)
    }

    @Test("a child context's objects outlive it", arguments: [StoreKind.inMemory, .sqlite])
    func childObjectsOutliveTheChild(kind: StoreKind) throws {
        let store = try filledStore(kind)
        defer { store.cleanUp() }
        var kept: [EmployeeEntity] = []
        let shared = try sharedAfter(store.container, child: true) { child in
            kept = Array(try fetchAll(child).suffix(3))
            kept[0].age = 1
            let inserted = EmployeeEntity(context: child)
            inserted.name = "child"
            kept.append(inserted)
            try child.save()
        }
        #expect(shared.value?.sharerCount == 4)
        #expect(kept[0].age == 1 && kept[3].name == "child" && kept[3].context == nil)
        kept.removeAll()
        #expect(shared.value == nil)
        #expect(try store.context.count(for: EmployeeEntity.fetchRequest()) == Self.count + 1)
    }

    @Test("survivors let go on many threads at once")
    func survivorsGoOnManyThreads() throws {
        let store = try filledStore(.sqlite)
        defer { store.cleanUp() }
        let groups = Groups()
        let shared = try sharedAfter(store.container) { context in
            let employees = try fetchAll(context)
            groups.fill(stride(from: 0, to: employees.count, by: 25).map { Array(employees[$0..<$0 + 25]) })
        }
        #expect(shared.value?.sharerCount == Self.count)
        // Only dropped there: the objects still share one observation probe and inbox, used from one thread at a time.
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            let keys = groups.drop(index).map(\.objectID.primaryKey)
            #expect(keys.count == 25)
        }
        #expect(shared.value == nil)
    }
}

/// The size and state of objects (``ObjectState``, ``ObjectStatePool``).
@Suite("Object size and state")
struct ObjectStateTests {
    @Test("a fetched object that holds its row in fields has no state, and its allocation is 120 bytes")
    func fetchedObjectsAreSmall() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let writer = store.container.newBackgroundContext()
        for index in 0..<3 {
            let employee = EmployeeEntity(context: writer)
            employee.name = "E\(index)"
            employee.age = index == 1 ? nil : Int16(index)
        }
        try writer.save()
        let context = store.container.newBackgroundContext()
        for employee in try context.fetch(EmployeeEntity.fetchRequest()) {
            #expect(employee.holdsFields)
            #expect(!employee.hasState)
            // A string, a date, an integer and two to-ones after the 72 bytes of `ManagedObject`: the largest size
            // the C allocator keeps on its fast lists (a 128-byte chunk). A stored property added to `ManagedObject`
            // or a field that grows fails this.
            #if canImport(Glibc)
                #expect(instanceSize(of: EmployeeEntity.self) <= 120)
            #endif
            employee.age = 40
            #expect(employee.hasState, "the first change gives the object its state")
            #expect(employee.age == 40)
            #expect(employee.changedValues().keys.sorted() == ["age"])
        }
    }

    @Test("states come from the context's pool and go back to it, from any thread")
    func statesAreReused() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        let writer = store.container.newBackgroundContext()
        for index in 0..<200 {
            let employee = EmployeeEntity(context: writer)
            employee.name = String(format: "E%03d", index)
        }
        try writer.save()
        let context = store.container.newBackgroundContext()
        var slabs: [Int] = []
        for round in 0..<5 {
            var employees = try context.fetch(EmployeeEntity.fetchRequest())
            for employee in employees { employee.age = Int16(round) }
            #expect(employees.allSatisfy { $0.hasState })
            slabs.append(context.shared.states.withLock { $0.slabCount })
            context.rollback()
            context.reset()
            employees = []
        }
        // 200 states: slabs of 16, 32, 64 and 128. The later rounds reuse the first round's states.
        #expect(slabs == Array(repeating: 4, count: 5))
        // Changed objects that outlive their context give their states back on eight threads at once.
        let groups = Groups()
        let shared = WeakShared()
        do {
            let last = store.container.newBackgroundContext()
            shared.value = last.shared
            let employees = try last.fetch(EmployeeEntity.fetchRequest())
            for employee in employees { employee.age = 1 }
            #expect(employees.allSatisfy { $0.hasState && $0.age == 1 })
            groups.fill(stride(from: 0, to: employees.count, by: 25).map { Array(employees[$0..<$0 + 25]) })
        }
        // Dropped only: reading them there would share their context's observation probe between threads.
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            #expect(groups.drop(index).count == 25)
        }
        #expect(shared.value == nil)
    }
}

#if canImport(Glibc)
    /// The bytes an instance of `type` asks the allocator for: the instance size in its class metadata (a 32-bit
    /// field after the kind, the superclass, the flags and the address point, where classes have no Objective-C
    /// cache). Not `malloc_usable_size` of an object: glibc hands a 144-byte chunk to a 120-byte request when it has
    /// one free that the request cannot split. The limit is glibc's: other allocators have other size classes.
    private func instanceSize(of type: AnyClass) -> Int {
        Int(unsafeBitCast(type, to: UnsafeRawPointer.self).load(fromByteOffset: 24, as: UInt32.self))
    }
#endif

/// What a context's objects shared, held weakly (``ObjectLifetimeTests``).
private final class WeakShared {
    weak var value: ContextShared?
}

/// Arrays of objects handed to other threads, each taken by exactly one of them.
private final class Groups: @unchecked Sendable {
    private var groups: [[EmployeeEntity]?] = []
    private let lock = NSLock()

    func fill(_ groups: [[EmployeeEntity]]) { lock.withLock { self.groups = groups } }

    var count: Int { lock.withLock { groups.count } }

    /// Group `index`, taken out: the caller holds its objects' last references.
    func drop(_ index: Int) -> [EmployeeEntity] {
        lock.withLock {
            defer { groups[index] = nil }
            return groups[index] ?? []
        }
    }
}
