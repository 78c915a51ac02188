import DataModelRuntime
import Foundation
import Testing

@Suite("Person: add or update, count, keep the 10 newest")
struct PersonScenarioTests {
    /// Adds a person, or updates the date of the one with the same id.
    private func upsert(id: String, name: String, at date: Date, in context: ManagedObjectContext) throws {
        let existing = try context.fetch(Person.fetchRequest().matching(\.id, equals: id)).first
        let person = existing ?? Person(context: context)
        person.id = id
        person.name = name
        person.updateDate = date
    }

    /// Deletes all but the `limit` most recently updated people.
    private func keepNewest(_ limit: Int, in context: ManagedObjectContext) throws {
        let oldestFirst = Person.fetchRequest().sorted(by: [SortDescriptor(\.updateDate)])
        let count = try context.count(for: oldestFirst)
        guard count > limit else { return }
        for person in try context.fetch(oldestFirst.limited(to: count - limit)) { context.delete(person) }
    }

    @Test("the 10 newest remain, updates move a person to the front", arguments: StoreKind.allCases)
    func keepTen(kind: StoreKind) throws {
        let store = try TestStore(kind, model: PersonModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for index in 0..<15 {
            try upsert(
                id: "p\(index)", name: "Person \(index)", at: Date(timeIntervalSinceReferenceDate: Double(index)),
                in: context)
        }
        try context.save()
        // p0 is updated: now the newest.
        try upsert(id: "p0", name: "Person 0", at: Date(timeIntervalSinceReferenceDate: 100), in: context)
        #expect(try context.count(for: Person.fetchRequest()) == 15)
        try keepNewest(10, in: context)
        try context.save()

        let other = try store.reopened()
        let remaining = try other.fetch(
            Person.fetchRequest().sorted(by: [SortDescriptor(\.updateDate, order: .reverse)]))
        #expect(remaining.count == 10)
        #expect(remaining.first?.id == "p0")
        #expect(remaining.compactMap(\.id).sorted() == (["p0"] + (6..<15).map { "p\($0)" }).sorted())
    }

    /// Removes the person with `id` or called `name`, as the seed app's store does.
    private func remove(id: String, name: String, in context: ManagedObjectContext) throws -> Int {
        let request = Person.fetchRequest().filtered(
            by: #Predicate { !($0.id ?? "").isEmpty && $0.id == id || $0.name == name })
        let found = try context.fetch(request)
        for person in found { context.delete(person) }
        return found.count
    }

    @Test("remove by predicate, removeAll through a batch delete, count", arguments: StoreKind.allCases)
    func removeAndRemoveAll(kind: StoreKind) throws {
        let store = try TestStore(kind, model: PersonModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for index in 0..<6 {
            try upsert(
                id: "p\(index)", name: "Person \(index)", at: Date(timeIntervalSinceReferenceDate: Double(index)),
                in: context)
        }
        let nameless = Person(context: context)
        nameless.id = ""
        nameless.name = "No id"
        try context.save()
        #expect(try context.count(for: Person.fetchRequest()) == 7)

        // By id, by name, and an empty id that must not match the other empty-id rows by id alone.
        #expect(try remove(id: "p1", name: "nobody", in: context) == 1)
        #expect(try remove(id: "nobody", name: "Person 2", in: context) == 1)
        #expect(try remove(id: "", name: "nobody", in: context) == 0)
        // Unsaved deletions already count.
        #expect(try context.count(for: Person.fetchRequest()) == 5)
        try context.save()
        #expect(try store.reopened().count(for: Person.fetchRequest()) == 5)

        // The SQL path answers the predicate (no fallback to memory), on every store.
        let id = "p3"
        let name = "x"
        let plan = try context.explain(
            Person.fetchRequest().filtered(
                by: #Predicate { !($0.id ?? "").isEmpty && $0.id == id || $0.name == name }))
        #expect(plan.path == .sql)

        let removed = try context.execute(BatchDeleteRequest<Person>())
        #expect(removed.count == 5)
        #expect(context.registeredObjects.isEmpty)
        #expect(try context.count(for: Person.fetchRequest()) == 0)
        #expect(try store.reopened().count(for: Person.fetchRequest()) == 0)
    }
}
