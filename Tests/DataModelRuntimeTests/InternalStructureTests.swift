import Foundation
import SQLiteKit
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
        for key in Int64(-3)...401 {
            #expect(keys.contains(key) == reference.contains(key), "seed \(seed), key \(key)")
        }
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

@Suite("Swift string semantics in SQL")
struct SwiftStringFunctionTests {
    static let samples = [
        "", "a", "A", "ab", "abc", "Ke", "K", "\u{212A}e", "\u{212A}", "e\u{301}", "é", "e\u{301}x", "éx", "ef",
        "Ae\u{301}",
        "Af", "a\r", "a\r\nb", "a\rb", "\r\n", "\n", "x\u{316}\u{301}", "x\u{301}\u{316}", "🙂", "z", ";", "\u{37E}",
    ]

    private func withText<R>(_ string: String, _ body: (SQLiteText) -> R) -> R {
        var copy = string
        return copy.withUTF8 { body($0) }
    }

    @Test("the collation orders and equates as String does, for every pair")
    func collation() {
        for a in Self.samples {
            for b in Self.samples {
                let order = withText(a) { x in withText(b) { y in SwiftStringFunctions.compare(x, y) } }
                let expected: Int32 = a == b ? 0 : (a < b ? -1 : 1)
                #expect(order == expected, "\(a.debugDescription) vs \(b.debugDescription)")
            }
        }
    }

    @Test("starts(with:) and contains as Predicate.evaluate computes them")
    func matching() {
        for a in Self.samples {
            for b in Self.samples {
                let starts = withText(a) { x in withText(b) { y in SwiftStringFunctions.startsWith(x, y) } }
                let contains = withText(a) { x in withText(b) { y in SwiftStringFunctions.contains(x, y) } }
                let startsPredicate = #Predicate<String> { $0.starts(with: b) }
                let containsPredicate = #Predicate<String> { $0.contains(b) }
                #expect(
                    starts == (try? startsPredicate.evaluate(a)),
                    "\(a.debugDescription) starts with \(b.debugDescription)")
                #expect(
                    contains == (try? containsPredicate.evaluate(a)),
                    "\(a.debugDescription) contains \(b.debugDescription)")
            }
        }
    }
}
