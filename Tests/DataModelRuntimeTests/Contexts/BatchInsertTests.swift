import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// `BatchInsertRequest` (dictionaries and the dictionary handler), and the result types of batch requests.
@Suite("Batch insert and batch result types")
struct BatchInsertTests {
    @Test(arguments: StoreKind.allCases)
    func insertsDictionariesWithDefaultsAndConversions(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let watcher = try store.reopened()
        watcher.automaticallyMergesChangesFromParent = true
        let joined = Date(timeIntervalSinceReferenceDate: 1_000)
        let request = BatchInsertRequest(
            entityName: "EmployeeEntity",
            objects: [
                ["name": "Ann", "age": 31, "dateJoined": joined],
                ["name": "Bob", "age": Int64(40)],  // any integer that fits
                ["name": "Cy", "age": NSNull()],
                ["name": Optional<String>.none as Any],
            ])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        let ids = try #require(result.result as? [ObjectID])
        #expect(ids.count == 4)
        #expect(result.count == 4)
        #expect(Set(ids) == result.changes.inserted)

        let employees = try context.fetch(
            EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.objectID.primaryKey)]))
        #expect(employees.map(\.objectID) == ids)
        #expect(employees.map(\.name) == ["Ann", "Bob", "Cy", nil])
        // Left out: the model default (0); cleared with NSNull: none.
        #expect(employees.map(\.age) == [31, 40, nil, 0])
        #expect(employees.first?.dateJoined == joined)
        #expect(try watcher.count(for: EmployeeEntity.fetchRequest()) == 4)

        // Objects inserted later get keys after the batch's.
        let later = EmployeeEntity(context: context)
        later.name = "Dee"
        try context.save()
        #expect(later.objectID.primaryKey > (ids.map(\.primaryKey).max() ?? 0))
        if kind == .sqlite {
            let reopened = try store.reopened()
            #expect(try reopened.count(for: EmployeeEntity.fetchRequest()) == 5)
        }
    }

    @Test(arguments: StoreKind.allCases) func theDictionaryHandlerFillsOneRowAtATime(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        let context = store.context
        let names = (0..<250).map { "Business \($0)" }
        var next = 0
        let request = BatchInsertRequest(entityName: "BusinessEntity") { values in
            guard next < names.count else { return true }
            values["name"] = names[next]
            next += 1
            return false
        }
        request.resultType = .count
        let result = try context.execute(request)
        #expect(result.result as? Int == 250)
        let stored = try context.fetch(BusinessEntity.fetchRequest()).compactMap(\.name)
        #expect(stored.sorted() == names.sorted())
        // Status only, the default: `true`.
        let status = try context.execute(BatchInsertRequest(entityName: "BusinessEntity", objects: [["name": "X"]]))
        #expect(status.result as? Bool == true)
    }

    @Test(arguments: StoreKind.allCases) func wrongTypesUnknownKeysAndRelationshipsInsertNothing(kind: StoreKind) throws
    {
        let store = try TestStore(kind, model: CompanyModel.model)
        let context = store.context
        let cases: [([String: Any], KeyValueError)] = [
            (["name": 42], .wrongType(entity: "EmployeeEntity", key: "name", expected: "String", got: "Int")),
            (["age": "31"], .wrongType(entity: "EmployeeEntity", key: "age", expected: "Int16", got: "String")),
            (["age": 100_000], .wrongType(entity: "EmployeeEntity", key: "age", expected: "Int16", got: "Int")),
            (["nmae": "Ann"], .unknownKey(entity: "EmployeeEntity", key: "nmae")),
            (["department": "Sales"], .notAnAttribute(entity: "EmployeeEntity", key: "department")),
        ]
        for (bad, error) in cases {
            // The bad row comes after a good one: the good one is not inserted either.
            #expect(throws: error) {
                try context.execute(BatchInsertRequest(entityName: "EmployeeEntity", objects: [["name": "Ok"], bad]))
            }
        }
        #expect(throws: StoreError.unknownEntity("Employee")) {
            try context.execute(BatchInsertRequest(entityName: "Employee", objects: [[:]]))
        }
        #expect(try context.count(for: EmployeeEntity.fetchRequest()) == 0)
    }

    @Test(arguments: StoreKind.allCases) func nonOptionalAttributesNeedValues(kind: StoreKind) throws {
        // Notebook.title is not optional (default ""), cleared explicitly: refused.
        let store = try TestStore(kind, model: NotebookModel.model)
        let context = store.context
        #expect {
            try context.execute(
                BatchInsertRequest(entityName: "Notebook", objects: [["title": "A"], ["title": NSNull()]]))
        } throws: { error in
            guard let validation = error as? ValidationError else { return false }
            return validation.failures.map(\.property) == ["title"] && validation.failures.first?.rule == .missingValue
        }
        #expect(try context.count(for: Notebook.fetchRequest()) == 0)
        // Generic entities too; left out, the default applies.
        let entity = try #require(EntityDescription.entity(forEntityName: "Note", in: context))
        try context.execute(
            BatchInsertRequest(entity: entity, objects: [["text": "a"], ["text": "b", "pinned": true]]))
        try context.execute(BatchInsertRequest(entityName: "Notebook", objects: [[:]]))
        let notes = try context.fetch(
            FetchRequest<ManagedObject>(entityName: "Note").sorted(by: [SortDescriptor(key: "text")]))
        #expect(notes.map { $0.value(forKey: "pinned") as? Bool } == [false, true])
        #expect(try context.fetch(Notebook.fetchRequest()).map(\.title) == [""])
    }

    @Test(arguments: StoreKind.allCases) func batchDeleteAndUpdateResultTypes(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try context.execute(
            BatchInsertRequest(
                entityName: "EmployeeEntity", objects: (0..<6).map { ["name": "E\($0)", "age": $0 * 10] }))
        var update = BatchUpdateRequest<EmployeeEntity>(predicate: #Predicate { ($0.age ?? 0) >= 30 }).setting(
            \.name, to: "senior")
        update.resultType = .count
        #expect(try context.execute(update).result as? Int == 3)

        var statusOnly = BatchDeleteRequest<EmployeeEntity>(predicate: #Predicate { $0.age == 0 })
        #expect(statusOnly.resultType == .statusOnly)
        #expect(try context.execute(statusOnly).result as? Bool == true)
        statusOnly.resultType = .count
        #expect(try context.execute(statusOnly).result as? Int == 0)

        var byIDs = BatchDeleteRequest<EmployeeEntity>(predicate: #Predicate { $0.name == "senior" })
        byIDs.resultType = .objectIDs
        let expected = try context.fetch(
            EmployeeEntity.fetchRequest().matching("name", equals: "senior").sorted(by: [
                SortDescriptor(\.objectID.primaryKey)
            ]))
        let deleted = try #require(try context.execute(byIDs).result as? [ObjectID])
        #expect(deleted == expected.map(\.objectID))
        #expect(try context.count(for: EmployeeEntity.fetchRequest()) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func uniquenessConstraintsUpsert(kind: StoreKind) throws {
        // Account.name is unique: a row with a stored name updates that row, as Core Data's batch insert does.
        let store = try TestStore(kind, model: SaveAtomicityTests.strictModel)
        defer { store.cleanUp() }
        let context = store.context
        let alpha = try context.insertNewObject(forEntityName: "Account")
        alpha.setValue("alpha", forKey: "name")
        alpha.setValue(Int64(5), forKey: "balance")
        alpha.setValue(Date(timeIntervalSinceReferenceDate: 7), forKey: "opened")
        try context.save()
        let request = BatchInsertRequest(
            entityName: "Account",
            objects: [
                ["name": "alpha", "balance": 50],  // updates alpha's balance, keeps its opened date
                ["name": "beta", "balance": 1],
                ["name": "beta", "balance": 2],  // updates the row the batch just inserted
            ])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        let ids = try #require(result.result as? [ObjectID])
        #expect(ids.count == 3)
        #expect(ids[0] == alpha.objectID)
        #expect(ids[1] == ids[2])
        #expect(result.changes.updated == [alpha.objectID])
        #expect(result.changes.inserted == [ids[1]])
        // The executing context reloads the object it holds.
        #expect(alpha.value(forKey: "balance") as? Int64 == 50)
        #expect(alpha.value(forKey: "opened") as? Date == Date(timeIntervalSinceReferenceDate: 7))
        let accounts = try store.reopened().fetch(
            FetchRequest<ManagedObject>(entityName: "Account").sorted(by: [SortDescriptor(key: "name")]))
        #expect(accounts.map { $0.value(forKey: "name") as? String } == ["alpha", "beta"])
        #expect(accounts.map { $0.value(forKey: "balance") as? Int64 } == [50, 2])
    }
}
