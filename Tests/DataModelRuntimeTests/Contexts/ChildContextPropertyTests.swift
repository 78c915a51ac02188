import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// Random edits of a company (insertions, renames, to-one and many-to-many changes, deletions with Cascade and
/// Deny in play), checked two ways: made in a child context they must leave the parent and then the store
/// exactly as the same edits made in a plain context do; made with an undo manager, every undo and redo must
/// give back the state recorded at that step, across saves too. Seeds 1–20 (`CHILD_SEEDS=n` runs more); the
/// seed is in every failure.
@Suite("Child contexts and undo: random edits")
struct ChildContextPropertyTests {
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["CHILD_SEEDS"].flatMap(UInt64.init) ?? 20))

    /// Every seed on SQLite (file and memory), the first 5 on PostgreSQL (a server round trip per statement).
    static let cases: [(StoreKind, UInt64)] = StoreKind.allCases.flatMap { kind in
        seeds.prefix(kind == .postgres ? 5 : seeds.count).map { (kind, $0) }
    }

    /// Everything the store would hold, by names (unique by construction), in a stable order.
    static func describe(_ context: ManagedObjectContext) throws -> [String] {
        let byName = [SortDescriptor<EmployeeEntity>(\.name)]
        var lines: [String] = []
        for employee in try context.fetch(EmployeeEntity.fetchRequest().sorted(by: byName)) {
            lines.append(
                "E \(employee.name ?? "-") d=\(employee.department?.name ?? "-") b=\(employee.business?.name ?? "-")")
        }
        for department in try context.fetch(
            DepartmentEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]))
        {
            let staff = department.employees.compactMap(\.name).sorted().joined(separator: ",")
            let owners = department.businesses.compactMap(\.name).sorted().joined(separator: ",")
            lines.append("D \(department.name ?? "-") staff=\(staff) owners=\(owners)")
        }
        for business in try context.fetch(BusinessEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)])) {
            let staff = business.employees.compactMap(\.name).sorted().joined(separator: ",")
            let departments = business.departments.compactMap(\.name).sorted().joined(separator: ",")
            lines.append("B \(business.name ?? "-") staff=\(staff) departments=\(departments)")
        }
        return lines
    }

    static func seed(_ context: ManagedObjectContext) throws {
        let departments = (0..<3).map { index in
            let department = DepartmentEntity(context: context)
            department.name = "D\(index)"
            return department
        }
        let businesses = (0..<2).map { index in
            let business = BusinessEntity(context: context)
            business.name = "B\(index)"
            business.departments = Set(departments.prefix(index + 2))
            return business
        }
        for index in 0..<6 {
            let employee = EmployeeEntity(context: context)
            employee.name = "E\(index)"
            employee.department = departments[index % 3]
            employee.business = businesses[index % 2]
        }
        try context.save()
    }

    /// One random edit, made in each of `contexts` (objects found by name), decided from the first.
    static func edit(_ contexts: [ManagedObjectContext], counter: inout Int, random: inout SeededGenerator) throws {
        func all<T: ManagedObject>(_ request: FetchRequest<T>, _ context: ManagedObjectContext) throws -> [T] {
            try context.fetch(request)
        }
        func named<T: ManagedObject>(_ type: T.Type, _ name: String?, in context: ManagedObjectContext) throws -> T? {
            guard let name else { return nil }
            return try context.fetch(FetchRequest<T>().matching("name", equals: name)).first
        }
        let first = contexts[0]
        let employees = try all(EmployeeEntity.fetchRequest(), first).compactMap(\.name).sorted()
        let departments = try all(DepartmentEntity.fetchRequest(), first).compactMap(\.name).sorted()
        let businesses = try all(BusinessEntity.fetchRequest(), first).compactMap(\.name).sorted()
        func maybe(_ names: [String]) -> String? {
            names.isEmpty || random.chance(20) ? nil : random.pick(names)
        }
        counter += 1
        let fresh = counter
        switch random.int(9) {
        case 0:
            let department = maybe(departments)
            let business = maybe(businesses)
            for context in contexts {
                let employee = EmployeeEntity(context: context)
                employee.name = "N\(fresh)"
                employee.department = try named(DepartmentEntity.self, department, in: context)
                employee.business = try named(BusinessEntity.self, business, in: context)
            }
        case 1:
            guard let name = maybe(employees) else { return }
            for context in contexts { try named(EmployeeEntity.self, name, in: context)?.name = "R\(fresh)" }
        case 2:
            guard let name = maybe(employees) else { return }
            let department = maybe(departments)
            for context in contexts {
                try named(EmployeeEntity.self, name, in: context)?.department = try named(
                    DepartmentEntity.self, department, in: context)
            }
        case 3:
            guard let name = maybe(employees) else { return }
            let business = maybe(businesses)
            for context in contexts {
                try named(EmployeeEntity.self, name, in: context)?.business = try named(
                    BusinessEntity.self, business, in: context)
            }
        case 4:
            guard let name = maybe(employees) else { return }
            for context in contexts {
                if let employee = try named(EmployeeEntity.self, name, in: context) { context.delete(employee) }
            }
        case 5:
            for context in contexts {
                let department = DepartmentEntity(context: context)
                department.name = "N\(fresh)"
            }
        case 6:
            // Deny: only a department without employees is deleted.
            guard let name = maybe(departments),
                try named(DepartmentEntity.self, name, in: first)?.employees.isEmpty == true
            else { return }
            for context in contexts {
                if let department = try named(DepartmentEntity.self, name, in: context) { context.delete(department) }
            }
        case 7:
            guard let business = maybe(businesses), let department = maybe(departments) else { return }
            for context in contexts {
                guard let owner = try named(BusinessEntity.self, business, in: context),
                    let unit = try named(DepartmentEntity.self, department, in: context)
                else { continue }
                if owner.departments.contains(unit) {
                    owner.removeFromDepartments(unit)
                } else {
                    owner.addToDepartments(unit)
                }
            }
        default:
            // Cascade to the business's employees.
            guard random.chance(30), let name = maybe(businesses) else { return }
            for context in contexts {
                if let business = try named(BusinessEntity.self, name, in: context) { context.delete(business) }
            }
        }
    }

    @Test("edits in a child reach the parent and the store as edits made there would", arguments: cases)
    func childMatchesAPlainContext(kind: StoreKind, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let reference = try PersistentContainer(model: CompanyModel.model, store: .inMemory).viewContext
        try Self.seed(store.context)
        try Self.seed(reference)
        var counter = 0
        // Unsaved changes in the parent first: the child must see them.
        for _ in 0..<5 { try Self.edit([store.context, reference], counter: &counter, random: &random) }
        let child = ManagedObjectContext(parent: store.context)
        let grandchild = random.chance(30) ? ManagedObjectContext(parent: child) : nil
        let editor = grandchild ?? child
        #expect(try Self.describe(editor) == Self.describe(reference), "seed \(seed): the child's first view")
        for step in 0..<30 {
            try Self.edit([editor, reference], counter: &counter, random: &random)
            if step % 5 == 4 {
                #expect(try Self.describe(editor) == Self.describe(reference), "seed \(seed), step \(step)")
            }
        }
        let expected = try Self.describe(reference)
        if let grandchild {
            try grandchild.save()
            #expect(try Self.describe(child) == expected, "seed \(seed): the child after the grandchild's save")
        }
        try child.save()
        #expect(try Self.describe(store.context) == expected, "seed \(seed): the parent after the child's save")
        try store.context.save()
        #expect(try Self.describe(store.reopened()) == expected, "seed \(seed): the store")
    }

    @Test("every undo and redo gives back the state of its step, across saves", arguments: cases)
    func undoAndRedoRetraceEveryStep(kind: StoreKind, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed &+ 1000)
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let context = store.context
        try Self.seed(context)
        context.undoManager = UndoManager()
        var counter = 0
        var states = [try Self.describe(context)]
        for _ in 0..<20 {
            try Self.edit([context], counter: &counter, random: &random)
            context.processPendingChanges()
            if random.chance(20) { try context.save() }
            states.append(try Self.describe(context))
        }
        // Steps that changed nothing registered nothing: undo goes back to the last different state.
        var index = states.count - 1
        while context.undoManager?.canUndo == true {
            context.undo()
            let now = try Self.describe(context)
            while index > 0 && states[index] != now { index -= 1 }
            #expect(states[index] == now, "seed \(seed): an undo gave a state no step had")
        }
        #expect(try Self.describe(context) == states[0], "seed \(seed): undone to the start")
        while context.undoManager?.canRedo == true { context.redo() }
        #expect(try Self.describe(context) == states[states.count - 1], "seed \(seed): redone to the end")
        try context.save()
        #expect(try Self.describe(store.reopened()) == states[states.count - 1], "seed \(seed): the store")
    }
}
