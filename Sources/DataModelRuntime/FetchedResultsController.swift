import Foundation
import Observation

/// The results of a fetch request, grouped into sections, kept up to date as the context changes: Core Data's
/// `NSFetchedResultsController`.
///
/// ```swift
/// let request = EmployeeEntity.fetchRequest().sorted(by: [SortDescriptor(\.age), SortDescriptor(\.name)])
/// let controller = FetchedResultsController(
///     fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \.age)
/// controller.delegate = tableUpdater
/// try controller.performFetch()
/// controller.sections?.first?.numberOfObjects
/// ```
///
/// After ``performFetch()``, every save, merge (``ManagedObjectContext/mergeChanges(_:)``, a batch request, the
/// changes other contexts saved when ``ManagedObjectContext/automaticallyMergesChangesFromParent`` is on),
/// ``ManagedObjectContext/rollback()`` and ``ManagedObjectContext/reset()`` of the context updates the controller
/// **incrementally**: it keeps the objects' IDs in section order (and the objects themselves, which the context's
/// identity map holds anyway), evaluates the request's conditions and predicate in memory — exactly as a fetch
/// does for unsaved changes — on the changed objects only, and puts each at its sorted position by binary search.
/// A reset, which invalidates every object, fetches again. The change is reported to the ``delegate`` (Core
/// Data's will-change / per-object and per-section did-change / did-change calls) and to the subscribers of
/// ``changes``; and the controller is `Observable`, so a SwiftUI view (or any observation tracking) reading
/// ``fetchedObjects`` or ``sections`` is told.
///
/// **Requirements** (as Core Data's): the request has at least one sort descriptor; with a section key path,
/// the sort descriptors must put objects of one section next to each other — the first sort descriptor sorts
/// by the section key path itself, or by a key that orders the sections the same way (``performFetch()`` throws
/// ``FetchedResultsError/sectionsOutOfOrder(_:)`` otherwise). A request with ``FetchRequest/fetchLimit`` or
/// ``FetchRequest/fetchOffset`` is refused: incremental updates would not keep the window.
///
/// **What it does not see**: changes to other objects that its sort descriptors, section key path or predicate
/// reach through relationships (an employee sorted by `department.name` is placed again when the employee
/// changes, not when its department is renamed) — as in Core Data; and unsaved changes until the context saves
/// or rolls back. Changes other contexts saved arrive when the context merges them, at its next operation (any
/// fetch or save, ``ManagedObjectContext/refreshAllObjects()``, a property access).
///
/// The controller belongs to its context's isolation domain, like the context and its objects.
public final class FetchedResultsController<Result: ManagedObject>: Observable {
    /// The request, the very one given (as in Core Data): change it in place or replace it, then call
    /// ``performFetch()`` to fetch with it — Core Data's way to search or re-sort the list:
    ///
    /// ```swift
    /// controller.fetchRequest.predicate = ManagedPredicate(format: "name CONTAINS[cd] %@", text)
    /// try controller.performFetch()
    /// ```
    ///
    /// Until then the controller keeps following the request as it was at the last ``performFetch()`` (it works on
    /// a copy taken there), so a change made in between never mixes into the incremental updates.
    public var fetchRequest: FetchRequest<Result>
    /// The context the controller fetches from and watches.
    public let managedObjectContext: ManagedObjectContext
    /// The key path that names each object's section (Core Data's string form: model names, through to-one
    /// relationships: `"department.name"`); `nil` for one section, or for a controller made with a Swift key path.
    public let sectionNameKeyPath: String?
    /// Accepted for Core Data source compatibility; nothing is cached on disk.
    public let cacheName: String?
    /// Told about every change the controller applies (held weakly, as Core Data's).
    public weak var delegate: (any FetchedResultsControllerDelegate<Result>)?

    private let sectionKey: SectionKey
    private let registrar = ObservationRegistrar()
    /// The observed key paths, made once: a key path into a generic class is instantiated at run time.
    private let fetchedObjectsKeyPath = \FetchedResultsController<Result>.fetchedObjects
    private let sectionsKeyPath = \FetchedResultsController<Result>.sections
    private var arrangement: [Section] = []
    /// The fetched IDs and the name of the section each is in.
    private var sectionOf: [ObjectID: String] = [:]
    private var hasFetched = false
    private var isObserving = false
    /// A copy of the request and its resolved parts, as of the last ``performFetch()``.
    private var active: ActiveRequest?
    private var pending: [ContextChanges] = []
    private var isApplying = false
    private var fetchedObjectsCache: [Result]?
    private let streams = ChangeStreams<FetchedResultsChanges>()

    /// A controller over `fetchRequest`'s results in `managedObjectContext`, in sections named by
    /// `sectionNameKeyPath` (a string key path of model names, to-one relationships allowed: `"department.name"`),
    /// or one section when `nil`. Nothing is fetched before ``performFetch()``.
    public init(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: String? = nil, cacheName: String? = nil
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        sectionKey =
            sectionNameKeyPath.map {
                .path($0.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
            } ?? .none
    }

    /// A controller whose sections are named by the value at a Swift key path (its description; `nil` names the
    /// section `""`).
    ///
    /// ```swift
    /// FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \.age)
    /// ```
    public init<Value>(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: KeyPath<Result, Value>, cacheName: String? = nil
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = nil
        self.cacheName = cacheName
        sectionKey = .function { sectionNameOfValue($0[keyPath: sectionNameKeyPath]) }
    }

    deinit {
        if isObserving { managedObjectContext.removeChangeObserver(self) }
        streams.finish()
    }

    // MARK: Results

    /// The fetched objects in order (every section's, one after another); `nil` before ``performFetch()``.
    public var fetchedObjects: [Result]? {
        registrar.access(self, keyPath: fetchedObjectsKeyPath)
        guard hasFetched else { return nil }
        if let cached = fetchedObjectsCache { return cached }
        let objects = arrangement.count == 1 ? arrangement[0].objects : arrangement.flatMap { $0.objects }
        fetchedObjectsCache = objects
        return objects
    }

    /// The sections in order; `nil` before ``performFetch()``. Without a section key path there is one section
    /// (named `""`), even when it is empty, as in Core Data.
    public var sections: [FetchedResultsSectionInfo<Result>]? {
        registrar.access(self, keyPath: sectionsKeyPath)
        guard hasFetched else { return nil }
        if case .none = sectionKey, arrangement.isEmpty {
            return [FetchedResultsSectionInfo(name: "", indexTitle: nil, objects: [])]
        }
        return arrangement.map {
            FetchedResultsSectionInfo(
                name: $0.name, indexTitle: sectionIndexTitle(forSectionName: $0.name), objects: $0.objects)
        }
    }

    /// The object at `indexPath` (section, then row). A path outside the results is a programming error, as in
    /// Core Data.
    public func object(at indexPath: IndexPath) -> Result {
        registrar.access(self, keyPath: sectionsKeyPath)
        precondition(indexPath.count == 2, "index path \(indexPath) is not (section, row)")
        let section = indexPath[0]
        let row = indexPath[1]
        precondition(
            arrangement.indices.contains(section) && arrangement[section].objects.indices.contains(row),
            "no object at index path \(indexPath)")
        return arrangement[section].objects[row]
    }

    /// Where `object` is in the results (section, row), or `nil` when it is not among them.
    public func indexPath(forObject object: Result) -> IndexPath? {
        registrar.access(self, keyPath: sectionsKeyPath)
        let id = object.objectID
        guard let name = sectionOf[id], let section = arrangement.firstIndex(where: { $0.name == name }),
            let row = arrangement[section].ids.firstIndex(of: id)
        else { return nil }
        return IndexPath(indexes: [section, row])
    }

    /// The section index titles, in order, each once (Core Data's `sectionIndexTitles`): by default each
    /// section name's first letter, upper-cased; the delegate's
    /// ``FetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)`` can say otherwise.
    public var sectionIndexTitles: [String] {
        registrar.access(self, keyPath: sectionsKeyPath)
        var seen: Set<String> = []
        var titles: [String] = []
        for section in arrangement {
            if let title = sectionIndexTitle(forSectionName: section.name), seen.insert(title).inserted {
                titles.append(title)
            }
        }
        return titles
    }

    /// The index title of the section called `sectionName`: the delegate's, or the name's first letter upper-cased
    /// (`nil` for an empty name).
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: sectionName) }
        return Self.defaultIndexTitle(sectionName)
    }

    /// The section whose index title is `title` at index `sectionIndex` of ``sectionIndexTitles`` (Core Data's
    /// `section(forSectionIndexTitle:at:)`): the first section with that title.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        arrangement.firstIndex { sectionIndexTitle(forSectionName: $0.name) == title } ?? sectionIndex
    }

    static func defaultIndexTitle(_ name: String) -> String? {
        name.first.map { String($0).uppercased() }
    }

    /// The change sets the controller applies from now on (per object and per section, by ID and index path), as
    /// an `AsyncSequence`. Each access starts a new subscription; events are buffered until read.
    public var changes: AsyncStream<FetchedResultsChanges> { streams.subscribe() }

    // MARK: Fetching

    /// Fetches the results and starts following the context's changes.
    ///
    /// - Throws: ``FetchedResultsError``: no sort descriptors, a fetch window, an unknown or to-many section key
    ///   path, sections out of order, or the fetch failing.
    public func performFetch() throws(FetchedResultsError) {
        try fetch(fetchRequest.copy())
    }

    /// Fetches `request` (the controller's own copy) and follows the context's changes with it.
    private func fetch(_ request: FetchRequest<Result>) throws(FetchedResultsError) {
        guard !request.sortDescriptors.isEmpty else { throw .missingSortDescriptors }
        guard request.fetchLimit == nil && request.fetchOffset == nil else { throw .fetchWindowUnsupported }
        let context = managedObjectContext
        let objects: [Result]
        let resolved: ActiveRequest
        do {
            let entity = try context.entity(of: request)
            if case .path(let components) = sectionKey {
                try Self.checkSectionPath(components, from: entity, in: context)
            }
            resolved = ActiveRequest(
                request: request, entity: entity, conditions: try context.resolve(request.conditions, in: entity))
            objects = try context.fetch(request)
        } catch let error as FetchedResultsError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.predicateFailed("\(error)"))
        }
        var sections: [Section] = []
        var membership: [ObjectID: String] = [:]
        membership.reserveCapacity(objects.count)
        var seen: Set<String> = []
        for object in objects {
            let name = sectionName(for: object)
            if sections.last?.name != name {
                guard seen.insert(name).inserted else { throw .sectionsOutOfOrder(name) }
                sections.append(Section(name: name))
            }
            sections[sections.count - 1].append(object)
            membership[object.objectID] = name
        }
        registrar.willSet(self, keyPath: fetchedObjectsKeyPath)
        registrar.willSet(self, keyPath: sectionsKeyPath)
        active = resolved
        arrangement = sections
        sectionOf = membership
        fetchedObjectsCache = nil
        hasFetched = true
        pending.removeAll()
        registrar.didSet(self, keyPath: sectionsKeyPath)
        registrar.didSet(self, keyPath: fetchedObjectsKeyPath)
        if !isObserving {
            context.addChangeObserver(self)
            isObserving = true
        }
    }

    private static func checkSectionPath(
        _ components: [String], from entity: EntityRuntime, in context: ManagedObjectContext
    ) throws(FetchedResultsError) {
        var current = entity
        for (offset, component) in components.enumerated() {
            let isLast = offset == components.count - 1
            if let index = current.relationshipIndex[component] {
                let relationship = current.relationships[index]
                if relationship.isToMany { throw .invalidSectionKeyPath(entity: current.name, key: component) }
                if isLast { return }
                guard let destination = context.runtime.entity(named: relationship.description.destinationEntityName)
                else { throw .invalidSectionKeyPath(entity: current.name, key: component) }
                current = destination
            } else if isLast, current.attributeIndex(component) != nil {
                return
            } else {
                throw .invalidSectionKeyPath(entity: current.name, key: component)
            }
        }
    }

    // MARK: Sections and order

    private func sectionName(for object: Result) -> String {
        switch sectionKey {
        case .none:
            return ""
        case .function(let name):
            return name(object)
        case .path(let components):
            var current: ManagedObject = object
            for component in components.dropLast() {
                guard let next = (try? current.checkedValue(forKey: component)) as? ManagedObject else { return "" }
                current = next
            }
            guard let last = components.last, let value = try? current.checkedValue(forKey: last) else { return "" }
            return sectionNameOfValue(value)
        }
    }

    /// The index of the section named `name` among `names`, remembered in `cache`.
    private static func sectionIndex(of name: String, in names: [String], cache: inout [String: Int]) -> Int? {
        if let known = cache[name] { return known }
        guard let found = names.firstIndex(of: name) else { return nil }
        cache[name] = found
        return found
    }

    /// The order of the request: its sort descriptors (compared as the fetch compares them in memory), ties in
    /// primary key order, as the fetch's `ORDER BY …, "Z_PK"`.
    private func precedes(_ lhs: Result, _ rhs: Result) -> Bool {
        active?.request.orders(lhs, before: rhs) ?? false
    }

    /// The first row of `objects` (sorted) that `object` precedes: where it goes.
    private func insertionRow(of object: Result, in objects: [Result]) -> Int {
        var low = 0
        var high = objects.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(objects[middle], object) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether `object` belongs in the results: the entity, the conditions and the predicate, evaluated in memory
    /// as the fetch evaluates unsaved changes.
    private func isIncluded(_ object: ManagedObject, _ active: ActiveRequest) -> Result? {
        guard !object.isInvalid, !object.isDeleted, let typed = object as? Result,
            managedObjectContext.matches(object, entity: active.entity, request: active.request),
            active.conditions.allSatisfy({ $0.matches(object) })
        else { return nil }
        if let predicate = active.request.predicate {
            guard (try? predicate.evaluate(typed)) == true else { return nil }
        }
        return typed
    }

    // MARK: Following the context

    fileprivate func receive(_ changes: ContextChanges) {
        guard hasFetched else { return }
        pending.append(changes)
        guard !isApplying else { return }  // a change arriving while one is applied waits its turn
        isApplying = true
        defer { isApplying = false }
        while !pending.isEmpty {
            let next = pending.removeFirst()
            managedObjectContext.operation { apply(next) }
        }
    }

    private func apply(_ changes: ContextChanges) {
        guard let active else { return }
        if changes.invalidatedAllObjects {
            applyRefetch(active)
            return
        }
        let context = managedObjectContext
        // The changed IDs of the request's entities.
        var candidates: [ObjectID] = []
        for id in changes.allObjectIDs {
            if sectionOf[id] != nil {
                candidates.append(id)
            } else if let entity = context.runtime.entity(number: id.entityNumber),
                active.request.includesSubentities ? active.entity.includes(entity) : entity === active.entity
            {
                candidates.append(id)
            }
        }
        guard !candidates.isEmpty else { return }
        candidates.sort {
            $0.primaryKey == $1.primaryKey ? $0.entityNumber < $1.entityNumber : $0.primaryKey < $1.primaryKey
        }

        // Where the changed members were.
        let oldNames = arrangement.map { $0.name }
        var oldSectionIndex: [String: Int] = [:]
        var report = Report()
        var old: [ObjectID: Position] = [:]
        var membersBySection: [Int: Set<ObjectID>] = [:]
        for id in candidates {
            guard let name = sectionOf[id] else { continue }
            guard let section = Self.sectionIndex(of: name, in: oldNames, cache: &oldSectionIndex) else { continue }
            membersBySection[section, default: []].insert(id)
        }
        for (section, ids) in membersBySection {
            let sectionIDs = arrangement[section].ids
            if ids.count <= 8 {
                for id in ids {
                    guard let row = sectionIDs.firstIndex(of: id) else { continue }
                    old[id] = Position(section: section, row: row)
                    report.objectsByID[id] = arrangement[section].objects[row]
                }
            } else {
                for row in sectionIDs.indices where ids.contains(sectionIDs[row]) {
                    old[sectionIDs[row]] = Position(section: section, row: row)
                    report.objectsByID[sectionIDs[row]] = arrangement[section].objects[row]
                }
            }
        }

        // Which changed objects belong now, and in which section.
        var included: [(id: ObjectID, object: Result, section: String)] = []
        for id in candidates {
            let object: ManagedObject?
            if let registered = context.registered[id] {
                object = registered
            } else if changes.deleted.contains(id) {
                object = nil
            } else {
                object = try? context.existingObject(with: id)
            }
            guard let object, let typed = isIncluded(object, active) else { continue }
            included.append((id, typed, sectionName(for: typed)))
            report.objectsByID[id] = typed
        }
        if old.isEmpty && included.isEmpty { return }

        // Take the changed members out, drop emptied sections, put the included ones at their sorted places.
        for (section, ids) in membersBySection {
            if ids.count == 1, let id = ids.first, let row = old[id]?.row {
                arrangement[section].remove(at: row)
            } else {
                arrangement[section].removeAll(ids)
            }
        }
        for id in old.keys { sectionOf[id] = nil }
        let sectionCount = arrangement.count
        arrangement.removeAll { $0.ids.isEmpty }
        var sectionsChanged = arrangement.count != sectionCount
        // Few objects go in one by one (binary search); many are sorted and merged with their sections in one pass.
        var placedRows: [ObjectID: Int] = [:]
        var groups: [String: [Result]] = [:]
        var groupOrder: [String] = []
        for (id, object, name) in included {
            if groups[name] == nil { groupOrder.append(name) }
            groups[name, default: []].append(object)
            sectionOf[id] = name
        }
        for name in groupOrder {
            guard var group = groups[name] else { continue }
            if let section = arrangement.firstIndex(where: { $0.name == name }) {
                if group.count == 1, let object = group.first {
                    // Alone in its section: where it goes is where it ends up.
                    let row = insertionRow(of: object, in: arrangement[section].objects)
                    arrangement[section].insert(object, at: row)
                    placedRows[object.objectID] = row
                } else if group.count <= 16 {
                    for object in group {
                        arrangement[section].insert(
                            object, at: insertionRow(of: object, in: arrangement[section].objects))
                    }
                } else {
                    group.sort(by: precedes)
                    arrangement[section].merge(group, by: precedes)
                }
            } else {
                group.sort(by: precedes)
                // A new section goes before the first section whose first object its first object precedes.
                let section = arrangement.firstIndex { precedes(group[0], $0.objects[0]) } ?? arrangement.count
                var created = Section(name: name)
                for object in group { created.append(object) }
                arrangement.insert(created, at: section)
                sectionsChanged = true
            }
        }

        // Where the included ones are now.
        let newNames = arrangement.map { $0.name }
        var newSectionIndex: [String: Int] = [:]
        var new: [ObjectID: Position] = [:]
        var insertedIDs: [ObjectID] = []
        for (id, object, name) in included {
            if old[id] == nil { insertedIDs.append(id) }
            guard let section = Self.sectionIndex(of: name, in: newNames, cache: &newSectionIndex) else { continue }
            if let row = placedRows[id] {
                new[id] = Position(section: section, row: row)
                continue
            }
            let objects = arrangement[section].ids
            var row = insertionRow(of: object, in: arrangement[section].objects)
            if row >= objects.count || objects[row] != id { row = objects.firstIndex(of: id) ?? row }
            new[id] = Position(section: section, row: row)
        }

        (report.sections, report.objects) = describeChanges(
            old: old, new: new, insertedIDs: insertedIDs, oldNames: oldNames, newNames: newNames,
            sectionsChanged: sectionsChanged)
        fetchedObjectsCache = nil
        deliver(report)
    }

    /// A reset: every object is invalid; the results are fetched again, and reported as all deleted, then all
    /// inserted.
    private func applyRefetch(_ active: ActiveRequest) {
        var report = Report()
        for (section, content) in arrangement.enumerated() {
            report.sections.append(.init(type: .delete, name: content.name, index: section))
            for (row, object) in content.objects.enumerated() {
                report.objects.append(
                    .init(type: .delete, objectID: object.objectID, indexPath: [section, row], newIndexPath: nil))
                report.objectsByID[object.objectID] = object
            }
        }
        hasFetched = false
        do {
            // The request as of the last `performFetch()`, not one changed since.
            try fetch(active.request)
        } catch {
            // The request fetched before; if it no longer does, the results are empty.
            arrangement = []
            sectionOf = [:]
            hasFetched = true
        }
        for (section, content) in arrangement.enumerated() {
            report.sections.append(.init(type: .insert, name: content.name, index: section))
            for (row, object) in content.objects.enumerated() {
                report.objects.append(
                    .init(type: .insert, objectID: object.objectID, indexPath: nil, newIndexPath: [section, row]))
                report.objectsByID[object.objectID] = object
            }
        }
        report.sort()
        fetchedObjectsCache = nil
        deliver(report)
    }

    private func deliver(_ report: Report) {
        var report = report
        // Without a section key path there is always the one section ``sections`` shows, even when empty.
        if case .none = sectionKey { report.sections = [] }
        guard !report.objects.isEmpty || !report.sections.isEmpty else { return }
        registrar.willSet(self, keyPath: fetchedObjectsKeyPath)
        registrar.willSet(self, keyPath: sectionsKeyPath)
        registrar.didSet(self, keyPath: sectionsKeyPath)
        registrar.didSet(self, keyPath: fetchedObjectsKeyPath)
        if let delegate {
            delegate.controllerWillChangeContent(self)
            for change in report.sections {
                let info = FetchedResultsSectionInfo<Result>(
                    name: change.name, indexTitle: sectionIndexTitle(forSectionName: change.name),
                    objects: change.type == .insert ? arrangement[change.index].objects : [])
                delegate.controller(self, didChange: info, atSectionIndex: change.index, for: change.type)
            }
            for change in report.objects {
                guard let object = report.objectsByID[change.objectID] else { continue }
                delegate.controller(
                    self, didChange: object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
            }
            delegate.controllerDidChangeContent(self)
        }
        if streams.hasSubscribers {
            streams.yield(FetchedResultsChanges(sectionChanges: report.sections, objectChanges: report.objects))
        }
    }

    // MARK: Types

    private enum SectionKey {
        case none
        case path([String])
        case function((Result) -> String)
    }

    private struct ActiveRequest {
        let request: FetchRequest<Result>
        let entity: EntityRuntime
        let conditions: [ManagedObjectContext.ResolvedCondition]
    }

    /// One section: IDs and objects side by side, in order.
    private struct Section {
        let name: String
        var ids: [ObjectID] = []
        var objects: [Result] = []

        mutating func append(_ object: Result) {
            ids.append(object.objectID)
            objects.append(object)
        }

        mutating func insert(_ object: Result, at row: Int) {
            ids.insert(object.objectID, at: row)
            objects.insert(object, at: row)
        }

        mutating func remove(at row: Int) {
            ids.remove(at: row)
            objects.remove(at: row)
        }

        /// Merges `sorted` (in the section's order) into the section, in one pass.
        mutating func merge(_ sorted: [Result], by precedes: (Result, Result) -> Bool) {
            var merged: [Result] = []
            merged.reserveCapacity(objects.count + sorted.count)
            var index = 0
            for object in sorted {
                while index < objects.count && precedes(objects[index], object) {
                    merged.append(objects[index])
                    index += 1
                }
                merged.append(object)
            }
            merged.append(contentsOf: objects[index...])
            objects = merged
            ids = merged.map { $0.objectID }
        }

        mutating func removeAll(_ removed: Set<ObjectID>) {
            ids.removeAll { removed.contains($0) }
            objects.removeAll { removed.contains($0.objectID) }
        }
    }

    private struct Report {
        var sections: [FetchedResultsChanges.SectionChange] = []
        var objects: [FetchedResultsChanges.ObjectChange] = []
        var objectsByID: [ObjectID: Result] = [:]

        mutating func sort() { sortChanges(&sections, &objects) }
    }
}

extension FetchedResultsController: ContextChangeObserver {
    func contextDidChange(_ changes: ContextChanges) { receive(changes) }
}

@available(*, unavailable, message: "A FetchedResultsController belongs to its context's isolation domain.")
extension FetchedResultsController: Sendable {}

/// A changed object's place: section index, row.
private struct Position: Hashable {
    var section: Int
    var row: Int

    var indexPath: IndexPath { [section, row] }
}

/// Classifies each changed object as deleted, inserted, moved or updated, keeping the contract of a table or
/// collection view's batch updates: deleting the deleted and moved objects at their old index paths, then inserting
/// the inserted and moved ones at their new index paths turns the old arrangement into the new one. An object that
/// stayed reports `.update` only when it keeps its place among the objects that did not change (and among the other
/// updated ones); otherwise it reports `.move`. An object that stayed but whose old section is deleted, or whose new
/// section is inserted, reports `.delete` at its old index path and `.insert` at its new one: a table view refuses a
/// move out of a deleted section or into an inserted one (and an update in either). (Not generic: no type metadata
/// is looked up per event.)
private func describeChanges(
    old: [ObjectID: Position], new: [ObjectID: Position], insertedIDs: [ObjectID], oldNames: [String],
    newNames: [String], sectionsChanged: Bool
) -> ([FetchedResultsChanges.SectionChange], [FetchedResultsChanges.ObjectChange]) {
    var sections: [FetchedResultsChanges.SectionChange] = []
    var objects: [FetchedResultsChanges.ObjectChange] = []
    // The deleted sections' old indexes, the inserted sections' new indexes.
    var deletedSections: Set<Int> = []
    var insertedSections: Set<Int> = []
    if sectionsChanged {
        let oldNameSet = Set(oldNames)
        let newNameSet = Set(newNames)
        for index in oldNames.indices where !newNameSet.contains(oldNames[index]) {
            sections.append(.init(type: .delete, name: oldNames[index], index: index))
            deletedSections.insert(index)
        }
        for index in newNames.indices where !oldNameSet.contains(newNames[index]) {
            sections.append(.init(type: .insert, name: newNames[index], index: index))
            insertedSections.insert(index)
        }
    }
    // Changed rows per section, sorted, for ranking an object among the unchanged ones.
    var oldChangedRows: [Int: [Int]] = [:]
    for entry in old.values { oldChangedRows[entry.section, default: []].append(entry.row) }
    var newChangedRows: [Int: [Int]] = [:]
    for entry in new.values { newChangedRows[entry.section, default: []].append(entry.row) }
    for key in oldChangedRows.keys { oldChangedRows[key]?.sort() }
    for key in newChangedRows.keys { newChangedRows[key]?.sort() }
    func rank(_ row: Int, among rows: [Int]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < row { low = middle + 1 } else { high = middle }
        }
        return row - low
    }
    var stayed: [Slot: [(id: ObjectID, before: Position, after: Position)]] = [:]
    for (id, before) in old {
        guard let after = new[id] else {
            objects.append(.init(type: .delete, objectID: id, indexPath: before.indexPath, newIndexPath: nil))
            continue
        }
        if deletedSections.contains(before.section) || insertedSections.contains(after.section) {
            // Goes with its old section, comes with its new one.
            objects.append(.init(type: .delete, objectID: id, indexPath: before.indexPath, newIndexPath: nil))
            objects.append(.init(type: .insert, objectID: id, indexPath: nil, newIndexPath: after.indexPath))
            continue
        }
        let oldSlot = Slot(
            section: oldNames[before.section], rank: rank(before.row, among: oldChangedRows[before.section] ?? []))
        let newSlot = Slot(
            section: newNames[after.section], rank: rank(after.row, among: newChangedRows[after.section] ?? []))
        if oldSlot == newSlot {
            stayed[oldSlot, default: []].append((id, before, after))
        } else {
            objects.append(
                .init(type: .move, objectID: id, indexPath: before.indexPath, newIndexPath: after.indexPath))
        }
    }
    for (_, group) in stayed {
        // Objects sharing a slot keep it only if they keep their order among themselves.
        let byOld = group.sorted { $0.before.row < $1.before.row }
        let inOrder = zip(byOld, byOld.dropFirst()).allSatisfy { $0.after.row < $1.after.row }
        for entry in group {
            objects.append(
                .init(
                    type: inOrder ? .update : .move, objectID: entry.id, indexPath: entry.before.indexPath,
                    newIndexPath: entry.after.indexPath))
        }
    }
    for id in insertedIDs {
        guard let after = new[id] else { continue }
        objects.append(.init(type: .insert, objectID: id, indexPath: nil, newIndexPath: after.indexPath))
    }
    sortChanges(&sections, &objects)
    return (sections, objects)
}

/// Section deletes (descending), section inserts (ascending); object deletes (descending old path), moves,
/// updates, inserts (ascending new path).
private func sortChanges(
    _ sections: inout [FetchedResultsChanges.SectionChange], _ objects: inout [FetchedResultsChanges.ObjectChange]
) {
    sections.sort { lhs, rhs in
        if lhs.type != rhs.type { return lhs.type == .delete }
        return lhs.type == .delete ? lhs.index > rhs.index : lhs.index < rhs.index
    }
    func order(_ type: FetchedResultsChangeType) -> Int {
        switch type {
        case .delete: 0
        case .move: 1
        case .update: 2
        case .insert: 3
        }
    }
    objects.sort { lhs, rhs in
        if lhs.type != rhs.type { return order(lhs.type) < order(rhs.type) }
        switch lhs.type {
        case .delete: return (lhs.indexPath ?? []) > (rhs.indexPath ?? [])
        default: return (lhs.newIndexPath ?? []) < (rhs.newIndexPath ?? [])
        }
    }
}

/// Where a changed object is among the unchanged objects: its section, and how many unchanged objects precede it.
private struct Slot: Hashable {
    let section: String
    let rank: Int
}

/// A section name for a value: its description; `nil` (or an empty optional) gives `""`.
func sectionNameOfValue(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
        guard let wrapped = mirror.children.first?.value else { return "" }
        return sectionNameOfValue(wrapped)
    }
    return String(describing: value)
}

// MARK: - Sections, changes, delegate

/// One section of a ``FetchedResultsController``'s results (Core Data's `NSFetchedResultsSectionInfo`).
public struct FetchedResultsSectionInfo<Result: ManagedObject> {
    /// The section's name: the section key path's value for its objects (`""` for `nil`, and without a key path).
    public let name: String
    /// The section's index title (see ``FetchedResultsController/sectionIndexTitle(forSectionName:)``).
    public let indexTitle: String?
    /// The section's objects, in order.
    public let objects: [Result]
    /// How many objects the section has.
    public var numberOfObjects: Int { objects.count }
}

/// What happened to an object or a section (Core Data's `NSFetchedResultsChangeType`, same raw values).
public enum FetchedResultsChangeType: UInt, Sendable, Hashable, CaseIterable {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4
}

/// What one event changed in a ``FetchedResultsController``'s results, by object ID and index path: what its
/// ``FetchedResultsController/changes`` sequence delivers (`Sendable`).
///
/// Applying it as a table or collection view applies batch updates gives the new arrangement: remove the objects
/// of `.delete` and `.move` changes at their old `indexPath`s (descending), then the deleted sections (at their
/// old indexes, descending); insert the inserted sections (at their new indexes, ascending), then the objects of
/// `.insert` and `.move` changes at their `newIndexPath`s (ascending). `.update` objects stay where they are
/// (`indexPath` old, `newIndexPath` new). An object whose old section is deleted, or whose new section is inserted,
/// is reported as a `.delete` at its old `indexPath` and an `.insert` at its new `newIndexPath`, never as a `.move`
/// or an `.update`: a table view refuses a move out of a deleted section or into an inserted one.
public struct FetchedResultsChanges: Sendable, Hashable {
    /// One section inserted or deleted.
    public struct SectionChange: Sendable, Hashable {
        public let type: FetchedResultsChangeType
        /// The section's name.
        public let name: String
        /// Its index: in the old sections for a deletion, in the new ones for an insertion.
        public let index: Int
    }

    /// One object inserted, deleted, moved or updated.
    public struct ObjectChange: Sendable, Hashable {
        public let type: FetchedResultsChangeType
        public let objectID: ObjectID
        /// Where the object was (deletions, moves, updates).
        public let indexPath: IndexPath?
        /// Where the object is now (insertions, moves, updates).
        public let newIndexPath: IndexPath?
    }

    /// Section deletions (descending index), then insertions (ascending).
    public let sectionChanges: [SectionChange]
    /// Deletions (descending old index path), moves, updates, insertions (ascending new index path).
    public let objectChanges: [ObjectChange]
}

/// Told about each change a ``FetchedResultsController`` applies, with Core Data's
/// `NSFetchedResultsControllerDelegate` calls: `controllerWillChangeContent`, then one
/// `controller(_:didChange:atSectionIndex:for:)` per inserted or deleted section and one
/// `controller(_:didChange:at:for:newIndexPath:)` per object, then `controllerDidChangeContent`. Every method has a
/// default implementation that does nothing.
///
/// ```swift
/// final class Updater: FetchedResultsControllerDelegate {
///     func controller(
///         _ controller: FetchedResultsController<EmployeeEntity>, didChange object: EmployeeEntity,
///         at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
///     ) { … }
/// }
/// ```
///
/// A `@MainActor` class conforms with an isolated conformance (a plain one does not compile in Swift 6), and uses
/// the controller on the main actor: `@MainActor final class Updater: @MainActor FetchedResultsControllerDelegate`.
public protocol FetchedResultsControllerDelegate<Result>: AnyObject {
    associatedtype Result: ManagedObject

    /// Before the first change of an event.
    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>)
    /// An object was inserted (`newIndexPath`), deleted (`indexPath`; the object may no longer be valid), moved
    /// (both) or updated in place (both).
    func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted (its new index) or deleted (its old index).
    func controller(
        _ controller: FetchedResultsController<Result>, didChange sectionInfo: FetchedResultsSectionInfo<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// After the last change of an event.
    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>)
    /// The index title of a section (the default: its name's first letter upper-cased).
    func controller(_ controller: FetchedResultsController<Result>, sectionIndexTitleForSectionName sectionName: String)
        -> String?
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {}
    public func controller(
        _ controller: FetchedResultsController<Result>, didChange object: Result, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}
    public func controller(
        _ controller: FetchedResultsController<Result>, didChange sectionInfo: FetchedResultsSectionInfo<Result>,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {}
    public func controller(
        _ controller: FetchedResultsController<Result>, sectionIndexTitleForSectionName sectionName: String
    )
        -> String?
    {
        FetchedResultsController<Result>.defaultIndexTitle(sectionName)
    }
}

/// Why a ``FetchedResultsController`` could not fetch.
public enum FetchedResultsError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The request has no sort descriptors; a controller needs an order (as Core Data's).
    case missingSortDescriptors
    /// The request has a fetch limit or offset, which incremental updates would not keep.
    case fetchWindowUnsupported
    /// The section key path names no attribute or to-one relationship of the entity (or a to-many one).
    case invalidSectionKeyPath(entity: String, key: String)
    /// Objects of the section named here are not next to each other in the request's order: the first sort
    /// descriptor must sort by the section key path (or in the same order).
    case sectionsOutOfOrder(String)
    /// The fetch failed.
    case store(StoreError)

    public var description: String {
        switch self {
        case .missingSortDescriptors:
            "a fetched results controller needs a fetch request with at least one sort descriptor"
        case .fetchWindowUnsupported:
            "a fetched results controller does not support fetchLimit or fetchOffset"
        case .invalidSectionKeyPath(let entity, let key):
            "section key path: \(entity) has no attribute or to-one relationship '\(key)'"
        case .sectionsOutOfOrder(let name):
            "section '\(name)' is out of order: the first sort descriptor must sort by the section key path"
        case .store(let error):
            "\(error)"
        }
    }

    public var errorDescription: String? { description }
}
