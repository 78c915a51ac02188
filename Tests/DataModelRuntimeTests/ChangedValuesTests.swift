import DataModelRuntime
import Foundation
import Testing

/// A class written by hand for the Notebook model's `Owner` entity (Manual/None codegen: the generator writes no
/// class for it), with accessors made of the calls generated code uses.
final class OwnerRecord: ManagedObject {
    var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    var notebooks: Set<Notebook> {
        get { toManySet(for: "notebooks") }
        set { setToManySet(newValue, for: "notebooks") }
    }

    /// Behaviour of its own, which a plain `ManagedObject` does not have.
    var greeting: String { "Hello, \(name ?? "nobody")" }
}

/// A class for the Notebook model's `Tag` entity, used to show that one class cannot name two entities.
final class TagRecord: ManagedObject {}

/// Classes for a hand-made hierarchy whose parent entity has a class.
class VehicleObject: ManagedObject {}
final class CarObject: VehicleObject {}
final class BoatObject: ManagedObject {}

/// Core Data's `changedValues()`, `committedValues(forKeys:)`, `changedValuesForCurrentEvent()`, and classes of
/// one's own for entities without generated ones (`ManagedObjectModel.setObjectType(_:forEntityName:)`).
@Suite("ChangedValuesTests")
struct ChangedValuesTests {
    /// A saved notebook with a title, an owner and two notes, the second note tagged `a` then `b`; returned fetched
    /// in a fresh context.
    private struct Saved {
        let store: TestStore
        let context: ManagedObjectContext
        let notebook: Notebook
        let owner: ManagedObject
        let notes: [ManagedObject]
        let tags: [ManagedObject]

        init(kind: StoreKind = .sqlite) throws {
            store = try TestStore(kind, model: NotebookModel.model)
            let writer = store.context
            let notebook = Notebook(context: writer)
            notebook.title = "Ideas"
            let owner = try writer.insertNewObject(forEntityName: "Owner")
            owner.setValue("Ann", forKey: "name")
            notebook.owner = owner
            let first = try writer.insertNewObject(forEntityName: "Note")
            first.setValue("milk", forKey: "text")
            let second = try writer.insertNewObject(forEntityName: "Note")
            second.setValue("bread", forKey: "text")
            notebook.addToNotes([first, second])
            let tagA = try writer.insertNewObject(forEntityName: "Tag")
            tagA.setValue("a", forKey: "name")
            let tagB = try writer.insertNewObject(forEntityName: "Tag")
            tagB.setValue("b", forKey: "name")
            second.setValue([tagA, tagB], forKey: "tags")
            try writer.save()

            context = try store.reopened()
            self.notebook = try #require(try context.fetch(Notebook.fetchRequest()).first)
            self.owner = try #require(self.notebook.owner)
            let notes = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Note").sorted(by: [SortDescriptor(key: "text")]))
            self.notes = notes  // bread, milk
            self.tags = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Tag").sorted(by: [SortDescriptor(key: "name")]))
        }
    }

    /// The objects of a to-many value, whichever collection holds them.
    private func objects(_ value: Any?) -> Set<ManagedObject>? {
        if let set = value as? Set<ManagedObject> { return set }
        if let array = value as? [ManagedObject] { return Set(array) }
        return nil
    }

    /// Whether `dictionary` has `key` with a `nil` value (Core Data's `NSNull`).
    private func holdsNil(_ dictionary: [String: Any], _ key: String) -> Bool {
        guard let value = dictionary[key] else { return false }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    // MARK: changedValues / committedValues

    @Test func aFetchedObjectReportsNoChangesAndItsSavedValues() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        #expect(saved.notebook.changedValues().isEmpty)
        let committed = saved.notebook.committedValues(forKeys: nil)
        #expect(Set(committed.keys) == ["title", "notes", "owner"])
        #expect(committed["title"] as? String == "Ideas")
        #expect(committed["owner"] as? ManagedObject === saved.owner)
        #expect(objects(committed["notes"]) == Set(saved.notes))
        #expect(committed["notes"] is Set<ManagedObject>)
        let some = saved.notebook.committedValues(forKeys: ["title"])
        #expect(Set(some.keys) == ["title"])
        #expect(saved.context.hasChanges == false)
    }

    @Test func changedAttributesAndRelationshipsReportTheirNewValuesAndCommittedTheOldOnes() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        let notebook = saved.notebook
        let newOwner = try saved.context.insertNewObject(forEntityName: "Owner")
        let newNote = try saved.context.insertNewObject(forEntityName: "Note")
        notebook.title = "Plans"
        notebook.owner = newOwner
        notebook.addToNotes(newNote)

        let changes = notebook.changedValues()
        #expect(Set(changes.keys) == ["title", "owner", "notes"])
        #expect(changes["title"] as? String == "Plans")
        #expect(changes["owner"] as? ManagedObject === newOwner)
        #expect(objects(changes["notes"]) == Set(saved.notes + [newNote]))

        let committed = notebook.committedValues(forKeys: ["title", "owner", "notes"])
        #expect(committed["title"] as? String == "Ideas")
        #expect(committed["owner"] as? ManagedObject === saved.owner)
        #expect(objects(committed["notes"]) == Set(saved.notes))

        // The other side of each relationship changed too (inverses).
        #expect(objects(saved.owner.changedValues()["notebooks"]) == [])
        #expect(newNote.changedValues()["notebook"] as? ManagedObject === notebook)

        // A value set back to the saved one is no change.
        notebook.title = "Ideas"
        notebook.removeFromNotes(newNote)
        #expect(Set(notebook.changedValues().keys) == ["owner"])
    }

    @Test func aClearedPropertyIsReportedWithNil() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        saved.notebook.owner = nil
        saved.notes[0].setValue(nil, forKey: "text")
        let changes = saved.notebook.changedValues()
        #expect(changes.keys.contains("owner"))
        #expect(changes["owner"] as? ManagedObject == nil)
        #expect(holdsNil(changes, "owner"))
        let noteChanges = saved.notes[0].changedValues()
        #expect(holdsNil(noteChanges, "text"))
        #expect(noteChanges["text"] as? String == nil)
        #expect(saved.notes[0].committedValues(forKeys: ["text"])["text"] as? String == "bread")
        // A committed nil is reported the same way.
        #expect(holdsNil(saved.notebook.committedValues(forKeys: ["owner"]), "owner") == false)
        try saved.context.save()
        #expect(holdsNil(saved.notebook.committedValues(forKeys: ["owner"]), "owner"))
    }

    @Test func anOrderedToManyReportsItsOrder() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        let note = saved.notes[0]  // bread, tagged a then b
        #expect((note.committedValues(forKeys: ["tags"])["tags"] as? [ManagedObject]) == saved.tags)
        note.setValue(Array(saved.tags.reversed()), forKey: "tags")
        let changes = note.changedValues()
        #expect((changes["tags"] as? [ManagedObject]) == saved.tags.reversed())
        #expect((note.committedValues(forKeys: ["tags"])["tags"] as? [ManagedObject]) == saved.tags)
        // Back in the saved order: no change.
        note.setValue(saved.tags, forKey: "tags")
        #expect(note.changedValues()["tags"] == nil)
    }

    @Test func savingMakesTheNewValuesTheCommittedOnes() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        saved.notebook.title = "Plans"
        #expect(saved.notebook.changedValues()["title"] as? String == "Plans")
        try saved.context.save()
        #expect(saved.notebook.changedValues().isEmpty)
        #expect(saved.notebook.committedValues(forKeys: ["title"])["title"] as? String == "Plans")
        saved.notebook.title = "Later"
        #expect(saved.notebook.committedValues(forKeys: ["title"])["title"] as? String == "Plans")
    }

    @Test func rollingBackLeavesNoChanges() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        saved.notebook.title = "Plans"
        saved.notebook.owner = nil
        #expect(saved.notebook.changedValues().count == 2)
        saved.context.rollback()
        #expect(saved.notebook.changedValues().isEmpty)
        #expect(saved.notebook.committedValues(forKeys: nil)["title"] as? String == "Ideas")
        #expect(saved.notebook.title == "Ideas")
    }

    @Test func anInsertedObjectReportsEveryValueAndHasNoCommittedValues() throws {
        let store = try TestStore(.inMemory, model: NotebookModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let note = try context.insertNewObject(forEntityName: "Note")
        // Defaults count: `pinned` starts at false, `text` has none, no notebook, no tags.
        #expect(Set(note.changedValues().keys) == ["pinned"])
        #expect(note.changedValues()["pinned"] as? Bool == false)
        let notebook = Notebook(context: context)
        notebook.title = "Ideas"
        notebook.addToNotes(note)
        note.setValue("milk", forKey: "text")
        let changes = note.changedValues()
        #expect(Set(changes.keys) == ["pinned", "text", "notebook"])
        #expect(changes["notebook"] as? Notebook === notebook)
        #expect(objects(notebook.changedValues()["notes"]) == [note])
        #expect(note.committedValues(forKeys: nil).isEmpty)
        #expect(note.committedValues(forKeys: ["text"]).isEmpty)
        try context.save()
        #expect(note.changedValues().isEmpty)
        #expect(note.committedValues(forKeys: ["text"])["text"] as? String == "milk")
    }

    @Test func aDeletedObjectReportsItsChangesBeforeTheDeletion() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        let note = saved.notes[1]  // milk
        // Loaded before the deletion (one loaded after it is read without the deleted note: no change then).
        #expect(saved.notebook.notes.count == 2)
        note.setValue("oat milk", forKey: "text")
        saved.context.delete(note)
        #expect(note.isDeleted)
        #expect(note.changedValues()["text"] as? String == "oat milk")
        #expect(note.committedValues(forKeys: ["text"])["text"] as? String == "milk")
        // Nullify took the note out of its notebook's notes.
        #expect(objects(saved.notebook.changedValues()["notes"]) == [saved.notes[0]])
        try saved.context.save()
        #expect(note.changedValues().isEmpty)
        #expect(saved.notebook.changedValues().isEmpty)
    }

    @Test func aFaultReportsNoChangesWithoutLoadingAndLoadsForCommittedValues() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        let context = try saved.store.reopened()
        let fault = try #require(context.object(with: saved.notebook.objectID))
        #expect(fault.isFault)
        #expect(fault.changedValues().isEmpty)
        #expect(fault.isFault)
        #expect(fault.committedValues(forKeys: ["title"])["title"] as? String == "Ideas")
        #expect(!fault.isFault)
    }

    @Test func anUnknownKeyIsAKeyValueError() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        #expect(throws: KeyValueError.unknownKey(entity: "Notebook", key: "colour")) {
            try saved.notebook.checkedCommittedValues(forKeys: ["title", "colour"])
        }
        #expect(try saved.notebook.checkedCommittedValues(forKeys: ["title"]).count == 1)
    }

    // MARK: changedValuesForCurrentEvent

    @Test(arguments: [false, true])
    func theCurrentEventReportsTheValuesBeforeIt(withUndoManager: Bool) throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        let context = saved.context
        if withUndoManager { context.undoManager = UndoManager() }
        let notebook = saved.notebook
        #expect(notebook.changedValuesForCurrentEvent().isEmpty)

        notebook.title = "A"
        var event = notebook.changedValuesForCurrentEvent()
        #expect(Set(event.keys) == ["title"])
        #expect(event["title"] as? String == "Ideas")
        context.processPendingChanges()
        #expect(notebook.changedValuesForCurrentEvent().isEmpty)
        #expect(notebook.changedValues()["title"] as? String == "A")

        // The next event: the title changed from "A", the owner from Ann's; the earlier change is not this event's.
        notebook.title = "B"
        notebook.owner = nil
        let note = try context.insertNewObject(forEntityName: "Note")
        note.setValue("eggs", forKey: "text")
        event = notebook.changedValuesForCurrentEvent()
        #expect(Set(event.keys) == ["title", "owner"])
        #expect(event["title"] as? String == "A")
        #expect(event["owner"] as? ManagedObject === saved.owner)
        #expect(notebook.changedValues()["title"] as? String == "B")
        // Inserted during the event: every value it has, each with nil (it had none before).
        let inserted = note.changedValuesForCurrentEvent()
        #expect(Set(inserted.keys) == ["pinned", "text"])
        #expect(holdsNil(inserted, "text"))
        // An object untouched in this event reports nothing.
        #expect(saved.notes[0].changedValuesForCurrentEvent().isEmpty)

        // Inserted in an earlier event, changed in this one: its values at the event's start.
        context.processPendingChanges()
        #expect(note.changedValuesForCurrentEvent().isEmpty)
        note.setValue("ham", forKey: "text")
        #expect(note.changedValuesForCurrentEvent()["text"] as? String == "eggs")
        // A value set back to the event's start is no change in this event.
        notebook.title = "C"
        notebook.title = "B"
        #expect(notebook.changedValuesForCurrentEvent().isEmpty)

        try context.save()
        #expect(note.changedValuesForCurrentEvent().isEmpty)
        notebook.title = "D"
        #expect(notebook.changedValuesForCurrentEvent()["title"] as? String == "B")
        context.rollback()
        #expect(notebook.changedValuesForCurrentEvent().isEmpty)
        #expect(notebook.title == "B")
    }

    @Test func undoEndsTheEvent() throws {
        let saved = try Saved()
        defer { saved.store.cleanUp() }
        let context = saved.context
        context.undoManager = UndoManager()
        saved.notebook.title = "A"
        context.processPendingChanges()
        saved.notebook.title = "B"
        #expect(saved.notebook.changedValuesForCurrentEvent()["title"] as? String == "A")
        context.undo()
        #expect(saved.notebook.title == "A")
        #expect(saved.notebook.changedValuesForCurrentEvent().isEmpty)
        #expect(saved.notebook.changedValues()["title"] as? String == "A")
    }

    // MARK: A class of one's own for a Manual/None entity

    @Test(arguments: StoreKind.allCases)
    func aHandWrittenClassIsUsedForInsertsFetchesAndRelationships(kind: StoreKind) throws {
        #expect(NotebookModel.model.entity(forName: "Owner")?.objectType == ManagedObject.self)
        let model = try NotebookModel.model.settingObjectType(OwnerRecord.self, forEntityName: "Owner")
        #expect(model.entity(forName: "Owner")?.objectType == OwnerRecord.self)
        let store = try TestStore(kind, model: model)
        defer { store.cleanUp() }
        let context = store.context

        let ann = OwnerRecord(context: context)
        ann.name = "Ann"
        let bob = try #require(try context.insertNewObject(forEntityName: "Owner") as? OwnerRecord)
        bob.name = "Bob"
        let notebook = Notebook(context: context)
        notebook.title = "Ideas"
        notebook.owner = ann
        #expect(ann.notebooks == [notebook])
        #expect(ann.changedValues()["name"] as? String == "Ann")
        try context.save()

        let reopened = try store.reopened()
        let owners = try reopened.fetch(
            FetchRequest<OwnerRecord>(entityName: "Owner").sorted(by: [SortDescriptor(key: "name")]))
        #expect(owners.map(\.name) == ["Ann", "Bob"])
        #expect(owners.map(\.greeting) == ["Hello, Ann", "Hello, Bob"])
        #expect(owners.allSatisfy { type(of: $0) == OwnerRecord.self })
        let fetchedNotebook = try #require(try reopened.fetch(Notebook.fetchRequest()).first)
        let owner = try #require(fetchedNotebook.owner as? OwnerRecord)
        #expect(owner === owners[0])
        #expect(owner.notebooks == [fetchedNotebook])
        let generic = try reopened.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
        #expect(generic.allSatisfy { $0 is OwnerRecord })
        owner.name = "Anna"
        #expect(owner.committedValues(forKeys: ["name"])["name"] as? String == "Ann")
        try reopened.save()
        #expect(
            try store.reopened().fetch(FetchRequest<OwnerRecord>(entityName: "Owner")).contains { $0.name == "Anna" })
    }

    @Test func settingAClassIsChecked() throws {
        var model = NotebookModel.model
        #expect(throws: EntityClassError.self) { try model.setObjectType(OwnerRecord.self, forEntityName: "Owners") }
        do {
            try model.setObjectType(OwnerRecord.self, forEntityName: "Notebook")
            Issue.record("an entity with a generated class took another")
        } catch {
            #expect(
                error
                    == .entityHasClass(
                        entity: "Notebook", existing: "DataModelRuntimeTests.Notebook",
                        requested: "DataModelRuntimeTests.OwnerRecord"))
            #expect(error.description.contains("already has the class"))
        }
        try model.setObjectType(OwnerRecord.self, forEntityName: "Owner")
        try model.setObjectType(OwnerRecord.self, forEntityName: "Owner")  // the same class again: nothing to do
        #expect(
            throws: EntityClassError.classInUse(
                className: "DataModelRuntimeTests.OwnerRecord", entity: "Owner", requestedEntity: "Tag")
        ) {
            try model.setObjectType(OwnerRecord.self, forEntityName: "Tag")
        }
        try model.setObjectType(TagRecord.self, forEntityName: "Tag")
        #expect(model.entity(forName: "Tag")?.objectType == TagRecord.self)
        // A class once set is the entity's: another is refused like a generated one.
        #expect(throws: EntityClassError.self) { try model.setObjectType(TagRecord.self, forEntityName: "Owner") }
        #expect(model.entity(forName: "Owner")?.objectType == OwnerRecord.self)
        // The unknown entity's message lists the model's entities.
        do {
            try model.setObjectType(OwnerRecord.self, forEntityName: "Owners")
        } catch {
            #expect(error.description.contains("Notebook, Owner, Tag"))
        }
    }

    @Test func aClassMustBeASubclassOfItsParentEntitysClass() throws {
        var model = ManagedObjectModel(
            name: "Vehicles",
            entities: [
                EntityDescription(name: "Vehicle", objectType: VehicleObject.self),
                EntityDescription(name: "Car", parentName: "Vehicle", objectType: ManagedObject.self),
            ])
        #expect(
            throws: EntityClassError.notASubclassOfParentClass(
                className: "DataModelRuntimeTests.BoatObject", entity: "Car", parentEntity: "Vehicle",
                parentClass: "DataModelRuntimeTests.VehicleObject")
        ) {
            try model.setObjectType(BoatObject.self, forEntityName: "Car")
        }
        try model.setObjectType(CarObject.self, forEntityName: "Car")
        #expect(model.entity(forName: "Car")?.objectType == CarObject.self)
    }
}
