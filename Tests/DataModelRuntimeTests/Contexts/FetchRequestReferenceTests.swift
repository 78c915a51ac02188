import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// `FetchRequest` is a class, as Core Data's `NSFetchRequest`: one instance, seen by every reference; fluent methods
/// and `copy()` make new ones; whoever keeps a request (batch requests, controllers, child contexts) keeps it safe
/// from later changes.
@Suite("Fetch requests are objects")
struct FetchRequestReferenceTests {
    /// A store with employees Ann (34), Bob (51), Cy (28), Di (45), saved.
    private static func company(_ kind: StoreKind = .inMemory) throws -> TestStore {
        let store = try TestStore(kind, model: CompanyModel.model)
        for (name, age) in [("Ann", 34), ("Bob", 51), ("Cy", 28), ("Di", 45)] {
            let employee = EmployeeEntity(context: store.context)
            employee.name = name
            employee.age = Int16(age)
        }
        try store.context.save()
        return store
    }

    private static func names(_ employees: [EmployeeEntity]) -> [String] {
        employees.compactMap(\.name)
    }

    /// Every setting of a request, as text: two requests with the same settings describe the same way.
    private static func settings(_ request: FetchRequest<EmployeeEntity>) -> String {
        [
            "entity \(request.entityName)",
            // Key paths have no readable description on Linux; equal descriptors hash equally.
            "sort \(request.sortDescriptors.map(\.hashValue))",
            "limit \(String(describing: request.fetchLimit))",
            "offset \(String(describing: request.fetchOffset))",
            "batch \(String(describing: request.fetchBatchSize))",
            "pending \(request.includesPendingChanges)",
            "prefetch \(request.relationshipKeyPathsForPrefetching)",
            "subentities \(request.includesSubentities)",
            "conditions \(request.conditions.count)",
            "predicate \(request.predicate.map { $0.predicateFormat ?? "#Predicate" } ?? "none")",
        ].joined(separator: "; ")
    }

    @Test("two references see one change, and a fetch through either sees it")
    func referenceSemantics() throws {
        let store = try Self.company()
        defer { store.cleanUp() }
        let context = store.context
        let request: FetchRequest<EmployeeEntity> = EmployeeEntity.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        let alias = request
        #expect(alias === request)
        alias.predicate = ManagedPredicate(format: "age > %d", 40)
        #expect(request.predicate?.predicateFormat == "age > 40")
        #expect(Self.names(try context.fetch(request)) == ["Bob", "Di"])
        request.fetchLimit = 1
        #expect(alias.fetchLimit == 1)
        #expect(Self.names(try context.fetch(alias)) == ["Bob"])

        // A request held by another object is the same instance too.
        final class Holder {
            let request: FetchRequest<EmployeeEntity>
            init(_ request: FetchRequest<EmployeeEntity>) { self.request = request }
        }
        let holder = Holder(request)
        request.fetchLimit = nil
        request.sortDescriptors = [SortDescriptor(\.name, order: .reverse)]
        #expect(Self.names(try context.fetch(holder.request)) == ["Di", "Bob"])
    }

    @Test("the fluent methods return a new request and leave the receiver as it was")
    func fluentMethodsDoNotMutate() throws {
        let store = try Self.company()
        defer { store.cleanUp() }
        let context = store.context
        let base = EmployeeEntity.fetchRequest()
        base.predicate = ManagedPredicate(format: "age > %d", 30)
        base.sortDescriptors = [SortDescriptor(\.name)]
        let before = Self.settings(base)
        let results = Self.names(try context.fetch(base))
        #expect(results == ["Ann", "Bob", "Di"])

        let derived: [(String, FetchRequest<EmployeeEntity>)] = [
            ("sorted(by:)", base.sorted(by: [SortDescriptor(\.age)])),
            ("filtered(by:)", base.filtered(by: #Predicate { $0.name == "Cy" })),
            ("matching(name, equals:)", base.matching("name", equals: "Ann")),
            ("matching(keyPath, equals:)", base.matching(\.name, equals: "Ann")),
            ("matching(to-one, equals:)", base.matching(\.department, equals: nil as DepartmentEntity?)),
            ("prefetching(_:)", base.prefetching("department")),
            ("includingPendingChanges(_:)", base.includingPendingChanges(false)),
            ("limited(to:)", base.limited(to: 1)),
            ("offset(by:)", base.offset(by: 1)),
        ]
        for (method, request) in derived {
            #expect(request !== base, "\(method) returned the receiver")
            #expect(Self.settings(request) != before, "\(method) changed nothing in its result")
            #expect(Self.settings(base) == before, "\(method) changed the receiver")
            // Changing the result afterwards does not reach the receiver either.
            request.fetchBatchSize = 2
            #expect(base.fetchBatchSize == nil, "\(method)'s result shares its settings with the receiver")
        }
        #expect(Self.names(try context.fetch(base)) == results)
        #expect(Self.names(try context.fetch(base.sorted(by: [SortDescriptor(\.age)]))) == ["Ann", "Di", "Bob"])
        #expect(Self.names(try context.fetch(base.offset(by: 1).limited(to: 1))) == ["Bob"])
    }

    @Test("copy() has every setting of the original and is independent of it")
    func copyIsIndependent() throws {
        let store = try Self.company()
        defer { store.cleanUp() }
        let context = store.context
        let original = FetchRequest<EmployeeEntity>(entityName: "EmployeeEntity")
        original.sortDescriptors = [SortDescriptor(\.age, order: .reverse)]
        original.fetchLimit = 3
        original.fetchOffset = 1
        original.fetchBatchSize = 2
        original.includesPendingChanges = false
        original.relationshipKeyPathsForPrefetching = ["department"]
        original.includesSubentities = false
        original.conditions = EmployeeEntity.fetchRequest().matching(\.department, equals: nil).conditions
        original.predicate = ManagedPredicate(format: "age >= %d", 30)

        let copy = original.copy()
        #expect(copy !== original)
        #expect(Self.settings(copy) == Self.settings(original))
        #expect(Self.names(try context.fetch(copy)) == Self.names(try context.fetch(original)))
        #expect(Self.names(try context.fetch(copy)) == ["Di", "Ann"])

        let originalSettings = Self.settings(original)
        copy.entityName = ""
        copy.sortDescriptors = [SortDescriptor(\.name)]
        copy.fetchLimit = nil
        copy.fetchOffset = nil
        copy.fetchBatchSize = nil
        copy.includesPendingChanges = true
        copy.relationshipKeyPathsForPrefetching = []
        copy.includesSubentities = true
        copy.conditions = []
        copy.predicate = nil
        #expect(Self.settings(original) == originalSettings)
        #expect(Self.names(try context.fetch(original)) == ["Di", "Ann"])
        #expect(Self.names(try context.fetch(copy)) == ["Ann", "Bob", "Cy", "Di"])

        original.predicate = nil
        #expect(copy.predicate == nil)
        #expect(Self.names(try context.fetch(copy)) == ["Ann", "Bob", "Cy", "Di"])
    }

    @Test("a request changed between fetches fetches by its settings of the moment", arguments: StoreKind.allCases)
    func mutatedBetweenFetches(kind: StoreKind) throws {
        let store = try Self.company(kind)
        defer { store.cleanUp() }
        let context = store.context
        let request = EmployeeEntity.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        #expect(Self.names(try context.fetch(request)) == ["Ann", "Bob", "Cy", "Di"])
        request.predicate = ManagedPredicate(format: "age < %d", 40)
        #expect(Self.names(try context.fetch(request)) == ["Ann", "Cy"])
        #expect(try context.count(for: request) == 2)
        request.sortDescriptors = [SortDescriptor(key: "age", ascending: true)]
        #expect(Self.names(try context.fetch(request)) == ["Cy", "Ann"])
        // An unsaved change, then the same request without pending changes.
        let ed = EmployeeEntity(context: context)
        ed.name = "Ed"
        ed.age = 19
        #expect(Self.names(try context.fetch(request)) == ["Ed", "Cy", "Ann"])
        request.includesPendingChanges = false
        #expect(Self.names(try context.fetch(request)) == ["Cy", "Ann"])
        #expect(try context.count(for: request) == 2)
        request.includesPendingChanges = true
        request.fetchLimit = 1
        #expect(Self.names(try context.fetch(request)) == ["Ed"])
        request.predicate = nil
        request.fetchLimit = nil
        #expect(try context.count(for: request) == 5)
    }

    @Test("one request on two contexts: each answers with its own changes")
    func twoContexts() throws {
        let store = try Self.company(.sqlite)
        defer { store.cleanUp() }
        let first = store.context
        let second = try store.reopened()
        let child = ManagedObjectContext(parent: first)
        let request = EmployeeEntity.fetchRequest()
        request.predicate = ManagedPredicate(format: "age > %d", 40)
        request.sortDescriptors = [SortDescriptor(\.name)]
        request.fetchLimit = 5
        request.relationshipKeyPathsForPrefetching = ["department"]
        let before = Self.settings(request)

        let fy = EmployeeEntity(context: first)
        fy.name = "Fy"
        fy.age = 60
        let bob = try #require(try second.fetch(request.matching("name", equals: "Bob")).first)
        second.delete(bob)

        #expect(Self.names(try first.fetch(request)) == ["Bob", "Di", "Fy"])
        #expect(Self.names(try second.fetch(request)) == ["Di"])
        // A child context's fetch goes through its parent with a request of its own making.
        let gus = EmployeeEntity(context: child)
        gus.name = "Gus"
        gus.age = 70
        #expect(Self.names(try child.fetch(request)) == ["Bob", "Di", "Fy", "Gus"])
        #expect(try child.count(for: request) == 4)
        #expect(Self.settings(request) == before, "a fetch changed the request it was given")

        // A change made once reaches every context's next fetch.
        request.predicate = ManagedPredicate(format: "age < %d", 40)
        #expect(Self.names(try first.fetch(request)) == ["Ann", "Cy"])
        #expect(Self.names(try second.fetch(request)) == ["Ann", "Cy"])
        #expect(Self.names(try child.fetch(request)) == ["Ann", "Cy"])
    }

    @Test("batch requests keep a copy of the fetch request they are made from")
    func batchRequestsCopy() throws {
        let store = try Self.company()
        defer { store.cleanUp() }
        let context = store.context
        let request = EmployeeEntity.fetchRequest()
        request.predicate = ManagedPredicate(format: "age > %d", 50)
        let delete = BatchDeleteRequest(fetchRequest: request)
        #expect(delete.fetchRequest !== request)
        // Widened after the batch request was made: the batch request still deletes Bob alone.
        request.predicate = ManagedPredicate(format: "age > %d", 30)
        var counting = delete
        counting.resultType = .count
        #expect(try context.execute(counting).result as? Int == 1)
        #expect(counting.fetchRequest.includesPendingChanges, "executing the batch request changed its fetch request")
        #expect(
            Self.names(try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])))
                == ["Ann", "Cy", "Di"])

        let young = EmployeeEntity.fetchRequest()
        young.predicate = ManagedPredicate(format: "age < %d", 30)
        let update = BatchUpdateRequest(fetchRequest: young)
        let setting = update.setting(\.name, to: "Young")
        #expect(setting.fetchRequest !== update.fetchRequest)
        update.fetchRequest.predicate = ManagedPredicate(format: "age > %d", 0)
        var counted = setting
        counted.resultType = .count
        #expect(try context.execute(counted).result as? Int == 1)
        context.refreshAllObjects()
        #expect(
            Self.names(try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age)])))
                == ["Young", "Ann", "Di"])
    }
}

@Suite("A controller's fetch request: the caller's instance, snapshotted at performFetch()")
struct FetchedResultsControllerRequestTests {
    private static func ids(_ controller: FetchedResultsController<EmployeeEntity>) -> [String] {
        controller.fetchedObjects?.compactMap(\.name) ?? []
    }

    /// The results a new fetch of `request` gives: what the controller must show.
    private static func refetched(_ request: FetchRequest<EmployeeEntity>, in context: ManagedObjectContext) throws
        -> [String]
    {
        try context.fetch(request).compactMap(\.name)
    }

    @Test("a change without performFetch() is not applied; performFetch() refetches with it")
    func snapshotAndRefetch() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (name, age) in [("Ann", 34), ("Bob", 51), ("Cy", 28)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = Int16(age)
        }
        try context.save()
        let request: FetchRequest<EmployeeEntity> = EmployeeEntity.fetchRequest()
        request.predicate = ManagedPredicate(format: "age >= %d", 30)
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        #expect(controller.fetchRequest === request)
        try controller.performFetch()
        #expect(Self.ids(controller) == ["Ann", "Bob"])

        // Changed, not fetched: the controller follows the request as it was at performFetch().
        controller.fetchRequest.predicate = ManagedPredicate(format: "age < %d", 30)
        controller.fetchRequest.sortDescriptors = [SortDescriptor(key: "name", ascending: false)]
        #expect(request.predicate?.predicateFormat == "age < 30")
        let dan = EmployeeEntity(context: context)
        dan.name = "Dan"
        dan.age = 40
        let eve = EmployeeEntity(context: context)
        eve.name = "Eve"
        eve.age = 20
        try context.save()
        #expect(Self.ids(controller) == ["Ann", "Bob", "Dan"])
        // A reset refetches with the same snapshot.
        context.reset()
        #expect(Self.ids(controller) == ["Ann", "Bob", "Dan"])

        // performFetch(): the request as changed, fetched again, then followed incrementally.
        try controller.performFetch()
        #expect(Self.ids(controller) == ["Eve", "Cy"])
        #expect(Self.ids(controller) == (try Self.refetched(request, in: context)))
        let fay = EmployeeEntity(context: context)
        fay.name = "Fay"
        fay.age = 25
        let gil = EmployeeEntity(context: context)
        gil.name = "Gil"
        gil.age = 45
        try context.save()
        #expect(Self.ids(controller) == ["Fay", "Eve", "Cy"])
        #expect(Self.ids(controller) == (try Self.refetched(request, in: context)))

        // Replacing the request works the same way.
        let everyone = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age)])
        controller.fetchRequest = everyone
        #expect(Self.ids(controller) == ["Fay", "Eve", "Cy"])
        try controller.performFetch()
        #expect(Self.ids(controller) == ["Eve", "Fay", "Cy", "Ann", "Dan", "Gil", "Bob"])
        // The old request, changed now, is nobody's concern.
        request.predicate = nil
        let hal = EmployeeEntity(context: context)
        hal.name = "Hal"
        hal.age = 30
        try context.save()
        #expect(Self.ids(controller) == ["Eve", "Fay", "Cy", "Hal", "Ann", "Dan", "Gil", "Bob"])
        #expect(Self.ids(controller) == (try Self.refetched(everyone, in: context)))
    }

    @Test("a request changed to one the controller refuses is refused at performFetch(), keeping the old results")
    func refusedChange() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for name in ["Ann", "Bob"] { EmployeeEntity(context: context).name = name }
        try context.save()
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try controller.performFetch()
        request.fetchLimit = 1
        #expect(throws: FetchedResultsError.self) { try controller.performFetch() }
        EmployeeEntity(context: context).name = "Cy"
        try context.save()
        #expect(Self.ids(controller) == ["Ann", "Bob", "Cy"])
    }
}
