import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// `SortDescriptor(key:ascending:)`: Core Data's sort by string key, through to-one relationships, in SQL and in
/// memory with the key-path sorts' order.
@Suite("Sorting by key")
struct SortByKeyTests {
    /// Names whose Swift order differs from their byte order (canonical equivalence), and missing values.
    static let departmentNames: [String?] = ["Sales", "e\u{301}tudes", "Zoo", "\u{E9}conomie", "apple", nil]

    /// Employees named e0…e8, each in a department (some in none).
    private func fill(_ context: ManagedObjectContext) {
        var departments: [DepartmentEntity] = []
        for name in Self.departmentNames {
            let department = DepartmentEntity(context: context)
            department.name = name
            departments.append(department)
        }
        for index in 0..<9 {
            let employee = EmployeeEntity(context: context)
            employee.name = "e\(index)"
            employee.age = Int16(50 - index * 3 % 7)
            employee.department = index == 4 ? nil : departments[(index * 5) % departments.count]
        }
    }

    /// The order the key-path sorts give: department name (none first), then the employee's name.
    private func expected(_ employees: [EmployeeEntity], ascending: Bool) -> [String?] {
        employees.sorted { lhs, rhs in
            let a = lhs.department?.name
            let b = rhs.department?.name
            if a != b {
                switch (a, b) {
                case (nil, _): return ascending
                case (_, nil): return !ascending
                case (let a?, let b?): return ascending ? a < b : b < a
                }
            }
            return (lhs.name ?? "") < (rhs.name ?? "")
        }.map(\.name)
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func sortsThroughAToOneInSQLAndInMemoryAlike(kind: StoreKind, ascending: Bool) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        fill(context)
        let request = EmployeeEntity.fetchRequest().sorted(by: [
            SortDescriptor(key: "department.name", ascending: ascending), SortDescriptor(key: "name"),
        ])
        // Unsaved: sorted in memory.
        let pending = try context.fetch(request)
        let want = expected(pending, ascending: ascending)
        #expect(pending.map(\.name) == want)
        try context.save()
        // Saved: sorted by SQLite.
        let reopened = try store.reopened()
        let saved = try reopened.fetch(request)
        #expect(saved.map(\.name) == want)
        // With a pending change, merged in memory into the store's order.
        let moved = try #require(saved.first { $0.name == "e0" })
        moved.department = saved.first { $0.department?.name == "Zoo" }?.department
        let merged = try reopened.fetch(request)
        #expect(merged.map(\.name) == expected(merged, ascending: ascending))
    }

    @Test func keyAndKeyPathSortsAgree() throws {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        defer { store.cleanUp() }
        fill(store.context)
        try store.context.save()
        let context = try store.reopened()
        for ascending in [true, false] {
            let byKey = try context.fetch(
                DepartmentEntity.fetchRequest().sorted(by: [SortDescriptor(key: "name", ascending: ascending)]))
            let byKeyPath = try context.fetch(
                DepartmentEntity.fetchRequest().sorted(by: [
                    SortDescriptor(\.name, order: ascending ? .forward : .reverse)
                ]))
            #expect(byKey.map(\.name) == byKeyPath.map(\.name))
            let ages = try context.fetch(
                EmployeeEntity.fetchRequest().sorted(by: [
                    SortDescriptor(key: "age", ascending: ascending), SortDescriptor(key: "name"),
                ]))
            let agesByKeyPath = try context.fetch(
                EmployeeEntity.fetchRequest().sorted(by: [
                    SortDescriptor(\.age, order: ascending ? .forward : .reverse), SortDescriptor(\.name),
                ]))
            #expect(ages.map(\.name) == agesByKeyPath.map(\.name))
        }
        #expect(SortDescriptor<EmployeeEntity>(key: "department.name").key == "department.name")
        #expect(SortDescriptor<EmployeeEntity>(\.name).key == nil)
    }

    /// A limited sort (SQLite keeps the first rows, comparing with the collation) and a full sort (by a key per row)
    /// agree: every limit's rows are the full sort's first ones, by key path and by key, through a to-one too.
    @Test(arguments: StoreKind.sqliteKinds)
    func limitedSortsAreTheFullSortsFirstRows(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        fill(store.context)
        let names = [
            "\u{212A}e", "Ke", "e\u{301}", "\u{E9}", "e\u{301}x", "\u{E9}x", "ef", "x\u{316}\u{301}", "x\u{301}\u{316}",
            "abcdefgh\u{E9}", "abcdefghe\u{301}", "abcdefghK", "abcdefgh\u{212A}", "abcdefghij", "abcdefgh", "🙂", "",
        ]
        for name in names { EmployeeEntity(context: store.context).name = name }
        try store.context.save()
        let context = try store.reopened()
        let orders: [[SortDescriptor<EmployeeEntity>]] = [
            [SortDescriptor(\.name)], [SortDescriptor(\.name, order: .reverse)],
            [SortDescriptor(key: "name", ascending: false)],
            [SortDescriptor(key: "department.name"), SortDescriptor(\.name)],
        ]
        for order in orders {
            let full = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: order)).map(\.objectID)
            for limit in [1, 2, 5, 11, full.count] {
                let limited = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: order).limited(to: limit))
                #expect(limited.map(\.objectID) == Array(full.prefix(limit)), "limit \(limit), \(order)")
                let ids = try context.fetchObjectIDs(EmployeeEntity.fetchRequest().sorted(by: order).limited(to: limit))
                #expect(ids == Array(full.prefix(limit)), "IDs, limit \(limit), \(order)")
            }
        }
        // The full sort is Swift's order: no name sorts before the one ahead of it.
        let byName = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        for (first, second) in zip(byName, byName.dropFirst()) {
            #expect(!((second.name ?? "") < (first.name ?? "")), "\(first.name ?? "-") before \(second.name ?? "-")")
        }
    }

    @Test func unknownKeysAndToManyPathsAreErrors() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        let context = store.context
        fill(context)
        for key in ["nmae", "department.nmae", "business.departments.name", "department"] {
            #expect(throws: StoreError.unknownProperty(entity: "EmployeeEntity", property: key)) {
                try context.fetch(EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(key: key)]))
            }
        }
    }

    @Test func genericObjectsSortByKey() throws {
        let store = try TestStore(.sqlite, model: NotebookModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (title, texts) in [("B", ["b2", "b1"]), ("A", ["a1"])] {
            let notebook = Notebook(context: context)
            notebook.title = title
            for text in texts {
                let note = try context.insertNewObject(forEntityName: "Note")
                note.setValue(text, forKey: "text")
                note.setValue(notebook, forKey: "notebook")
            }
        }
        let request = FetchRequest<ManagedObject>(entityName: "Note").sorted(by: [
            SortDescriptor(key: "notebook.title", ascending: false), SortDescriptor(key: "text"),
        ])
        let pending = try context.fetch(request).map { $0.value(forKey: "text") as? String }
        try context.save()
        let saved = try store.reopened().fetch(request).map { $0.value(forKey: "text") as? String }
        #expect(pending == ["b1", "b2", "a1"])
        #expect(saved == pending)
    }
}
