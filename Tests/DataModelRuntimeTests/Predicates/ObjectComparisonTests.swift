import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// `#Predicate`s comparing relationships with objects (by `objectID`, the only spelling the macro accepts:
/// a predicate can capture only `Sendable` and `Codable` values, which managed objects are not), run in SQL
/// and checked against in-memory evaluation.
@Suite("Predicates comparing objects")
struct ObjectComparisonTests {
    /// The fetch's results, checked equal (same objects) to evaluating the predicate on every
    /// object of the entity.
    private func fetchChecked<T: ManagedObject>(
        _ predicate: Predicate<T>, in context: ManagedObjectContext, entity: FetchRequest<T> = FetchRequest<T>()
    ) throws -> [T] {
        let fetched = try context.fetch(entity.filtered(by: predicate))
        let evaluated = try context.fetch(entity).filter { try predicate.evaluate($0) }
        // Without sort descriptors the order is the store's, unsaved objects after it.
        #expect(fetched.count == evaluated.count && Set(fetched.map(\.objectID)) == Set(evaluated.map(\.objectID)))
        return fetched
    }

    private func company() throws -> (TestStore, DepartmentEntity, DepartmentEntity, [EmployeeEntity]) {
        let store = try TestStore(.sqlite, model: CompanyModel.model)
        let context = store.context
        let research = DepartmentEntity(context: context)
        research.name = "Research"
        let sales = DepartmentEntity(context: context)
        sales.name = "Sales"
        var employees: [EmployeeEntity] = []
        for (index, department) in [research, sales, research, nil].enumerated() {
            let employee = EmployeeEntity(context: context)
            employee.name = "E\(index)"
            employee.department = department
            employees.append(employee)
        }
        try context.save()
        return (store, research, sales, employees)
    }

    @Test func toOneEqualsAnObjectRunsInSQL() throws {
        let (store, research, _, employees) = try company()
        defer { store.cleanUp() }
        let id = research.objectID
        let predicate = #Predicate<EmployeeEntity> { $0.department?.objectID == id }
        let plan = try store.context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate))
        #expect(plan.path == .sql)
        #expect(plan.predicateSQL == #"t0."ZDEPARTMENT" IS ?"#)
        #expect(plan.arguments == [.integer(id.primaryKey)])
        let found = try fetchChecked(predicate, in: store.context)
        #expect(found.map(\.name) == ["E0", "E2"])
        #expect(found.first === employees[0])
    }

    @Test func notEqualAndNilAreNullSafe() throws {
        let (store, research, _, _) = try company()
        defer { store.cleanUp() }
        let id = research.objectID
        let notResearch = #Predicate<EmployeeEntity> { $0.department?.objectID != id }
        #expect(try store.context.explain(EmployeeEntity.fetchRequest().filtered(by: notResearch)).path == .sql)
        #expect(try fetchChecked(notResearch, in: store.context).map(\.name) == ["E1", "E3"])
        let none = #Predicate<EmployeeEntity> { $0.department == nil }
        #expect(try store.context.explain(EmployeeEntity.fetchRequest().filtered(by: none)).path == .sql)
        #expect(try fetchChecked(none, in: store.context).map(\.name) == ["E3"])
        let some = #Predicate<EmployeeEntity> { $0.department != nil && $0.department?.objectID != id }
        #expect(try fetchChecked(some, in: store.context).map(\.name) == ["E1"])
    }

    @Test func capturedIDListIsIn() throws {
        let (store, research, sales, employees) = try company()
        defer { store.cleanUp() }
        let departments = [research.objectID, sales.objectID]
        let inDepartments = #Predicate<EmployeeEntity> { employee in
            employee.department.flatMap { departments.contains($0.objectID) } ?? false
        }
        #expect(try store.context.explain(EmployeeEntity.fetchRequest().filtered(by: inDepartments)).path == .sql)
        #expect(try fetchChecked(inDepartments, in: store.context).map(\.name) == ["E0", "E1", "E2"])
        let picked = Set([employees[1].objectID, employees[3].objectID])
        let byID = #Predicate<EmployeeEntity> { picked.contains($0.objectID) }
        let plan = try store.context.explain(EmployeeEntity.fetchRequest().filtered(by: byID))
        #expect(plan.path == .sql)
        #expect(plan.predicateSQL == #"(COALESCE(t0."Z_PK" IN (?, ?), 0) AND t0."Z_ENT" IS ?)"#)
        #expect(try fetchChecked(byID, in: store.context).map(\.name) == ["E1", "E3"])
        let nobody: [ObjectID] = []
        let empty = #Predicate<EmployeeEntity> { nobody.contains($0.objectID) }
        #expect(try fetchChecked(empty, in: store.context).isEmpty)
    }

    @Test func toManyContainsAnObjectRunsInSQL() throws {
        let (store, research, sales, employees) = try company()
        defer { store.cleanUp() }
        let id = employees[1].objectID
        let hasEmployee = #Predicate<DepartmentEntity> { department in
            department.employees.contains(where: { $0.objectID == id })
        }
        let plan = try store.context.explain(DepartmentEntity.fetchRequest().filtered(by: hasEmployee))
        #expect(plan.path == .sql)
        #expect(try fetchChecked(hasEmployee, in: store.context) == [sales])
        // Through a join table (Business ↔ Department).
        let acme = BusinessEntity(context: store.context)
        acme.name = "Acme"
        acme.departments = [research]
        let globex = BusinessEntity(context: store.context)
        globex.name = "Globex"
        globex.departments = [sales]
        try store.context.save()
        let researchID = research.objectID
        let withResearch = #Predicate<BusinessEntity> { business in
            business.departments.contains(where: { $0.objectID == researchID })
        }
        #expect(try store.context.explain(BusinessEntity.fetchRequest().filtered(by: withResearch)).path == .sql)
        #expect(try fetchChecked(withResearch, in: store.context) == [acme])
        let without = #Predicate<BusinessEntity> { business in
            !business.departments.contains(where: { $0.objectID == researchID })
        }
        #expect(try fetchChecked(without, in: store.context) == [globex])
    }

    @Test func unsavedObjectsMatchNoRowThenMatchInMemory() throws {
        let (store, _, _, employees) = try company()
        defer { store.cleanUp() }
        let context = store.context
        let legal = DepartmentEntity(context: context)
        legal.name = "Legal"
        let id = legal.objectID
        let predicate = #Predicate<EmployeeEntity> { $0.department?.objectID == id }
        // A pending department changes no employee's row: still one query.
        #expect(try context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate)).path == .sql)
        #expect(try fetchChecked(predicate, in: context).isEmpty)
        employees[3].department = legal
        let hire = EmployeeEntity(context: context)
        hire.name = "New"
        hire.department = legal
        #expect(try context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate)).path == .sqlThenMemory)
        #expect(try fetchChecked(predicate, in: context).compactMap(\.name).sorted() == ["E3", "New"])
        try context.save()
        #expect(try context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate)).path == .sql)
        #expect(try fetchChecked(predicate, in: context).map(\.name) == ["E3", "New"])
    }

    @Test func subEntitiesCompareEntityAndKey() throws {
        let store = try TestStore(.sqlite, model: RosterModel.model)
        defer { store.cleanUp() }
        let context = store.context
        let coach = RosterPerson(context: context)
        coach.name = "Coach"
        let star = RosterPlayer(context: context)
        star.name = "Star"
        let rookie = RosterPlayer(context: context)
        rookie.name = "Rookie"
        rookie.mentor = star
        let intern = RosterPerson(context: context)
        intern.name = "Intern"
        intern.mentor = coach
        let team = RosterTeam(context: context)
        team.name = "Blue"
        team.members = [rookie, coach]
        try context.save()

        let starID = star.objectID
        let mentoredByStar = #Predicate<RosterPerson> { $0.mentor?.objectID == starID }
        let plan = try context.explain(FetchRequest<RosterPerson>().filtered(by: mentoredByStar))
        #expect(plan.path == .sql)
        // The mentor's entity column is compared too (Core Data's `Z<n>_MENTOR`).
        #expect(plan.predicateSQL == #"(t0."ZMENTOR" IS ? AND COALESCE(t0."Z2_MENTOR", 2) IS ?)"#)
        #expect(plan.arguments == [.integer(starID.primaryKey), .integer(Int64(starID.entityNumber))])
        #expect(try fetchChecked(mentoredByStar, in: context) == [rookie])

        let coachID = coach.objectID
        let everyone = [coach.objectID, star.objectID, rookie.objectID, team.objectID]
        let listed = #Predicate<RosterPerson> { everyone.contains($0.objectID) }
        #expect(try context.explain(FetchRequest<RosterPerson>().filtered(by: listed)).path == .sql)
        #expect(
            try fetchChecked(listed, in: context).count == 3, "one IN list per entity; the team's ID names no person")
        let mentors: Set<ObjectID> = [star.objectID, coach.objectID]
        let mentored = #Predicate<RosterPerson> { p in p.mentor.flatMap { mentors.contains($0.objectID) } ?? false }
        #expect(try context.explain(FetchRequest<RosterPerson>().filtered(by: mentored)).path == .sql)
        #expect(Set(try fetchChecked(mentored, in: context)) == [rookie, intern])
        let isCoach = #Predicate<RosterPerson> { $0.objectID == coachID }
        #expect(try context.explain(FetchRequest<RosterPerson>().filtered(by: isCoach)).path == .sql)
        #expect(try fetchChecked(isCoach, in: context) == [coach])
        // An ID with the right key but another entity of the hierarchy names no object.
        let players = try fetchChecked(isCoach, in: context, entity: FetchRequest<RosterPerson>(entityName: "Player"))
        #expect(players.isEmpty)

        let teamID = team.objectID
        let onTeam = #Predicate<RosterPerson> { $0.team?.objectID == teamID }
        #expect(try fetchChecked(onTeam, in: context).map(\.name) == ["Coach", "Rookie"])
        let rookieID = rookie.objectID
        let withRookie = #Predicate<RosterTeam> { team in team.members.contains(where: { $0.objectID == rookieID }) }
        #expect(try context.explain(FetchRequest<RosterTeam>().filtered(by: withRookie)).path == .sql)
        #expect(try fetchChecked(withRookie, in: context) == [team])
        // An ID of an unrelated entity never matches.
        let wrong = #Predicate<RosterPerson> { $0.mentor?.objectID == teamID }
        #expect(try context.explain(FetchRequest<RosterPerson>().filtered(by: wrong)).predicateSQL == "0")
        #expect(try fetchChecked(wrong, in: context).isEmpty)
    }
}
