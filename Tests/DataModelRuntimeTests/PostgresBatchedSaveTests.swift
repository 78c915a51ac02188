import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import PostgresKit
import Testing

/// The PostgreSQL save in batches: inserts as multi-row statements, updates and deletes pipelined, each object's
/// `Z_OPT` check still its own. Many rows (several batches and an odd remainder), every attribute type, and
/// conflicts found object by object.
@Suite(
    "PostgreSQL store: batched save",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresBatchedSaveTests {
    /// Random values of every attribute type on `gadget` (some `nil`): integers across their whole range, floats,
    /// dates (whole quarter seconds: exact to PostgreSQL's microsecond), decimals, text with quotes and non-ASCII,
    /// bytes, UUIDs.
    static func fill(_ gadget: Gadget, index: Int, _ rng: inout SeededGenerator, makers: [Maker], tags: [Tag]) {
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { rng.chance(85) ? value() : nil }
        gadget.i16 = maybe(Int16(truncatingIfNeeded: rng.next()))
        gadget.i32 = maybe(Int32(truncatingIfNeeded: rng.next()))
        gadget.i64 = maybe(Int64(bitPattern: rng.next()))
        gadget.flag = maybe(rng.chance(50))
        gadget.dbl = maybe(Double(Int64(truncatingIfNeeded: rng.next() >> 11)) / 1024)
        gadget.flt = maybe(Float(rng.int(1 << 20)) / 64)
        gadget.date = maybe(Date(timeIntervalSinceReferenceDate: Double(rng.int(4_000_000_000)) / 4 - 5e8))
        gadget.dec = maybe(Decimal(string: "\(rng.int(1_000_000) - 500_000).\(rng.int(100))") ?? 0)
        gadget.text = maybe(["O'Brien", "ünïcødé 🙂", "", "a\"b", "tab\there", "x"][rng.int(6)] + " \(index)")
        gadget.title = "title \(index)"
        gadget.data = maybe(Data((0..<rng.int(40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        gadget.uuid = maybe(
            UUID(uuid: withUnsafeBytes(of: (rng.next(), rng.next())) { $0.load(as: uuid_t.self) }))
        gadget.maker = rng.chance(80) ? rng.pick(makers) : nil
        gadget.tags = Set(tags.filter { _ in rng.chance(30) })
    }

    static func expectEqual(_ read: [Int64: Gadget], _ written: [Gadget]) {
        #expect(read.count == written.count)
        for gadget in written {
            guard let other = read[gadget.objectID.primaryKey] else {
                Issue.record("row \(gadget.objectID.primaryKey) missing")
                continue
            }
            #expect(other.i16 == gadget.i16 && other.i32 == gadget.i32 && other.i64 == gadget.i64)
            #expect(other.flag == gadget.flag && other.dbl == gadget.dbl && other.flt == gadget.flt)
            #expect(other.date == gadget.date && other.dec == gadget.dec && other.uuid == gadget.uuid)
            #expect(other.text == gadget.text && other.title == gadget.title && other.data == gadget.data)
            #expect(other.maker?.objectID == gadget.maker?.objectID)
            #expect(Set(other.tags.map(\.objectID)) == Set(gadget.tags.map(\.objectID)))
        }
    }

    @Test("1,337 objects of every attribute type insert in batches, then update and delete, and read back as written")
    func manyRowsEveryType() throws {
        let store = try TestStore(.postgres, model: GadgetsModel.model)
        defer { store.cleanUp() }
        var rng = SeededGenerator(seed: 16)
        let context = store.context
        let makers = (0..<5).map { index in
            let maker = Maker(context: context)
            maker.name = "maker \(index)"
            maker.rank = Int32(index)
            return maker
        }
        let tags = ["red", "blue", "Red", "green"].map { label in
            let tag = Tag(context: context)
            tag.label = label
            return tag
        }
        // More than two full batches of 512 and a remainder that is not a power of two (1,337 = 2 × 512 + 313).
        var gadgets: [Gadget] = []
        for index in 0..<1_337 {
            let gadget = Gadget(context: context)
            Self.fill(gadget, index: index, &rng, makers: makers, tags: tags)
            gadgets.append(gadget)
        }
        try context.save()
        var reread = try store.reopened()
        Self.expectEqual(
            Dictionary(
                uniqueKeysWithValues: try reread.fetch(FetchRequest<Gadget>()).map { ($0.objectID.primaryKey, $0) }),
            gadgets)

        // Update two thirds (every attribute again), delete a tenth: both pipelined.
        for (index, gadget) in gadgets.enumerated() where index % 3 != 0 {
            Self.fill(gadget, index: index + 10_000, &rng, makers: makers, tags: tags)
        }
        let deleted = gadgets.enumerated().filter { $0.offset % 10 == 5 }.map(\.element)
        for gadget in deleted { context.delete(gadget) }
        try context.save()
        let remaining = gadgets.enumerated().filter { $0.offset % 10 != 5 }.map(\.element)
        reread = try store.reopened()
        Self.expectEqual(
            Dictionary(
                uniqueKeysWithValues: try reread.fetch(FetchRequest<Gadget>()).map { ($0.objectID.primaryKey, $0) }),
            remaining)
    }

    @Test("a batched save finds each conflicting update and delete, object by object, and writes nothing")
    func conflictsPerObject() throws {
        let store = try TestStore(.postgres, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for index in 0..<1_500 {
            let employee = EmployeeEntity(context: context)
            employee.name = "e\(index)"
            employee.age = 20
        }
        try context.save()
        let mine = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        #expect(mine.count == 1_500)

        // Another process changes every 7th row and deletes every 11th (of the others).
        let other = try store.reopened()
        var changedByOther: Set<String> = []
        var deletedByOther: Set<String> = []
        for employee in try other.fetch(EmployeeEntity.fetchRequest()) {
            guard let name = employee.name, let number = Int(name.dropFirst()) else { continue }
            if number % 7 == 0 {
                employee.age = 99
                changedByOther.insert(name)
            } else if number % 11 == 3 {
                other.delete(employee)
                deletedByOther.insert(name)
            }
        }
        try other.save()

        // This context changes all of them: the save fails with exactly the other's rows in conflict.
        for employee in mine { employee.age = 30 }
        var conflictNames: Set<String> = []
        var deletedInStore: Set<String> = []
        do {
            try context.save()
            Issue.record("the save succeeded despite conflicts")
        } catch let conflict as MergeConflict {
            let byID = Dictionary(uniqueKeysWithValues: mine.map { ($0.objectID, $0.name ?? "") })
            for item in conflict.conflicts {
                conflictNames.insert(byID[item.objectID] ?? "?")
                if item.isDeletedInStore { deletedInStore.insert(byID[item.objectID] ?? "?") }
            }
        }
        #expect(conflictNames == changedByOther.union(deletedByOther))
        #expect(deletedInStore == deletedByOther)
        // Nothing of the failed save was written.
        let check = try store.reopened()
        let ages = try check.fetch(EmployeeEntity.fetchRequest()).map { $0.age ?? 0 }
        #expect(ages.count == 1_500 - deletedByOther.count)
        #expect(!ages.contains(30))

        // Deletes: a row the other process changed is a conflict; one it deleted is not.
        context.rollback()
        context.reset()
        let fresh = try context.fetch(EmployeeEntity.fetchRequest())
        let another = try store.reopened()
        var changedAgain: Set<String> = []
        for employee in try another.fetch(EmployeeEntity.fetchRequest()) {
            guard let name = employee.name, let number = Int(name.dropFirst()) else { continue }
            if number % 13 == 1 {
                employee.age = 77
                changedAgain.insert(name)
            } else if number % 17 == 2 {
                another.delete(employee)
            }
        }
        try another.save()
        for employee in fresh { context.delete(employee) }
        do {
            try context.save()
            Issue.record("the delete succeeded despite conflicts")
        } catch let conflict as MergeConflict {
            let byID = Dictionary(uniqueKeysWithValues: fresh.map { ($0.objectID, $0.name ?? "") })
            #expect(Set(conflict.conflicts.map { byID[$0.objectID] ?? "?" }) == changedAgain)
        }
        #expect(try store.reopened().count(for: EmployeeEntity.fetchRequest()) > 0)
    }
}
