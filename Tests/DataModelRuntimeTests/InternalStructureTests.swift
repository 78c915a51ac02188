import Foundation
import GeneratedCompanyModel
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
        // Eight bytes and more: the collation compares eight bytes at a time, then byte by byte.
        "abcdefgh", "abcdefghi", "abcdefghj", "abcdefgi", "abcdefgh\u{E9}", "abcdefghe\u{301}", "abcdefghe",
        "abcdefghK",
        "abcdefgh\u{212A}", "abcdefg\u{E9}", "abcdefge\u{301}", "0123456789abcdefX", "0123456789abcdefe\u{301}",
        "0123456789abcdef\u{E9}", "0123456789abcdeg", "\u{E9}bcdefghij", "e\u{301}bcdefghij",
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

    @Test("the sorts' collation orders as the sort keys do, a total order")
    func orderCollation() {
        func key(_ text: String) -> [UInt8] {
            withText(text) { SwiftStringFunctions.orderKey($0) ?? Array($0) }
        }
        func order(_ a: String, _ b: String) -> Int32 {
            withText(a) { x in withText(b) { y in SwiftStringFunctions.compareOrderKeys(x, y) } }
        }
        // Scripts the collation compares by bytes when both texts are in NFC (CJK, kana, Hangul, Cyrillic, Latin),
        // next to their decomposed or combining forms, which it normalizes.
        let samples =
            Self.samples + [
                "日本語", "日本", "x日本", "xか\u{3099}", "xが", "か\u{3099}", "が", "かき", "한국", "\u{1100}\u{1161}", "가",
                "가\u{11A8}", "각", "й", "и\u{306}", "\u{400}", "\u{415}\u{300}", "а\u{483}", "Äpfel", "A\u{308}pfel",
                "\u{1C5}", "ab日本\u{FE00}", "ab日本", "\u{F900}", "\u{8C48}", "e\u{301}日", "é日", "\u{1F642}x",
            ]
        for a in samples {
            for b in samples {
                let expected: Int32 =
                    key(a) == key(b) ? 0 : (key(a).lexicographicallyPrecedes(key(b)) ? -1 : 1)
                #expect(order(a, b) == expected, "\(a.debugDescription) vs \(b.debugDescription)")
                #expect(order(a, b) == -order(b, a))
                // Equal exactly when `String` says so.
                #expect((order(a, b) == 0) == (a == b))
            }
        }
        // Sorting by it sorts as the keys do.
        let sorted = samples.sorted { order($0, $1) < 0 }
        for (x, y) in zip(sorted, sorted.dropFirst()) { #expect(!key(y).lexicographicallyPrecedes(key(x))) }
        // Bytes that are not valid UTF-8 order as the keys of the text they read as (each invalid sequence repaired).
        let bytes: [[UInt8]] = [
            [0xC3, 0x41], [0xC3], [0xE2, 0x84], [0xE2, 0x84, 0x41], [0x41, 0xC3, 0x41], [0x41, 0xC3],
            [0xE6, 0x97, 0xA5],
            [0xE6, 0x97], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xC0, 0xAF], [0xFF], [0x41], Array("A\u{308}".utf8),
            Array("\u{C4}".utf8), Array("日".utf8),
        ]
        for x in bytes {
            for y in bytes {
                let keys = x.withUnsafeBufferPointer { p in
                    y.withUnsafeBufferPointer { q in
                        (SwiftStringFunctions.orderKey(p) ?? x, SwiftStringFunctions.orderKey(q) ?? y)
                    }
                }
                let expected: Int32 =
                    keys.0 == keys.1 ? 0 : (keys.0.lexicographicallyPrecedes(keys.1) ? -1 : 1)
                let actual = x.withUnsafeBufferPointer { p in
                    y.withUnsafeBufferPointer { q in SwiftStringFunctions.compareOrderKeys(p, q) }
                }
                #expect(actual == expected, "\(x) vs \(y)")
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

@Suite("ObjectTable: the identity map")
struct ObjectTableTests {
    /// A detached object with `id`, of the first entity of the Company model.
    private static func object(_ id: ObjectID, in context: ManagedObjectContext) -> ManagedObject {
        // safe in a test: the Company model has entities 1 to 3.
        let entity = context.runtime.entity(number: id.entityNumber)!
        return ManagedObject(ObjectSeed(entity: entity, objectID: id, context: context, isFault: true))
    }

    /// Finds `id` in `table`, expecting what `reference` holds, and fills its vacancy with a new object when absent.
    private static func findOrFill(
        _ id: ObjectID, in table: inout ObjectTable, reference: inout [ObjectID: ManagedObject],
        context: ManagedObjectContext, step: Int
    ) {
        var vacancy = ObjectTable.Vacancy()
        let found = table.find(id, orVacancy: &vacancy)
        #expect(found === reference[id], "step \(step)")
        if found == nil {
            let object = Self.object(id, in: context)
            table.fill(vacancy, with: object)
            reference[id] = object
        }
    }

    /// Keys that stress the run-based hash: consecutive runs, keys sharing their low bits,
    /// the same keys under several entities, negative and extreme keys.
    private static func key(_ step: Int, pattern: Int, using generator: inout SeededGenerator) -> ObjectID {
        let primaryKey: Int64
        switch pattern {
        case 0: primaryKey = Int64(step)
        case 1: primaryKey = Int64(step) * 16
        case 2: primaryKey = Int64(step) * 4096
        case 3: primaryKey = Int64.random(in: -50...50, using: &generator)
        case 5: primaryKey = step % 2 == 0 ? Int64(step) : Int64(step) * 100_003
        default: primaryKey = [Int64.min, Int64.max, 0, -1][step % 4] &+ Int64(step / 4)
        }
        return ObjectID(storeNumber: 1, entityNumber: 1 + step % 3, primaryKey: primaryKey)
    }

    @Test("insert, find, fill and remove agree with a dictionary", arguments: 0..<6)
    func agreesWithDictionary(pattern: Int) throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        var generator = SeededGenerator(seed: UInt64(pattern + 1))
        var table = ObjectTable()
        var reference: [ObjectID: ManagedObject] = [:]
        var vacancy = ObjectTable.Vacancy()
        for step in 0..<6_000 {
            let id = Self.key(step, pattern: pattern, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                Self.findOrFill(id, in: &table, reference: &reference, context: context, step: step)
            case 5..<7:
                let object = Self.object(id, in: context)
                table.insert(object)
                reference[id] = object
            case 7:
                // A vacancy used after the table changed is an insertion, not a write to a stale slot.
                let other = Self.key(step + 1, pattern: pattern, using: &generator)
                if table.find(id, orVacancy: &vacancy) == nil, reference[other] == nil {
                    let otherObject = Self.object(other, in: context)
                    table.insert(otherObject)
                    reference[other] = otherObject
                    let object = Self.object(id, in: context)
                    table.fill(vacancy, with: object)
                    reference[id] = object
                }
            default:
                table.remove(id)
                reference[id] = nil
            }
            #expect(table.count == reference.count, "step \(step)")
        }
        for (id, object) in reference { #expect(table[id] === object) }
        #expect(Set(table.objects.map(ObjectIdentifier.init)) == Set(reference.values.map(ObjectIdentifier.init)))
        for object in table.objects { object.context = nil }
    }

    @Test("objects added in key order per entity, interleaved, and then at random agree with a dictionary")
    func unindexedTail() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        var generator = SeededGenerator(seed: 7)
        var table = ObjectTable()
        var reference: [ObjectID: ManagedObject] = [:]
        var vacancy = ObjectTable.Vacancy()
        // A fetch's rows and inserted objects: keys increasing with gaps per entity, the entities interleaved and
        // each starting over (another entity's keys say nothing about this one's).
        var greatest: [Int: Int64] = [1: -3, 2: 0, 3: 100]
        var primaryKey: Int64 = 0
        for step in 0..<3_000 {
            let entity = Int.random(in: 1...3, using: &generator)
            greatest[entity, default: 0] += Int64.random(in: 1...5, using: &generator)
            primaryKey = max(primaryKey, greatest[entity, default: 0])
            let id = ObjectID(storeNumber: 1, entityNumber: entity, primaryKey: greatest[entity, default: 0])
            let object = Self.object(id, in: context)
            if step % 3 == 0 {
                table.insert(object)
            } else {
                #expect(table.find(id, orVacancy: &vacancy) == nil)
                table.fill(vacancy, with: object)
            }
            reference[id] = object
        }
        #expect(table.count == reference.count)
        // Lookups (the first indexes the table): every key of every entity in the range, members and gaps alike.
        for entity in 1...3 {
            for key in Int64(-10)...(primaryKey + 10) {
                let id = ObjectID(storeNumber: 1, entityNumber: entity, primaryKey: key)
                #expect(table[id] === reference[id], "\(id)")
            }
        }
        // A second fetch starts over at low keys: its finds return the registered objects, and new ones go in.
        for step in 0..<4_000 {
            let id = ObjectID(
                storeNumber: 1, entityNumber: Int.random(in: 1...3, using: &generator),
                primaryKey: Int64.random(in: -5...(primaryKey + 50), using: &generator))
            switch step % 5 {
            case 4:
                table.remove(id)
                reference[id] = nil
            default:
                Self.findOrFill(id, in: &table, reference: &reference, context: context, step: step)
            }
        }
        #expect(table.count == reference.count)
        for (id, object) in reference { #expect(table[id] === object) }
        for object in table.objects { object.context = nil }
    }

    @Test("a key kept in the hash index stays found after its entity's direct index grows over it")
    func directIndexGrowsOverHashedKey() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        var table = ObjectTable()
        // Sparse at first (one object, a key far out): hashed. Then dense keys until the entity's direct index
        // covers that key too.
        let far = ObjectID(storeNumber: 1, entityNumber: 1, primaryKey: 1_000_000)
        let farObject = Self.object(far, in: context)
        table.insert(farObject)
        var objects = [farObject]
        for key in Int64(0)..<130_000 {
            let object = Self.object(ObjectID(storeNumber: 1, entityNumber: 1, primaryKey: key), in: context)
            table.insert(object)
            objects.append(object)
        }
        // A key beyond the direct index's capacity, with enough objects now that the index grows past the far key.
        let beyond = Self.object(ObjectID(storeNumber: 1, entityNumber: 1, primaryKey: 600_000), in: context)
        table.insert(beyond)
        objects.append(beyond)
        #expect(table.count == 130_002)
        #expect(table[far] === farObject)
        #expect(table[beyond.objectID] === beyond)
        var vacancy = ObjectTable.Vacancy()
        #expect(table.find(far, orVacancy: &vacancy) === farObject)
        // Removed and added again, it is found wherever it goes now; the last member moved into its place too.
        table.remove(far)
        #expect(table[far] == nil)
        #expect(table.find(far, orVacancy: &vacancy) == nil)
        let again = Self.object(far, in: context)
        table.fill(vacancy, with: again)
        #expect(table[far] === again)
        let lastKey = beyond.objectID
        #expect(table[lastKey] === beyond)
        table.remove(ObjectID(storeNumber: 1, entityNumber: 1, primaryKey: 5))
        #expect(table[lastKey] === beyond && table[far] === again && table.count == 130_001)
        for object in objects + [again] { object.context = nil }
    }

    @Test("an ID added again replaces the first object, in either index")
    func repeatedIDReplaces() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let context = container.newBackgroundContext()
        var table = ObjectTable()
        var all: [ManagedObject] = []
        // Key 5 goes to the direct index, key -5 to the hash index.
        for key: Int64 in [5, -5] {
            let id = ObjectID(storeNumber: 1, entityNumber: 2, primaryKey: key)
            let first = Self.object(id, in: context)
            let second = Self.object(id, in: context)
            let other = Self.object(ObjectID(storeNumber: 1, entityNumber: 3, primaryKey: key), in: context)
            let countBefore = table.count
            table.insert(first)
            table.insert(other)
            table.insert(second)
            #expect(table.count == countBefore + 2)
            #expect(table[id] === second)
            #expect(table[other.objectID] === other)
            var vacancy = ObjectTable.Vacancy()
            #expect(table.find(id, orVacancy: &vacancy) === second)
            all += [first, second, other]
        }
        for object in all { object.context = nil }
    }

    @Test("a fetch into an empty context and the lookups after it find the same objects", arguments: [false, true])
    func fetchIntoEmptyContext(sorted: Bool) throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let writer = container.newBackgroundContext()
        for index in 0..<500 {
            let employee = EmployeeEntity(context: writer)
            employee.name = "E\((index * 7919) % 500)"
        }
        try writer.save()
        let context = container.newBackgroundContext()
        var request = EmployeeEntity.fetchRequest()
        if sorted { request = request.sorted(by: [SortDescriptor(\.name)]) }
        let first = try context.fetch(request)
        #expect(first.count == 500)
        for employee in first {
            #expect(try context.existingObject(with: employee.objectID) === employee)
        }
        let second = try context.fetch(
            EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name, order: .reverse)]))
        #expect(Set(second.map(ObjectIdentifier.init)) == Set(first.map(ObjectIdentifier.init)))
        let inserted = EmployeeEntity(context: context)
        #expect(try context.existingObject(with: inserted.objectID) === inserted)
        #expect(context.registeredObjects.count == 501)
    }

    @Test("IDs and relationship values stay small: every object and every to-one holds one")
    func compactLayout() {
        #expect(MemoryLayout<ObjectID>.size == 16)
        #expect(MemoryLayout<RelationshipValue>.stride == 24)
    }
}

@Suite("ObjectValues: an object's values as tagged 16-byte slots")
struct ObjectValuesTests {
    private static func id(_ primaryKey: Int64) -> ObjectID {
        ObjectID(storeNumber: 1, entityNumber: 2, primaryKey: primaryKey)
    }

    /// One value of every kind: small and heap strings, inline and heap data, extreme numbers.
    private static let attributeSamples: [PrimitiveValue] = [
        .null, .integer(0), .integer(.min), .integer(.max), .real(-0.0), .real(.infinity), .real(3.25),
        .text(""), .text("short"), .text(String(repeating: "a long text é ", count: 20)),
        .blob(Data()), .blob(Data([1, 2, 3])), .blob(Data(repeating: 7, count: 1000)),
    ]

    private static var relationshipSamples: [RelationshipValue] {
        [
            .toOne(nil), .toOne(id(1)), .toOne(ObjectID(storeNumber: -1, entityNumber: .max, primaryKey: .min)),
            .toManyFault, .toMany(ObjectIDList()), .toMany(ObjectIDList((1...40).map(id))),
        ]
    }

    @Test("every payload fits a slot")
    func payloadsFit() {
        #expect(MemoryLayout<String>.size <= 16 && MemoryLayout<Data>.size <= 16)
        #expect(MemoryLayout<ObjectID>.size <= 16 && MemoryLayout<ObjectIDList>.size <= 16)
        #expect(MemoryLayout<Int64>.size <= 16 && MemoryLayout<Double>.size <= 16)
    }

    @Test("values read back as written, after any kind overwrote any kind, and copies stay independent")
    func roundTrip() {
        let attributes = Self.attributeSamples
        let relationships = Self.relationshipSamples
        var values = ObjectValues(attributes: attributes, relationships: relationships)
        #expect(values.attributes == attributes && values.relationships == relationships)
        let original = values
        for (index, _) in attributes.enumerated() {
            for replacement in attributes {
                values[attribute: index] = replacement
                #expect(values[attribute: index] == replacement)
                #expect(values.attributeIfPresent(index) == replacement)
            }
        }
        for (index, _) in relationships.enumerated() {
            for replacement in relationships {
                values[relationship: index] = replacement
                #expect(values[relationship: index] == replacement)
                #expect(values.isToManyFault(index) == (replacement == .toManyFault))
                if case .toMany = replacement {
                    #expect(values.isLoadedToMany(index))
                } else {
                    #expect(!values.isLoadedToMany(index))
                }
            }
        }
        // The copy taken before the changes still holds the original values.
        #expect(original.attributes == attributes && original.relationships == relationships)
        #expect(values.attributeIfPresent(attributes.count) == .null && values.attributeIfPresent(-1) == .null)
        #expect(ObjectValues().attributeIfPresent(0) == .null && ObjectValues().isEmpty)
    }

    @Test("equality read in place agrees with the values' ==, for every pair, copies and equal rebuilt values")
    func equalityInPlace() {
        // Equal values of other bytes: a text and a blob rebuilt, -0.0 and 0.0, an ID list rebuilt.
        let attributes =
            Self.attributeSamples + [
                .real(0), .real(.nan), .text(String(repeating: "a long text é ", count: 20)), .blob(Data([1, 2, 3])),
                .text("e\u{301}"), .text("\u{E9}"),
            ]
        let relationships = Self.relationshipSamples + [.toMany(ObjectIDList((1...40).map(Self.id)))]
        func isNaN(_ value: PrimitiveValue) -> Bool {
            if case .real(let number) = value { number.isNaN } else { false }
        }
        for a in attributes {
            for b in attributes {
                let left = ObjectValues(attributes: [a], relationships: [])
                let right = ObjectValues(attributes: [b], relationships: [])
                // NaN, which == never equals, is the same value in place: a save leaves its column alone.
                let expected = a == b || isNaN(a) && isNaN(b)
                #expect(left.attributeEquals(0, in: right) == expected, "\(a) vs \(b)")
                #expect(left.attributeEquals(0, in: left))
            }
        }
        for a in relationships {
            for b in relationships {
                let left = ObjectValues(attributes: [], relationships: [a])
                let right = ObjectValues(attributes: [], relationships: [b])
                #expect(left.relationshipEquals(0, in: right) == (a == b), "\(a) vs \(b)")
            }
        }
        // A save's changed columns: only the attribute and to-one that differ, and a position always.
        let snapshot = ObjectValues(
            attributes: [.text(["same", "same", "same", "same", "same"].joined()), .integer(1)],
            relationships: [.toOne(Self.id(1))])
        var values = snapshot
        // Rebuilt at run time and longer than a small string: other bytes, the same text.
        values[attribute: 0] = .text(String(repeating: "same", count: 5))
        #expect(
            values.changeMask(
                of: [
                    .attribute(index: 0, kind: .text), .attribute(index: 1, kind: .integer),
                    .foreignKey(relationship: 0),
                ],
                since: snapshot) == 0)
        values[attribute: 1] = .integer(2)
        values[relationship: 0] = .toOne(Self.id(2))
        #expect(
            values.changeMask(
                of: [
                    .attribute(index: 0, kind: .text), .attribute(index: 1, kind: .integer),
                    .foreignKey(relationship: 0), .foreignOrder(relationship: 0),
                ],
                since: snapshot) == 0b1110)
    }

    @Test("values built in place start null and toOne(nil); a to-many changes in place, copies do not follow")
    func writerAndToMany() {
        var values = ObjectValues(attributeCount: 9, relationshipCount: 3) { writer in
            writer.initialize(attribute: 8, to: .text("last"))
            writer.initialize(relationship: 1, to: .toMany(ObjectIDList([Self.id(1)])))
        }
        #expect(values.attributes == Array(repeating: .null, count: 8) + [.text("last")])
        #expect(values.relationships == [.toOne(nil), .toMany(ObjectIDList([Self.id(1)])), .toOne(nil)])
        let before = values
        let appended = values.modifyToMany(1) { list in list.append(Self.id(2)) }
        #expect(appended == true)
        #expect(values.toManyContains(1, Self.id(2)) == true)
        #expect(before.toManyContains(1, Self.id(2)) == false)
        #expect(values.modifyToMany(0) { _ in true } == nil)
        #expect(values.toManyContains(0, Self.id(1)) == nil)
    }
}

@Suite("ObjectIDList: a loaded to-many's IDs")
struct ObjectIDListTests {
    private static func id(_ primaryKey: Int64) -> ObjectID {
        ObjectID(storeNumber: 1, entityNumber: 2, primaryKey: primaryKey)
    }

    @Test("copies are independent: a change to one leaves the other as it was")
    func copyOnWrite() {
        var original = ObjectIDList((1...5).map(Self.id))
        var copy = original
        copy.append(Self.id(6))
        copy.remove(Self.id(1))
        #expect(original.ids == (1...5).map(Self.id))
        #expect(copy.ids == (2...6).map(Self.id))
        #expect(!original.contains(Self.id(6)) && original.contains(Self.id(1)))
        original.reorder((1...5).reversed().map(Self.id))
        #expect(original.ids == (1...5).reversed().map(Self.id))
        #expect(copy.ids == (2...6).map(Self.id))
        var empty = ObjectIDList()
        let emptyCopy = empty
        let inserted = empty.insert(Self.id(9), at: 3)
        #expect(inserted)
        #expect(emptyCopy.count == 0 && !emptyCopy.contains(Self.id(9)))
        #expect(empty.ids == [Self.id(9)] && empty.firstIndex(of: Self.id(9)) == 0)
        let appendedAgain = empty.append(Self.id(9))
        #expect(!appendedAgain)
    }
}
