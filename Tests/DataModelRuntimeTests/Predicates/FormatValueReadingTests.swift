import Foundation
import Testing

@testable import DataModelRuntime

/// The in-memory evaluator (format predicates, derived attributes) reads properties directly; what it reads must be
/// what it made of key-value coding's values before.
@Suite("Format evaluation reads properties as key-value coding does")
struct FormatValueReadingTests {
    static let types: [(String, AttributeType)] = [
        ("i16", .integer16), ("i32", .integer32), ("i64", .integer64), ("flag", .boolean), ("dbl", .double),
        ("flt", .float), ("dec", .decimal), ("text", .string), ("date", .date), ("uuid", .uuid), ("uri", .uri),
        ("data", .binary),
    ]

    static let model = ManagedObjectModel(
        name: "FormatValueReading",
        entities: [
            EntityDescription(
                name: "Item", objectType: ManagedObject.self,
                attributes: types.map { AttributeDescription(name: $0.0, type: $0.1) },
                relationships: [
                    RelationshipDescription(
                        name: "box", destinationEntityName: "Box", inverseName: "items", maxCount: 1),
                    RelationshipDescription(
                        name: "shelf", destinationEntityName: "Box", inverseName: "ordered", maxCount: 1),
                ]),
            EntityDescription(
                name: "Box", objectType: ManagedObject.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "items", destinationEntityName: "Item", inverseName: "box", isToMany: true),
                    RelationshipDescription(
                        name: "ordered", destinationEntityName: "Item", inverseName: "shelf", isToMany: true,
                        isOrdered: true),
                ]),
        ])

    /// What the evaluator made of a property before: key-value coding's value.
    static func throughKeyValueCoding(_ key: String, of object: ManagedObject) throws -> String {
        String(describing: FormatValue(swift: try object.checkedValue(forKey: key)))
    }

    static func direct(_ key: String, of object: ManagedObject) throws -> String {
        String(describing: try #require(FormatValue(property: key, of: object)))
    }

    @Test("every attribute type, set and unset, saved and unsaved; to-one, unordered and ordered to-many")
    func sameValues() throws {
        let container = try PersistentContainer(model: Self.model, store: .inMemory)
        let context = container.viewContext
        let empty = try context.insertNewObject(forEntityName: "Item")
        let full = try context.insertNewObject(forEntityName: "Item")
        let values: [String: Any] = [
            "i16": Int16(-7), "i32": Int32(70_000), "i64": Int64.max, "flag": true, "dbl": 2.5,
            "flt": Float(1.25), "dec": Decimal(string: "12.345") ?? 0, "text": "Ünïcode",
            "date": Date(
                timeIntervalSinceReferenceDate: 1_000.5), "uuid": UUID(),
            "uri": URL(string: "https://example.com/a?b=c")
                ?? URL(fileURLWithPath: "/"), "data": Data([0, 1, 2]),
        ]
        for (key, value) in values { try full.setCheckedValue(value, forKey: key) }
        let box = try context.insertNewObject(forEntityName: "Box")
        var items: [ManagedObject] = [empty, full]
        for _ in 0..<5 { items.append(try context.insertNewObject(forEntityName: "Item")) }
        for item in items.reversed() {
            try item.setCheckedValue(box, forKey: "box")
            try item.setCheckedValue(box, forKey: "shelf")
        }
        for phase in ["unsaved", "saved"] {
            for object in [empty, full] {
                for (key, _) in Self.types {
                    #expect(
                        try Self.direct(key, of: object) == Self.throughKeyValueCoding(key, of: object),
                        "\(phase) \(key)")
                }
                for key in ["box", "shelf"] {
                    #expect(try Self.direct(key, of: object) == Self.throughKeyValueCoding(key, of: object), "\(key)")
                }
            }
            for key in ["items", "ordered", "name"] {
                #expect(try Self.direct(key, of: box) == Self.throughKeyValueCoding(key, of: box), "\(phase) \(key)")
            }
            try context.save()
            context.refreshAllObjects()
        }
        #expect(FormatValue(property: "nothing", of: box) == nil)
        // A fault is read as key-value coding reads it: fired.
        let fault = try container.newBackgroundContext().existingObject(with: full.objectID)
        #expect(try Self.direct("text", of: fault) == "string(\"Ünïcode\")")
    }

    @Test("canonical: folds ASCII text without Foundation exactly as Foundation folds it")
    func canonicalFolding() {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for text in [ascii, "Mixed Case 123", "", "ÉLOÏSE Martin", "Straße", "İstanbul", "ǅemal"] {
            #expect(
                FormatEvaluator.canonical(text)
                    == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), "\(text)")
        }
        for scalar in 0..<128 {
            let text = String(UnicodeScalar(UInt8(scalar)))
            #expect(
                FormatEvaluator.canonical(text)
                    == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), "\(scalar)")
        }
    }
}
