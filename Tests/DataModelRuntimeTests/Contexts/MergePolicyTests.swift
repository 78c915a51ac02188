import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Two contexts change the same employee; the second save meets the first one's `Z_OPT`.
@Suite("Optimistic locking and merge policies")
struct MergePolicyTests {
    /// A saved employee (name "Ann", age 30) read by two fresh contexts.
    private struct Fixture {
        let store: TestStore
        let first: ManagedObjectContext
        let second: ManagedObjectContext
        let id: ObjectID

        init(_ kind: StoreKind) throws {
            store = try TestStore(kind, model: CompanyModel.model)
            let setup = store.container.newBackgroundContext()
            let employee = EmployeeEntity(context: setup)
            employee.name = "Ann"
            employee.age = 30
            try setup.save()
            id = employee.objectID
            first = store.container.newBackgroundContext()
            second = store.container.newBackgroundContext()
        }

        func employee(in context: ManagedObjectContext) throws -> EmployeeEntity {
            try #require(try context.existingObject(with: id) as? EmployeeEntity)
        }

        /// What a brand-new context reads from the store.
        func stored() throws -> EmployeeEntity {
            try #require(try store.container.newBackgroundContext().existingObject(with: id) as? EmployeeEntity)
        }
    }

    /// The first context renames and saves; the second changes the age (and, when asked, the name too).
    private func conflict(_ fixture: Fixture, policy: MergePolicy, secondRenames: Bool = false) throws -> EmployeeEntity
    {
        let mine = try fixture.employee(in: fixture.second)
        let theirs = try fixture.employee(in: fixture.first)
        theirs.name = "Bea"
        try fixture.first.save()
        mine.age = 40
        if secondRenames { mine.name = "Cat" }
        fixture.second.mergePolicy = policy
        try fixture.second.save()
        return mine
    }

    @Test("the default policy reports the object, its changes and the store's", arguments: StoreKind.allCases)
    func errorPolicy(kind: StoreKind) throws {
        let fixture = try Fixture(kind)
        defer { fixture.store.cleanUp() }
        #expect(fixture.second.mergePolicy == .error)
        let mine = try fixture.employee(in: fixture.second)
        let theirs = try fixture.employee(in: fixture.first)
        theirs.name = "Bea"
        try fixture.first.save()
        mine.age = 40
        let error = try #require(throws: MergeConflict.self) { try fixture.second.save() }
        let conflict = try #require(error.conflicts.first)
        #expect(error.conflicts.count == 1)
        #expect(conflict.objectID == fixture.id)
        #expect(conflict.entityName == "EmployeeEntity")
        #expect(conflict.changedProperties == ["age"])
        #expect(conflict.storeChangedProperties == ["name"])
        #expect(conflict.oldVersion == 1)
        #expect(conflict.newVersion == 2)
        #expect(conflict.properties == ["age", "name"])
        #expect(error.description.contains("EmployeeEntity"))
        // Nothing written, the change kept: the user can pick a policy and save again.
        #expect(try fixture.stored().age == 30)
        #expect(mine.age == 40)
        #expect(mine.isUpdated)
        fixture.second.mergePolicy = .mergeByPropertyObjectTrump
        try fixture.second.save()
        #expect(try fixture.stored().age == 40)
        #expect(try fixture.stored().name == "Bea")
    }

    @Test("object trump: this context's changed properties win, the rest come from the store")
    func objectTrump() throws {
        let fixture = try Fixture(.sqlite)
        defer { fixture.store.cleanUp() }
        let mine = try conflict(fixture, policy: .mergeByPropertyObjectTrump, secondRenames: true)
        let stored = try fixture.stored()
        #expect(stored.name == "Cat")
        #expect(stored.age == 40)
        #expect(mine.name == "Cat")
        #expect(!mine.hasChanges)

        let other = try Fixture(.inMemory)
        _ = try conflict(other, policy: .mergeByPropertyObjectTrump)
        #expect(try other.stored().name == "Bea")
        #expect(try other.stored().age == 40)
    }

    @Test("store trump: what the other context changed wins, the rest of this context's changes stay")
    func storeTrump() throws {
        let fixture = try Fixture(.sqlite)
        defer { fixture.store.cleanUp() }
        let mine = try conflict(fixture, policy: .mergeByPropertyStoreTrump, secondRenames: true)
        let stored = try fixture.stored()
        #expect(stored.name == "Bea")
        #expect(stored.age == 40)
        #expect(mine.name == "Bea")
        #expect(mine.age == 40)
    }

    @Test("overwrite: this context's whole object replaces the store's")
    func overwrite() throws {
        let fixture = try Fixture(.sqlite)
        defer { fixture.store.cleanUp() }
        let mine = try conflict(fixture, policy: .overwrite)
        let stored = try fixture.stored()
        #expect(stored.name == "Ann")
        #expect(stored.age == 40)
        #expect(mine.name == "Ann")
    }

    @Test("rollback: the store's object wins and this context's changes are dropped")
    func rollback() throws {
        let fixture = try Fixture(.sqlite)
        defer { fixture.store.cleanUp() }
        let mine = try conflict(fixture, policy: .rollback, secondRenames: true)
        let stored = try fixture.stored()
        #expect(stored.name == "Bea")
        #expect(stored.age == 30)
        #expect(mine.name == "Bea")
        #expect(mine.age == 30)
        #expect(!mine.hasChanges)
    }

    @Test("a row another context deleted: a conflict, or the deletion wins", arguments: MergePolicy.allCases)
    func deletedInStore(policy: MergePolicy) throws {
        let fixture = try Fixture(.sqlite)
        defer { fixture.store.cleanUp() }
        let mine = try fixture.employee(in: fixture.second)
        fixture.first.delete(try fixture.employee(in: fixture.first))
        try fixture.first.save()
        mine.age = 50
        fixture.second.mergePolicy = policy
        if policy == .error {
            let error = try #require(throws: MergeConflict.self) { try fixture.second.save() }
            #expect(error.conflicts.map(\.isDeletedInStore) == [true])
            #expect(error.conflicts.first?.storeChangedProperties == [])
        } else {
            try fixture.second.save()
            #expect(mine.context == nil)
            let count = try fixture.store.container.newBackgroundContext().count(for: EmployeeEntity.fetchRequest())
            #expect(count == 0)
        }
    }

    @Test("deleting an object another context changed conflicts; rollback undoes the deletion")
    func deleteAfterChange() throws {
        for policy in MergePolicy.allCases {
            let fixture = try Fixture(.inMemory)
            let mine = try fixture.employee(in: fixture.second)
            let theirs = try fixture.employee(in: fixture.first)
            theirs.name = "Bea"
            try fixture.first.save()
            fixture.second.delete(mine)
            fixture.second.mergePolicy = policy
            let remaining = {
                try fixture.store.container.newBackgroundContext().count(for: EmployeeEntity.fetchRequest())
            }
            switch policy {
            case .error:
                #expect(throws: MergeConflict.self) { try fixture.second.save() }
                #expect(try remaining() == 1)
            case .rollback:
                try fixture.second.save()
                #expect(try remaining() == 1, "\(policy)")
                #expect(!mine.isDeleted)
                #expect(mine.name == "Bea")
            default:
                try fixture.second.save()
                #expect(try remaining() == 0, "\(policy)")
            }
        }
    }

    @Test("a context's own successive saves never conflict with themselves")
    func successiveSaves() throws {
        let fixture = try Fixture(.sqlite)
        defer { fixture.store.cleanUp() }
        let mine = try fixture.employee(in: fixture.second)
        for age in 31...35 {
            mine.age = Int16(age)
            try fixture.second.save()
        }
        #expect(try fixture.stored().age == 35)
        // A context that read after the saves is up to date.
        let theirs = try fixture.employee(in: fixture.first)
        theirs.age = 36
        try fixture.first.save()
    }
}
