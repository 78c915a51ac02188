import DataModelRuntime
import Foundation
import Testing

/// The runtime flavor generated with `--xcode-compatible` (`XcodeCompatible/Ported`, committed and checked for
/// freshness): optional scalar attributes are Xcode's non-optional `Int16`, `Double`, `Bool`, reading 0 or false
/// while unset (NULL in the store), and storing what is set; object attributes are optional, and to-many
/// relationships are `NSSet?` / `NSOrderedSet?`, as in Xcode.
@Suite("Xcode-compatible runtime flavor")
struct XcodeCompatibleTests {
    @Test(arguments: StoreKind.allCases)
    func optionalScalarsReadZeroWhenUnsetAndRoundTrip(_ kind: StoreKind) throws {
        let store = try TestStore(kind, model: PortedModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let item = PortedItem(context: context)
        item.title = "Milk"
        // No default in the model: unset reads as Xcode's generated code reads NULL.
        #expect(item.serial == 0)
        #expect(item.isDone == false)
        #expect(item.rating == nil)  // not a scalar type in the model: optional, as Xcode's `NSNumber?`
        #expect(item.timestamp == nil)
        // Defaults apply as usual.
        #expect(item.count == 0)
        #expect(item.price == 0)
        try context.save()
        #expect(item.primitiveValue(for: "serial") == .null, "an unset optional scalar is stored as NULL")

        let stored = try #require(try store.reopened().fetch(PortedItem.fetchRequest()).first)
        #expect(stored.serial == 0)
        #expect(stored.isDone == false)

        item.serial = 9_000_000_000
        item.count += 3
        item.price = 2.5
        item.isDone.toggle()
        item.rating = 4
        try context.save()
        let reread = try #require(try store.reopened().fetch(PortedItem.fetchRequest()).first)
        #expect(reread.serial == 9_000_000_000)
        #expect(reread.count == 3)
        #expect(reread.price == 2.5)
        #expect(reread.isDone)
        #expect(reread.rating == 4)
        #expect(reread.title == "Milk")
    }

    /// A non-optional object attribute is `String?` as in Xcode: nil until set, and a save without it fails
    /// validation as Core Data's does.
    @Test func aRequiredStringIsOptionalInSwiftAndValidatedOnSave() throws {
        let store = try TestStore(.inMemory, model: PortedModel.model)
        defer { store.cleanUp() }
        let item = PortedItem(context: store.context)
        item.title = nil
        #expect(item.title == nil)
        #expect(throws: (any Error).self) { try store.context.save() }
        item.title = "Bread"
        try store.context.save()
        #expect(item.title == "Bread")
    }

    /// To-many relationships are Xcode's `NSSet?` / `NSOrderedSet?`: read as ported code reads them, set whole,
    /// changed through the generated accessors, with inverses kept and the order stored.
    @Test(arguments: StoreKind.allCases)
    func toManyRelationshipsAreNSSetsAndNSOrderedSets(_ kind: StoreKind) throws {
        let store = try TestStore(kind, model: PortedModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let milk = PortedItem(context: context)
        milk.title = "Milk"
        let bread = PortedItem(context: context)
        bread.title = "Bread"
        let dairy = PortedTag(context: context)
        dairy.name = "dairy"
        let fresh = PortedTag(context: context)
        fresh.name = "fresh"

        #expect(milk.tags?.count == 0, "an empty to-many is an empty set, not nil")
        milk.tags = NSSet(array: [dairy, fresh])
        #expect((milk.tags as? Set<PortedTag>) == [dairy, fresh])
        #expect(dairy.items?.contains(milk) == true, "the inverse is kept")
        fresh.addToItems(bread)
        #expect(Set((bread.tags?.allObjects as? [PortedTag]) ?? []) == [fresh])

        let list = PortedList(context: context)
        list.items = NSOrderedSet(array: [bread, milk])
        #expect(milk.list === list)
        let third = PortedItem(context: context)
        third.title = "Eggs"
        list.insertIntoItems(third, at: 1)
        try context.save()

        let reopened = try store.reopened()
        let lists = try reopened.fetch(PortedList.fetchRequest())
        let stored = try #require(lists.first)
        #expect(((stored.items?.array as? [PortedItem]) ?? []).map(\.title) == ["Bread", "Eggs", "Milk"])
        let tags = try reopened.fetch(PortedTag.fetchRequest())
        let storedFresh = try #require(tags.first { $0.name == "fresh" })
        #expect(Set(((storedFresh.items as? Set<PortedItem>) ?? []).compactMap(\.title)) == ["Bread", "Milk"])

        list.items = nil
        #expect(list.items?.count == 0)
        #expect(milk.list == nil)
    }

    /// Predicates and sorts read an unset optional scalar as the property does (0): in SQL as in memory.
    @Test func predicatesAndSortsReadAnUnsetScalarAsZero() throws {
        let store = try TestStore(.sqlite, model: PortedModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (title, serial) in [("negative", Int64(-5)), ("unset", nil), ("positive", 7)] {
            let item = PortedItem(context: context)
            item.title = title
            if let serial { item.serial = serial }
        }
        try context.save()
        let zero = PortedItem.fetchRequest().filtered(by: #Predicate { $0.serial == 0 })
        #expect(try context.explain(zero).path == .sql)
        #expect(try context.fetch(zero).map(\.title) == ["unset"])
        let small = PortedItem.fetchRequest().filtered(by: #Predicate { $0.serial < 5 })
        #expect(Set(try context.fetch(small).compactMap(\.title)) == ["negative", "unset"])
        let sorted = PortedItem.fetchRequest()
        sorted.sortDescriptors = [SortDescriptor(\PortedItem.serial)]
        #expect(try context.fetch(sorted).map(\.title) == ["negative", "unset", "positive"])

        // The same answers in memory, with an unsaved change in the way.
        let pending = PortedItem(context: context)
        pending.title = "pending"
        #expect(try context.explain(zero).path != .sql)
        #expect(try context.fetch(zero).map(\.title) == ["unset", "pending"])
        #expect(try context.fetch(sorted).map(\.title) == ["negative", "unset", "pending", "positive"])
    }
}
