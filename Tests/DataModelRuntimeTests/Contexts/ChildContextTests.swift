import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Observation
import Synchronization
import Testing

/// Counts `withObservationTracking` change notifications.
private final class Notifications: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Child contexts: Core Data's scratch pad. A child reads through its parent and saves into it.
@Suite("Child contexts")
struct ChildContextTests {
    /// A saved company: Research (Ann, Bob) and Sales (Cy).
    private func company(_ kind: StoreKind) throws -> (TestStore, DepartmentEntity, DepartmentEntity) {
        let store = try TestStore(kind, model: CompanyModel.model)
        let research = DepartmentEntity(context: store.context)
        research.name = "Research"
        let sales = DepartmentEntity(context: store.context)
        sales.name = "Sales"
        for (name, department) in [("Ann", research), ("Bob", research), ("Cy", sales)] {
            let employee = EmployeeEntity(context: store.context)
            employee.name = name
            employee.department = department
        }
        try store.context.save()
        return (store, research, sales)
    }

    private func names(_ employees: some Sequence<EmployeeEntity>) -> [String] {
        employees.compactMap(\.name).sorted()
    }

    @Test(arguments: StoreKind.allCases) func saveGoesIntoTheParentNotTheStore(kind: StoreKind) throws {
        let (store, research, _) = try company(kind)
        defer { store.cleanUp() }
        let parent = store.context
        let child = ManagedObjectContext(parent: parent)
        #expect(child.parent === parent)
        let draft = try #require(child.object(with: research.objectID) as? DepartmentEntity)
        #expect(draft !== research)
        #expect(names(draft.employees) == ["Ann", "Bob"])
        draft.name = "R&D"
        let hire = EmployeeEntity(context: child)
        hire.name = "Dee"
        hire.department = draft
        #expect(!parent.hasChanges)
        try child.save()
        #expect(!child.hasChanges)
        #expect(parent.hasChanges)
        #expect(research.name == "R&D")
        #expect(names(research.employees) == ["Ann", "Bob", "Dee"])
        let pushed = try #require(parent.object(with: hire.objectID) as? EmployeeEntity)
        #expect(pushed.isInserted && pushed.department === research)
        #expect(pushed.objectID == hire.objectID)
        #expect(!hire.objectID.isTemporaryID)

        let elsewhere = try store.reopened()
        #expect(
            try elsewhere.fetch(DepartmentEntity.fetchRequest()).compactMap(\.name).sorted() == ["Research", "Sales"])
        #expect(try elsewhere.count(for: EmployeeEntity.fetchRequest()) == 3, "nothing reached the store yet")

        try parent.save()
        let after = try store.reopened()
        let saved = try after.fetch(DepartmentEntity.fetchRequest().matching("name", equals: "R&D"))
        #expect(names(try #require(saved.first).employees) == ["Ann", "Bob", "Dee"])
    }

    @Test(arguments: StoreKind.allCases) func childSeesTheParentsUnsavedChanges(kind: StoreKind) throws {
        let (store, research, sales) = try company(kind)
        defer { store.cleanUp() }
        let parent = store.context
        research.name = "R&D"
        let legal = DepartmentEntity(context: parent)
        legal.name = "Legal"
        let ann = try #require(research.employees.first { $0.name == "Ann" })
        ann.department = legal
        try #require(sales.employees.first).name = "Cyrus"

        let child = ManagedObjectContext(parent: parent)
        let departments = try child.fetch(DepartmentEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(departments.compactMap(\.name) == ["Legal", "R&D", "Sales"])
        #expect(departments.allSatisfy { $0.managedObjectContext === child })
        let childLegal = try #require(child.existingObject(with: legal.objectID) as? DepartmentEntity)
        #expect(names(childLegal.employees) == ["Ann"])
        let isCyrus = EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.name == "Cyrus" })
        let cyrus = try child.fetch(isCyrus)
        #expect(cyrus.count == 1)
        #expect(try child.explain(isCyrus).path == parent.explain(isCyrus).path, "the parent's plan")
        #expect(try child.count(for: EmployeeEntity.fetchRequest()) == 3)

        // The child's own changes on top of the parent's, in fetches, counts, sorts and windows.
        let eve = EmployeeEntity(context: child)
        eve.name = "Eve"
        child.delete(try #require(cyrus.first))
        let bob = try #require(child.fetch(EmployeeEntity.fetchRequest().matching("name", equals: "Bob")).first)
        bob.name = "Abe"
        let sorted = try child.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(sorted.compactMap(\.name) == ["Abe", "Ann", "Eve"])
        let window = try child.fetch(
            EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]).offset(by: 1).limited(to: 1))
        #expect(window.compactMap(\.name) == ["Ann"])
        let startsWithA = #Predicate<EmployeeEntity> { $0.name?.starts(with: "A") == true }
        #expect(names(try child.fetch(EmployeeEntity.fetchRequest().filtered(by: startsWithA))) == ["Abe", "Ann"])
        let legalID = legal.objectID
        let inLegal = #Predicate<EmployeeEntity> { $0.department?.objectID == legalID }
        #expect(names(try child.fetch(EmployeeEntity.fetchRequest().filtered(by: inLegal))) == ["Ann"])
        #expect(try child.explain(EmployeeEntity.fetchRequest().filtered(by: inLegal)).path == .sqlThenMemory)
        let inRnD = #Predicate<EmployeeEntity> { $0.department?.name == "R&D" }
        #expect(try child.explain(EmployeeEntity.fetchRequest().filtered(by: inRnD)).path == .memory)
        #expect(names(try child.fetch(EmployeeEntity.fetchRequest().filtered(by: inRnD))) == ["Abe"])
        #expect(try child.count(for: EmployeeEntity.fetchRequest()) == 3)
        #expect(try parent.count(for: EmployeeEntity.fetchRequest()) == 3, "the parent is untouched")
    }

    @Test(arguments: StoreKind.allCases) func discardingRollbackAndResetLeaveTheParentAlone(kind: StoreKind) throws {
        let (store, research, _) = try company(kind)
        defer { store.cleanUp() }
        let parent = store.context
        do {
            let child = ManagedObjectContext(parent: parent)
            let draft = try #require(child.object(with: research.objectID) as? DepartmentEntity)
            draft.name = "Gone"
            _ = EmployeeEntity(context: child)
            child.delete(try #require(draft.employees.first))
        }
        #expect(!parent.hasChanges)
        #expect(research.name == "Research" && research.employees.count == 2)

        let child = ManagedObjectContext(parent: parent)
        let draft = try #require(child.object(with: research.objectID) as? DepartmentEntity)
        draft.name = "Rolled back"
        child.rollback()
        #expect(draft.name == "Research")
        draft.name = "Reset"
        child.reset()
        try child.save()
        #expect(!parent.hasChanges)
        #expect(research.name == "Research")
    }

    @Test(arguments: StoreKind.allCases) func nestedChildrenSaveOneLevelAtATime(kind: StoreKind) throws {
        let (store, research, _) = try company(kind)
        defer { store.cleanUp() }
        let parent = store.context
        let child = ManagedObjectContext(parent: parent)
        let grandchild = ManagedObjectContext(parent: child)
        let draft = try #require(grandchild.object(with: research.objectID) as? DepartmentEntity)
        draft.name = "Deep"
        let hire = EmployeeEntity(context: grandchild)
        hire.name = "Gus"
        hire.department = draft
        try grandchild.save()
        let middle = try #require(child.object(with: research.objectID) as? DepartmentEntity)
        #expect(middle.name == "Deep" && names(middle.employees) == ["Ann", "Bob", "Gus"])
        #expect(!parent.hasChanges)
        try child.save()
        #expect(research.name == "Deep" && names(research.employees) == ["Ann", "Bob", "Gus"])
        try parent.save()
        let reopened = try store.reopened()
        #expect(try reopened.count(for: EmployeeEntity.fetchRequest()) == 4)
    }

    @Test(arguments: StoreKind.allCases) func orderedRelationshipsInversesAndSubEntitiesComeAcross(kind: StoreKind)
        throws
    {
        let store = try TestStore(kind, model: RosterModel.model)
        defer { store.cleanUp() }
        let parent = store.context
        let team = RosterTeam(context: parent)
        team.name = "Blue"
        let first = RosterPlayer(context: parent)
        first.name = "First"
        let last = RosterPerson(context: parent)
        last.name = "Last"
        team.members = [first, last]
        try parent.save()

        let child = ManagedObjectContext(parent: parent)
        let draftTeam = try #require(child.object(with: team.objectID) as? RosterTeam)
        let middle = RosterPlayer(context: child)
        middle.name = "Middle"
        middle.number = 7
        draftTeam.insertObject(middle, at: 1, into: "members")
        let draftLast = try #require(draftTeam.members.last)
        middle.mentor = draftLast
        #expect(draftTeam.members.compactMap(\.name) == ["First", "Middle", "Last"])
        try child.save()

        #expect(team.members.compactMap(\.name) == ["First", "Middle", "Last"])
        let pushed = try #require(team.members[1] as? RosterPlayer)
        #expect(pushed.number == 7 && pushed.team === team)
        #expect(pushed.mentor === last && last.mentees == [pushed])
        try parent.save()
        let reopened = try store.reopened()
        let stored = try #require(reopened.fetch(FetchRequest<RosterTeam>()).first)
        #expect(stored.members.compactMap(\.name) == ["First", "Middle", "Last"])

        // Reordering and moving in a child.
        let second = ManagedObjectContext(parent: parent)
        let secondTeam = try #require(second.object(with: team.objectID) as? RosterTeam)
        secondTeam.members = secondTeam.members.reversed()
        try second.save()
        #expect(team.members.compactMap(\.name) == ["Last", "Middle", "First"])
    }

    @Test(arguments: StoreKind.allCases) func deletionsCarryTheirRulesAndValidate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RosterModel.model)
        defer { store.cleanUp() }
        let parent = store.context
        let team = RosterTeam(context: parent)
        let trophy = RosterTrophy(context: parent)
        trophy.team = team
        let person = RosterPerson(context: parent)
        person.team = team
        let badge = RosterBadge(context: parent)
        badge.owner = person
        try parent.save()

        let child = ManagedObjectContext(parent: parent)
        let draftPerson = try #require(child.object(with: person.objectID) as? RosterPerson)
        child.delete(draftPerson)
        let draftTeam = try #require(child.object(with: team.objectID) as? RosterTeam)
        #expect(draftTeam.members.isEmpty)
        try child.save()
        #expect(person.isDeleted && badge.isDeleted, "the cascade reached the parent")
        #expect(team.members.isEmpty)
        #expect(parent.deletedObjects == [person, badge])

        // Deny: the child's save fails and nothing reaches the parent.
        let denied = ManagedObjectContext(parent: parent)
        denied.delete(try #require(denied.object(with: team.objectID)))
        #expect(throws: ValidationError.self) { try denied.save() }
        #expect(!team.isDeleted)
        try parent.save()
        #expect(try store.reopened().count(for: FetchRequest<RosterBadge>()) == 0)
    }

    @Test(arguments: StoreKind.allCases) func manyToManyDiscardedInsertionsAndTheParentsInsertions(kind: StoreKind)
        throws
    {
        let (store, research, sales) = try company(kind)
        defer { store.cleanUp() }
        let parent = store.context
        let acme = BusinessEntity(context: parent)
        acme.name = "Acme"
        acme.departments = [research]
        let pending = EmployeeEntity(context: parent)
        pending.name = "Pending"
        pending.business = acme

        let child = ManagedObjectContext(parent: parent)
        let draftAcme = try #require(child.object(with: acme.objectID) as? BusinessEntity)
        #expect(draftAcme.departments.compactMap(\.name) == ["Research"] && draftAcme.isInserted == false)
        let draftSales = try #require(child.object(with: sales.objectID) as? DepartmentEntity)
        draftAcme.addToDepartments(draftSales)  // a join table row
        #expect(draftSales.businesses == [draftAcme])
        let scrap = EmployeeEntity(context: child)
        scrap.name = "Scrap"
        child.delete(scrap)  // inserted and deleted: nothing to hand over
        child.delete(try #require(child.object(with: pending.objectID)))  // the parent's own insertion
        try child.save()
        #expect(Set(acme.departments) == [research, sales] && sales.businesses == [acme])
        #expect(parent.insertedObjects == [acme], "the parent's insertion, deleted in the child, is gone")
        #expect(acme.employees.isEmpty)
        #expect(parent.object(with: scrap.objectID)?.isInserted != true)
        try parent.save()
        let reopened = try store.reopened()
        let stored = try #require(reopened.fetch(BusinessEntity.fetchRequest()).first)
        #expect(stored.departments.compactMap(\.name).sorted() == ["Research", "Sales"])
        #expect(try reopened.count(for: EmployeeEntity.fetchRequest()) == 3)
    }

    @Test(arguments: StoreKind.allCases) func aMergingChildTakesWhatTheParentSaves(kind: StoreKind) throws {
        let (store, research, _) = try company(kind)
        defer { store.cleanUp() }
        let child = ManagedObjectContext(parent: store.context)
        child.automaticallyMergesChangesFromParent = true
        let draft = try #require(child.object(with: research.objectID) as? DepartmentEntity)
        #expect(draft.name == "Research" && draft.employees.count == 2)
        research.name = "R&D"
        EmployeeEntity(context: store.context).department = research
        #expect(draft.name == "Research", "unsaved in the parent: the child keeps what it read")
        try store.context.save()
        #expect(draft.name == "R&D" && draft.employees.count == 3)
        var ids: [ObjectID] = [draft.objectID]
        try child.obtainPermanentIDs(for: [draft])
        ids.append(draft.objectID)
        #expect(ids[0] == ids[1] && !ids[0].isTemporaryID)
    }

    @Test(arguments: StoreKind.allCases) func theParentsObserversAreNotified(kind: StoreKind) throws {
        let (store, research, _) = try company(kind)
        defer { store.cleanUp() }
        let child = ManagedObjectContext(parent: store.context)
        let name = Notifications()
        withObservationTracking {
            _ = research.name
        } onChange: {
            name.increment()
        }
        let employees = Notifications()
        withObservationTracking {
            _ = research.employees
        } onChange: {
            employees.increment()
        }
        let draft = try #require(child.object(with: research.objectID) as? DepartmentEntity)
        draft.name = "R&D"
        EmployeeEntity(context: child).department = draft
        #expect(name.value == 0 && employees.value == 0)
        try child.save()
        #expect(name.value == 1 && employees.value == 1)
    }
}

/// The README's scratch-pad snippet, as written there.
@Suite("README: child contexts, undo, object comparisons")
struct ReadmeChildContextSnippetTests {
    @Test func snippetRuns() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        let rnd = DepartmentEntity(context: context)
        rnd.name = "R&D"
        let ann = EmployeeEntity(context: context)
        ann.department = rnd
        try context.save()

        let editor = ManagedObjectContext(parent: context)  // a child context (no concurrency type: see below)
        let draft = editor.object(with: acme.objectID) as? BusinessEntity
        draft?.name = "Acme Corp"
        try editor.save()  // into `context` (validated), not the store
        #expect(acme.name == "Acme Corp" && context.hasChanges)
        try context.save()  // now the store; dropping `editor` instead discards
        context.undoManager = UndoManager()  // nil by default, as in Core Data
        acme.name = "Renamed"
        context.undo()  // also redo(), processPendingChanges(), groups
        #expect(acme.name == "Acme Corp")
        let deptID = rnd.objectID  // predicates capture IDs, not objects (not Sendable)
        let staff = try context.fetch(
            EmployeeEntity.fetchRequest()
                .filtered(by: #Predicate { $0.department?.objectID == deptID }))  // SQL: foreign key = ?
        let same = try context.fetch(EmployeeEntity.fetchRequest().matching(\.department, equals: rnd))
        #expect(staff == [ann] && same == [ann])
    }
}
