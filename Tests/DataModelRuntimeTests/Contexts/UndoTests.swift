import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// `undoManager`: undo and redo of every kind of change since the last save.
@Suite("Undo manager")
struct UndoTests {
    /// A store of `kind` (removed by `cleanUp`) and its view context, with an undo manager.
    private func context(_ kind: StoreKind) throws -> (TestStore, ManagedObjectContext) {
        let store = try TestStore(kind, model: RosterModel.model)
        let context = store.context
        context.undoManager = UndoManager()
        return (store, context)
    }

    @Test func noUndoManagerByDefault() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        #expect(container.viewContext.undoManager == nil)
        let employee = EmployeeEntity(context: container.viewContext)
        employee.name = "Ann"
        container.viewContext.undo()
        #expect(employee.name == "Ann")
    }

    @Test(arguments: StoreKind.allCases) func attributeChangesUndoAndRedoPerEvent(kind: StoreKind) throws {
        let (store, context) = try context(kind)
        defer { store.cleanUp() }
        let team = RosterTeam(context: context)
        team.name = "Blue"
        try context.save()
        context.undoManager?.removeAllActions()
        team.name = "Green"
        context.processPendingChanges()
        team.name = "Red"
        team.name = "Gold"
        context.undo()
        #expect(team.name == "Green")
        context.undo()
        #expect(team.name == "Blue")
        #expect(!context.hasChanges && !team.isUpdated)
        #expect(context.undoManager?.canUndo == false)
        context.redo()
        #expect(team.name == "Green" && team.isUpdated)
        context.redo()
        #expect(team.name == "Gold")
        #expect(context.undoManager?.canRedo == false)
        try context.save()
        #expect(team.name == "Gold" && !context.hasChanges)
    }

    @Test(arguments: StoreKind.allCases) func insertionsUndoAndRedo(kind: StoreKind) throws {
        let (store, context) = try context(kind)
        defer { store.cleanUp() }
        let person = RosterPerson(context: context)
        person.name = "Ann"
        context.undo()
        #expect(context.insertedObjects.isEmpty && person.managedObjectContext == nil)
        #expect(try context.count(for: FetchRequest<RosterPerson>()) == 0)
        context.redo()
        #expect(context.insertedObjects == [person] && person.name == "Ann")
        try context.save()
        #expect(try context.count(for: FetchRequest<RosterPerson>()) == 1)
    }

    @Test(arguments: StoreKind.allCases) func deletionsUndoWithTheirDeleteRules(kind: StoreKind) throws {
        let (store, context) = try context(kind)
        defer { store.cleanUp() }
        let team = RosterTeam(context: context)
        let person = RosterPerson(context: context)
        person.team = team
        let badge = RosterBadge(context: context)
        badge.owner = person
        try context.save()
        context.delete(person)
        #expect(badge.isDeleted && team.members.isEmpty)
        context.undo()
        #expect(!person.isDeleted && !badge.isDeleted && !context.hasChanges)
        #expect(team.members == [person] && person.badges == [badge] && badge.owner === person)
        context.redo()
        #expect(person.isDeleted && badge.isDeleted && team.members.isEmpty)
        try context.save()
        #expect(try context.count(for: FetchRequest<RosterBadge>()) == 0)
    }

    @Test(arguments: StoreKind.allCases) func relationshipChangesUndoOnBothSides(kind: StoreKind) throws {
        let (store, context) = try context(kind)
        defer { store.cleanUp() }
        let blue = RosterTeam(context: context)
        let red = RosterTeam(context: context)
        let ann = RosterPerson(context: context)
        let bob = RosterPerson(context: context)
        blue.members = [ann, bob]
        try context.save()
        bob.team = red
        context.processPendingChanges()
        blue.members = [ann]
        blue.insertObject(bob, at: 0, into: "members")
        context.undo()
        #expect(blue.members == [ann] && red.members == [bob] && bob.team === red)
        context.undo()
        #expect(blue.members == [ann, bob] && red.members.isEmpty && bob.team === blue)
        #expect(!context.hasChanges)
        context.redo()
        context.redo()
        #expect(blue.members == [bob, ann] && red.members.isEmpty)
        try context.save()
        #expect(blue.members == [bob, ann])
    }

    /// Inserted objects take a to-one's inverse without recording anything while the context has no undo manager;
    /// an undo manager set later (and taken away again) must switch that off (and on): a link made while it is set
    /// undoes on both sides, links made before and after it stay.
    @Test func undoManagerSetBetweenInsertedLinksRecordsOnlyWhileSet() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.viewContext
        let sales = DepartmentEntity(context: context)
        let ann = EmployeeEntity(context: context)
        let bob = EmployeeEntity(context: context)
        let cy = EmployeeEntity(context: context)
        ann.department = sales
        context.undoManager = UndoManager()
        bob.department = sales
        context.processPendingChanges()
        #expect(sales.employees == [ann, bob])
        context.undo()
        #expect(sales.employees == [ann] && bob.department == nil && ann.department === sales)
        context.undoManager = nil
        cy.department = sales
        #expect(sales.employees == [ann, cy])
        context.undoManager = UndoManager()
        context.undo()
        #expect(sales.employees == [ann, cy] && cy.department === sales, "nothing was recorded without a manager")
    }

    @Test(arguments: StoreKind.allCases) func explicitGroupsAndRollback(kind: StoreKind) throws {
        let (store, context) = try context(kind)
        defer { store.cleanUp() }
        let manager = try #require(context.undoManager)
        let team = RosterTeam(context: context)
        team.name = "Blue"
        try context.save()
        manager.beginUndoGrouping()
        team.name = "Red"
        let person = RosterPerson(context: context)
        person.team = team
        manager.beginUndoGrouping()
        person.name = "Nested"
        manager.endUndoGrouping()
        manager.endUndoGrouping()
        manager.setActionName("Add Person")
        #expect(manager.undoActionName == "Add Person")
        context.undo()
        #expect(team.name == "Blue" && team.members.isEmpty && !context.hasChanges)
        context.redo()
        #expect(team.name == "Red" && team.members == [person] && person.name == "Nested")
        context.rollback()
        #expect(!manager.canUndo && !manager.canRedo)
        #expect(team.name == "Blue")
    }

    @Test(arguments: StoreKind.allCases) func savedChangesUndoAsNewChanges(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RosterModel.model)
        defer { store.cleanUp() }
        let context = store.context
        context.undoManager = UndoManager()
        let team = RosterTeam(context: context)
        team.name = "Blue"
        let person = RosterPerson(context: context)
        person.team = team
        try context.save()  // ends the group and keeps it
        #expect(context.undoManager?.canUndo == true)
        team.name = "Red"
        try context.save()

        context.undo()  // the rename, saved: now an unsaved update back to "Blue"
        #expect(team.name == "Blue" && team.isUpdated)
        try context.save()
        #expect(try store.reopened().fetch(FetchRequest<RosterTeam>()).first?.name == "Blue")

        context.undo()  // the saved insertions: now unsaved deletions
        #expect(team.isDeleted && person.isDeleted)
        try context.save()
        #expect(try store.reopened().count(for: FetchRequest<RosterPerson>()) == 0)

        context.redo()  // inserted again, with their IDs and relationship
        #expect(team.isInserted && person.isInserted && person.team === team && team.managedObjectContext === context)
        try context.save()
        let reopened = try store.reopened()
        let stored = try #require(reopened.fetch(FetchRequest<RosterPerson>()).first)
        #expect(stored.objectID == person.objectID && stored.team?.objectID == team.objectID)
        #expect(stored.team?.name == "Blue")
    }

    @Test(arguments: StoreKind.allCases) func childSavesAreUndoableInTheParent(kind: StoreKind) throws {
        let (store, context) = try context(kind)
        defer { store.cleanUp() }
        let team = RosterTeam(context: context)
        team.name = "Blue"
        try context.save()
        let child = ManagedObjectContext(parent: context)
        let draft = try #require(child.object(with: team.objectID) as? RosterTeam)
        draft.name = "Edited"
        draft.members = [RosterPerson(context: child)]
        try child.save()
        #expect(team.name == "Edited" && team.members.count == 1)
        context.undo()
        #expect(team.name == "Blue" && team.members.isEmpty && !context.hasChanges)
    }
}
