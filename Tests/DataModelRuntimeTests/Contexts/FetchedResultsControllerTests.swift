import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Observation
import Synchronization
import Testing

/// Records every delegate call of one event.
private final class Recorder: FetchedResultsControllerDelegate {
    typealias Result = EmployeeEntity

    var calls: [String] = []
    var sectionChanges: [(type: FetchedResultsChangeType, name: String, index: Int)] = []
    var objectChanges: [(type: FetchedResultsChangeType, id: ObjectID, from: IndexPath?, to: IndexPath?)] = []

    func reset() {
        calls = []
        sectionChanges = []
        objectChanges = []
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController<EmployeeEntity>) {
        calls.append("will")
    }

    func controller(
        _ controller: FetchedResultsController<EmployeeEntity>, didChange object: EmployeeEntity,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        calls.append("object \(type)")
        objectChanges.append((type, object.objectID, indexPath, newIndexPath))
    }

    func controller(
        _ controller: FetchedResultsController<EmployeeEntity>,
        didChange sectionInfo: FetchedResultsSectionInfo<EmployeeEntity>, atSectionIndex sectionIndex: Int,
        for type: FetchedResultsChangeType
    ) {
        calls.append("section \(type) \(sectionInfo.name)")
        sectionChanges.append((type, sectionInfo.name, sectionIndex))
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<EmployeeEntity>) {
        calls.append("did")
    }
}

/// Records each delegate call as a line of text a table view's batch update would take: `section delete B @1`,
/// `delete 3 1,0`, `insert 3 0,2`, `move 3 1,0->0,2`, `update 3 0,0->0,0` (objects by `label`).
private final class UpdateLog<Result: ManagedObject>: FetchedResultsControllerDelegate {
    let label: (Result) -> String
    var calls: [String] = []

    init(label: @escaping (Result) -> String) { self.label = label }

    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {
        calls.append("will")
    }

    func controller(
        _ controller: FetchedResultsController<Result>, didChange sectionInfo: FetchedResultsSectionInfo<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        calls.append("section \(type) \(sectionInfo.name) @\(sectionIndex)")
    }

    func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        calls.append(objectChangeLine(type, label(object), indexPath, newIndexPath))
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {
        calls.append("did")
    }
}

private func objectChangeLine(
    _ type: FetchedResultsChangeType, _ label: String, _ from: IndexPath?, _ to: IndexPath?
) -> String {
    func text(_ path: IndexPath?) -> String { path.map { $0.map(String.init).joined(separator: ",") } ?? "nil" }
    switch type {
    case .delete: return "delete \(label) \(text(from))"
    case .insert: return "insert \(label) \(text(to))"
    case .move, .update: return "\(type) \(label) \(text(from))->\(text(to))"
    }
}

/// A change set of the controller's `changes` sequence as the lines ``UpdateLog`` records (without will and did).
private func lines(_ changes: FetchedResultsChanges, labels: [ObjectID: String]) -> [String] {
    changes.sectionChanges.map { "section \($0.type) \($0.name) @\($0.index)" }
        + changes.objectChanges.map {
            objectChangeLine($0.type, labels[$0.objectID] ?? "?", $0.indexPath, $0.newIndexPath)
        }
}

/// Sections as names and IDs.
private typealias Arrangement = [(name: String, ids: [ObjectID])]

private func arrangement(_ controller: FetchedResultsController<EmployeeEntity>) -> Arrangement {
    (controller.sections ?? []).map { ($0.name, $0.objects.map(\.objectID)) }
}

private func same(_ lhs: Arrangement, _ rhs: Arrangement) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.name == $1.name && $0.ids == $1.ids }
}

private func describe(_ arrangement: Arrangement) -> String {
    arrangement.map { "\($0.name): \($0.ids.map { String($0.primaryKey) }.joined(separator: ","))" }
        .joined(separator: " | ")
}

/// Applies recorded changes as a table view's batch updates do: removals at old index paths (descending), deleted
/// sections, inserted sections, insertions at new index paths (ascending). `nil` when a change does not fit.
private func applying(_ recorder: Recorder, to old: Arrangement) -> Arrangement? {
    var result = old
    let removals = recorder.objectChanges.filter { $0.type == .delete || $0.type == .move }
    for change in removals.sorted(by: { ($0.from ?? []) > ($1.from ?? []) }) {
        guard let path = change.from, path.count == 2, result.indices.contains(path[0]),
            result[path[0]].ids.indices.contains(path[1]), result[path[0]].ids[path[1]] == change.id
        else { return nil }
        result[path[0]].ids.remove(at: path[1])
    }
    for change in recorder.sectionChanges.filter({ $0.type == .delete }).sorted(by: { $0.index > $1.index }) {
        guard result.indices.contains(change.index), result[change.index].name == change.name,
            result[change.index].ids.isEmpty
        else { return nil }
        result.remove(at: change.index)
    }
    for change in recorder.sectionChanges.filter({ $0.type == .insert }).sorted(by: { $0.index < $1.index }) {
        guard change.index <= result.count else { return nil }
        result.insert((change.name, []), at: change.index)
    }
    let insertions = recorder.objectChanges.filter { $0.type == .insert || $0.type == .move }
    for change in insertions.sorted(by: { ($0.to ?? []) < ($1.to ?? []) }) {
        guard let path = change.to, path.count == 2, result.indices.contains(path[0]),
            path[1] <= result[path[0]].ids.count
        else { return nil }
        result[path[0]].ids.insert(change.id, at: path[1])
    }
    return result
}

/// The recorded changes a table view's batch updates refuse: a move or an update out of a deleted section (its old
/// index) or into an inserted one (its new index). Such an object is reported as deleted and inserted instead.
private func tableViewRuleViolations(_ recorder: Recorder) -> [String] {
    let deleted = Set(recorder.sectionChanges.filter { $0.type == .delete }.map(\.index))
    let inserted = Set(recorder.sectionChanges.filter { $0.type == .insert }.map(\.index))
    var violations: [String] = []
    for change in recorder.objectChanges where change.type == .move || change.type == .update {
        if let from = change.from, deleted.contains(from[0]) {
            violations.append("\(change.type) of \(change.id.primaryKey) out of deleted section \(from[0])")
        }
        if let to = change.to, inserted.contains(to[0]) {
            violations.append("\(change.type) of \(change.id.primaryKey) into inserted section \(to[0])")
        }
    }
    return violations
}

/// The objects reported deleted and inserted although neither their old section was deleted nor their new one
/// inserted: they should have been moved or updated.
private func needlessReinsertions(_ recorder: Recorder) -> [ObjectID] {
    let deleted = Set(recorder.sectionChanges.filter { $0.type == .delete }.map(\.index))
    let inserted = Set(recorder.sectionChanges.filter { $0.type == .insert }.map(\.index))
    var from: [ObjectID: IndexPath] = [:]
    for change in recorder.objectChanges where change.type == .delete { from[change.id] = change.from }
    return recorder.objectChanges.compactMap { change in
        guard change.type == .insert, let old = from[change.id], let new = change.to else { return nil }
        return deleted.contains(old[0]) || inserted.contains(new[0]) ? nil : change.id
    }
}

@Suite("Fetched results controller: sections, incremental updates, delegate, change sequences")
struct FetchedResultsControllerTests {
    private static let names = ["Ann", "Bob", "Cy", "Dee", "Zoe"]

    /// Employees sorted by age, then name; sections by age; Zoe left out by the predicate.
    private static func request() -> FetchRequest<EmployeeEntity> {
        EmployeeEntity.fetchRequest()
            .sorted(by: [SortDescriptor(\.age), SortDescriptor(\.name)])
            .filtered(by: #Predicate { $0.name != "Zoe" })
    }

    /// The fresh fetch's objects grouped into sections by age.
    private static func expected(_ context: ManagedObjectContext) throws -> (Arrangement, [EmployeeEntity]) {
        let objects = try context.fetch(request())
        var sections: Arrangement = []
        for object in objects {
            let name = object.age.map { String($0) } ?? ""
            if sections.last?.name != name { sections.append((name, [])) }
            sections[sections.count - 1].ids.append(object.objectID)
        }
        return (sections, objects)
    }

    private static func randomAge(_ random: inout SeededGenerator) -> Int16? {
        random.chance(10) ? nil : Int16(20 + random.int(6))
    }

    @Test(
        "random inserts, deletes, moves within and between sections, rollbacks, merges and resets: the results equal a fresh fetch, and the reported changes turn the old arrangement into the new one",
        arguments: StoreKind.allCases, [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomSequences(kind: StoreKind, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        view.automaticallyMergesChangesFromParent = true
        let background = store.container.newBackgroundContext()
        background.automaticallyMergesChangesFromParent = true
        for _ in 0..<25 {
            let employee = EmployeeEntity(context: view)
            employee.name = random.pick(Self.names)
            employee.age = Self.randomAge(&random)
        }
        try view.save()

        let controller = FetchedResultsController(
            fetchRequest: Self.request(), managedObjectContext: view, sectionNameKeyPath: \.age)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(same(arrangement(controller), try Self.expected(view).0))

        for step in 0..<60 {
            let before = arrangement(controller)
            recorder.reset()
            var touched: Set<ObjectID> = []
            let all = try view.fetch(EmployeeEntity.fetchRequest())
            let operation = random.int(100)
            switch operation {
            case 0..<55:
                // One save mixing insertions, deletions and updates (sort position, section, membership); now
                // and then a bulk one (sorted and merged into the sections rather than inserted one by one).
                let bulk = random.chance(10)
                for _ in 0..<(bulk ? 30 : random.int(3)) {
                    let employee = EmployeeEntity(context: view)
                    employee.name = random.pick(Self.names)
                    employee.age = bulk ? 22 : Self.randomAge(&random)  // bulk: many into one section
                }
                for _ in 0..<random.int(3) where !all.isEmpty {
                    view.delete(random.pick(all))
                }
                for _ in 0..<(bulk ? 25 : 1 + random.int(4)) where !all.isEmpty {
                    let employee = random.pick(all)
                    guard !employee.isDeleted else { continue }
                    if random.chance(60) { employee.age = Self.randomAge(&random) }
                    if random.chance(50) { employee.name = random.pick(Self.names) }
                }
                touched = Set(view.updatedObjects.map(\.objectID))
                try view.save()
            case 55..<70:
                // Unsaved changes rolled back: the results come back to what they were.
                EmployeeEntity(context: view).name = "Ann"
                if let victim = all.first { view.delete(victim) }
                if let moved = all.last, !moved.isDeleted { moved.age = Self.randomAge(&random) }
                view.rollback()
            case 70..<95:
                // Another context saves; the view context merges at its next operation.
                let others = try background.fetch(EmployeeEntity.fetchRequest())
                for _ in 0..<random.int(3) {
                    let employee = EmployeeEntity(context: background)
                    employee.name = random.pick(Self.names)
                    employee.age = Self.randomAge(&random)
                }
                for _ in 0..<random.int(2) where !others.isEmpty { background.delete(random.pick(others)) }
                for _ in 0..<(1 + random.int(3)) where !others.isEmpty {
                    let employee = random.pick(others)
                    guard !employee.isDeleted else { continue }
                    employee.age = Self.randomAge(&random)
                    if random.chance(40) { employee.name = random.pick(Self.names) }
                }
                try background.save()
                _ = try view.count(for: EmployeeEntity.fetchRequest())
            default:
                view.reset()
            }

            let (expected, objects) = try Self.expected(view)
            let after = arrangement(controller)
            #expect(
                same(after, expected),
                "seed \(seed) step \(step) (operation \(operation)): \(describe(after)) instead of \(describe(expected))"
            )
            #expect(
                zip(controller.fetchedObjects ?? [], objects).allSatisfy { $0 === $1 },
                "seed \(seed) step \(step): the controller's objects are the context's registered ones")
            let applied = applying(recorder, to: before)
            #expect(
                applied.map { same($0, after) } == true,
                "seed \(seed) step \(step) (operation \(operation)): the changes applied to \(describe(before)) give \(applied.map(describe) ?? "an invalid update") instead of \(describe(after))"
            )
            let violations = tableViewRuleViolations(recorder)
            #expect(
                violations.isEmpty,
                "seed \(seed) step \(step) (operation \(operation)): a table view refuses \(violations.joined(separator: "; "))"
            )
            #expect(
                needlessReinsertions(recorder).isEmpty || operation >= 95,  // a reset reports everything anew
                "seed \(seed) step \(step): \(needlessReinsertions(recorder)) deleted and inserted, not moved")
            // Every changed object still in the results is reported (moved, updated in place, or deleted from its
            // old section and inserted into its new one).
            let stillThere = Set(after.flatMap(\.ids)).intersection(Set(before.flatMap(\.ids)))
            for id in touched.intersection(stillThere) {
                let types = Set(recorder.objectChanges.filter { $0.id == id }.map(\.type))
                #expect(
                    types.contains(.update) || types.contains(.move) || types == [.delete, .insert],
                    "seed \(seed) step \(step): changed object \(id) not reported")
            }
            if recorder.calls.isEmpty {
                #expect(same(before, after), "seed \(seed) step \(step): the results changed without a report")
            } else {
                #expect(recorder.calls.first == "will" && recorder.calls.last == "did")
            }
        }
    }

    // MARK: Delegate calls

    private static func seeded(_ kind: StoreKind) throws -> (
        TestStore, FetchedResultsController<EmployeeEntity>, Recorder
    ) {
        let store = try TestStore(kind, model: CompanyModel.model)
        let view = store.context
        for (name, age) in [("Ann", 30), ("Bob", 30), ("Cy", 40)] {
            let employee = EmployeeEntity(context: view)
            employee.name = name
            employee.age = Int16(age)
        }
        try view.save()
        let controller = FetchedResultsController(
            fetchRequest: request(), managedObjectContext: view, sectionNameKeyPath: \.age)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        return (store, controller, recorder)
    }

    private static func employee(_ name: String, in controller: FetchedResultsController<EmployeeEntity>) throws
        -> EmployeeEntity
    {
        try #require(controller.fetchedObjects?.first { $0.name == name })
    }

    @Test("sections, object(at:), indexPath(forObject:) and section index titles", arguments: StoreKind.allCases)
    func sectionsAndLookups(kind: StoreKind) throws {
        let (store, controller, _) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["30", "40"])
        #expect(sections.map(\.numberOfObjects) == [2, 1])
        #expect(sections.map(\.indexTitle) == ["3", "4"])
        #expect(controller.sectionIndexTitles == ["3", "4"])
        #expect(sections[0].objects.map(\.name) == ["Ann", "Bob"])
        let bob = try Self.employee("Bob", in: controller)
        #expect(controller.indexPath(forObject: bob) == [0, 1])
        #expect(controller.object(at: [1, 0]).name == "Cy")
        #expect(controller.fetchedObjects?.map(\.name) == ["Ann", "Bob", "Cy"])
    }

    @Test("an insertion into a new section: will, section insert, object insert, did", arguments: StoreKind.allCases)
    func insertionIntoNewSection(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let dee = EmployeeEntity(context: store.context)
        dee.name = "Dee"
        dee.age = 35
        #expect(recorder.calls.isEmpty, "unsaved changes are not reported")
        try store.context.save()
        #expect(recorder.calls == ["will", "section insert 35", "object insert", "did"])
        #expect(recorder.sectionChanges.first?.index == 1)
        #expect(recorder.objectChanges.first?.to == [1, 0])
        #expect(recorder.objectChanges.first?.from == nil)
        #expect(controller.sections?.map(\.name) == ["30", "35", "40"])
    }

    @Test(
        "a deletion that empties a section: object delete at its old path, section delete",
        arguments: StoreKind.allCases)
    func deletionEmptyingSection(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let cy = try Self.employee("Cy", in: controller)
        store.context.delete(cy)
        try store.context.save()
        #expect(recorder.calls == ["will", "section delete 40", "object delete", "did"])
        #expect(recorder.objectChanges.first?.from == [1, 0])
        #expect(recorder.objectChanges.first?.id == cy.objectID)
        #expect(controller.sections?.map(\.name) == ["30"])
        #expect(controller.indexPath(forObject: cy) == nil)
    }

    @Test("a change of sort key moves the object; one that keeps its place is an update", arguments: StoreKind.allCases)
    func moveAndUpdate(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let ann = try Self.employee("Ann", in: controller)
        ann.name = "Bud"  // after Bob now
        try store.context.save()
        #expect(recorder.calls == ["will", "object move", "did"])
        #expect(recorder.objectChanges.first?.from == [0, 0])
        #expect(recorder.objectChanges.first?.to == [0, 1])

        recorder.reset()
        ann.dateJoined = Date(timeIntervalSince1970: 0)  // not a sort key
        try store.context.save()
        #expect(recorder.calls == ["will", "object update", "did"])
        #expect(recorder.objectChanges.first?.from == [0, 1])
        #expect(recorder.objectChanges.first?.to == [0, 1])

        recorder.reset()
        ann.age = 40  // to the other section, before Cy
        try store.context.save()
        #expect(recorder.calls == ["will", "object move", "did"])
        #expect(recorder.objectChanges.first?.to == [1, 0])
        #expect(controller.sections?.map(\.numberOfObjects) == [1, 2])
    }

    // MARK: Sections deleted and inserted in the same change

    @Test(
        "an object leaving a section it empties is deleted there and inserted in its new section, not moved",
        arguments: StoreKind.allCases)
    func moveOutOfDeletedSection(kind: StoreKind) async throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let first = DepartmentEntity(context: view)
        first.name = "A"
        let second = DepartmentEntity(context: view)
        second.name = "B"
        for (name, department) in [("1", first), ("2", first), ("3", second)] {
            let employee = EmployeeEntity(context: view)
            employee.name = name
            employee.department = department
        }
        try view.save()
        let controller = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest()
                .sorted(by: [SortDescriptor(\.department?.name), SortDescriptor(\.name)]),
            managedObjectContext: view, sectionNameKeyPath: "department.name")
        let log = UpdateLog<EmployeeEntity> { $0.name ?? "" }
        controller.delegate = log
        try controller.performFetch()
        var changes = controller.changes.makeAsyncIterator()

        let three = try #require(controller.fetchedObjects?.first { $0.name == "3" })
        three.department = first  // section B empties
        try view.save()

        let expected = ["section delete B @1", "delete 3 1,0", "insert 3 0,2"]
        #expect(log.calls == ["will"] + expected + ["did"])
        let reported = try #require(await changes.next())
        #expect(lines(reported, labels: [three.objectID: "3"]) == expected)
        #expect(controller.sections?.map(\.name) == ["A"])
        #expect(controller.sections?.first?.objects.compactMap(\.name) == ["1", "2", "3"])
    }

    @Test(
        "deleting the object a section is named by (nullify): its objects are deleted from the old section and inserted into the new one",
        arguments: StoreKind.allCases)
    func objectsOfDeletedAndInsertedSections(kind: StoreKind) async throws {
        let store = try TestStore(kind, model: RosterModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let grand = RosterTeam(context: view)
        grand.name = "Grand"
        let ritz = RosterTeam(context: view)
        ritz.name = "Ritz"
        for (name, team) in [("101", grand), ("102", grand), ("201", ritz)] {
            let person = RosterPerson(context: view)
            person.name = name
            person.team = team
        }
        try view.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<RosterPerson>()
                .sorted(by: [SortDescriptor(key: "team.name"), SortDescriptor(key: "name")]),
            managedObjectContext: view, sectionNameKeyPath: "team.name")
        let log = UpdateLog<RosterPerson> { $0.name ?? "" }
        controller.delegate = log
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["Grand", "Ritz"])
        var changes = controller.changes.makeAsyncIterator()
        let labels = Dictionary(
            uniqueKeysWithValues: (controller.fetchedObjects ?? []).map { ($0.objectID, $0.name ?? "") })

        view.delete(grand)  // Team.members nullifies: 101 and 102 fall into section ""
        try view.save()

        let expected = [
            "section delete Grand @0", "section insert  @0", "delete 102 0,1", "delete 101 0,0", "insert 101 0,0",
            "insert 102 0,1",
        ]
        #expect(log.calls == ["will"] + expected + ["did"])
        let reported = try #require(await changes.next())
        #expect(lines(reported, labels: labels) == expected)
        #expect(controller.sections?.map(\.name) == ["", "Ritz"])
        #expect(controller.sections?.first?.objects.compactMap(\.name) == ["101", "102"])
    }

    @Test("a change that fails the predicate deletes; one that passes it inserts", arguments: StoreKind.allCases)
    func predicateMembership(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let bob = try Self.employee("Bob", in: controller)
        bob.name = "Zoe"
        try store.context.save()
        #expect(recorder.calls == ["will", "object delete", "did"])
        #expect(controller.fetchedObjects?.map(\.name) == ["Ann", "Cy"])
        recorder.reset()
        bob.name = "Bo"
        try store.context.save()
        #expect(recorder.calls == ["will", "object insert", "did"])
        #expect(controller.fetchedObjects?.map(\.name) == ["Ann", "Bo", "Cy"])
    }

    @Test(
        "a rollback reports nothing when nothing was saved, and undoes a pending deletion's effect on nothing",
        arguments: StoreKind.allCases)
    func rollbackOfUnsavedChanges(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let before = arrangement(controller)
        let ann = try Self.employee("Ann", in: controller)
        ann.age = 99
        EmployeeEntity(context: store.context).name = "New"
        store.context.rollback()
        #expect(same(arrangement(controller), before))
        // The rolled-back update is reported as an update in place (its values are the saved ones again).
        #expect(recorder.calls == ["will", "object update", "did"])
    }

    @Test("changes another context saves arrive when the view context merges them", arguments: StoreKind.allCases)
    func mergeFromBackground(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        store.context.automaticallyMergesChangesFromParent = true
        let background = store.container.newBackgroundContext()
        let cy = try #require(try background.fetch(EmployeeEntity.fetchRequest().matching("name", equals: "Cy")).first)
        cy.age = 30
        let dan = EmployeeEntity(context: background)
        dan.name = "Dan"
        dan.age = 50
        try background.save()
        #expect(recorder.calls.isEmpty)
        _ = try store.context.count(for: EmployeeEntity.fetchRequest())
        #expect(controller.sections?.map(\.name) == ["30", "50"])
        #expect(controller.fetchedObjects?.map(\.name) == ["Ann", "Bob", "Cy", "Dan"])
        #expect(recorder.calls.first == "will" && recorder.calls.last == "did")
        #expect(recorder.sectionChanges.map(\.type) == [.delete, .insert])
    }

    @Test(
        "a child context's save shows in the parent's controller as the parent's unsaved changes",
        arguments: StoreKind.allCases)
    func childSave(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let child = ManagedObjectContext(parent: store.context)
        let dee = EmployeeEntity(context: child)
        dee.name = "Dee"
        dee.age = 30
        let cy = try #require(
            try child.existingObject(with: try Self.employee("Cy", in: controller).objectID) as? EmployeeEntity)
        child.delete(cy)
        try child.save()
        #expect(recorder.calls == ["will", "section delete 40", "object delete", "object insert", "did"])
        #expect(controller.fetchedObjects?.map(\.name) == ["Ann", "Bob", "Dee"])
        #expect(controller.fetchedObjects?.map(\.objectID) == (try store.context.fetch(Self.request())).map(\.objectID))
    }

    @Test(
        "a reset fetches again: everything deleted, then inserted, with the new objects", arguments: StoreKind.allCases)
    func resetRefetches(kind: StoreKind) throws {
        let (store, controller, recorder) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let old = try #require(controller.fetchedObjects)
        store.context.reset()
        let new = try #require(controller.fetchedObjects)
        #expect(new.map(\.objectID) == old.map(\.objectID))
        #expect(zip(new, old).allSatisfy { $0 !== $1 })
        #expect(new.allSatisfy { $0.context === store.context })
        #expect(recorder.objectChanges.filter { $0.type == .delete }.count == 3)
        #expect(recorder.objectChanges.filter { $0.type == .insert }.count == 3)
    }

    @Test(
        "without a section key path there is always one section, and no section changes are reported",
        arguments: StoreKind.allCases)
    func oneSection(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let controller = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]), managedObjectContext: view
        )
        let recorder = Recorder()
        controller.delegate = recorder
        #expect(controller.sections == nil && controller.fetchedObjects == nil)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == [""] && controller.sections?.first?.numberOfObjects == 0)
        let ann = EmployeeEntity(context: view)
        ann.name = "Ann"
        try view.save()
        #expect(recorder.calls == ["will", "object insert", "did"])
        #expect(recorder.objectChanges.first?.to == [0, 0])
        recorder.reset()
        view.delete(ann)
        try view.save()
        #expect(recorder.calls == ["will", "object delete", "did"])
        #expect(controller.sections?.count == 1 && controller.fetchedObjects == [])
    }

    @Test("a string section key path through a to-one relationship", arguments: StoreKind.allCases)
    func stringSectionKeyPath(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let sales = DepartmentEntity(context: view)
        sales.name = "Sales"
        let lab = DepartmentEntity(context: view)
        lab.name = "Lab"
        for (name, department) in [("Ann", sales), ("Bob", lab), ("Cy", sales)] {
            let employee = EmployeeEntity(context: view)
            employee.name = name
            employee.department = department
        }
        try view.save()
        let request = EmployeeEntity.fetchRequest()
            .sorted(by: [SortDescriptor(\.department?.name), SortDescriptor(\.name)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: "department.name")
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["Lab", "Sales"])
        #expect(controller.sections?.map(\.numberOfObjects) == [1, 2])
        let ann = try #require(controller.fetchedObjects?.first { $0.name == "Ann" })
        ann.department = lab
        try view.save()
        #expect(controller.sections?.map { $0.objects.compactMap(\.name) } == [["Ann", "Bob"], ["Cy"]])
    }

    @Test("requests a controller refuses, with Core Data's rules", arguments: StoreKind.allCases)
    func refusedRequests(kind: StoreKind) throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        let employee = EmployeeEntity(context: view)
        employee.name = "Ann"
        employee.age = 30
        let other = EmployeeEntity(context: view)
        other.name = "Bob"
        other.age = 20
        let third = EmployeeEntity(context: view)
        third.name = "Cy"
        third.age = 30
        try view.save()

        let unsorted = FetchedResultsController(fetchRequest: EmployeeEntity.fetchRequest(), managedObjectContext: view)
        #expect(throws: FetchedResultsError.self) { try unsorted.performFetch() }

        // Sorted by name, sectioned by age: section 30 is split by Bob's 20.
        let outOfOrder = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]),
            managedObjectContext: view, sectionNameKeyPath: \.age)
        do {
            try outOfOrder.performFetch()
            Issue.record("sections out of order were accepted")
        } catch {
            #expect("\(error)".contains("out of order"))
        }

        let unknown = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]),
            managedObjectContext: view, sectionNameKeyPath: "department.budget")
        #expect(throws: FetchedResultsError.self) { try unknown.performFetch() }
        let limited = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.name)]).limited(to: 1),
            managedObjectContext: view)
        #expect(throws: FetchedResultsError.self) { try limited.performFetch() }
    }

    // MARK: Observation and sequences

    @Test("observers reading fetchedObjects are told when a save changes them", arguments: StoreKind.allCases)
    func observation(kind: StoreKind) throws {
        let (store, controller, _) = try Self.seeded(kind)
        defer { store.cleanUp() }
        let changed = Atomic<Int>(0)
        withObservationTracking {
            _ = controller.fetchedObjects
        } onChange: {
            changed.add(1, ordering: .relaxed)
        }
        EmployeeEntity(context: store.context).name = "Dee"
        #expect(changed.load(ordering: .relaxed) == 0)
        try store.context.save()
        #expect(changed.load(ordering: .relaxed) == 1)
    }

    @Test("the controller's changes sequence delivers each applied change set", arguments: StoreKind.allCases)
    func controllerChangeSequence(kind: StoreKind) async throws {
        let (store, controller, _) = try Self.seeded(kind)
        defer { store.cleanUp() }
        var changes = controller.changes.makeAsyncIterator()
        let dee = EmployeeEntity(context: store.context)
        dee.name = "Dee"
        dee.age = 30
        try store.context.save()
        let first = try #require(await changes.next())
        #expect(first.sectionChanges.isEmpty)
        #expect(first.objectChanges.map(\.type) == [.insert])
        #expect(first.objectChanges.first?.newIndexPath == [0, 2])
        #expect(first.objectChanges.first?.objectID == dee.objectID)
    }

    @Test(
        "a context reports each save, merge, rollback and reset once: changes sequence and notifications",
        arguments: StoreKind.allCases)
    func contextChangeSets(kind: StoreKind) async throws {
        let store = try TestStore(kind, model: CompanyModel.model)
        defer { store.cleanUp() }
        let view = store.context
        view.postsChangeNotifications = true
        let received = Mutex<[ContextChanges]>([])
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: nil, queue: nil
        ) { notification in
            if let changes = ContextChanges(notification) { received.withLock { $0.append(changes) } }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        var sequence = view.changes.makeAsyncIterator()

        let ann = EmployeeEntity(context: view)
        ann.name = "Ann"
        try view.save()
        let saved = try #require(await sequence.next())
        #expect(saved.event == .save && saved.inserted == [ann.objectID] && saved.updated.isEmpty)

        ann.name = "Anna"
        let bob = EmployeeEntity(context: view)
        view.rollback()
        let rolledBack = try #require(await sequence.next())
        #expect(rolledBack.event == .rollback)
        #expect(rolledBack.updated == [ann.objectID] && rolledBack.deleted == [bob.objectID])

        view.delete(ann)
        try view.save()
        let deleted = try #require(await sequence.next())
        #expect(deleted.event == .save && deleted.deleted == [ann.objectID])

        view.mergeChanges(StoreChanges(updated: [ann.objectID]))
        let merged = try #require(await sequence.next())
        #expect(merged.event == .merge && merged.updated == [ann.objectID])

        view.reset()
        let reset = try #require(await sequence.next())
        #expect(reset.event == .reset && reset.invalidatedAllObjects)

        #expect(received.withLock { $0.map(\.event) } == [.save, .rollback, .save, .merge, .reset])
    }
}

/// The README's live results snippet, as written there (without the SwiftUI view, which needs SwiftUI).
@Suite("README: live results")
struct ReadmeFetchedResultsSnippetTests {
    @Test func snippetRuns() async throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let view = container.viewContext
        for (name, age) in [("Ann", 30), ("Bob", 40)] {
            let employee = EmployeeEntity(context: view)
            employee.name = name
            employee.age = Int16(age)
        }
        try view.save()

        let employees = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age), SortDescriptor(\.name)]),
            managedObjectContext: view, sectionNameKeyPath: \.age)  // or "department.name", as in Core Data
        try employees.performFetch()  // needs sort descriptors; sections follow the first
        #expect(employees.sections?.map(\.name) == ["30", "40"])

        var changes = employees.changes.makeAsyncIterator()
        EmployeeEntity(context: view).age = 30
        try view.save()
        let change = try #require(await changes.next())
        #expect(change.objectChanges.map(\.newIndexPath) == [[0, 0]])  // no name: sorts first in section "30"
    }
}

/// Docs/Runtime.md's delegate on a `@MainActor` class, as written there: Swift 6 needs the isolated conformance
/// (`@MainActor FetchedResultsControllerDelegate`); a plain one does not compile.
@MainActor
private final class EmployeeTable: @MainActor FetchedResultsControllerDelegate {
    let employees: FetchedResultsController<EmployeeEntity>
    private(set) var rowCounts: [Int] = []
    private(set) var changeCount = 0

    init(context: ManagedObjectContext) throws {  // the view context, used on the main actor
        employees = FetchedResultsController(
            fetchRequest: EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age), SortDescriptor(\.name)]),
            managedObjectContext: context, sectionNameKeyPath: \.age)
        employees.delegate = self
        try employees.performFetch()
        rowCounts = employees.sections?.map(\.numberOfObjects) ?? []
    }

    func controller(
        _ controller: FetchedResultsController<EmployeeEntity>, didChange object: EmployeeEntity,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        changeCount += 1  // a table view: insertRows / deleteRows / moveRow / reloadRows, by `type`
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<EmployeeEntity>) {
        rowCounts = controller.sections?.map(\.numberOfObjects) ?? []
    }
}

@Suite("Runtime.md: a delegate on a main-actor class")
struct MainActorDelegateTests {
    @Test @MainActor func isolatedConformanceIsCalled() throws {
        let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
        let view = container.viewContext
        let table = try EmployeeTable(context: view)
        #expect(table.rowCounts == [])
        for (name, age) in [("Ann", 30), ("Bob", 30), ("Cy", 40)] {
            let employee = EmployeeEntity(context: view)
            employee.name = name
            employee.age = Int16(age)
        }
        try view.save()
        #expect(table.rowCounts == [2, 1])
        #expect(table.changeCount == 3)
    }
}
