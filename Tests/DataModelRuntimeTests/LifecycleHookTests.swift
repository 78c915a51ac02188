import DataModelRuntime
import Foundation
import Testing

/// A folder whose class overrides Core Data's lifecycle methods and writes down each call.
final class HookFolder: ManagedObject {
    var events: [String] = []

    var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }
    var lastTitle: String? {
        get { value(for: "lastTitle") }
        set { setValue(newValue, for: "lastTitle") }
    }
    var notes: Set<HookNote> {
        get { toManySet(for: "notes") }
        set { setToManySet(newValue, for: "notes") }
    }

    override func willSave() { events.append("willSave") }
    override func didSave() { events.append("didSave") }
    override func prepareForDeletion() { events.append("prepareForDeletion notes=\(notes.count)") }
    override func awakeFromFetch() { events.append("awakeFromFetch") }
    override func willTurnIntoFault() { events.append("willTurnIntoFault") }
    override func didTurnIntoFault() { events.append("didTurnIntoFault") }
}

/// An error a note's validation throws that is not a `ValidationError`.
struct BadNoteTitle: LocalizedError {
    var errorDescription: String? { "'bad' is not a title" }
}

/// A note whose class overrides every lifecycle method.
final class HookNote: ManagedObject {
    var events: [String] = []

    var title: String? {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }
    var created: Date? {
        get { value(for: "created") }
        set { setValue(newValue, for: "created") }
    }
    var modified: Date? {
        get { value(for: "modified") }
        set { setValue(newValue, for: "modified") }
    }
    /// Transient: filled in `awakeFromFetch()`.
    var summary: String? {
        get { value(for: "summary") }
        set { setValue(newValue, for: "summary") }
    }
    var folder: HookFolder? {
        get { value(forKey: "folder") as? HookFolder }
        set { setValue(newValue, forKey: "folder") }
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        events.append("awakeFromInsert")
        created = Date(timeIntervalSince1970: 1_000)
    }
    override func awakeFromFetch() {
        super.awakeFromFetch()
        events.append("awakeFromFetch")
        summary = "about " + (title ?? "nothing")
    }
    override func willSave() {
        events.append("willSave")
        guard !isDeleted else { return }
        modified = Date(timeIntervalSince1970: 2_000)
        // Changes another object: that one gets `willSave()` in the next pass.
        if let folder, !folder.isDeleted { folder.lastTitle = title }
    }
    override func didSave() { events.append("didSave") }
    override func prepareForDeletion() { events.append("prepareForDeletion folder=\(folder?.name ?? "none")") }
    override func willTurnIntoFault() { events.append("willTurnIntoFault") }
    override func didTurnIntoFault() { events.append("didTurnIntoFault") }
    override func validateForInsert() throws {
        try super.validateForInsert()
        events.append("validateForInsert")
        if title == "bad" { throw BadNoteTitle() }
    }
    override func validateForUpdate() throws {
        events.append("validateForUpdate")
        if title?.isEmpty == true {
            throw ValidationError(object: self, property: "title", message: "a note needs a title")
        }
    }
    override func validateForDelete() throws {
        events.append("validateForDelete")
        if title == "keep" { throw ValidationError(object: self, message: "this note is kept") }
    }
}

/// Core Data's lifecycle methods (`awakeFromInsert()`, `awakeFromFetch()`, `willSave()`, `didSave()`,
/// `prepareForDeletion()`, `willTurnIntoFault()`, `didTurnIntoFault()`, `validateFor…()`) called by the runtime on a
/// class that overrides them, when Core Data calls them.
@Suite struct LifecycleHookTests {
    static let model = ManagedObjectModel(
        name: "LifecycleHooks",
        entities: [
            EntityDescription(
                name: "Folder", objectType: HookFolder.self,
                attributes: [
                    AttributeDescription(name: "name", type: .string, isOptional: false),
                    AttributeDescription(name: "lastTitle", type: .string),
                ],
                relationships: [
                    RelationshipDescription(
                        name: "notes", destinationEntityName: "Note", inverseName: "folder", isToMany: true,
                        deleteRule: .cascade)
                ]),
            EntityDescription(
                name: "Note", objectType: HookNote.self,
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "created", type: .date),
                    AttributeDescription(name: "modified", type: .date),
                    AttributeDescription(name: "summary", type: .string, isTransient: true),
                ],
                relationships: [
                    RelationshipDescription(name: "folder", destinationEntityName: "Folder", inverseName: "notes")
                ]),
        ])

    /// A saved folder `Work` with notes `a` and `b`; the store.
    static func savedFolder() throws -> TestStore {
        let store = try TestStore(.sqlite, model: model)
        let folder = HookFolder(context: store.context)
        folder.name = "Work"
        for title in ["a", "b"] {
            let note = HookNote(context: store.context)
            note.title = title
            note.folder = folder
        }
        try store.context.save()
        return store
    }

    @Test func awakeFromInsertRunsOnceForEveryWayOfInsertingAndItsValuesAreInitial() throws {
        let store = try TestStore(.sqlite, model: Self.model)
        let context = store.context
        let made = HookNote(context: context)
        let named = try #require(try context.insertNewObject(forEntityName: "Note") as? HookNote)
        let described = HookNote(entity: try #require(Self.model.entity(forName: "Note")), insertInto: context)
        for note in [made, named, described] {
            #expect(note.events == ["awakeFromInsert"])
            #expect(note.created == Date(timeIntervalSince1970: 1_000))
            #expect(note.isInserted && !note.isUpdated)
            #expect(note.changedValues()["created"] as? Date == Date(timeIntervalSince1970: 1_000))
        }
        made.title = "kept"
        try context.save()
        #expect(made.events == ["awakeFromInsert", "willSave", "validateForInsert", "didSave"])
        let fetched = try store.reopened().fetch(FetchRequest<HookNote>(entityName: "Note"))
        #expect(fetched.count == 3)
        #expect(fetched.allSatisfy { $0.created == Date(timeIntervalSince1970: 1_000) })
        #expect(fetched.allSatisfy { !$0.events.contains("awakeFromInsert") })
    }

    @Test func awakeFromFetchRunsWhenValuesAreReadAndItsChangesAreNotChanges() throws {
        let store = try TestStore.savedFolderStore()
        let context = try store.reopened()
        let notes = try context.fetch(FetchRequest<HookNote>(entityName: "Note"))
        #expect(notes.count == 2)
        for note in notes {
            #expect(note.events == ["awakeFromFetch"])
            #expect(note.summary == "about \(note.title ?? "")")
            #expect(!note.hasChanges)
        }
        #expect(!context.hasChanges)
        #expect(context.updatedObjects.isEmpty)
        // Fetched again: registered with its values, not read again.
        _ = try context.fetch(FetchRequest<HookNote>(entityName: "Note"))
        #expect(notes.allSatisfy { $0.events == ["awakeFromFetch"] })
        try context.save()
        #expect(notes.allSatisfy { !$0.events.contains("willSave") })

        // A fault fires: once.
        let other = try store.reopened()
        let fault = try #require(other.object(with: notes[0].objectID) as? HookNote)
        #expect(fault.isFault && fault.events.isEmpty)
        _ = fault.title
        _ = fault.title
        #expect(fault.events == ["awakeFromFetch"])
        // The folder, read through the note's to-one, then its to-many, which reads the other note.
        let folder = try #require(fault.folder)
        #expect(folder.notes.count == 2)
        #expect(folder.events == ["awakeFromFetch"])
        #expect(folder.notes.allSatisfy { $0.events == ["awakeFromFetch"] })

        // Refreshed without merging: a fault again, read again on the next access.
        other.refresh(fault, mergeChanges: false)
        #expect(fault.events == ["awakeFromFetch", "willTurnIntoFault", "didTurnIntoFault"])
        _ = fault.title
        #expect(fault.events == ["awakeFromFetch", "willTurnIntoFault", "didTurnIntoFault", "awakeFromFetch"])
        #expect(!other.hasChanges)

        // Fetches in batches: faults until a batch is read.
        let batched = try store.reopened()
        let request = FetchRequest<HookNote>(entityName: "Note")
        request.fetchBatchSize = 1
        let faults = try batched.fetch(request)
        #expect(faults.allSatisfy { $0.events.isEmpty })
        _ = faults[1].title
        #expect(faults[1].events == ["awakeFromFetch"])
        #expect(faults[0].events.isEmpty)
    }

    @Test func willSaveChangesAreSavedAndReachOtherObjects() throws {
        let store = try TestStore.savedFolderStore()
        let context = try store.reopened()
        let note = try #require(try context.fetch(FetchRequest<HookNote>(entityName: "Note")).first { $0.title == "a" })
        let folder = try #require(note.folder)
        note.events = []
        note.title = "a2"
        try context.save()
        // The note changed its folder in `willSave()`: the folder got `willSave()` in a second pass, and was saved.
        #expect(note.events == ["willSave", "validateForUpdate", "didSave"])
        #expect(folder.events == ["awakeFromFetch", "willSave", "didSave"])
        #expect(!context.hasChanges)
        let reread = try store.reopened()
        let saved = try #require(
            try reread.fetch(FetchRequest<HookNote>(entityName: "Note")).first { $0.title == "a2" })
        #expect(saved.modified == Date(timeIntervalSince1970: 2_000))
        #expect(saved.folder?.lastTitle == "a2")
        // Nothing to save: no calls.
        try context.save()
        #expect(note.events == ["willSave", "validateForUpdate", "didSave"])
    }

    @Test func validationMethodsFailTheSaveWithEveryFailureAndNothingWritten() throws {
        let store = try TestStore.savedFolderStore()
        let context = try store.reopened()
        let notes = try context.fetch(FetchRequest<HookNote>(entityName: "Note"))
        let a = try #require(notes.first { $0.title == "a" })
        a.title = ""
        let bad = HookNote(context: context)
        bad.title = "bad"
        let orphan = HookFolder(context: context)  // no name: the model's rule
        do {
            try context.save()
            Issue.record("the save succeeded")
        } catch let error as ValidationError {
            let failures = error.failures.map { "\($0.entityName).\($0.property) \($0.rule): \($0.message)" }
            #expect(
                failures == [
                    "Folder.name missingValue: a value is required",
                    "Note. custom: 'bad' is not a title",
                    "Note.title custom: a note needs a title",
                ])
        }
        #expect(context.hasChanges)
        let reread = try store.reopened()
        #expect(
            try reread.fetch(FetchRequest<HookNote>(entityName: "Note")).compactMap(\.title).sorted() == ["a", "b"])

        // Fixed, the save goes through; a deletion's own rule is asked too.
        a.title = "a"
        bad.title = "good"
        orphan.name = "Home"
        try context.save()
        let b = try #require(notes.first { $0.title == "b" })
        b.title = "keep"
        try context.save()
        context.delete(b)
        #expect(throws: ValidationError.self) { try context.save() }
        #expect(b.events.suffix(2) == ["willSave", "validateForDelete"])
        context.rollback()
        #expect(!b.isDeleted)
    }

    @Test func deletionCallsPrepareForDeletionBeforeTheRulesAndFaultsAfterTheSave() throws {
        let store = try TestStore.savedFolderStore()
        let context = try store.reopened()
        let folder = try #require(try context.fetch(FetchRequest<HookFolder>(entityName: "Folder")).first)
        let notes = folder.notes
        context.delete(folder)
        // The folder still had its notes, and each note its folder, when asked.
        #expect(folder.events == ["awakeFromFetch", "prepareForDeletion notes=2"])
        for note in notes {
            #expect(note.events == ["awakeFromFetch", "prepareForDeletion folder=Work"])
        }
        try context.save()
        #expect(
            folder.events == [
                "awakeFromFetch", "prepareForDeletion notes=2", "willSave", "willTurnIntoFault", "didTurnIntoFault",
                "didSave",
            ])
        for note in notes {
            #expect(
                note.events.suffix(5) == [
                    "willSave", "validateForDelete", "willTurnIntoFault", "didTurnIntoFault", "didSave",
                ])
        }
        #expect(try store.reopened().count(for: FetchRequest<HookNote>(entityName: "Note")) == 0)
    }

    @Test func resetAndRollbackLetObjectsGo() throws {
        let store = try TestStore.savedFolderStore()
        let context = try store.reopened()
        let notes = try context.fetch(FetchRequest<HookNote>(entityName: "Note"))
        let inserted = HookNote(context: context)
        context.rollback()
        #expect(inserted.events == ["awakeFromInsert", "willTurnIntoFault", "didTurnIntoFault"])
        context.reset()
        #expect(notes.allSatisfy { $0.events == ["awakeFromFetch", "willTurnIntoFault", "didTurnIntoFault"] })
    }
}

/// Classes that count `awakeFromInsert()` calls, for entities that say whether their class is generated.
class CountingObject: ManagedObject {
    var inserts = 0
    override func awakeFromInsert() { inserts += 1 }
}
final class GeneratedLikeObject: CountingObject {}
class UserBaseObject: CountingObject {}
final class GeneratedChildObject: UserBaseObject {}

extension LifecycleHookTests {
    /// An entity whose class the generator wrote (`hasGeneratedClass`, as generated model files say) is not asked:
    /// such a class overrides nothing, and skipping the calls keeps fetches and saves at their cost without them. A
    /// generated class under an entity whose class is yours inherits your overrides, and is asked.
    @Test func generatedClassesAreAskedOnlyUnderAClassOfYours() throws {
        let model = ManagedObjectModel(
            name: "GeneratedLifecycle",
            entities: [
                EntityDescription(name: "Plain", objectType: GeneratedLikeObject.self, hasGeneratedClass: true),
                EntityDescription(name: "Base", objectType: UserBaseObject.self),
                EntityDescription(
                    name: "Child", parentName: "Base", objectType: GeneratedChildObject.self, hasGeneratedClass: true),
            ])
        let store = try TestStore(.inMemory, model: model)
        #expect(GeneratedLikeObject(context: store.context).inserts == 0)
        #expect(UserBaseObject(context: store.context).inserts == 1)
        #expect(GeneratedChildObject(context: store.context).inserts == 1)
    }
}

extension TestStore {
    /// ``LifecycleHookTests/savedFolder()``.
    static func savedFolderStore() throws -> TestStore { try LifecycleHookTests.savedFolder() }
}

/// A class written as a Core Data class with custom accessors: primitive values bracketed by `will…`/`did…`.
final class PortedAccessorsNote: ManagedObject {
    var title: String? {
        get {
            willAccessValue(forKey: "title")
            defer { didAccessValue(forKey: "title") }
            return primitiveValue(forKey: "title") as? String
        }
        set {
            willChangeValue(forKey: "title")
            defer { didChangeValue(forKey: "title") }
            setPrimitiveValue(newValue, forKey: "title")
        }
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Date(timeIntervalSince1970: 1_000), forKey: "created")
    }
    override func willSave() {
        super.willSave()
        if !isDeleted { setPrimitiveValue(Date(timeIntervalSince1970: 2_000), forKey: "modified") }
    }
}

extension LifecycleHookTests {
    /// Core Data's custom-accessor spellings compile and read, write, record and save as the plain ones do.
    @Test func customAccessorsOfACoreDataClassWorkAsTheyAre() throws {
        var model = Self.model
        model = ManagedObjectModel(
            name: "PortedAccessors",
            entities: model.entities.map { entity in
                var entity = entity
                if entity.name == "Note" { entity.objectType = PortedAccessorsNote.self }
                if entity.name == "Folder" { entity.objectType = ManagedObject.self }
                return entity
            })
        let store = try TestStore(.sqlite, model: model)
        let note = PortedAccessorsNote(context: store.context)
        #expect(note.primitiveValue(forKey: "created") as? Date == Date(timeIntervalSince1970: 1_000))
        note.title = "ported"
        #expect(note.title == "ported")
        try store.context.save()
        note.title = "changed"
        #expect(note.isUpdated)
        #expect(note.changedValues().keys.sorted() == ["title"])
        try store.context.save()
        let saved = try #require(
            try store.reopened().fetch(FetchRequest<PortedAccessorsNote>(entityName: "Note")).first)
        #expect(saved.title == "changed")
        #expect(saved.primitiveValue(forKey: "modified") as? Date == Date(timeIntervalSince1970: 2_000))
        #expect(saved.primitiveValue(forKey: "created") as? Date == Date(timeIntervalSince1970: 1_000))
    }
}

/// A link of a chain whose `willSave()` changes the next link: each pass of a save's `willSave()` calls reaches one
/// link further, until the bound.
final class ChainLink: ManagedObject {
    var willSaveCalls = 0

    var touched: Int64 {
        get { value(for: "touched") ?? 0 }
        set { setValue(newValue, for: "touched") }
    }
    var next: ChainLink? {
        get { value(forKey: "next") as? ChainLink }
        set { setValue(newValue, forKey: "next") }
    }

    override func willSave() {
        willSaveCalls += 1
        if !isDeleted, let next { next.touched += 1 }
    }
}

extension LifecycleHookTests {
    /// An insertion that comes back (undo and redo of the creation, `insert(_:)` after a deletion, undo of the
    /// deletion) is the same object: `awakeFromInsert()` is not called again, and its values stay those it set.
    @Test func awakeFromInsertIsNotCalledAgainWhenAnInsertionComesBack() throws {
        let store = try TestStore(.sqlite, model: Self.model)
        let context = store.context
        context.undoManager = UndoManager()
        let note = HookNote(context: context)
        note.title = "first"
        context.undo()
        #expect(note.managedObjectContext == nil)
        context.redo()
        #expect(note.isInserted && note.title == "first")
        context.processPendingChanges()
        context.delete(note)
        context.insert(note)
        #expect(note.isInserted && !note.isDeleted)
        context.processPendingChanges()
        context.delete(note)
        context.undo()
        #expect(note.isInserted && !note.isDeleted)
        try context.save()
        #expect(
            note.events == [
                "awakeFromInsert", "willTurnIntoFault", "didTurnIntoFault", "prepareForDeletion folder=none",
                "prepareForDeletion folder=none", "willSave", "validateForInsert", "didSave",
            ])
        let saved = try #require(try store.reopened().fetch(FetchRequest<HookNote>(entityName: "Note")).first)
        #expect(saved.title == "first" && saved.created == Date(timeIntervalSince1970: 1_000))
    }

    /// A child context's save takes its inserted object into the parent: the object was created once (in the
    /// child), so the parent's copy gets no `awakeFromInsert()`; each context's save calls its own objects.
    @Test func anInsertionSavedFromAChildIsNotAwakenedAgainInTheParent() throws {
        let store = try TestStore(.sqlite, model: Self.model)
        let parent = store.context
        let child = ManagedObjectContext(parent: parent)
        let note = HookNote(context: child)
        note.title = "from the child"
        try child.save()
        #expect(note.events == ["awakeFromInsert", "willSave", "validateForInsert", "didSave"])
        let pushed = try #require(parent.registeredObjects.first as? HookNote)
        #expect(pushed !== note && pushed.isInserted)
        #expect(pushed.title == "from the child" && pushed.created == Date(timeIntervalSince1970: 1_000))
        #expect(!pushed.events.contains("awakeFromInsert"))
        try parent.save()
        #expect(pushed.events.suffix(3) == ["willSave", "validateForInsert", "didSave"])
        #expect(pushed.events.filter { $0 == "awakeFromInsert" }.isEmpty)
    }

    /// A save that fails calls no `didSave()`; the next attempt calls `willSave()` and the validation again, and
    /// `didSave()` once it succeeds.
    @Test func aFailedSaveCallsNoDidSaveAndTheRetryStartsOver() throws {
        let store = try TestStore.savedFolderStore()
        let context = try store.reopened()
        let note = try #require(try context.fetch(FetchRequest<HookNote>(entityName: "Note")).first { $0.title == "a" })
        note.title = ""
        #expect(throws: ValidationError.self) { try context.save() }
        #expect(note.events == ["awakeFromFetch", "willSave", "validateForUpdate"])
        #expect(note.isUpdated)
        note.title = "a2"
        try context.save()
        #expect(
            note.events == [
                "awakeFromFetch", "willSave", "validateForUpdate", "willSave", "validateForUpdate", "didSave",
            ])
    }

    /// `willSave()` calls that change other objects get those objects called in the next pass, at most 100 passes:
    /// along a chain of 150 links where each link's `willSave()` changes the next, links 0…99 are called once, link
    /// 100 (changed in the last pass) is saved with that change but not called, and the rest are left alone.
    @Test func willSavePassesStopAfterAHundred() throws {
        let model = ManagedObjectModel(
            name: "Chain",
            entities: [
                EntityDescription(
                    name: "Link", objectType: ChainLink.self,
                    attributes: [AttributeDescription(name: "touched", type: .integer64, isOptional: false)],
                    relationships: [
                        RelationshipDescription(name: "next", destinationEntityName: "Link", inverseName: "previous"),
                        RelationshipDescription(
                            name: "previous", destinationEntityName: "Link", inverseName: "next"),
                    ])
            ])
        let store = try TestStore(.sqlite, model: model)
        let context = store.context
        var links: [ChainLink] = []
        for _ in 0..<150 {
            let link = ChainLink(context: context)
            link.touched = 0
            links.last?.next = link
            links.append(link)
        }
        // Every link inserted: one pass, each called once.
        try context.save()
        #expect(links.allSatisfy { $0.willSaveCalls == 1 })
        #expect(links.dropFirst().allSatisfy { $0.touched == 1 } && links[0].touched == 0)
        for link in links { link.willSaveCalls = 0 }

        links[0].touched = 10
        try context.save()
        #expect(links[0..<100].allSatisfy { $0.willSaveCalls == 1 })
        #expect(links[100...].allSatisfy { $0.willSaveCalls == 0 })
        #expect(!context.hasChanges)
        let saved = try store.reopened().fetch(FetchRequest<ChainLink>(entityName: "Link"))
        let touched = saved.map(\.touched)
        #expect(touched.filter { $0 == 2 }.count == 100)  // links 1…100
        #expect(touched.filter { $0 == 1 }.count == 49)  // links 101…149
        #expect(touched.filter { $0 == 10 }.count == 1)  // link 0
    }
}
