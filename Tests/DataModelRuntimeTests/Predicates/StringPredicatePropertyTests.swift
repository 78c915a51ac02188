import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import PredicateFormat
import Testing

@Suite("String predicates: SQL and memory agree on random predicates")
struct StringPredicatePropertyTests {
    /// The IDs a fetch returns and the IDs in-memory evaluation selects among `candidates`.
    private func check(
        _ format: String, _ context: ManagedObjectContext, candidates: [EmployeeEntity], seed: UInt64, phase: String
    ) throws {
        let predicate = try ManagedPredicate<EmployeeEntity>(validatingFormat: format)
        let request = EmployeeEntity.fetchRequest().filtered(by: predicate)
        let fetched = Set(try context.fetch(request).map(\.objectID))
        let evaluated = Set(try candidates.filter { try predicate.evaluate($0) }.map(\.objectID))
        let plan = try context.explain(request)
        #expect(fetched == evaluated, "seed \(seed) \(phase): \(format) — \(plan)")
        #expect(try context.count(for: request) == evaluated.count, "seed \(seed) \(phase) count: \(format)")
    }

    /// Batches of 10 seeds: 12 on SQLite, the first 3 on PostgreSQL (a server round trip per statement).
    static let cases: [(StoreKind, Int)] = StoreKind.allCases.filter { $0 != .inMemory }.flatMap { kind in
        (0..<(kind == .postgres ? 3 : 12)).map { (kind, $0) }
    }

    @Test("random format predicates, saved and with pending changes", arguments: cases)
    func randomPredicates(kind: StoreKind, batch: Int) throws {
        for seed in UInt64(batch * 10)..<UInt64(batch * 10 + 10) {
            var rng = SeededGenerator(seed: seed)
            let store = try TestStore(kind, model: CompanyModel.model)
            defer { store.cleanUp() }
            let context = store.context
            FormatGrammar.populate(context, &rng, count: 25)
            try context.save()
            let predicates = (0..<12).map { _ in FormatGrammar.predicate(&rng).description }
            // Saved data: SQL alone (or its fallback) against memory.
            let saved = try context.fetch(EmployeeEntity.fetchRequest())
            for format in predicates {
                try check(format, context, candidates: saved, seed: seed, phase: "saved")
            }
            // Pending changes: inserts, updates (also of relationships and departments), deletes.
            let departments = try context.fetch(DepartmentEntity.fetchRequest())
            let businesses = try context.fetch(BusinessEntity.fetchRequest())
            for _ in 0..<3 {
                FormatGrammar.addEmployee(context, &rng, departments: departments, businesses: businesses)
            }
            for employee in saved where rng.chance(20) {
                employee.name = rng.pick(FormatGrammar.texts)
                employee.age = rng.chance(50) ? Int16(rng.int(70)) : nil
                employee.department = rng.chance(70) ? rng.pick(departments) : nil
            }
            if rng.chance(50) { departments[0].name = rng.pick(FormatGrammar.texts) }
            for employee in saved where rng.chance(8) { context.delete(employee) }
            let current = try context.fetch(EmployeeEntity.fetchRequest())
            for format in predicates {
                try check(format, context, candidates: current, seed: seed, phase: "pending")
            }
        }
    }

    @Test("printed random predicates parse back to the same tree")
    func printedPredicatesParse() throws {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<200 {
            let tree = FormatGrammar.predicate(&rng)
            #expect(try FormatPredicate(format: tree.description) == tree, "\(tree)")
        }
    }
}
