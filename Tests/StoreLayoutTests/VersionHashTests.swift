import DataModelStoreLayout
import Testing

/// The version hashes stores record must never change for a model that did not: they are FNV-1a over a fixed text
/// per entity, worked out here the way it was first written, and compared with `LayoutModel.versionHashes`.
@Suite("Version hashes stay as stores recorded them")
struct VersionHashTests {
    static let model = LayoutModel(entities: [
        LayoutEntity(
            name: "Person", isAbstract: true,
            attributes: [
                LayoutAttribute(name: "name", type: .string, isOptional: false),
                LayoutAttribute(name: "photo", type: .binary, allowsExternalBinaryDataStorage: true),
                LayoutAttribute(name: "cache", type: .string, isTransient: true),
            ],
            relationships: [
                LayoutRelationship(
                    name: "pets", destinationName: "Pet", inverseName: "owner", isToMany: true, isOrdered: true)
            ],
            uniquenessConstraints: [["name"], ["name", "photo"]],
            fetchIndexes: [
                LayoutFetchIndex(
                    name: "byName",
                    elements: [
                        LayoutFetchIndexElement(property: "name"),
                        LayoutFetchIndexElement(property: "photo", isAscending: false),
                    ])
            ]),
        LayoutEntity(
            name: "Pet", parentName: nil,
            attributes: [LayoutAttribute(name: "age", type: .integer16)],
            relationships: [LayoutRelationship(name: "owner", destinationName: "Person", inverseName: "pets")]),
    ])

    /// The text each entity's hash was defined over, built as the first implementation built it.
    static func reference(_ entity: LayoutEntity) -> String {
        var text = "entity \(entity.name) parent \(entity.parentName ?? "") abstract \(entity.isAbstract)\n"
        for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
            text += "attribute \(attribute.name) \(attribute.type.rawValue) transient \(attribute.isTransient)"
            text += " optional \(attribute.isOptional)\(attribute.allowsExternalBinaryDataStorage ? " external" : "")\n"
        }
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
            text += "relationship \(relationship.name) \(relationship.destinationName)"
            text += " inverse \(relationship.inverseName ?? "") toMany \(relationship.isToMany)"
            text += " ordered \(relationship.isOrdered) transient \(relationship.isTransient)\n"
        }
        for constraint in entity.uniquenessConstraints { text += "unique \(constraint.joined(separator: ","))\n" }
        for index in entity.fetchIndexes {
            text += "index \(index.name) "
            text += index.elements.map { "\($0.property) \($0.isAscending)" }.joined(separator: ",") + "\n"
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    @Test func hashesAreThoseOfTheDefinedText() {
        let hashes = Self.model.versionHashes
        #expect(hashes.count == 2)
        for entity in Self.model.entities {
            #expect(hashes[entity.name] == Self.reference(entity), "\(entity.name)")
        }
        // The external-storage flag is part of the hash only when set.
        var plain = Self.model
        plain.entities[0].attributes[1].allowsExternalBinaryDataStorage = false
        #expect(plain.versionHashes["Person"] != hashes["Person"])
        #expect(plain.versionHashes["Person"] == Self.reference(plain.entities[0]))
    }
}
