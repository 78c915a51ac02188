import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// The saved company the dictionary tests read: two departments and five employees, saved in this order.
///
/// | name | age | department |
/// |------|-----|------------|
/// | Ann  | 30  | R&D        |
/// | Bob  | 40  | Sales      |
/// | Cy   | 40  | R&D        |
/// | Dee  | nil | none       |
/// | nil  | 25  | Sales      |
private struct SavedCompany {
    let rnd: DepartmentEntity
    let sales: DepartmentEntity
    let employees: [String: EmployeeEntity]
    let unnamed: EmployeeEntity

    init(_ context: ManagedObjectContext) throws {
        rnd = DepartmentEntity(context: context)
        rnd.name = "R&D"
        sales = DepartmentEntity(context: context)
        sales.name = "Sales"
        var employees: [String: EmployeeEntity] = [:]
        for (name, age, department) in [
            ("Ann", 30, rnd), ("Bob", 40, sales), ("Cy", 40, rnd), ("Dee", nil, nil),
        ] as [(String, Int16?, DepartmentEntity?)] {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = age
            employee.department = department
            employees[name] = employee
        }
        employees["Ann"]?.dateJoined = Date(timeIntervalSinceReferenceDate: 1000)
        unnamed = EmployeeEntity(context: context)
        unnamed.age = 25
        unnamed.department = sales
        self.employees = employees
        try context.save()
    }

    func employee(_ name: String) throws -> EmployeeEntity {
        try #require(employees[name])
    }
}

private func names(_ rows: [[String: Any]]) -> [String?] {
    rows.map { $0["name"] as? String }
}

private func ages(_ rows: [[String: Any]]) -> [Int16?] {
    rows.map { $0["age"] as? Int16 }
}

@Suite("Dictionary and object ID results: Core Data's .dictionaryResultType and .managedObjectIDResultType")
struct DictionaryResultTests {
    @Test(
        "only the properties to fetch, typed as value(forKey:) reads them; no value: no key",
        arguments: StoreKind.allCases)
    func selectedProperties(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = ["name", "age"]
        request.sortDescriptors = [SortDescriptor(\.name)]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.count == 5)
        #expect(names(rows) == [nil, "Ann", "Bob", "Cy", "Dee"])
        #expect(ages(rows) == [25, 30, 40, 40, nil])
        #expect(rows.map { Set($0.keys) } == [["age"], ["name", "age"], ["name", "age"], ["name", "age"], ["name"]])
        #expect(rows[1]["age"] is Int16)
        #expect(rows[1]["age"] as? Int16 == (try context.fetch(request)[1].value(forKey: "age") as? Int16))

        // No properties named: every stored attribute.
        let all = try context.fetchDictionaries(EmployeeEntity.fetchRequest().matching("name", equals: "Ann"))
        #expect(all.count == 1)
        #expect(Set(all[0].keys) == ["name", "age", "dateJoined"])
        #expect(all[0]["dateJoined"] as? Date == Date(timeIntervalSinceReferenceDate: 1000))
        // Property descriptions name their property.
        let described = EmployeeEntity.fetchRequest().matching("name", equals: "Ann")
        described.propertiesToFetch = [AttributeDescription(name: "age", type: .integer16)]
        #expect(try context.fetchDictionaries(described).map { Set($0.keys) } == [["age"]])
    }

    @Test(
        "a to-one reads as its destination's ObjectID; a key path through it as the destination's value",
        arguments: StoreKind.allCases)
    func toOneRelationships(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let company = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = ["name", "department", "department.name"]
        request.sortDescriptors = [SortDescriptor(\.name)]
        let rows = try context.fetchDictionaries(request)
        #expect(
            rows.map { $0["department"] as? ObjectID } == [
                company.sales.objectID, company.rnd.objectID, company.sales.objectID, company.rnd.objectID, nil,
            ])
        #expect(rows.map { $0["department.name"] as? String } == ["Sales", "R&D", "Sales", "R&D", nil])
        #expect(Set(rows[4].keys) == ["name"])
        let department = try context.existingObject(with: #require(rows[1]["department"] as? ObjectID))
        #expect(department.value(forKey: "name") as? String == "R&D")
    }

    @Test(
        "returnsDistinctResults: each combination once, where it first comes, before the window",
        arguments: StoreKind.allCases)
    func distinct(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = ["age"]
        request.returnsDistinctResults = true
        // Primary key order without sort descriptors: 30 (Ann), 40 (Bob, Cy), nil (Dee), 25.
        #expect(ages(try context.fetchDictionaries(request)) == [30, 40, nil, 25])
        request.sortDescriptors = [SortDescriptor(\.age, order: .reverse)]
        #expect(ages(try context.fetchDictionaries(request)) == [40, 30, 25, nil])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(ages(try context.fetchDictionaries(request)) == [30, 25])
        request.returnsDistinctResults = false
        #expect(ages(try context.fetchDictionaries(request)) == [40, 30])

        // Sorted by a property not fetched: the first of each in that order.
        let byName = EmployeeEntity.fetchRequest()
        byName.propertiesToFetch = ["department"]
        byName.returnsDistinctResults = true
        byName.sortDescriptors = [SortDescriptor(\.name, order: .reverse)]
        let departments = try context.fetchDictionaries(byName).map { $0["department"] as? ObjectID }
        let expected = try context.fetch(EmployeeEntity.fetchRequest().sorted(by: byName.sortDescriptors)).map {
            $0.department?.objectID
        }
        var seen: [ObjectID?] = []
        for id in expected where !seen.contains(id) { seen.append(id) }
        #expect(departments == seen)
        #expect(departments.count == 3)

        // Distinct over two columns, one a key path.
        let pairs = EmployeeEntity.fetchRequest()
        pairs.propertiesToFetch = ["department.name", "age"]
        pairs.returnsDistinctResults = true
        pairs.sortDescriptors = [SortDescriptor(\.age)]
        let rows = try context.fetchDictionaries(pairs)
        #expect(rows.map { $0["department.name"] as? String } == [nil, "Sales", "R&D", "Sales", "R&D"])
    }

    @Test(
        "predicates (#Predicate and format strings), conditions, sorts, offset and limit", arguments: StoreKind.allCases
    )
    func predicatesAndWindow(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = try store.reopened()

        let macro = EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.age ?? 0 > 26 })
        macro.propertiesToFetch = ["name"]
        macro.sortDescriptors = [SortDescriptor(\.name, order: .reverse)]
        #expect(names(try context.fetchDictionaries(macro)) == ["Cy", "Bob", "Ann"])
        #expect(try context.explain(macro).path == .sql)
        macro.fetchOffset = 1
        macro.fetchLimit = 1
        #expect(names(try context.fetchDictionaries(macro)) == ["Bob"])

        let format = EmployeeEntity.fetchRequest()
        format.predicate = ManagedPredicate(format: "age > %d AND department.name == %@", 26, "R&D")
        format.propertiesToFetch = ["name", "age"]
        format.sortDescriptors = [SortDescriptor(\.name)]
        #expect(names(try context.fetchDictionaries(format)) == ["Ann", "Cy"])
        format.fetchLimit = 1
        #expect(names(try context.fetchDictionaries(format)) == ["Ann"])

        let condition = EmployeeEntity.fetchRequest().matching("age", equals: Int16(40))
        condition.propertiesToFetch = ["name"]
        condition.sortDescriptors = [SortDescriptor(\.name)]
        #expect(names(try context.fetchDictionaries(condition)) == ["Bob", "Cy"])
        #expect(context.registeredObjects.isEmpty)
    }

    @Test(
        "a predicate or sort SQL cannot answer alone: the same rows, from the saved values",
        arguments: StoreKind.allCases)
    func inMemoryFallback(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = try store.reopened()
        // A string comparator sorts in memory.
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = ["name"]
        request.predicate = ManagedPredicate(format: "age >= 30")
        request.sortDescriptors = [SortDescriptor(\.name, comparator: .lexical, order: .reverse)]
        #expect(names(try context.fetchDictionaries(request)) == ["Cy", "Bob", "Ann"])

        // Unsaved changes do not show here either: Bob renamed, Ann's age lowered, Cy deleted, Zed inserted.
        let bob = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching("name", equals: "Bob")).first)
        bob.name = "Abe"
        let ann = try #require(try context.fetch(EmployeeEntity.fetchRequest().matching("name", equals: "Ann")).first)
        ann.age = 10
        try context.delete(
            #require(try context.fetch(EmployeeEntity.fetchRequest().matching("name", equals: "Cy")).first))
        let zed = EmployeeEntity(context: context)
        zed.name = "Zed"
        zed.age = 60
        #expect(names(try context.fetchDictionaries(request)) == ["Cy", "Bob", "Ann"])
        request.returnsDistinctResults = true
        request.propertiesToFetch = ["age"]
        #expect(ages(try context.fetchDictionaries(request)) == [40, 30])
        request.fetchOffset = 1
        #expect(ages(try context.fetchDictionaries(request)) == [30])
        // A predicate evaluated in memory judges the saved values.
        let matching = EmployeeEntity.fetchRequest()
        matching.predicate = ManagedPredicate(format: #"name MATCHES "[AB][a-z]+""#)
        matching.propertiesToFetch = ["name"]
        #expect(try context.explain(matching).path == .memory)
        #expect(names(try context.fetchDictionaries(matching)) == ["Ann", "Bob"])
        // The objects keep their unsaved values.
        #expect(bob.name == "Abe")
        #expect(ann.age == 10)
    }

    @Test(
        "the store's saved state: unsaved insertions, updates and deletions do not show", arguments: StoreKind.allCases)
    func savedStateOnly(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let company = try SavedCompany(store.context)
        let context = store.context
        try company.employee("Ann").name = "Anna"
        try company.employee("Bob").age = 20
        try context.delete(company.employee("Cy"))
        let zed = EmployeeEntity(context: context)
        zed.name = "Zed"
        zed.age = 50
        let request = EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.age ?? 0 > 26 })
        request.propertiesToFetch = ["name", "age"]
        request.sortDescriptors = [SortDescriptor(\.name)]
        let rows = try context.fetchDictionaries(request)
        #expect(names(rows) == ["Ann", "Bob", "Cy"])
        #expect(ages(rows) == [30, 40, 40])
        // An object fetch sees the changes.
        #expect(try context.fetch(request).map(\.name) == ["Anna", "Zed"])
        try context.save()
        #expect(names(try context.fetchDictionaries(request)) == ["Anna", "Zed"])
    }

    @Test("nothing is made or registered in the context", arguments: StoreKind.allCases)
    func nothingRegistered(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = ["name", "department", "department.name"]
        request.sortDescriptors = [SortDescriptor(\.age)]
        request.predicate = ManagedPredicate(format: "department != nil")
        #expect(try context.fetchDictionaries(request).count == 4)
        request.returnsDistinctResults = true
        #expect(try context.fetchDictionaries(request).count == 4)
        #expect(try context.fetchObjectIDs(request).count == 4)
        #expect(context.registeredObjects.isEmpty)
        #expect(try context.fetch(request).count == 4)
        #expect(context.registeredObjects.count == 4)
    }

    @Test(
        "sub-entities: included or not as the request says; each row reads the requested entity's attributes",
        arguments: StoreKind.allCases)
    func subentities(kind: StoreKind) throws {
        let store = try TestStore(kind, model: VehiclesModel.model)
        defer { store.cleanUp() }
        let garage = Garage(context: store.context)
        let car = Car(context: store.context)
        car.make = "Volvo"
        car.garage = garage
        let fast = SportsCar(context: store.context)
        fast.make = "Ferrari"
        fast.seats = 2
        fast.topSpeed = 320
        try store.context.save()
        let context = try store.reopened()

        let vehicles = FetchRequest<Vehicle>(entityName: "Vehicle")
        vehicles.propertiesToFetch = ["make", "garage"]
        vehicles.sortDescriptors = [SortDescriptor(\.make)]
        let rows = try context.fetchDictionaries(vehicles)
        #expect(rows.map { $0["make"] as? String } == ["Ferrari", "Volvo"])
        #expect(rows.map { $0["garage"] as? ObjectID } == [nil, garage.objectID])

        let cars = FetchRequest<Car>(entityName: "Car")
        #expect(Set(try context.fetchDictionaries(cars).flatMap(\.keys)) == ["make", "seats"])
        cars.includesSubentities = false
        #expect(try context.fetchDictionaries(cars).map { $0["make"] as? String } == ["Volvo"])
        #expect(try context.fetchObjectIDs(cars) == [car.objectID])
        let sports = FetchRequest<SportsCar>(entityName: "SportsCar")
        sports.propertiesToFetch = ["topSpeed", "seats"]
        #expect(try context.fetchDictionaries(sports).map { $0["topSpeed"] as? Double } == [320])
        #expect(context.registeredObjects.isEmpty)

        // An attribute of a sub-entity only is not a property of the entity fetched.
        cars.propertiesToFetch = ["topSpeed"]
        #expect(throws: StoreError.unknownProperty(entity: "Car", property: "topSpeed")) {
            try context.fetchDictionaries(cars)
        }
    }

    @Test(
        "object IDs are fetch(request)'s objects' IDs, with and without unsaved changes", arguments: StoreKind.allCases)
    func objectIDs(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let company = try SavedCompany(store.context)
        let requests: [FetchRequest<EmployeeEntity>] = [
            EmployeeEntity.fetchRequest(),
            EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name, order: .reverse)]),
            EmployeeEntity.fetchRequest().filtered(by: #Predicate { $0.age ?? 0 > 35 }).sorted(by: [
                SortDescriptor(\.name)
            ]),
            EmployeeEntity.fetchRequest().filtered(by: ManagedPredicate(format: "department.name == 'R&D'")),
            EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age), SortDescriptor(\.name)]).offset(by: 1)
                .limited(to: 3),
        ]
        func check(_ context: ManagedObjectContext, _ comment: Comment) throws {
            for request in requests {
                #expect(try context.fetchObjectIDs(request) == context.fetch(request).map(\.objectID), comment)
            }
        }
        // Nothing pending: the IDs come from SQL alone.
        let other = try store.reopened()
        let expected = try ["Dee", "Cy", "Bob", "Ann"].map { try company.employee($0).objectID }
        #expect(try other.fetchObjectIDs(requests[1]) == expected + [company.unnamed.objectID])
        #expect(other.registeredObjects.isEmpty)
        try check(other, "no changes")

        let context = store.context
        let zed = EmployeeEntity(context: context)
        zed.name = "Zed"
        zed.age = 60
        zed.department = company.rnd
        try check(context, "an insertion")
        #expect(try context.fetchObjectIDs(requests[2]).contains(zed.objectID))
        try context.delete(company.employee("Bob"))
        try check(context, "an insertion and a deletion")
        // Ann now matches `age > 35`, Cy no longer does.
        try company.employee("Ann").age = 50
        try company.employee("Cy").age = 20
        try check(context, "updates that change what matches")
        #expect(try context.fetchObjectIDs(requests[2]) == [company.employee("Ann").objectID, zed.objectID])
        // Leaving pending changes out: the store's rows.
        let storeOnly = requests[2].includingPendingChanges(false)
        #expect(try context.fetchObjectIDs(storeOnly) == context.fetch(storeOnly).map(\.objectID))
        try context.save()
        try check(context, "saved")
        try check(store.reopened(), "saved, another context")
    }

    @Test("an unknown or unfit property name is a thrown error naming it", arguments: StoreKind.allCases)
    func unknownProperties(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = store.context
        for name in ["salary", "employees.name", "department.employees", "department.nope", "business.", ""] {
            let request = EmployeeEntity.fetchRequest()
            request.propertiesToFetch = ["name", name]
            #expect(throws: StoreError.unknownProperty(entity: "EmployeeEntity", property: name)) {
                try context.fetchDictionaries(request)
            }
        }
        let departments = DepartmentEntity.fetchRequest()
        departments.propertiesToFetch = ["employees"]
        #expect(throws: StoreError.unknownProperty(entity: "DepartmentEntity", property: "employees")) {
            try context.fetchDictionaries(departments)
        }
        let unknownEntity = FetchRequest<EmployeeEntity>(entityName: "Nobody")
        #expect(throws: StoreError.unknownEntity("Nobody")) { try context.fetchDictionaries(unknownEntity) }
        #expect(throws: StoreError.unknownEntity("Nobody")) { try context.fetchObjectIDs(unknownEntity) }
        // A value of a type of its own conforming to PropertyToFetch.
        let odd = EmployeeEntity.fetchRequest()
        odd.propertiesToFetch = [OddProperty()]
        #expect {
            try context.fetchDictionaries(odd)
        } throws: { error in
            guard case .invalidFetchRequest(let entity, let reason)? = error as? StoreError else { return false }
            return entity == "EmployeeEntity" && reason.contains("OddProperty")
        }
    }

    @Test("aggregates per group of propertiesToGroupBy: count, sum, min, max, average", arguments: StoreKind.allCases)
    func groupedAggregates(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let company = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = [
            "department",
            ExpressionDescription(name: "named", function: .count, keyPath: "name"),
            ExpressionDescription(name: "total", function: .sum, keyPath: "age"),
            ExpressionDescription(name: "youngest", function: .min, keyPath: "age"),
            ExpressionDescription(name: "oldest", function: .max, keyPath: "age"),
            ExpressionDescription(name: "mean", function: .average, keyPath: "age"),
        ]
        request.propertiesToGroupBy = ["department"]
        // Each group where its first row comes: R&D (Ann), Sales (Bob), none (Dee).
        let rows = try context.fetchDictionaries(request)
        #expect(rows.map { $0["department"] as? ObjectID } == [company.rnd.objectID, company.sales.objectID, nil])
        #expect(rows.map { $0["named"] as? Int64 } == [2, 1, 1])
        #expect(rows.map { $0["total"] as? Int64 } == [70, 65, nil])
        #expect(rows.map { $0["youngest"] as? Int16 } == [30, 25, nil])
        #expect(rows.map { $0["oldest"] as? Int16 } == [40, 40, nil])
        #expect(rows.map { $0["mean"] as? Double } == [35, 32.5, nil])
        #expect(rows.last.map { Set($0.keys) } == ["named"])
        #expect(context.registeredObjects.isEmpty)

        // Grouped by an attribute, sorted by it, windowed; grouped by a key path not fetched.
        let byAge = EmployeeEntity.fetchRequest()
        byAge.propertiesToFetch = ["age", ExpressionDescription(name: "count", function: .count, keyPath: "age")]
        byAge.propertiesToGroupBy = ["age"]
        byAge.sortDescriptors = [SortDescriptor(\.age, order: .reverse)]
        byAge.fetchLimit = 2
        let ageRows = try context.fetchDictionaries(byAge)
        #expect(ages(ageRows) == [40, 30])
        #expect(ageRows.map { $0["count"] as? Int64 } == [2, 1])
        let byDepartmentName = EmployeeEntity.fetchRequest()
        byDepartmentName.propertiesToFetch = [ExpressionDescription(name: "oldest", function: .max, keyPath: "age")]
        byDepartmentName.propertiesToGroupBy = ["department.name"]
        #expect(try context.fetchDictionaries(byDepartmentName).map { $0["oldest"] as? Int16 } == [40, 40, nil])
        // No properties to fetch: the grouped ones.
        let departments = EmployeeEntity.fetchRequest()
        departments.propertiesToGroupBy = ["department.name"]
        #expect(
            try context.fetchDictionaries(departments).map { $0["department.name"] as? String } == [
                "R&D", "Sales", nil,
            ])
    }

    @Test("havingPredicate keeps the groups it holds for, before the window", arguments: StoreKind.allCases)
    func havingPredicate(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let company = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = [
            "department", ExpressionDescription(name: "headcount", function: .count, keyPath: "age"),
            ExpressionDescription(name: "oldest", function: .max, keyPath: "age"),
        ]
        request.propertiesToGroupBy = ["department"]
        // Groups: R&D (2 ages, oldest 40), Sales (2, 40), none (0, nil).
        request.havingPredicate = ManagedPredicate(format: "headcount >= %d", 2)
        #expect(
            try context.fetchDictionaries(request).map { $0["department"] as? ObjectID } == [
                company.rnd.objectID, company.sales.objectID,
            ])
        // A group's to-one compares with an object or its ID; a key the group lacks reads as nil.
        request.havingPredicate = ManagedPredicate(format: "department == %@", company.sales)
        #expect(try context.fetchDictionaries(request).map { $0["headcount"] as? Int64 } == [2])
        request.havingPredicate = ManagedPredicate(format: "oldest == nil")
        #expect(try context.fetchDictionaries(request).map { $0["headcount"] as? Int64 } == [0])
        // The window applies to the groups kept.
        request.havingPredicate = ManagedPredicate(format: "oldest > 30")
        request.fetchOffset = 1
        #expect(
            try context.fetchDictionaries(request).map { $0["department"] as? ObjectID } == [company.sales.objectID])
        request.fetchOffset = 0
        request.fetchLimit = 1
        #expect(try context.fetchDictionaries(request).map { $0["department"] as? ObjectID } == [company.rnd.objectID])
        // A key path through a to-one is one key of the group.
        let byName = EmployeeEntity.fetchRequest()
        byName.propertiesToFetch = [
            "department.name", ExpressionDescription(name: "total", function: .sum, keyPath: "age"),
        ]
        byName.propertiesToGroupBy = ["department.name"]
        byName.havingPredicate = ManagedPredicate(format: "department.name BEGINSWITH 'S' AND total > 60")
        #expect(try context.fetchDictionaries(byName).map { $0["department.name"] as? String } == ["Sales"])
        // Without groups, or with a #Predicate: an invalid request.
        let ungrouped = EmployeeEntity.fetchRequest()
        ungrouped.havingPredicate = ManagedPredicate(format: "age > 1")
        #expect(throws: StoreError.self) { try context.fetchDictionaries(ungrouped) }
        request.havingPredicate = #Predicate<EmployeeEntity> { $0.age != nil }
        #expect(throws: StoreError.self) { try context.fetchDictionaries(request) }
    }

    @Test("aggregates of every matching row, without groups", arguments: StoreKind.allCases)
    func wholeAggregates(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = try store.reopened()
        let request = EmployeeEntity.fetchRequest()
        request.propertiesToFetch = [
            ExpressionDescription(name: "count", function: .count, keyPath: "name"),
            ExpressionDescription(name: "first", function: .min, keyPath: "name"),
            ExpressionDescription(name: "last", function: .max, keyPath: "name"),
            ExpressionDescription(name: "mean", function: .average, keyPath: "age"),
            ExpressionDescription(name: "departments", function: .count, keyPath: "department"),
            ExpressionDescription(name: "joined", function: .max, keyPath: "dateJoined"),
        ]
        let rows = try context.fetchDictionaries(request)
        #expect(rows.count == 1)
        #expect(rows.first?["count"] as? Int64 == 4)
        #expect(rows.first?["first"] as? String == "Ann")
        #expect(rows.first?["last"] as? String == "Dee")
        #expect(rows.first?["mean"] as? Double == 33.75)
        #expect(rows.first?["departments"] as? Int64 == 4)
        #expect(rows.first?["joined"] as? Date == Date(timeIntervalSinceReferenceDate: 1000))
        request.predicate = ManagedPredicate(format: "age > %d", 26)
        #expect(try context.fetchDictionaries(request).first?["count"] as? Int64 == 3)
        request.predicate = #Predicate { $0.age ?? 0 > 100 }
        let none = try context.fetchDictionaries(request)
        #expect(none.map { Set($0.keys) } == [["count", "departments"]])
        #expect(none.first?["count"] as? Int64 == 0)
    }

    @Test(
        "aggregates the fetch cannot compute are thrown errors naming the entity and property",
        arguments: StoreKind.allCases)
    func invalidAggregates(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        _ = try SavedCompany(store.context)
        let context = store.context
        func failure(_ configure: (FetchRequest<EmployeeEntity>) -> Void) -> StoreError? {
            let request = EmployeeEntity.fetchRequest()
            configure(request)
            do {
                _ = try context.fetchDictionaries(request)
                return nil
            } catch {
                return error
            }
        }
        func isInvalid(_ error: StoreError?, mentioning text: String) -> Bool {
            guard case .invalidFetchRequest(let entity, let reason)? = error else { return false }
            return entity == "EmployeeEntity" && reason.contains(text)
        }
        #expect(
            isInvalid(
                failure { $0.propertiesToFetch = [ExpressionDescription(name: "s", function: .sum, keyPath: "name")] },
                mentioning: "sum of EmployeeEntity.name"))
        #expect(
            isInvalid(
                failure {
                    $0.propertiesToFetch = [ExpressionDescription(name: "a", function: .average, keyPath: "dateJoined")]
                }, mentioning: "average of EmployeeEntity.dateJoined"))
        #expect(
            isInvalid(
                failure {
                    $0.propertiesToFetch = ["name", ExpressionDescription(name: "n", function: .count, keyPath: "age")]
                }, mentioning: "'name'"))
        #expect(
            isInvalid(
                failure {
                    $0.propertiesToFetch = ["age", ExpressionDescription(name: "n", function: .count, keyPath: "age")]
                    $0.propertiesToGroupBy = ["age"]
                    $0.sortDescriptors = [SortDescriptor(\.name)]
                }, mentioning: "sort descriptors"))
        #expect(
            isInvalid(
                failure {
                    $0.propertiesToGroupBy = [ExpressionDescription(name: "n", function: .count, keyPath: "age")]
                }, mentioning: "not expressions"))
        #expect(
            isInvalid(
                failure { $0.propertiesToFetch = [ExpressionDescription(name: "", function: .count, keyPath: "age")] },
                mentioning: "no name"))
        #expect(
            isInvalid(
                failure {
                    $0.propertiesToFetch = [
                        ExpressionDescription(name: "n", function: .sum, keyPath: "department.name")
                    ]
                }, mentioning: "entity fetched itself"))
        #expect(
            failure { $0.propertiesToFetch = [ExpressionDescription(name: "n", function: .max, keyPath: "salary")] }
                == .unknownProperty(entity: "EmployeeEntity", property: "salary"))
        #expect(
            failure { $0.propertiesToGroupBy = ["nope"] }
                == .unknownProperty(entity: "EmployeeEntity", property: "nope"))
        // A predicate SQL does not answer alone.
        let request = EmployeeEntity.fetchRequest()
        request.predicate = ManagedPredicate(format: #"name MATCHES "D[a-z]+""#)
        #expect(try context.explain(request).path != .sql)
        request.propertiesToFetch = [ExpressionDescription(name: "n", function: .count, keyPath: "age")]
        #expect(
            isInvalid(
                failure {
                    $0.predicate = request.predicate
                    $0.propertiesToFetch = request.propertiesToFetch
                }, mentioning: "predicate"))
        // Without aggregates, the same predicate is evaluated in memory on the saved rows.
        request.propertiesToFetch = ["name"]
        request.sortDescriptors = [SortDescriptor(\.name)]
        #expect(names(try context.fetchDictionaries(request)) == ["Dee"])
    }

    @Test("a child context reads the store's saved state; its object IDs are its fetch's")
    func childContext() throws {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        defer { store.cleanUp() }
        let company = try SavedCompany(store.context)
        let child = ManagedObjectContext(parent: store.context)
        let zed = EmployeeEntity(context: child)
        zed.name = "Zed"
        let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])
        request.propertiesToFetch = ["name"]
        #expect(names(try child.fetchDictionaries(request)) == [nil, "Ann", "Bob", "Cy", "Dee"])
        #expect(try child.fetchObjectIDs(request) == child.fetch(request).map(\.objectID))
        #expect(try child.fetchObjectIDs(request).contains(zed.objectID))
        #expect(try child.fetchObjectIDs(request).contains(company.employee("Ann").objectID))
        // Unsaved in the parent, changed in a child: the store's values still, on the in-memory path too.
        try company.employee("Bob").name = "Abe"
        let editor = ManagedObjectContext(parent: store.context)
        try #require(editor.object(with: company.employee("Cy").objectID) as? EmployeeEntity).name = "Al"
        #expect(names(try editor.fetchDictionaries(request)) == [nil, "Ann", "Bob", "Cy", "Dee"])
        request.sortDescriptors = [SortDescriptor(\.name, comparator: .lexical)]
        request.predicate = ManagedPredicate(format: #"name MATCHES "[A-C][a-z]+""#)
        #expect(names(try editor.fetchDictionaries(request)) == ["Ann", "Bob", "Cy"])
        #expect(try editor.fetch(request).map(\.name) == ["Abe", "Al", "Ann"])
    }
}

/// A type of the tests' own that claims to be a property to fetch.
private struct OddProperty: PropertyToFetch {}
