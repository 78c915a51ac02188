import DataModelRuntime
import Foundation
import Testing

/// People following each other (a self-referencing many-to-many), with favourites stored
/// without an inverse (a join table with a synthesized inverse) and an ordered many-to-many.
enum SocialModel {
    static let model = ManagedObjectModel(
        name: "Social",
        entities: [
            EntityDescription(
                name: "Person", objectType: ManagedObject.self,
                attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "followers", destinationEntityName: "Person", inverseName: "following", isToMany: true),
                    RelationshipDescription(
                        name: "following", destinationEntityName: "Person", inverseName: "followers", isToMany: true),
                    RelationshipDescription(name: "favorites", destinationEntityName: "Tag", isToMany: true),
                    RelationshipDescription(
                        name: "playlists", destinationEntityName: "Tag", inverseName: "people", isToMany: true,
                        isOrdered: true),
                ]),
            EntityDescription(
                name: "Tag", objectType: ManagedObject.self,
                attributes: [AttributeDescription(name: "label", type: .string)],
                relationships: [
                    RelationshipDescription(
                        name: "people", destinationEntityName: "Person", inverseName: "playlists", isToMany: true)
                ]),
        ])
}

@Suite("Join tables")
struct JoinTableTests {
    private func person(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let person = try context.insertNewObject(forEntityName: "Person")
        person.setValue(name, for: "name")
        return person
    }

    private func names(_ objects: [ManagedObject]) -> [String] {
        objects.compactMap { $0.value(for: "name") as String? }.sorted()
    }

    @Test("self-referencing many-to-many keeps both sides", arguments: StoreKind.allCases)
    func following(kind: StoreKind) throws {
        let store = try TestStore(kind, model: SocialModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let ann = try person("Ann", in: context)
        let ben = try person("Ben", in: context)
        let cat = try person("Cat", in: context)
        ann.addObject(ben, to: "following")
        ann.addObject(cat, to: "following")
        cat.addObject(ben, to: "following")
        #expect(names(ben.toManySet(for: "followers").map { $0 as ManagedObject }) == ["Ann", "Cat"])
        try context.save()

        let other = try store.reopened()
        let people = try other.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        let readBen = try #require(people.first { $0.value(for: "name") == "Ben" })
        let readAnn = try #require(people.first { $0.value(for: "name") == "Ann" })
        #expect(names(readBen.toManySet(for: "followers").map { $0 as ManagedObject }) == ["Ann", "Cat"])
        #expect(names(readAnn.toManySet(for: "following").map { $0 as ManagedObject }) == ["Ben", "Cat"])
        readBen.removeObject(readAnn, from: "followers")
        try other.save()
        let third = try store.reopened()
        let thirdAnn = try #require(
            try third.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first { $0.value(for: "name") == "Ann" })
        #expect(names(thirdAnn.toManySet(for: "following").map { $0 as ManagedObject }) == ["Cat"])
    }

    @Test("a to-many without inverse and an ordered many-to-many are stored", arguments: StoreKind.allCases)
    func favoritesAndPlaylists(kind: StoreKind) throws {
        let store = try TestStore(kind, model: SocialModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let ann = try person("Ann", in: context)
        var tags: [ManagedObject] = []
        for label in ["a", "b", "c"] {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            tag.setValue(label, for: "label")
            tags.append(tag)
        }
        ann.addObjects(tags[0...1], to: "favorites")
        ann.setToManyArray([tags[2], tags[0], tags[1]], for: "playlists")
        #expect(tags[2].toManySet(for: "people") == [ann])
        try context.save()

        let other = try store.reopened()
        let readAnn = try #require(try other.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first)
        let favorites: Set<ManagedObject> = readAnn.toManySet(for: "favorites")
        #expect(favorites.compactMap { $0.value(for: "label") as String? }.sorted() == ["a", "b"])
        let playlists: [ManagedObject] = readAnn.toManyArray(for: "playlists")
        #expect(playlists.compactMap { $0.value(for: "label") as String? } == ["c", "a", "b"])
        readAnn.insertObject(playlists[2], at: 0, into: "playlists")
        try other.save()
        let third = try store.reopened()
        let thirdAnn = try #require(try third.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first)
        let reordered: [ManagedObject] = thirdAnn.toManyArray(for: "playlists")
        #expect(reordered.compactMap { $0.value(for: "label") as String? } == ["b", "c", "a"])
    }
}
