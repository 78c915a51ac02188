import Testing

@testable import DataModelRuntime

@Suite("PrimaryKeySet: the membership index of to-many lists")
struct PrimaryKeySetTests {
    @Test("random inserts and removals agree with Set<Int64>", arguments: 1...20)
    func agreesWithSet(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var keys = PrimaryKeySet()
        var reference = Set<Int64>()
        for _ in 0..<3_000 {
            // A narrow key range forces collisions, long probe chains and wrap-around.
            let key = Int64.random(in: -2...400, using: &generator)
            if Bool.random(using: &generator) {
                let inserted = keys.insert(key)
                #expect(inserted == reference.insert(key).inserted, "seed \(seed)")
            } else {
                keys.remove(key)
                reference.remove(key)
            }
            #expect(keys.count == reference.count, "seed \(seed)")
        }
        for key in Int64(-3)...401 { #expect(keys.contains(key) == reference.contains(key), "seed \(seed), key \(key)") }
    }

    @Test("a list built in one go answers like one built by appends")
    func bulkList() {
        let ids = (1...100).map { ObjectID(storeNumber: 1, entityNumber: 2, primaryKey: Int64($0 * 7)) }
        var appended = ObjectIDList()
        for id in ids { appended.append(id) }
        let bulk = ObjectIDList(distinct: ids)
        #expect(bulk == appended)
        for id in ids { #expect(bulk.contains(id)) }
        #expect(!bulk.contains(ObjectID(storeNumber: 1, entityNumber: 2, primaryKey: 8)))
        var removed = bulk
        let wasThere = removed.remove(ids[10])
        #expect(wasThere)
        #expect(!removed.contains(ids[10]))
        #expect(removed.count == 99)
    }
}
