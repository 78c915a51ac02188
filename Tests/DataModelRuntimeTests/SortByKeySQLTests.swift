import Foundation
import GeneratedCompanyModel
import Testing

@testable import DataModelRuntime

/// The SQL a sort by key becomes: the column (Swift string order for strings), and a correlated subquery per
/// to-one relationship on the way.
@Suite("Sorting by key: SQL")
struct SortByKeySQLTests {
    @Test func keysBecomeOrderByTerms() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        let context = store.context
        let employee = try #require(context.runtime.entity(named: "EmployeeEntity"))
        #expect(try context.sortTerm(forKey: "age", ascending: false, in: employee) == #"t0."ZAGE" DESC"#)
        #expect(
            try context.sortTerm(forKey: "name", ascending: true, in: employee) == #"dm_swift_order(t0."ZNAME") ASC"#)
        #expect(
            try context.sortTerm(forKey: "department.name", ascending: true, in: employee)
                == #"dm_swift_order((SELECT s1."ZNAME" FROM "ZDEPARTMENTENTITY" AS s1 WHERE s1."Z_PK" = t0."ZDEPARTMENT")) ASC"#
        )
        // A sort that keeps its first rows (`LIMIT`) compares strings with a collation instead of making a key per row;
        // around a subquery (SQLite would not sort by a collation inside it).
        #expect(
            try context.sortTerm(forKey: "name", ascending: true, in: employee, strings: .collation)
                == #"t0."ZNAME" COLLATE "DM_SWIFT_ORDER" ASC"#)
        #expect(
            try context.sortTerm(forKey: "department.name", ascending: false, in: employee, strings: .collation)
                == #"(SELECT s1."ZNAME" FROM "ZDEPARTMENTENTITY" AS s1 WHERE s1."Z_PK" = t0."ZDEPARTMENT") COLLATE "DM_SWIFT_ORDER" DESC"#
        )
        // Two to-ones deep: the second joined to the first.
        let model = ManagedObjectModel(
            name: "Chain",
            entities: [
                EntityDescription(
                    name: "A", objectType: ManagedObject.self,
                    relationships: [RelationshipDescription(name: "b", destinationEntityName: "B", maxCount: 1)]),
                EntityDescription(
                    name: "B", objectType: ManagedObject.self,
                    relationships: [RelationshipDescription(name: "c", destinationEntityName: "C", maxCount: 1)]),
                EntityDescription(
                    name: "C", objectType: ManagedObject.self,
                    attributes: [AttributeDescription(name: "rank", type: .integer32)]),
            ])
        let chain = try PersistentContainer(model: model).viewContext
        let a = try #require(chain.runtime.entity(named: "A"))
        #expect(
            try chain.sortTerm(forKey: "b.c.rank", ascending: true, in: a)
                == #"(SELECT s2."ZRANK" FROM "ZB" AS s1 LEFT JOIN "ZC" AS s2 ON s2."Z_PK" = s1."ZC" WHERE s1."Z_PK" = t0."ZB") ASC"#
        )
        // And it sorts: objects with no b, or a b with no c, first.
        var ranks: [Int32?] = []
        for rank in [Int32(3), 1, 2] as [Int32?] + [nil] {
            let c = try chain.insertNewObject(forEntityName: "C")
            c.setValue(rank, forKey: "rank")
            let b = try chain.insertNewObject(forEntityName: "B")
            b.setValue(rank == nil ? nil : c, forKey: "c")
            let a = try chain.insertNewObject(forEntityName: "A")
            a.setValue(b, forKey: "b")
            ranks.append(rank)
        }
        try chain.save()
        let sorted = try chain.fetch(
            FetchRequest<ManagedObject>(entityName: "A").sorted(by: [SortDescriptor(key: "b.c.rank")]))
        let read = sorted.map {
            (($0.value(forKey: "b") as? ManagedObject)?.value(forKey: "c") as? ManagedObject)?.value(forKey: "rank")
                as? Int32
        }
        #expect(read == [nil, 1, 2, 3])
    }
}
