// libFuzzer target: random predicate trees, SQL against memory. The first byte picks the grammar — a `#Predicate`
// tree over `Gadget` (every attribute type, a to-one, a many-to-many; PredicateGrammar.swift) or a format predicate
// over the Company model's employees (string options, paths, aggregates, SUBQUERY; FormatGrammar.swift) — and the
// next eight seed the random objects; the rest choose the trees, one after another while bytes remain (at most
// six). For each tree, the objects a fetch returns (SQL, or the runtime's own fallback), `count(for:)` and a
// sorted window must equal what evaluating the predicate on every object in memory selects. The grammars are the
// property tests' (symlinked from Tests/DataModelRuntimeTests/Predicates); any disagreement or error is a finding.
import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import PredicateFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    guard bytes.count > 9 else { return 0 }
    let seed = bytes[1...8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    var data = SeededGenerator(seed: seed)
    var choices = SeededGenerator(bytes: bytes[9...])
    do {
        if bytes[0] & 1 == 0 {
            try gadgetPredicates(&data, &choices)
        } else {
            try formatPredicates(&data, &choices)
        }
    } catch {
        fatalError("predicate translator: \(error)")
    }
    return 0
}

private func gadgetPredicates(_ data: inout SeededGenerator, _ choices: inout SeededGenerator) throws {
    let container = try PersistentContainer(model: GadgetsModel.model, store: .inMemory)
    let context = container.viewContext
    _ = PredicateGrammar.populate(context, &data)
    try context.save()
    let all = try context.fetch(FetchRequest<Gadget>()).sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
    let sorts: [SortDescriptor<Gadget>] = [
        SortDescriptor(\Gadget.i64, order: .reverse), SortDescriptor(\Gadget.title), SortDescriptor(\Gadget.dbl),
    ]
    for _ in 0..<6 where !choices.isExhausted {
        let predicate = PredicateGrammar.predicate(&choices)
        let request = FetchRequest<Gadget>().filtered(by: predicate)
        let plan = try context.explain(request)
        let expected = try all.filter { try predicate.evaluate($0) }
        let fetched = try context.fetch(request)
        guard Set(fetched.map(\.objectID)) == Set(expected.map(\.objectID)), fetched.count == expected.count else {
            fatalError(
                "fetch returned \(fetched.count) gadgets, evaluate selects \(expected.count): \(predicate) — \(plan)")
        }
        let counted = try context.count(for: request)
        guard counted == expected.count else {
            fatalError("count(for:) is \(counted), evaluate selects \(expected.count): \(predicate) — \(plan)")
        }
        var sorted = request.sorted(by: sorts)
        sorted.fetchLimit = 7
        sorted.fetchOffset = 2
        let expectedOrder = PredicateGrammar.sorted(expected, by: sorts).dropFirst(2).prefix(7)
        let window = try context.fetch(sorted).map(\.objectID)
        guard window == expectedOrder.map(\.objectID) else {
            fatalError("the sorted window differs from sorting the evaluated objects: \(predicate) — \(plan)")
        }
    }
}

private func formatPredicates(_ data: inout SeededGenerator, _ choices: inout SeededGenerator) throws {
    let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
    let context = container.viewContext
    FormatGrammar.populate(context, &data, count: 25)
    try context.save()
    var formats: [String] = []
    for _ in 0..<6 where !choices.isExhausted { formats.append(FormatGrammar.predicate(&choices).description) }
    func check(_ phase: String) throws {
        let candidates = try context.fetch(EmployeeEntity.fetchRequest())
        for format in formats {
            let predicate = try ManagedPredicate<EmployeeEntity>(validatingFormat: format)
            let request = EmployeeEntity.fetchRequest().filtered(by: predicate)
            let fetched = Set(try context.fetch(request).map(\.objectID))
            let evaluated = Set(try candidates.filter { try predicate.evaluate($0) }.map(\.objectID))
            guard fetched == evaluated else {
                let plan = try context.explain(request)
                fatalError(
                    "\(phase): fetch returned \(fetched.count) employees, evaluate selects \(evaluated.count): "
                        + "\(format) — \(plan)")
            }
            let counted = try context.count(for: request)
            guard counted == evaluated.count else {
                fatalError("\(phase): count(for:) is \(counted), evaluate selects \(evaluated.count): \(format)")
            }
        }
    }
    try check("saved")
    // Pending changes: inserts, updates (of relationships and of a department too), deletes.
    let saved = try context.fetch(EmployeeEntity.fetchRequest())
    let departments = try context.fetch(DepartmentEntity.fetchRequest())
    let businesses = try context.fetch(BusinessEntity.fetchRequest())
    for _ in 0..<3 { FormatGrammar.addEmployee(context, &data, departments: departments, businesses: businesses) }
    for employee in saved where data.chance(20) {
        employee.name = data.pick(FormatGrammar.texts)
        employee.age = data.chance(50) ? Int16(data.int(70)) : nil
        employee.department = data.chance(70) ? data.pick(departments) : nil
    }
    if let first = departments.first, data.chance(50) { first.name = data.pick(FormatGrammar.texts) }
    for employee in saved where data.chance(8) { context.delete(employee) }
    try check("pending")
}
