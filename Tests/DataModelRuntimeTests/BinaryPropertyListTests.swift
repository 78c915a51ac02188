import DataModelStore
import Foundation
import Testing

/// The fast reader of store metadata agrees with Foundation's reader, and declines what it does not handle.
@Suite("Binary property lists read without Foundation")
struct BinaryPropertyListTests {
    /// Metadata as Core Data writes it, and more: every scalar size, non-ASCII text, more than 15 elements.
    static var metadata: [String: Any] {
        [
            "NSStoreType": "SQLite", "NSStoreUUID": "0F6C3E1A-2B4D-4E5F-8A9B-0C1D2E3F4A5B",
            "NSStoreModelVersionHashes": [
                "Note": Data(repeating: 3, count: 32), "Folder": Data(repeating: 4, count: 32),
            ],
            "NSStoreModelVersionHashesVersion": 3, "NSPersistenceFrameworkVersion": 1_414, "big": 70_000,
            "huge": 5_000_000_000, "negative": -42, "minimum": Int64.min, "ratio": 2.5, "yes": true, "no": false,
            "when": Date(timeIntervalSinceReferenceDate: 123.25), "text": "Zürich – 東京", "empty": "",
            "NSStoreModelVersionIdentifiers": [""], "_NSAutoVacuumLevel": "2",
            "many": (0..<20).map { "item \($0)" }, "nested": ["a": [1, 2, ["b": "c"]] as [Any]],
            "blob": Data((0..<300).map { UInt8($0 % 256) }),
        ]
    }

    @Test func agreesWithFoundation() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.metadata, format: .binary, options: 0)
        let expected = try #require(
            PropertyListValue(propertyListObject: try PropertyListSerialization.propertyList(from: data, format: nil)))
        let decoded = try #require(BinaryPropertyList.decode(data))
        #expect(decoded == expected)
        guard case .dictionary(let entries) = decoded else {
            Issue.record("not a dictionary")
            return
        }
        #expect(entries["minimum"] == .integer(Int64.min))
        #expect(entries["text"] == .string("Zürich – 東京"))
        #expect(entries["yes"] == .bool(true))

        // What the runtime writes (the `Codable` encoder) reads back the same.
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        #expect(BinaryPropertyList.decode(try encoder.encode(decoded)) == decoded)
    }

    @Test func writesWhatFoundationReads() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.metadata, format: .binary, options: 0)
        let value = try #require(BinaryPropertyList.decode(data))
        let written = BinaryPropertyList.encode(value)
        #expect(written.starts(with: Data("bplist00".utf8)))
        let read = try PropertyListSerialization.propertyList(from: written, format: nil)
        #expect(PropertyListValue(propertyListObject: read) == value)
        #expect(BinaryPropertyList.decode(written) == value)
        // Keys sorted: the same value, the same bytes.
        #expect(BinaryPropertyList.encode(value) == written)
        // Many objects (two-byte references and offsets).
        let large = PropertyListValue.dictionary(
            Dictionary(
                uniqueKeysWithValues: (0..<400).map { ("key \($0)", PropertyListValue.integer(Int64($0) * 1_000)) }))
        let largeRead = try PropertyListSerialization.propertyList(from: BinaryPropertyList.encode(large), format: nil)
        #expect(PropertyListValue(propertyListObject: largeRead) == large)
    }

    @Test func declinesWhatItDoesNotRead() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.metadata, format: .binary, options: 0)
        #expect(BinaryPropertyList.decode(data.prefix(data.count - 1)) == nil)
        #expect(BinaryPropertyList.decode(Data("bplist00".utf8) + Data(count: 40)) == nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.metadata, format: .xml, options: 0)
        #expect(BinaryPropertyList.decode(xml) == nil)
        // A keyed archive holds UIDs: declined, not misread.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["a"] as NSArray, requiringSecureCoding: true)
        #expect(BinaryPropertyList.decode(archive) == nil)
    }
}
