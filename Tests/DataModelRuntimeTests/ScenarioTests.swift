import DataModelRuntime
import Foundation
import SQLiteKit
import Testing

@Suite("Scenarios from the issue: Restaurants, Members")
struct ScenarioTests {
    @Test("a restaurant with N categories added in a loop", arguments: StoreKind.allCases)
    func restaurants(kind: StoreKind) throws {
        let store = try TestStore(kind, model: RestaurantsModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let place = RestaurantData(context: context)
        place.placeName = "Chez Swift"
        place.date = Date(timeIntervalSinceReferenceDate: 86_400)
        for index in 0..<25 {
            let category = CategoryData(context: context)
            category.categoryName = "category \(index)"
            category.order = Int32(index)
            place.addToCategory(category)
        }
        #expect(place.category.count == 25)
        try context.save()

        let other = try store.reopened()
        let read = try #require(try other.fetch(RestaurantData.fetchRequest()).first)
        #expect(read.placeName == "Chez Swift")
        #expect(read.date == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(read.category.count == 25)
        #expect(read.category.allSatisfy { $0.restaurant === read })
        let sorted = try other.fetch(CategoryData.fetchRequest().sorted(by: [SortDescriptor(\.order, order: .reverse)]))
        #expect(sorted.first?.categoryName == "category 24")
        other.delete(read)  // Cascade
        try other.save()
        #expect(try store.reopened().count(for: CategoryData.fetchRequest()) == 0)
    }

    @Test("members: create, read sorted, update, delete", arguments: StoreKind.allCases)
    func members(kind: StoreKind) throws {
        let store = try TestStore(kind, model: MembersModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (name, age) in [("Carol", 41), ("Alice", 30), ("Bob", 25)] {
            let member = MemberEntity(context: context)
            member.name = name
            member.age = Int16(age)
        }
        try context.save()

        let byName = MemberEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        let members = try store.reopened().fetch(byName)
        #expect(members.map(\.name) == ["Alice", "Bob", "Carol"])

        let bob = try #require(try context.fetch(byName).first { $0.name == "Bob" })
        bob.age = 26
        try context.save()
        #expect(try store.reopened().fetch(byName).map(\.age) == [30, 26, 41])

        context.delete(bob)
        try context.save()
        #expect(try store.reopened().fetch(byName).map(\.name) == ["Alice", "Carol"])
    }

    @Test("a required attribute left empty fails the save")
    func requiredName() throws {
        let container = try PersistentContainer(model: MembersModel.model, store: .inMemory)
        let member = MemberEntity(context: container.viewContext)
        #expect(member.name == "")  // non-optional: the empty value until set
        #expect(throws: ValidationError.self) { try container.viewContext.save() }
        member.name = "Dana"
        try container.viewContext.save()
    }

    @Test("a store failure inside the transaction rolls everything back")
    func storeFailure() throws {
        let store = try TestStore(.sqlite, model: MembersModel.model)
        defer { store.cleanUp() }
        let first = MemberEntity(context: store.context)
        first.name = "First"
        try store.context.save()
        // A second container on the same file; its keys never clash with the first one's.
        let second = try PersistentContainer(model: MembersModel.model, store: .sqlite(at: store.url)).viewContext
        let winner = MemberEntity(context: store.context)
        winner.name = "Winner"
        try store.context.save()
        // The store refuses one of the rows the second save writes (as a constraint or a full disk would).
        let database = try Database(path: store.url.path)
        try database.execute(
            sql: #"CREATE TRIGGER "refuse" BEFORE INSERT ON "ZMEMBERENTITY" WHEN NEW."ZNAME" = 'Loser' "#
                + "BEGIN SELECT RAISE(ABORT, 'refused'); END")

        let existing = try #require(try second.fetch(MemberEntity.fetchRequest()).first)
        existing.age = 99
        let loser = MemberEntity(context: second)  // reserves keys in Z_PRIMARYKEY now, not at save
        loser.name = "Loser"
        let before = store.fileBytes()
        #expect(throws: StoreError.self) { try second.save() }
        #expect(store.fileBytes() == before)
        #expect(second.hasChanges)
        #expect(loser.isInserted && existing.isUpdated)
        let names = try store.reopened().fetch(MemberEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(names.map(\.name) == ["First", "Winner"])
        #expect(names.map(\.age) == [0, 0])
    }
}
