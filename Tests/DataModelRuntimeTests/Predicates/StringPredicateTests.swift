import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// A seeded company: departments, businesses and employees with names that exercise `[c]`, `[d]`,
/// `nil`s and relationships (one department without employees, one employee without anything).
struct StringPredicateCompany {
    let store: TestStore
    var context: ManagedObjectContext { store.context }
    let research: DepartmentEntity
    let sales: DepartmentEntity
    let edition: DepartmentEntity
    let empty: DepartmentEntity
    var employees: [String: EmployeeEntity] = [:]

    init(_ kind: StoreKind = .sqlite) throws {
        store = try TestStore(kind, model: CompanyModel.model)
        let context = store.context
        func department(_ name: String) -> DepartmentEntity {
            let department = DepartmentEntity(context: context)
            department.name = name
            return department
        }
        research = department("Research")
        sales = department("Sales")
        edition = department("Édition")
        empty = department("Empty")
        let acme = BusinessEntity(context: context)
        acme.name = "Acme"
        acme.addToDepartments([research, sales])
        let globex = BusinessEntity(context: context)
        globex.name = "Globex"
        globex.addToDepartments(edition)
        let rows: [(String?, Int16?, Double?, DepartmentEntity?, BusinessEntity?)] = [
            ("Ann", 30, 100, research, acme), ("Bob", 45, 200, research, acme), ("Cécile", 28, 300, sales, acme),
            ("dave", nil, nil, sales, globex), ("Émile", 52, 50, edition, globex), ("Zoë", 19, nil, nil, nil),
            (nil, 60, nil, nil, nil),
        ]
        for (name, age, joined, department, business) in rows {
            let employee = EmployeeEntity(context: context)
            employee.name = name
            employee.age = age
            employee.dateJoined = joined.map { Date(timeIntervalSinceReferenceDate: $0) }
            employee.department = department
            employee.business = business
            employees[name ?? "-"] = employee
        }
        try context.save()
    }

    /// The names of the employees `predicate` selects (`-` for none), checked equal to evaluating it
    /// in memory on every employee.
    func employeeNames(_ predicate: Predicate<EmployeeEntity>) throws -> Set<String> {
        let fetched = try context.fetch(EmployeeEntity.fetchRequest().filtered(by: predicate))
        let evaluated = try context.fetch(EmployeeEntity.fetchRequest()).filter { try predicate.evaluate($0) }
        #expect(Set(fetched.map(\.objectID)) == Set(evaluated.map(\.objectID)))
        #expect(try context.count(for: EmployeeEntity.fetchRequest().filtered(by: predicate)) == fetched.count)
        return Set(fetched.map { $0.name ?? "-" })
    }

    func departmentNames(_ predicate: Predicate<DepartmentEntity>) throws -> Set<String> {
        let fetched = try context.fetch(DepartmentEntity.fetchRequest().filtered(by: predicate))
        let evaluated = try context.fetch(DepartmentEntity.fetchRequest()).filter { try predicate.evaluate($0) }
        #expect(Set(fetched.map(\.objectID)) == Set(evaluated.map(\.objectID)))
        return Set(fetched.map { $0.name ?? "-" })
    }
}

@Suite("String (format) predicates")
struct StringPredicateTests {
    struct Row: CustomStringConvertible, Sendable {
        let format: String
        let expected: Set<String>
        let path: FetchExplanation.Path
        var description: String { format }
    }

    static let employeeRows: [Row] = [
        Row(format: #"name == "Ann""#, expected: ["Ann"], path: .sql),
        Row(format: #"name != "Ann""#, expected: ["-", "Bob", "Cécile", "Zoë", "dave", "Émile"], path: .sql),
        Row(format: "age > 40", expected: ["Bob", "Émile", "-"], path: .sql),
        Row(format: "age BETWEEN {20, 45}", expected: ["Ann", "Bob", "Cécile"], path: .sql),
        Row(format: #"name IN {"Ann", "Bob", "Nobody"}"#, expected: ["Ann", "Bob"], path: .sql),
        Row(format: #"name BEGINSWITH "C""#, expected: ["Cécile"], path: .sql),
        Row(format: #"name BEGINSWITH[c] "D""#, expected: ["dave"], path: .sql),
        Row(format: #"name BEGINSWITH[cd] "e""#, expected: ["Émile"], path: .sql),
        Row(format: #"name BEGINSWITH[c] "e""#, expected: [], path: .sql),
        Row(format: #"name CONTAINS[cd] "CIL""#, expected: ["Cécile"], path: .sql),
        Row(format: #"name ENDSWITH "ë""#, expected: ["Zoë"], path: .sql),
        Row(format: #"name LIKE "?o*""#, expected: ["Bob", "Zoë"], path: .sql),
        Row(format: #"name LIKE[c] "a*""#, expected: ["Ann"], path: .sql),
        Row(format: #"name MATCHES "[A-Z][a-z]+""#, expected: ["Ann", "Bob"], path: .memory),
        Row(format: #"department.name == "Research""#, expected: ["Ann", "Bob"], path: .sql),
        Row(format: "department == nil", expected: ["Zoë", "-"], path: .sql),
        Row(format: #"business.name BEGINSWITH "G""#, expected: ["dave", "Émile"], path: .sql),
        Row(format: "dateJoined > CAST(150, 'NSDate')", expected: ["Bob", "Cécile"], path: .sql),
        Row(format: "dateJoined == nil", expected: ["dave", "Zoë", "-"], path: .sql),
        Row(format: "NOT (age < 30)", expected: ["-", "Ann", "Bob", "dave", "Émile"], path: .sql),
        Row(format: "name.length > 3", expected: ["Cécile", "dave", "Émile"], path: .sql),
        Row(format: "name.length == 3", expected: ["Ann", "Bob", "Zoë"], path: .sql),
        Row(format: "NOT name.length == 3", expected: ["Cécile", "dave", "Émile", "-"], path: .sql),
        Row(format: "name.length == nil", expected: ["-"], path: .sql),
        Row(format: "age == nil OR age >= 50", expected: ["dave", "Émile", "-"], path: .sql),
        Row(format: "TRUEPREDICATE", expected: ["Ann", "Bob", "Cécile", "dave", "Émile", "Zoë", "-"], path: .sql),
        Row(format: "FALSEPREDICATE", expected: [], path: .sql),
        Row(format: "age == 30.0", expected: ["Ann"], path: .sql),
        Row(format: "age == YES", expected: [], path: .sql),
        Row(format: "department.employees.@count >= 2", expected: ["Ann", "Bob", "Cécile", "dave"], path: .sql),
        Row(format: "age * 2 > 100", expected: ["Émile", "-"], path: .memory),
        Row(format: #"name == "30""#, expected: [], path: .sql),
        Row(format: "age == '30'", expected: [], path: .memory),
    ]

    @Test("format strings on the seeded company", arguments: employeeRows)
    func employeeTable(row: Row) throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let predicate = try ManagedPredicate<EmployeeEntity>(validatingFormat: row.format)
        #expect(try company.employeeNames(predicate) == row.expected, "\(row.format)")
        let plan = try company.context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate))
        #expect(plan.path == row.path, "\(row.format): \(plan)")
    }

    /// `length` counts UTF-16 code units, as `NSString` does: in SQL (`dm_utf16_length`) as in memory.
    @Test func lengthCountsUTF16CodeUnitsInSQL() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let names = ["😀", "e\u{301}", "\u{1F1EB}\u{1F1F7}", "a\u{0}b", "\r\n", "𝄞x"]
        for name in names {
            let employee = EmployeeEntity(context: company.context)
            employee.name = name
        }
        try company.context.save()
        for length in 0...5 {
            let predicate = try ManagedPredicate<EmployeeEntity>(validatingFormat: "name.length == \(length)")
            let plan = try company.context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate))
            #expect(plan.path == .sql)
            let expected = Set(names.filter { $0.utf16.count == length })
            #expect(
                try company.employeeNames(predicate).subtracting(["Ann", "Bob", "Cécile", "dave", "Émile", "Zoë", "-"])
                    == expected)
        }
    }

    static let departmentRows: [Row] = [
        Row(format: "employees.@count == 0", expected: ["Empty"], path: .sql),
        Row(format: "employees.count > 1", expected: ["Research", "Sales"], path: .sql),
        Row(format: #"ANY employees.name == "Bob""#, expected: ["Research"], path: .sql),
        Row(format: "ALL employees.age > 25", expected: ["Research", "Édition", "Empty"], path: .sql),
        Row(format: "NONE employees.age > 40", expected: ["Sales", "Empty"], path: .sql),
        Row(format: "employees.@sum.age > 60", expected: ["Research"], path: .sql),
        Row(format: "employees.@sum.age == 0", expected: ["Empty"], path: .sql),
        Row(format: "employees.@avg.age < 40", expected: ["Research", "Sales"], path: .sql),
        Row(format: "employees.@max.age == 52", expected: ["Édition"], path: .sql),
        Row(format: "employees.@min.age < 30", expected: ["Sales"], path: .sql),
        Row(format: "SUBQUERY(employees, $e, $e.age > 29).@count == 2", expected: ["Research"], path: .sql),
        Row(format: #"ANY businesses.name == "Acme""#, expected: ["Research", "Sales"], path: .sql),
        Row(format: #"name ==[cd] "edition""#, expected: ["Édition"], path: .sql),
        Row(format: #"name ==[c] "edition""#, expected: [], path: .sql),
        Row(format: #"ANY employees.name LIKE[cd] "e*""#, expected: ["Édition"], path: .sql),
    ]

    @Test("format strings over to-many relationships", arguments: departmentRows)
    func departmentTable(row: Row) throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let predicate = try ManagedPredicate<DepartmentEntity>(validatingFormat: row.format)
        #expect(try company.departmentNames(predicate) == row.expected, "\(row.format)")
        let plan = try company.context.explain(DepartmentEntity.fetchRequest().filtered(by: predicate))
        #expect(plan.path == row.path, "\(row.format): \(plan)")
    }

    @Test func argumentsObjectsAndIDs() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let research = company.research
        #expect(try company.employeeNames(ManagedPredicate(format: "department == %@", research)) == ["Ann", "Bob"])
        #expect(
            try company.employeeNames(ManagedPredicate(format: "department != %@", research.objectID))
                == ["Cécile", "dave", "Émile", "Zoë", "-"])
        let picked = [company.employees["Ann"], company.employees["Zoë"]].compactMap { $0 }
        #expect(try company.employeeNames(ManagedPredicate(format: "SELF IN %@", picked)) == ["Ann", "Zoë"])
        #expect(
            try company.employeeNames(ManagedPredicate(format: "department IN %@", [company.sales.objectID]))
                == ["Cécile", "dave"])
        let bob = try #require(company.employees["Bob"])
        #expect(try company.departmentNames(ManagedPredicate(format: "%@ IN employees", bob)) == ["Research"])
        #expect(try company.departmentNames(ManagedPredicate(format: "employees CONTAINS %@", bob)) == ["Research"])
        #expect(
            try company.employeeNames(ManagedPredicate(format: "%K == %@ AND age > %d", "name", "Bob", 40)) == ["Bob"])
        let joined = Date(timeIntervalSinceReferenceDate: 150)
        #expect(try company.employeeNames(ManagedPredicate(format: "dateJoined < %@", joined)) == ["Ann", "Émile"])
        let id = research.objectID.description
        #expect(
            try company.employeeNames(ManagedPredicate(format: "department == CAST(%@, 'NSManagedObjectID')", id))
                == ["Ann", "Bob"])
        let plan = try company.context.explain(
            EmployeeEntity.fetchRequest().filtered(by: ManagedPredicate(format: "department == %@", research)))
        #expect(plan.path == .sql)
        #expect(plan.predicateSQL == #"t0."ZDEPARTMENT" IS ?"#)
    }

    @Test func pendingChangesAndChildContexts() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let context = company.context
        let newcomer = EmployeeEntity(context: context)
        newcomer.name = "Anna"
        newcomer.age = 33
        company.employees["Bob"]?.name = "Anders"
        let request = EmployeeEntity.fetchRequest().filtered(by: ManagedPredicate(format: "name BEGINSWITH %@", "An"))
        #expect(try context.explain(request).path == .sqlThenMemory)
        #expect(Set(try context.fetch(request).compactMap(\.name)) == ["Ann", "Anna", "Anders"])
        #expect(try context.count(for: request) == 3)

        let child = ManagedObjectContext(parent: context)
        let childRequest = EmployeeEntity.fetchRequest().filtered(
            by: ManagedPredicate(format: "name BEGINSWITH %@ AND age > %d", "An", 31))
        #expect(Set(try child.fetch(childRequest).compactMap(\.name)) == ["Anna", "Anders"])
        #expect(try child.count(for: childRequest) == 2)
    }

    @Test func batchRequestsTakeStringPredicates() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let context = company.context
        var update = BatchUpdateRequest<EmployeeEntity>(predicate: ManagedPredicate(format: "age >= %d", 50))
        update = update.setting(\.age, to: Int16(49))
        #expect(try context.execute(update).count == 2)
        let delete = BatchDeleteRequest<EmployeeEntity>(predicate: ManagedPredicate(format: "name BEGINSWITH[cd] 'e'"))
        #expect(try context.execute(delete).count == 1)
        let other = try company.store.reopened()
        #expect(try other.count(for: EmployeeEntity.fetchRequest()) == 6)
        #expect(
            try other.count(for: EmployeeEntity.fetchRequest().filtered(by: ManagedPredicate(format: "age == 49"))) == 1
        )
    }

    @Test func unknownKeysAndBadFormats() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let request = EmployeeEntity.fetchRequest().filtered(by: ManagedPredicate(format: "department.title == 'x'"))
        #expect(throws: StoreError.unknownProperty(entity: "DepartmentEntity", property: "title")) {
            try company.context.fetch(request)
        }
        #expect(throws: StoreError.unknownProperty(entity: "EmployeeEntity", property: "salary")) {
            try company.context.count(
                for: EmployeeEntity.fetchRequest().filtered(by: ManagedPredicate(format: "salary > 1")))
        }
        do {
            _ = try ManagedPredicate<EmployeeEntity>(validatingFormat: "name == ")
            Issue.record("a malformed format string parsed")
        } catch {
            #expect("\(error)".hasPrefix("predicate:1:"), "\(error)")
        }
        #expect(throws: PredicateArgumentError.self) {
            try ManagedPredicate<EmployeeEntity>(validatingFormat: "name == %@", NSObject())
        }
    }

    @Test func substitutionVariablesAndFormatText() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let template = ManagedPredicate<EmployeeEntity>(format: "name BEGINSWITH[c] $PREFIX AND department == $DEPT")
        let filled = template.withSubstitutionVariables(["PREFIX": "b", "DEPT": company.research])
        #expect(try company.employeeNames(filled) == ["Bob"])
        #expect(filled.predicateFormat?.hasPrefix("name BEGINSWITH[c] \"b\"") == true)
        let bob = try #require(company.employees["Bob"])
        #expect(filled.evaluate(with: bob))
        #expect(!filled.evaluate(with: company.employees["Ann"]))
        #expect(!filled.evaluate(with: company.research))
        #expect(#Predicate<EmployeeEntity> { $0.name == "Bob" }.evaluate(with: bob))
        #expect(try company.employeeNames(ManagedPredicate(value: false)).isEmpty)
        #expect(try company.employeeNames(ManagedPredicate(value: true)).count == 7)
    }

    /// The seed tutorial's store: only the type name differs from `NSPredicate(format:argumentArray:)`.
    @Test func tutorialIdiomPorts() throws {
        let store = try TestStore(.sqlite, model: PersonModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (id, name) in [("1", "Ann"), ("", "Bob"), ("3", "Cy")] {
            let person = Person(context: context)
            person.id = id
            person.name = name
        }
        try context.save()
        func remove(id: String, name: String) throws -> [String] {
            var fetchRequest = Person.fetchRequest()
            fetchRequest.predicate = ManagedPredicate(
                format: "(id.length > 0 AND id == %@) OR (name == %@)", argumentArray: [id, name])
            return try context.fetch(fetchRequest).compactMap(\.name).sorted()
        }
        #expect(try remove(id: "1", name: "Zed") == ["Ann"])
        #expect(try remove(id: "", name: "Cy") == ["Cy"])
        #expect(try remove(id: "", name: "Nobody") == [])
        var request = Person.fetchRequest()
        request.predicate = #Predicate { $0.name == "Bob" }
        #expect(try context.count(for: request) == 1)
    }

    /// Pairs of a format string and a `#Predicate` with the same meaning.
    @Test func formatStringsMatchPredicateMacros() throws {
        let company = try StringPredicateCompany()
        defer { company.store.cleanUp() }
        let researchID = company.research.objectID
        let pairs: [(String, Predicate<EmployeeEntity>)] = [
            ("name == 'Ann'", #Predicate { $0.name == "Ann" }),
            ("name != 'Ann'", #Predicate { $0.name != "Ann" }),
            ("age > 29", #Predicate { ($0.age ?? 0) > 29 && $0.age != nil }),
            ("age == nil", #Predicate { $0.age == nil }),
            ("name BEGINSWITH 'C'", #Predicate { $0.name?.starts(with: "C") ?? false }),
            ("name CONTAINS 'o'", #Predicate { $0.name?.contains("o") ?? false }),
            ("department == nil", #Predicate { $0.department == nil }),
            ("department.name == 'Sales'", #Predicate { $0.department?.name == "Sales" }),
            ("department == %@", #Predicate { $0.department?.objectID == researchID }),
            (
                "age >= 20 AND (name BEGINSWITH 'A' OR NOT name BEGINSWITH 'B')",
                #Predicate {
                    ($0.age ?? 0) >= 20 && $0.age != nil
                        && (($0.name?.starts(with: "A") ?? false) || !($0.name?.starts(with: "B") ?? false))
                }
            ),
            ("department.employees.@count > 1", #Predicate { ($0.department?.employees.count ?? 0) > 1 }),
        ]
        for (format, macro) in pairs {
            let string =
                format.contains("%@")
                ? ManagedPredicate<EmployeeEntity>(format: format, company.research)
                : ManagedPredicate<EmployeeEntity>(format: format)
            #expect(try company.employeeNames(string) == company.employeeNames(macro), "\(format)")
        }
    }
}
