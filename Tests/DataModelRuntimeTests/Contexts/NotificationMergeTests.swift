import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Core Data's ways of merging by hand: `mergeChanges(fromContextDidSave:)` with a save notification, and
/// `mergeChanges(fromRemoteContextSave:into:)` with IDs, and the string keys of the notifications' `userInfo`.
@Suite("Merging from notifications and ID dictionaries")
struct NotificationMergeTests {
    @Test(
        "a context merges another's save notification; its userInfo has Core Data's string keys",
        arguments: StoreKind.allCases)
    func fromContextDidSave(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let ann = EmployeeEntity(context: view)
        ann.name = "Ann"
        let bob = EmployeeEntity(context: view)
        bob.name = "Bob"
        try view.save()

        let background = store.container.newBackgroundContext()
        background.postsChangeNotifications = true
        let received = ReceivedNotification()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: background, queue: nil
        ) { notification in received.notification = notification }
        defer { NotificationCenter.default.removeObserver(observer) }
        let backgroundAnn = try #require(try background.existingObject(with: ann.objectID) as? EmployeeEntity)
        backgroundAnn.name = "Anna"
        background.delete(try background.existingObject(with: bob.objectID))
        let carl = EmployeeEntity(context: background)
        carl.name = "Carl"
        try background.save()

        let notification = try #require(received.notification)
        let info = try #require(notification.userInfo)
        #expect(info[NSUpdatedObjectsKey] as? Set<ObjectID> == [ann.objectID])
        #expect(info[NSDeletedObjectsKey] as? Set<ObjectID> == [bob.objectID])
        #expect(info[NSInsertedObjectsKey] as? Set<ObjectID> == [carl.objectID])
        #expect(
            info[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ObjectID> == [carl.objectID])
        #expect(info[ManagedObjectContext.NotificationKey.insertedObjects] as? Set<ObjectID> == [carl.objectID])

        // Not merging by itself: the view context still holds the old state until it merges the notification.
        #expect(ann.name == "Ann")
        #expect(bob.context === view)
        view.mergeChanges(fromContextDidSave: notification)
        #expect(ann.name == "Anna")
        #expect(!ann.hasChanges)
        #expect(bob.context == nil)
        #expect(try view.fetch(EmployeeEntity.fetchRequest()).compactMap(\.name).sorted() == ["Anna", "Carl"])
        // The saving context's own notification changes nothing there.
        background.mergeChanges(fromContextDidSave: notification)
        #expect(backgroundAnn.name == "Anna")
    }

    @Test("IDs merged into several contexts: deletions leave, updates are read again", arguments: StoreKind.allCases)
    func fromRemoteContextSave(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let writer = store.context
        for name in ["Ann", "Bob", "Cy"] { EmployeeEntity(context: writer).name = name }
        try writer.save()
        let readers = [store.container.newBackgroundContext(), store.container.newBackgroundContext()]
        let held = try readers.map { reader in
            try reader.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        }

        // Another process (here: a batch update, then a batch delete through a plain connection's eyes) changed the
        // rows; the readers were not told.
        var update = BatchUpdateRequest<EmployeeEntity>(predicate: #Predicate { $0.name == "Ann" })
        update.propertiesToUpdate = ["age": 41]
        update.resultType = .updatedObjectIDsResultType
        let updated = try writer.execute(update)
        var delete = BatchDeleteRequest<EmployeeEntity>(predicate: #Predicate { $0.name == "Bob" })
        delete.resultType = .resultTypeObjectIDs
        let deleted = try writer.execute(delete)
        #expect(held[0][0].age != 41)
        #expect(held[0][1].context === readers[0])

        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSUpdatedObjectsKey: updated.result, NSDeletedObjectsKey: deleted.objectIDs],
            into: readers)
        for (reader, objects) in zip(readers, held) {
            #expect(objects[0].age == 41)
            #expect(objects[1].context == nil)
            #expect(try reader.fetch(EmployeeEntity.fetchRequest()).compactMap(\.name).sorted() == ["Ann", "Cy"])
        }
    }

    @Test func aValueThatIsNotIDsStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let context = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ["Bob"]], into: [context])
        }
    }
}

/// The last notification an observer received. The context posts synchronously, on the thread that saves, so the
/// test reads it on the thread that wrote it.
private final class ReceivedNotification: @unchecked Sendable {  // safe: written and read on the test's thread
    var notification: Notification?
}
