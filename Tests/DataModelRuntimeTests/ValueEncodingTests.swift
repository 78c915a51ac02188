import DataModelRuntime
import Foundation
import Testing

/// A Codable value stored in a transformable attribute.
struct Coordinates: Codable, Hashable {
    var latitude: Double
    var longitude: Double
}

@Suite("Core Data value encodings")
struct ValueEncodingTests {
    static let model = ManagedObjectModel(
        name: "Kinds",
        entities: [
            EntityDescription(
                name: "Sample", objectType: ManagedObject.self,
                attributes: [
                    AttributeDescription(name: "flag", type: .boolean),
                    AttributeDescription(name: "when", type: .date),
                    AttributeDescription(name: "id", type: .uuid),
                    AttributeDescription(name: "link", type: .uri),
                    AttributeDescription(name: "price", type: .decimal),
                    AttributeDescription(name: "ratio", type: .float),
                    AttributeDescription(name: "bytes", type: .binary),
                    AttributeDescription(name: "place", type: .transformable),
                    AttributeDescription(name: "small", type: .integer16),
                ])
        ])

    @Test("values round-trip and are stored as Core Data stores them", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        let store = try TestStore(kind, model: Self.model)
        defer { store.cleanUp() }
        let sample = try store.context.insertNewObject(forEntityName: "Sample")
        let id = try #require(UUID(uuidString: "7CE9EE7F-CD67-4D3C-855A-3613A7815E23"))
        let price = try #require(
            Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX")))
        sample.setValue(true, for: "flag")
        sample.setValue(Date(timeIntervalSinceReferenceDate: 1.5), for: "when")
        sample.setValue(id, for: "id")
        sample.setValue(URL(string: "https://example.com/a?b=c"), for: "link")
        sample.setValue(price, for: "price")
        sample.setValue(Float(0.25), for: "ratio")
        sample.setValue(Data([1, 2, 3]), for: "bytes")
        sample.setTransformableValue(Coordinates(latitude: 1, longitude: 2), for: "place")
        sample.setValue(Int16.max, for: "small")
        try store.context.save()

        // The SQLite encodings (PostgreSQL's columns have their own types: the store converts, and the reads
        // below check the values).
        if kind != .postgres {
            let rows = try StoreInspection.rows(
                of: store.container, table: "ZSAMPLE", columns: ["ZFLAG", "ZWHEN", "ZID", "ZLINK", "ZRATIO", "ZSMALL"])
            #expect(
                rows == [
                    [
                        "integer:1", "real:1.5", "blob:X'7CE9EE7FCD674D3C855A3613A7815E23'",
                        "text:'https://example.com/a?b=c'",
                        "real:0.25", "integer:32767",
                    ]
                ])
        }

        let other = try store.reopened()
        let read = try #require(try other.fetch(FetchRequest<ManagedObject>(entityName: "Sample")).first)
        #expect(read.value(for: "flag") == true)
        #expect(read.value(for: "when") == Date(timeIntervalSinceReferenceDate: 1.5))
        #expect(read.value(for: "id") == id)
        #expect(read.value(for: "link") == URL(string: "https://example.com/a?b=c"))
        #expect(read.value(for: "price") == price)
        #expect(read.value(for: "ratio") == Float(0.25))
        #expect(read.value(for: "bytes") == Data([1, 2, 3]))
        #expect(read.transformableValue(for: "place") == Coordinates(latitude: 1, longitude: 2))
        #expect(read.value(for: "small") == Int16.max)
        #expect((read.value(for: "missing") as String?) == nil)
    }

    @Test("decimals: numeric when a double holds them exactly, exact text beyond 15 digits")
    func decimals() throws {
        let container = try PersistentContainer(model: Self.model, store: .inMemory)
        let context = container.viewContext
        let values = ["3.14", "42", "12345678901234567890.123456789"]
        for text in values {
            let sample = try context.insertNewObject(forEntityName: "Sample")
            sample.setValue(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), for: "price")
        }
        try context.save()
        let stored = try StoreInspection.rows(of: container, table: "ZSAMPLE", columns: ["ZPRICE"]).map { $0[0] }
        #expect(stored.map { $0.prefix { $0 != ":" } } == ["real", "integer", "blob"])
        let other = container.newBackgroundContext()
        let read = try other.fetch(FetchRequest<ManagedObject>(entityName: "Sample"))
        #expect(read.compactMap { ($0.value(for: "price") as Decimal?)?.description } == values)
    }
}
