import DataModelRuntime
import Foundation
import Testing

// The Person tutorial's store.
// port: begin Person
final class PersonStore {
    let container: PersistentContainer

    init(storeURL: URL) {
        container = PersistentContainer(name: "TutorialPerson")
        container.persistentStoreDescriptions.first?.url = storeURL
        container.loadPersistentStores { _, error in
            if let error { fatalError("\(error)") }
        }
    }

    var context: ManagedObjectContext { container.viewContext }

    func save(id: String, name: String) throws {
        let person = try find(id: id, name: name).first ?? Person(context: context)
        person.id = id
        person.name = name
        person.updateDate = Date()
        try context.save()
    }

    func find(id: String, name: String) throws -> [Person] {
        var request: FetchRequest<Person> = Person.fetchRequest()
        request.predicate = ManagedPredicate(
            format: "(id.length > 0 AND id == %@) OR (name == %@)", argumentArray: [id, name])
        request.sortDescriptors = [SortDescriptor(key: "updateDate", ascending: false)]
        return try context.fetch(request)
    }

    func remove(id: String, name: String) throws {
        for person in try find(id: id, name: name) {
            context.delete(person)
        }
        try context.save()
    }

    func removeAll() throws {
        let request = FetchRequest<ManagedObject>(entityName: "Person")
        let delete = BatchDeleteRequest(fetchRequest: request)
        try context.execute(delete)
    }

    func count() throws -> Int {
        let request: FetchRequest<Person> = Person.fetchRequest()
        return try context.count(for: request)
    }
}
// port: end

// The Members tutorial's list: a table view's data source in the tutorial.
// port: begin Members
final class MemberList: NSObject, FetchedResultsControllerDelegate {
    let context: ManagedObjectContext
    let fetchedResultsController: FetchedResultsController<MemberEntity>
    var changes: [String] = []

    init(context: ManagedObjectContext) throws {
        self.context = context
        var request: FetchRequest<MemberEntity> = MemberEntity.fetchRequest()
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        fetchedResultsController = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        super.init()
        fetchedResultsController.delegate = self
        try fetchedResultsController.performFetch()
    }

    var numberOfRows: Int {
        fetchedResultsController.sections?[0].numberOfObjects ?? 0
    }

    func member(at row: Int) -> MemberEntity {
        fetchedResultsController.object(at: IndexPath(row: row, section: 0))
    }

    func add(name: String, age: Int16) throws {
        let member = MemberEntity(context: context)
        member.name = name
        member.age = age
        try context.save()
    }

    func update(_ member: MemberEntity, name: String, rating: Int32) throws {
        member.name = name
        member.rating = rating
        try context.save()
    }

    func delete(at row: Int) throws {
        context.delete(member(at: row))
        try context.save()
    }

    func search(_ text: String) throws {
        fetchedResultsController.fetchRequest.predicate =
            text.isEmpty ? nil : ManagedPredicate(format: "name CONTAINS[cd] %@", text)
        try fetchedResultsController.performFetch()
    }

    func controller(
        _ controller: FetchedResultsController<MemberEntity>, didChange anObject: MemberEntity,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        switch type {
        case .insert:
            changes.append("insert \(newIndexPath?.row ?? -1)")
        case .delete:
            changes.append("delete \(indexPath?.row ?? -1)")
        case .move:
            changes.append("move \(indexPath?.row ?? -1) \(newIndexPath?.row ?? -1)")
        default:
            changes.append("update \(indexPath?.row ?? -1)")
        }
    }
}
// port: end

/// The data code of the five tutorials the example models come from, ported from Core Data: each `port:` region is
/// Docs/TutorialPorts.md's DataModelRuntime block, and that block is the page's Core Data block with type names
/// changed (and the listed differences), which `TutorialCorrespondenceTests` checks line by line. The classes are
/// the `--xcode-compatible` runtime flavor of the tutorial models (Generated/), as Xcode would generate them.
@Suite("Tutorial ports: Core Data code with type names changed")
struct TutorialPortTests {
    /// Company: businesses, departments and employees, related through generated accessors, queried through
    /// relationships, and deleted with a cascade.
    @Test(arguments: TutorialStore.Kind.allCases)
    func company(kind: TutorialStore.Kind) throws {
        let store = try TutorialStore(kind)
        defer { store.cleanUp() }
        let storeURL = store.url
        // port: begin Company
        let container = PersistentContainer(name: "TutorialCompany")
        container.persistentStoreDescriptions.first?.url = storeURL
        container.loadPersistentStores { _, error in
            if let error { fatalError("\(error)") }
        }
        let context = container.viewContext

        let business = BusinessEntity(context: context)
        business.name = "Acme"
        let engineering = DepartmentEntity(context: context)
        engineering.name = "Engineering"
        let sales = DepartmentEntity(context: context)
        sales.name = "Sales"
        business.addToDepartments(engineering)
        business.addToDepartments(sales)
        for (name, age, department) in [("Ann", 34, engineering), ("Bob", 51, engineering), ("Cy", 28, sales)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = Int16(age)
            employee.dateJoined = Date()
            employee.department = department
            business.addToEmployees(employee)
        }
        try context.save()

        var request: FetchRequest<EmployeeEntity> = EmployeeEntity.fetchRequest()
        request.predicate = ManagedPredicate(format: "department.name == %@ AND age > %d", "Engineering", 30)
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        let engineers = try context.fetch(request)

        var seniors: FetchRequest<DepartmentEntity> = DepartmentEntity.fetchRequest()
        seniors.predicate = ManagedPredicate(format: "ANY employees.age > %d", 50)
        let departmentsWithSeniors = try context.fetch(seniors)

        let staff = business.employees?.count ?? 0
        let salesNames = (sales.employees as? Set<EmployeeEntity>)?.compactMap { $0.name } ?? []

        context.delete(business)
        try context.save()
        let everyone: FetchRequest<EmployeeEntity> = EmployeeEntity.fetchRequest()
        let remaining = try context.count(for: everyone)
        // port: end

        #expect(engineers.map(\.name) == ["Ann", "Bob"])
        #expect(departmentsWithSeniors == [engineering])
        #expect(staff == 3)
        #expect(salesNames == ["Cy"])
        #expect(remaining == 0, "the business's employees are deleted with it (Cascade)")
        #expect(engineering.employees?.count == 0, "and removed from their departments (Nullify)")
        #expect(engineering.businesses?.count == 0)
    }

    /// Records: lists of recorded tracks with their points, in ordered relationships filled with `addToRecords` and
    /// `addToLocations`.
    @Test(arguments: TutorialStore.Kind.allCases)
    func records(kind: TutorialStore.Kind) throws {
        let store = try TutorialStore(kind)
        defer { store.cleanUp() }
        let storeURL = store.url
        // port: begin Records
        let container = PersistentContainer(name: "TutorialRecords")
        container.persistentStoreDescriptions.first?.url = storeURL
        container.loadPersistentStores { _, error in
            if let error { fatalError("\(error)") }
        }
        let context = container.viewContext

        let runs = RecordsEntity(context: context)
        runs.title = "Morning runs"
        for day in 0..<3 {
            let record = RecordEntity(context: context)
            record.startTime = Date(timeIntervalSinceReferenceDate: Double(day) * 86_400)
            record.endTime = record.startTime?.addingTimeInterval(1_800)
            record.distance = 5 + Double(day)
            record.step = Int16(6_000 + day * 500)
            for point in 0..<4 {
                let location = LocationEntity(context: context)
                location.latitude = 37.5 + Double(point) / 1_000
                location.longitude = 127
                location.altitude = 20
                record.addToLocations(location)
            }
            runs.addToRecords(record)
        }
        try context.save()

        var request: FetchRequest<RecordEntity> = RecordEntity.fetchRequest()
        request.predicate = ManagedPredicate(
            format: "recordsEntity.title == %@ AND distance >= %f", "Morning runs", 6.0)
        request.sortDescriptors = [SortDescriptor(key: "startTime", ascending: false)]
        let longRuns = try context.fetch(request)

        let first = runs.records?.firstObject as? RecordEntity
        let route = (first?.locations?.array as? [LocationEntity])?.map { $0.latitude } ?? []

        runs.removeFromRecords(at: 0)
        if let first {
            context.delete(first)
        }
        try context.save()
        let locations: FetchRequest<LocationEntity> = LocationEntity.fetchRequest()
        let locationsLeft = try context.count(for: locations)
        // port: end

        #expect(longRuns.map(\.distance) == [7, 6])
        #expect(longRuns.map(\.step) == [7_000, 6_500])
        #expect(first?.distance == 5)
        #expect(route == (0..<4).map { 37.5 + Double($0) / 1_000 })
        #expect((runs.records?.array as? [RecordEntity])?.map(\.distance) == [6, 7])
        #expect(locationsLeft == 8, "the deleted record's locations go with it (Cascade)")
    }

    /// Restaurants: places saved from a search with their categories, skipped when already saved, searched by name
    /// or category, and deleted with their categories.
    @Test(arguments: TutorialStore.Kind.allCases)
    func restaurants(kind: TutorialStore.Kind) throws {
        let store = try TutorialStore(kind)
        defer { store.cleanUp() }
        let storeURL = store.url
        // port: begin Restaurants
        let container = PersistentContainer(name: "TutorialRestaurants")
        container.persistentStoreDescriptions.first?.url = storeURL
        container.loadPersistentStores { _, error in
            if let error { fatalError("\(error)") }
        }
        let context = container.viewContext

        func saveRestaurant(name: String, address: String, categories: [String]) throws {
            var existing: FetchRequest<RestaurantData> = RestaurantData.fetchRequest()
            existing.predicate = ManagedPredicate(format: "placeName == %@ AND address == %@", name, address)
            guard try context.count(for: existing) == 0 else { return }
            let restaurant = RestaurantData(context: context)
            restaurant.placeName = name
            restaurant.address = address
            restaurant.date = Date()
            for (index, categoryName) in categories.enumerated() {
                let category = CategoryData(context: context)
                category.categoryName = categoryName
                category.order = Int32(index)
                restaurant.addToCategory(category)
            }
            try context.save()
        }
        try saveRestaurant(name: "Chez Swift", address: "1 Main St", categories: ["French", "Bistro", "Wine"])
        try saveRestaurant(name: "Noodle Bar", address: "2 Side St", categories: ["Korean", "Noodles"])
        try saveRestaurant(name: "Chez Swift", address: "1 Main St", categories: ["French"])

        var search: FetchRequest<RestaurantData> = RestaurantData.fetchRequest()
        search.predicate = ManagedPredicate(
            format: "placeName CONTAINS[c] %@ OR ANY category.categoryName ==[c] %@", "bar", "french")
        search.sortDescriptors = [SortDescriptor(key: "placeName", ascending: true)]
        let found = try context.fetch(search)

        var categories: FetchRequest<CategoryData> = CategoryData.fetchRequest()
        categories.predicate = ManagedPredicate(format: "restaurant.placeName == %@", "Chez Swift")
        categories.sortDescriptors = [SortDescriptor(key: "order", ascending: false)]
        let chezCategories = try context.fetch(categories).compactMap { $0.categoryName }

        for restaurant in found {
            context.delete(restaurant)
        }
        try context.save()
        let allCategories: FetchRequest<CategoryData> = CategoryData.fetchRequest()
        let categoriesLeft = try context.count(for: allCategories)
        // port: end

        #expect(found.map(\.placeName) == ["Chez Swift", "Noodle Bar"], "the second save of Chez Swift was skipped")
        #expect(chezCategories == ["Wine", "Bistro", "French"])
        #expect(try context.count(for: RestaurantData.fetchRequest()) == 0)
        #expect(categoriesLeft == 0, "the categories go with their restaurants (Cascade)")
    }

    /// Person: the store of the tutorial that finds people with
    /// `NSPredicate(format: "(id.length > 0 AND id == %@) OR (name == %@)", argumentArray: [id, name])`, removes
    /// them all with a batch delete and counts them.
    @Test(arguments: TutorialStore.Kind.allCases)
    func person(kind: TutorialStore.Kind) throws {
        let database = try TutorialStore(kind)
        defer { database.cleanUp() }
        let store = PersonStore(storeURL: database.url)
        try store.save(id: "p1", name: "Ada")
        try store.save(id: "p2", name: "Grace")
        try store.save(id: "", name: "Nobody")
        try store.save(id: "", name: "Somebody")
        try store.save(id: "p1", name: "Ada Lovelace")  // found by id: updated, not added
        #expect(try store.count() == 4)
        #expect(try store.find(id: "p1", name: "").map(\.name) == ["Ada Lovelace"])
        // An empty id matches no one by id (the `id.length > 0` guard), only by name.
        #expect(try store.find(id: "", name: "Grace").map(\.id) == ["p2"])
        #expect(try store.find(id: "", name: "nobody at all").isEmpty)
        try store.remove(id: "", name: "Nobody")
        #expect(try store.count() == 3)
        #expect(try store.find(id: "", name: "Somebody").count == 1)
        try store.removeAll()
        #expect(try store.count() == 0)
        #expect(store.context.registeredObjects.isEmpty, "the batch delete drops the deleted objects")
    }

    /// Members: create, read, update and delete members, listed through a fetched results controller whose
    /// delegate hears every change.
    @Test(arguments: TutorialStore.Kind.allCases)
    func members(kind: TutorialStore.Kind) throws {
        let store = try TutorialStore(kind)
        defer { store.cleanUp() }
        let storeURL = store.url
        let container = PersistentContainer(name: "TutorialMembers")
        container.persistentStoreDescriptions.first?.url = storeURL
        try container.loadPersistentStores()
        let list = try MemberList(context: container.viewContext)
        func names() -> [String?] { (0..<list.numberOfRows).map { list.member(at: $0).name } }
        #expect(list.numberOfRows == 0)

        try list.add(name: "Carol", age: 41)
        try list.add(name: "Alice", age: 30)
        try list.add(name: "Bob", age: 25)
        #expect(names() == ["Alice", "Bob", "Carol"])
        #expect(list.changes == ["insert 0", "insert 0", "insert 1"])
        #expect(list.member(at: 2).rating == 5, "the model's default")

        list.changes = []
        try list.update(list.member(at: 0), name: "Zoe", rating: 4)
        #expect(names() == ["Bob", "Carol", "Zoe"])
        #expect(list.changes == ["move 0 2"])
        #expect(list.member(at: 2).rating == 4)

        list.changes = []
        try list.update(list.member(at: 1), name: "Carol", rating: 1)
        #expect(list.changes == ["update 1"])

        list.changes = []
        try list.delete(at: 0)
        #expect(names() == ["Carol", "Zoe"])
        #expect(list.changes == ["delete 0"])

        try list.search("o")
        #expect(names() == ["Carol", "Zoe"])
        try list.search("Z")
        #expect(names() == ["Zoe"])
        try list.search("")
        #expect(list.numberOfRows == 2)
    }
}
