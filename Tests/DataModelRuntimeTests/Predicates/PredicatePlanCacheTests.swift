import Foundation
import GeneratedCompanyModel
import Testing

@testable import DataModelRuntime

/// A request keeps its predicate's SQL translation between fetches (``FetchRequest/predicatePlanCache``); any
/// change of the request, or a fetch from another entity or store, must translate again. Each case fetches once
/// (filling the cache), changes the request, and compares the second fetch with a fresh request: a cache that
/// ignored the change would answer with the old translation.
@Suite("Predicate translation cache")
struct PredicatePlanCacheTests {
    private func company(_ kind: StoreKind) throws -> (TestStore, DepartmentEntity, [EmployeeEntity]) {
        let store = try TestStore(kind, model: CompanyModel.model)
        let context = store.context
        let research = DepartmentEntity(context: context)
        research.name = "Research"
        var employees: [EmployeeEntity] = []
        for (index, age) in [25, 35, 45, 55].enumerated() {
            let employee = EmployeeEntity(context: context)
            employee.name = "E\(index)"
            employee.age = Int16(age)
            employees.append(employee)
        }
        try context.save()
        return (store, research, employees)
    }

    @Test(arguments: StoreKind.allCases)
    func aFetchFillsTheCacheAndTheSameRequestReusesIt(_ kind: StoreKind) throws {
        let (store, _, _) = try company(kind)
        defer { store.cleanUp() }
        let request = EmployeeEntity.fetchRequest().filtered(by: #Predicate { ($0.age ?? 0) > 30 })
        #expect(request.predicatePlanCache == nil)
        #expect(try store.context.fetch(request).count == 3)
        let cached = try #require(request.predicatePlanCache)
        #expect(cached.plan.translated?.sql != nil)
        // Another context on the same store: the same entity and dialect, the same plan.
        #expect(try store.container.newBackgroundContext().fetch(request).count == 3)
        #expect(request.predicatePlanCache?.plan.translated?.sql == cached.plan.translated?.sql)
        // A copy has the same settings and keeps the plan.
        #expect(request.copy().predicatePlanCache != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aChangedPredicateIsTranslatedAgain(_ kind: StoreKind) throws {
        let (store, _, _) = try company(kind)
        defer { store.cleanUp() }
        let context = store.context
        let request = EmployeeEntity.fetchRequest().filtered(by: #Predicate { ($0.age ?? 0) > 30 })
        #expect(try context.fetch(request).count == 3)
        #expect(request.predicatePlanCache != nil)

        let older = #Predicate<EmployeeEntity> { ($0.age ?? 0) > 50 }
        request.predicate = older
        #expect(request.predicatePlanCache == nil)
        let fresh = EmployeeEntity.fetchRequest().filtered(by: older)
        #expect(try context.fetch(request).map(\.name) == context.fetch(fresh).map(\.name))
        #expect(try context.fetch(request).map(\.name) == ["E3"])
        #expect(try context.explain(request).arguments == context.explain(fresh).arguments)

        // Fluent copies with another predicate do not take the receiver's plan.
        let young = request.filtered(by: #Predicate { ($0.age ?? 0) < 30 })
        #expect(young.predicatePlanCache == nil)
        #expect(try context.fetch(young).map(\.name) == ["E0"])

        // No predicate: every employee, not the last translation.
        request.predicate = nil
        #expect(try context.fetch(request).count == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func aChangedSortIsAppliedWithTheCachedPredicate(_ kind: StoreKind) throws {
        let (store, _, _) = try company(kind)
        defer { store.cleanUp() }
        let context = store.context
        let request = EmployeeEntity.fetchRequest().filtered(by: #Predicate { ($0.age ?? 0) > 30 })
        request.sortDescriptors = [SortDescriptor(\.name)]
        #expect(try context.fetch(request).map(\.name) == ["E1", "E2", "E3"])
        request.sortDescriptors = [SortDescriptor(\.name, order: .reverse)]
        #expect(request.predicatePlanCache == nil)
        #expect(try context.fetch(request).map(\.name) == ["E3", "E2", "E1"])
        request.fetchLimit = 1
        #expect(try context.fetch(request).map(\.name) == ["E3"])
    }

    @Test(arguments: StoreKind.allCases)
    func aChangedEntityIsTranslatedAgain(_ kind: StoreKind) throws {
        let (store, research, employees) = try company(kind)
        defer { store.cleanUp() }
        let context = store.context
        // The department and the first employee have the same primary key in their own tables: a translation
        // made for departments (`"Z_PK" = ?`) would find the employee if it were reused for employees.
        try #require(research.objectID.primaryKey == employees[0].objectID.primaryKey)
        let id = research.objectID
        let request = FetchRequest<ManagedObject>(entityName: "DepartmentEntity")
        request.predicate = #Predicate<ManagedObject> { $0.objectID == id }
        #expect(try context.explain(request).path == .sql)
        #expect(try context.fetch(request).map(\.objectID) == [id])
        #expect(request.predicatePlanCache != nil)

        request.entityName = "EmployeeEntity"
        #expect(request.predicatePlanCache == nil)
        #expect(try context.fetch(request).isEmpty)
        let fresh = FetchRequest<ManagedObject>(entityName: "EmployeeEntity")
        fresh.predicate = request.predicate
        #expect(try context.explain(request).whereClause == context.explain(fresh).whereClause)
    }

    @Test func aPlanIsForOneEntityAndDialect() throws {
        let (store, research, employees) = try company(.sqlite)
        defer { store.cleanUp() }
        let id = research.objectID
        let request = FetchRequest<ManagedObject>(entityName: "DepartmentEntity")
        request.predicate = #Predicate<ManagedObject> { $0.objectID == id }
        #expect(try store.context.fetch(request).count == 1)
        let departmentPlan = try #require(request.predicatePlanCache)
        // The same request read by a fetch of another entity (as a batch request or a parent context might): the
        // cached plan names the department entity, so the employee fetch must not take it.
        let other = FetchRequest<ManagedObject>(entityName: "EmployeeEntity")
        other.predicate = request.predicate
        other.predicatePlanCache = departmentPlan
        #expect(try store.context.fetch(other).isEmpty)
        #expect(other.predicatePlanCache?.entity.name == "EmployeeEntity")
        #expect(employees.count == 4)
    }
}
