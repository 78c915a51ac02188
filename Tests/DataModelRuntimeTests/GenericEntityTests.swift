import DataModelRuntime
import Foundation
import Testing

/// Entities whose class is `NSManagedObject` (older models' "no custom class"), mixed with generated classes in
/// the Notebook model: objects of the generic `ManagedObject`, reached by entity name.
@Suite("Entities of the generic class")
struct GenericEntityTests {
    @Test func theModelKeepsThemWithTheGenericClass() {
        let model = NotebookModel.model
        #expect(model.entities.map(\.name).sorted() == ["ChecklistNote", "Note", "Notebook", "Owner", "Tag"])
        for name in ["Note", "Owner", "Tag"] {
            #expect(model.entity(forName: name)?.objectType == ManagedObject.self)
            #expect(model.entity(forName: name)?.managedObjectClassName == "ManagedObject")
        }
        #expect(model.entity(forName: "Notebook")?.objectType == Notebook.self)
        #expect(model.entity(forName: "ChecklistNote")?.objectType == ChecklistNote.self)
    }

    @Test(arguments: StoreKind.allCases)
    func insertRelateSaveAndFetchByEntityName(kind: StoreKind) throws {
        let store = try TestStore(kind, model: NotebookModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let notebook = Notebook(context: context)
        notebook.title = "Ideas"
        let owner = try context.insertNewObject(forEntityName: "Owner")
        owner.setValue("Ann", forKey: "name")
        notebook.owner = owner
        let entity = try #require(EntityDescription.entity(forEntityName: "Note", in: context))
        let first = ManagedObject(entity: entity, insertInto: context)
        first.setValue("buy milk", forKey: "text")
        first.setValue(notebook, forKey: "notebook")
        let second = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
        second.setValue("call Bob", forKey: "text")
        second.setValue(true, forKey: "pinned")
        notebook.addToNotes(second)
        let checklist = ChecklistNote(context: context)
        checklist.setValue("packing", forKey: "text")
        checklist.itemCount = 3
        notebook.addToNotes(checklist)
        let tag = EntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("home", forKey: "name")
        first.setValue([tag], forKey: "tags")
        #expect(type(of: first) == ManagedObject.self)
        #expect(first.entity.name == "Note")
        // The inverse is kept on both sides, through the generic class too.
        #expect((tag.value(forKey: "notes") as? Set<ManagedObject>) == [first])
        #expect(notebook.notes.count == 3)
        #expect((owner.value(forKey: "notebooks") as? Set<ManagedObject>)?.count == 1)
        try context.save()

        let reopened = try store.reopened()
        // Fetched by entity name: objects of the generic class (sub-entity objects of their own class).
        let notes = try reopened.fetch(
            FetchRequest<ManagedObject>(entityName: "Note").sorted(by: [SortDescriptor(\.objectID.primaryKey)]))
        #expect(notes.count == 3)
        #expect(Set(notes.map(\.entity.name)) == ["Note", "ChecklistNote"])
        let texts = notes.compactMap { $0.value(forKey: "text") as? String }.sorted()
        #expect(texts == ["buy milk", "call Bob", "packing"])
        let pinned = try reopened.fetch(
            FetchRequest<ManagedObject>(entityName: "Note").matching("pinned", equals: true))
        #expect(pinned.map { $0.value(forKey: "text") as? String } == ["call Bob"])
        let fetchedChecklist = try #require(try reopened.fetch(ChecklistNote.fetchRequest()).first)
        #expect(fetchedChecklist.itemCount == 3)
        #expect(fetchedChecklist.value(forKey: "text") as? String == "packing")
        let fetchedNotebook = try #require(try reopened.fetch(Notebook.fetchRequest()).first)
        #expect(fetchedNotebook.owner?.value(forKey: "name") as? String == "Ann")
        #expect(fetchedNotebook.notes.count == 3)
        let milk = try #require(notes.first { $0.value(forKey: "text") as? String == "buy milk" })
        #expect(
            (milk.value(forKey: "tags") as? [ManagedObject])?.map { $0.value(forKey: "name") as? String } == ["home"])
        #expect((milk.value(forKey: "notebook") as? Notebook) === fetchedNotebook)

        // Cascade from the generated class to the generic one.
        reopened.delete(fetchedNotebook)
        try reopened.save()
        #expect(try reopened.count(for: FetchRequest<ManagedObject>(entityName: "Note")) == 0)
        #expect(try reopened.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 1)
    }

    @Test func wrongValuesAreRefusedOnGenericObjects() throws {
        let store = try TestStore(.inMemory, model: NotebookModel.model)
        let context = store.context
        let note = try context.insertNewObject(forEntityName: "Note")
        #expect(throws: KeyValueError.unknownKey(entity: "Note", key: "txt")) {
            try note.setCheckedValue("x", forKey: "txt")
        }
        #expect(throws: KeyValueError.self) { try note.setCheckedValue(42, forKey: "text") }
        let tag = try context.insertNewObject(forEntityName: "Tag")
        // A Tag is not a Notebook.
        #expect(throws: KeyValueError.self) { try note.setCheckedValue(tag, forKey: "notebook") }
        #expect(note.value(forKey: "notebook") == nil)
    }

    @Test func theGeneratedCodeTypesRelationshipsToThemAsManagedObject() {
        #expect(type(of: \Notebook.notes) == ReferenceWritableKeyPath<Notebook, Set<ManagedObject>>.self)
        #expect(type(of: \Notebook.owner) == ReferenceWritableKeyPath<Notebook, ManagedObject?>.self)
        // The sub-entity of a generic entity is a direct subclass of the generic class.
        #expect(class_getSuperclassName(ChecklistNote.self) == "ManagedObject")
    }
}

private func class_getSuperclassName(_ type: AnyClass) -> String? {
    (_getSuperclass(type)).map { String(describing: $0) }
}
