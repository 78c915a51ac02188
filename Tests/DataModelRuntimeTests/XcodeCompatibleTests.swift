import DataModelRuntime
import Foundation
import Testing

/// The runtime flavor generated with `--xcode-compatible` (`XcodeCompatible/Ported`, committed and checked for
/// freshness): optional scalar attributes are Xcode's non-optional `Int16`, `Double`, `Bool`, reading 0 or false
/// while unset (NULL in the store), and storing what is set; object attributes are optional as in Xcode.
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
}
