import DataModelStoreLayout
import Foundation
import SQLiteKit

/// A scratch pad of managed objects: one instance per row (the identity map), with changes
/// kept in memory until ``save()`` writes them in one transaction.
///
/// ```swift
/// let acme = BusinessEntity(context: context)
/// acme.name = "Acme"
/// try context.save()
/// context.delete(acme)
/// try context.save()
/// ```
///
/// Contexts are not `Sendable`: a context and its objects belong to one isolation domain (the
/// compiler refuses to share them). Pass ``ObjectID``s between contexts, and create a context
/// per task with ``PersistentContainer/newBackgroundContext()`` or
/// ``PersistentContainer/performBackgroundTask(_:)``.
public final class ManagedObjectContext {
    let coordinator: StoreCoordinator
    /// The connection; use it only inside `coordinator.locked { }`.
    var database: StoreConnection { coordinator.database }
    var runtime: ModelRuntime { coordinator.runtime }
    /// Where other contexts' saves wait until this context merges them.
    var inbox: ChangeInbox { shared.inbox }
    /// What the context's objects share (its inbox, its observation probe, the model).
    let shared: ContextShared
    /// The context this one saves into, for a child context (``init(parent:)``); `nil` for a context that
    /// saves to the store. A child reads its objects from the parent (with the parent's unsaved changes) and
    /// ``save()`` hands its changes to the parent, which writes them when it saves.
    ///
    /// Set once, at creation: Core Data's `child.parent = context` is ``init(parent:)`` here.
    public var parent: ManagedObjectContext? {
        get { parentContext }
        @available(
            *, unavailable, message: "a child context is created with its parent: ManagedObjectContext(parent: context)"
        )
        set {}
    }
    let parentContext: ManagedObjectContext?
    /// Nesting depth of context operations: changes are merged from the inbox only between them.
    @exclusivity(unchecked) var operationDepth = 0

    /// Whether the context merges the changes other contexts save to the same store: objects it
    /// holds take the new values (keeping this context's unsaved changes on top), deleted ones
    /// leave it, and to-many relationships reload. The merge happens in this context's own
    /// isolation domain, at its next fetch, count, save, `existingObject(with:)`, `refresh`, or
    /// property access. Off by default, as in Core Data.
    public var automaticallyMergesChangesFromParent = false {
        didSet {
            guard automaticallyMergesChangesFromParent != oldValue else { return }
            coordinator.setMerging(automaticallyMergesChangesFromParent, inbox: inbox)
        }
    }

    /// How ``save()`` resolves conflicts with rows other contexts changed since this context
    /// read them; ``MergePolicy/error`` (the default) makes the save throw ``MergeConflict``.
    public var mergePolicy: MergePolicy = .error

    /// A name of your choosing for the context, for logs and debugging, as Core Data's `name`; `nil` by default.
    public var name: String?

    /// Records the context's changes so that ``undo()`` and ``redo()`` can revert and replay them; `nil` (the
    /// default, as in Core Data on iOS and on macOS 10.12 and later) records nothing and costs nothing.
    ///
    /// ```swift
    /// context.undoManager = UndoManager()
    /// ```
    ///
    /// Every kind of change is recorded: insertions, deletions (with what their delete rules changed),
    /// attributes, relationships (both sides). Changes are grouped per event (see ``processPendingChanges()``)
    /// or by ``UndoManager/beginUndoGrouping()`` / ``UndoManager/endUndoGrouping()``. As in Core Data,
    /// ``save()`` ends the current group and keeps the actions (undoing saved changes makes them unsaved
    /// changes again: a saved insertion becomes a deletion, a saved deletion an insertion), while
    /// ``rollback()`` and ``reset()`` remove every action.
    // Unchecked: every change of every object reads it (`willChange`), and the dynamic exclusivity
    // check cost more than the read; the context is used on its own queue only.
    @exclusivity(unchecked) public var undoManager: UndoManager? {
        didSet {
            undoRecord = nil
            shared.recordsUndo = undoManager != nil
        }
    }
    /// The objects the undo manager's open group changed, with their states before.
    var undoRecord: UndoRecord?
    /// Counts saves: an undo state recorded before the last save is applied as a change to the saved state.
    var saveGeneration = 0
    /// Without an undo manager, the values of the objects that had unsaved changes when the last event ended
    /// (``processPendingChanges()``): where ``ManagedObject/changedValuesForCurrentEvent()`` starts.
    var eventStartValues: [ObjectID: ObjectValues] = [:]

    /// Every object the context knows, by ID.
    @exclusivity(unchecked) var registered = ObjectTable()
    /// Objects in the order they were inserted, updated, deleted; flags tell which still are.
    @exclusivity(unchecked) var insertedList: [ManagedObject] = []
    @exclusivity(unchecked) var updatedList: [ManagedObject] = []
    @exclusivity(unchecked) var deletedList: [ManagedObject] = []
    /// Who hears of the context's saves, merges, rollbacks and resets (`ContextChanges.swift`).
    let changeObservers = ContextChangeObservers()
    /// The fetched properties evaluated so far, per object (`ManagedObject+FetchedProperties.swift`).
    @exclusivity(unchecked) var fetchedPropertyCache: [ObjectID: [String: [ManagedObject]]] = [:]

    /// The last class ``entity(for:)`` looked up, and its entity: bulk inserts create many
    /// objects of one class in a row.
    @exclusivity(unchecked) private var lastClass: ObjectIdentifier?
    @exclusivity(unchecked) private var lastClassEntity: Unmanaged<EntityRuntime>?

    init(coordinator: StoreCoordinator, parent: ManagedObjectContext? = nil) {
        self.coordinator = coordinator
        parentContext = parent
        shared = ContextShared(runtime: coordinator.runtime)
        shared.context = self
    }

    deinit {
        if automaticallyMergesChangesFromParent { coordinator.setMerging(false, inbox: inbox) }
        // Objects that outlive their context see `context == nil` (they read it through `shared`).
        shared.context = nil
        // Before `shared` goes: the objects that outlive the context keep it alive from now on.
        registered.removeAll(sharing: shared)
    }

    /// Runs a context operation: holds the store, merges waiting changes first (outermost
    /// operation only), and keeps property accesses inside it from merging.
    @inline(__always)
    func operation<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        try coordinator.locked { () throws(Failure) -> Value in
            if operationDepth == 0 && inbox.hasPending { mergeWaitingChanges() }
            operationDepth += 1
            defer { operationDepth -= 1 }
            return try body()
        }
    }

    /// The entity whose class is `type`.
    func entity(for type: ManagedObject.Type) -> EntityRuntime? {
        entityReference(for: type)?.takeUnretainedValue()
    }

    /// The entity of `type`'s objects, unretained (the model runtime holds every entity runtime): an insertion
    /// borrows it instead of retaining it for each object.
    func entityReference(for type: ManagedObject.Type) -> Unmanaged<EntityRuntime>? {
        let key = ObjectIdentifier(type)
        if key == lastClass, let entity = lastClassEntity { return entity }
        let entity = runtime.entity(for: type).map { Unmanaged.passUnretained($0) }
        lastClass = key
        lastClassEntity = entity
        return entity
    }

    // MARK: Changes

    /// Whether any object was inserted, updated or deleted since the last save or rollback.
    public var hasChanges: Bool {
        insertedList.contains { $0.isInserted } || updatedList.contains { $0.isUpdated && !$0.isDeleted }
            || deletedList.contains { $0.isDeleted && !$0.wasInsertedWhenDeleted }
    }

    /// Objects inserted and not saved yet.
    public var insertedObjects: Set<ManagedObject> {
        Set(insertedList.lazy.filter { $0.isInserted })
    }

    /// Saved objects with unsaved changes.
    public var updatedObjects: Set<ManagedObject> {
        Set(updatedList.lazy.filter { $0.isUpdated && !$0.isDeleted })
    }

    /// Saved objects deleted and not saved yet.
    public var deletedObjects: Set<ManagedObject> {
        Set(deletedList.lazy.filter { $0.isDeleted && !$0.wasInsertedWhenDeleted })
    }

    /// Every object registered in the context.
    public var registeredObjects: Set<ManagedObject> {
        Set(registered.objects)
    }

    /// Re-inserts `object` when it was inserted into this context and then deleted before any save.
    ///
    /// Objects are inserted when created (``ManagedObject/init(context:)``), so this is only
    /// needed to undo such a deletion.
    public func insert(_ object: ManagedObject) {
        guard object.context === self, object.isDeleted, object.wasInsertedWhenDeleted else { return }
        if undoManager != nil { noteUndoableChange(object) }
        object.isDeleted = false
        object.wasInsertedWhenDeleted = false
        object.isInserted = true
        if !insertedList.contains(where: { $0 === object }) { insertedList.append(object) }
    }

    /// Creates and inserts an object of the entity called `entityName`, of the entity's class.
    ///
    /// Use it for entities without a generated class; their objects are plain
    /// ``ManagedObject``s read and written with ``ManagedObject/value(for:)`` and friends.
    ///
    /// - Throws: ``StoreError/unknownEntity(_:)``.
    public func insertNewObject(forEntityName entityName: String) throws(StoreError) -> ManagedObject {
        guard let entity = runtime.entity(named: entityName) else { throw .unknownEntity(entityName) }
        let object = entity.objectType.init(makeInsertionSeed(for: entity))
        register(inserted: object)
        if entity.callsLifecycleMethods { object.awakeFromInsert() }
        return object
    }

    func makeInsertionSeed(for entity: EntityRuntime) -> ObjectSeed {
        let primaryKey = coordinator.allocatePrimaryKey(for: entity)
        let id = ObjectID(
            storeNumber: coordinator.storeNumber, entityNumber: entity.number, primaryKey: primaryKey)
        return ObjectSeed(
            entity: entity, objectID: id, context: self, isFault: false, copiesDefaults: true, isRegistered: true)
    }

    func register(inserted object: ManagedObject) {
        object.isInserted = true
        registered.insert(object)
        insertedList.append(object)
        if undoManager != nil { recordInsertion(object) }
    }

    func register(updated object: ManagedObject) {
        updatedList.append(object)
    }

    // MARK: Objects by ID

    /// The registered object for `id`, or a fault for it (loaded on first access), or `nil`
    /// when `id` is of another store or entity model.
    func object(for id: ObjectID) -> ManagedObject? {
        var vacancy = ObjectTable.Vacancy()
        if let object = registered.find(id, orVacancy: &vacancy) { return object }
        guard id.storeNumber == coordinator.storeNumber, let entity = runtime.entity(number: id.entityNumber) else {
            return nil
        }
        let object = entity.objectType.init(
            ObjectSeed(entity: entity, objectID: id, context: self, isFault: true, isRegistered: true))
        registered.fill(vacancy, with: object)
        return object
    }

    /// The object for `id`, loaded from the store when the context does not have it yet.
    ///
    /// - Throws: ``StoreError/objectNotFound(_:)`` when no row exists (or the object was
    ///   deleted in this context), ``StoreError/foreignObject(_:)`` for an ID of another store.
    public func existingObject(with id: ObjectID) throws(StoreError) -> ManagedObject {
        try operation { () throws(StoreError) -> ManagedObject in try existingObjectInOperation(with: id) }
    }

    /// The object for `id`, as Core Data's `object(with:)`: the registered object, or a new fault that loads its
    /// row when first used. Unlike ``existingObject(with:)`` it never reads the store, so it is cheap; an ID
    /// whose row does not exist gives an object whose properties read as empty. Returns nil for an ID of another
    /// store.
    public func object(with id: ObjectID) -> ManagedObject? {
        operation { () -> ManagedObject? in
            if let object = registered[id] { return object.isInvalid ? nil : object }
            guard id.storeNumber == coordinator.storeNumber, let entity = runtime.entity(number: id.entityNumber) else {
                return nil
            }
            let object = entity.objectType.init(
                ObjectSeed(entity: entity, objectID: id, context: self, isFault: true, isRegistered: true))
            registered.insert(object)
            return object
        }
    }

    func existingObjectInOperation(with id: ObjectID) throws(StoreError) -> ManagedObject {
        if let object = registered[id] {
            if object.isDeleted || object.isInvalid { throw .objectNotFound(id) }
            if object.isFault {
                guard try loadRow(into: object) else { throw .objectNotFound(id) }
                deliverAwakeFromFetch(object)
            }
            return object
        }
        guard id.storeNumber == coordinator.storeNumber, let entity = runtime.entity(number: id.entityNumber) else {
            throw .foreignObject(id)
        }
        let object = entity.objectType.init(
            ObjectSeed(entity: entity, objectID: id, context: self, isFault: true, isRegistered: true))
        // Without a row the object is not registered: counted then, in case a subclass's initializer kept it.
        var isRegistered = false
        defer { if !isRegistered { object.sharesContextFromNowOn() } }
        guard try loadRow(into: object) else { throw .objectNotFound(id) }
        registered.insert(object)
        isRegistered = true
        deliverAwakeFromFetch(object)
        return object
    }

    /// Loads a fault's row; a missing row leaves it with empty values.
    func fulfillFault(_ object: ManagedObject) {
        if let batch = object.faultBatch {
            object.faultBatch = nil
            loadBatch(batch)
            if !object.isFault { return }
        }
        let found = (try? loadRow(into: object)) ?? false
        if found { deliverAwakeFromFetch(object) }
        if !found {
            object.values = ObjectValues(
                attributes: object.entityRuntime.attributes.map { _ in .null },
                relationships: object.entityRuntime.relationships.map {
                    $0.isToMany ? .toMany(ObjectIDList()) : .toOne(nil)
                })
            object.isFault = false
        }
    }

    /// Loads the rows of a fetch batch's faults in one query.
    private func loadBatch(_ batch: FaultBatch) {
        let ids = batch.ids.filter { registered[$0]?.isFault == true }
        batch.ids = []
        guard let first = ids.first, let entity = runtime.entity(number: first.entityNumber) else { return }
        let sql =
            entity.selectColumnsSQL + #" WHERE "Z_PK" IN ("#
            + Array(repeating: "?", count: ids.count).joined(separator: ", ")
            + ")"
        var loaded: [ManagedObject] = []
        defer { deliverAwakeFromFetch(loaded) }
        coordinator.locked {
            do {
                let statement = try database.cachedStatement(sql)
                defer { statement.resetIgnoringErrors() }
                for (offset, id) in ids.enumerated() { try statement.bind(id.primaryKey, at: Int32(offset + 1)) }
                loaded.reserveCapacity(ids.count)
                var arena = ObjectValueArena()
                while try statement.step() == .row {
                    guard let rowEntity = runtime.entity(number: statement.int(at: 1)) else { continue }
                    let id = ObjectID(
                        storeNumber: coordinator.storeNumber, entityNumber: rowEntity.number,
                        primaryKey: statement.int64(at: 0))
                    guard let object = registered[id], object.isFault else { continue }
                    object.faultBatch = nil
                    readRow(statement, entity: rowEntity, into: object, arena: &arena)
                    loaded.append(object)
                }
            } catch {
                return  // each object then loads alone
            }
        }
    }

    /// Reads `object`'s row into it; whether the row exists.
    private func loadRow(into object: ManagedObject) throws(StoreError) -> Bool {
        guard let row = try storedRow(of: object) else { return false }
        object.values = row.values
        object.version = row.version
        object.isFault = false
        return true
    }

    /// `object`'s row as the store holds it now (to-many relationships as faults), or `nil`
    /// when there is none.
    func storedRow(of object: ManagedObject) throws(StoreError) -> StoredRow? {
        if let parent { return parent.rowForChild(object.objectID) }
        let entity = object.entityRuntime
        return try coordinator.locked { () throws(StoreError) -> StoredRow? in
            do throws(StoreError) {
                let statement = try database.cachedStatement(entity.selectByPrimaryKeySQL)
                defer { statement.resetIgnoringErrors() }
                try statement.bind(object.objectID.primaryKey, at: 1)
                guard try statement.step() == .row else { return nil }
                return decodeStoredRow(statement, entity: entity)
            } catch {
                throw StoreError(error)
            }
        }
    }

    /// Fills `object` from the current row of `statement` (`Z_PK, Z_ENT, Z_OPT`, then the table's columns).
    @inline(__always)
    func decodeRow<Row: StoreRow>(_ statement: Row, entity: EntityRuntime, into object: ManagedObject) {
        object.values = decodeValues(statement, entity: entity)
        object.version = statement.int64(at: 2)
        object.isFault = false
    }

    /// ``decodeRow(_:entity:into:)`` with the values in the next block of `arena` (a fetch's rows). Relationship
    /// `sharedIndex`, when not -1, is the to-one every row of the statement shares (see
    /// ``RelationshipRuntime/rowsSharedToOne``): set to `sharedID`, its columns not read.
    @inline(__always)
    func decodeRow<Row: StoreRow>(
        _ statement: Row, entity: EntityRuntime, into object: ManagedObject, arena: inout ObjectValueArena,
        sharedIndex: Int = -1, sharedID: ObjectID? = nil
    ) {
        object.values = decodeValues(
            statement, entity: entity, in: &arena, sharedIndex: sharedIndex, sharedID: sharedID)
        object.version = statement.int64(at: 2)
        object.isFault = false
    }

    /// Fills `object` (new, or a fault) from the current row of a query selecting ``EntityRuntime/selectColumnsSQL``:
    /// into the fields of its class when the entity has them (``EntityRuntime/fieldColumns``), else into its values in
    /// the next block of `arena`. Relationship `sharedIndex`, when not -1, is the to-one every row of the statement
    /// shares (``RelationshipRuntime/rowsSharedToOne``), whose column is not read.
    @inline(__always)
    func readRow<Row: StoreRow>(
        _ statement: Row, entity: EntityRuntime, into object: ManagedObject, arena: inout ObjectValueArena,
        sharedIndex: Int = -1, sharedID: ObjectID? = nil
    ) {
        guard let columns = entity.fieldColumns else {
            decodeRow(
                statement, entity: entity, into: object, arena: &arena, sharedIndex: sharedIndex, sharedID: sharedID)
            return
        }
        object.readFields(
            from: FieldReader(
                statement.fieldSource, columns: columns, attributeCount: entity.attributes.count,
                sharedRelationship: sharedIndex, sharedKey: sharedID?.primaryKey))
        object.holdsFields = true
        object.version = statement.int64(at: 2)
        object.isFault = false
    }

    /// ``readRow(_:entity:into:arena:sharedIndex:sharedID:)`` of a statement of either store.
    func readRow(
        _ statement: StoreStatement, entity: EntityRuntime, into object: ManagedObject, arena: inout ObjectValueArena
    ) {
        switch statement {
        case .sqlite(let rows): readRow(rows, entity: entity, into: object, arena: &arena)
        case .postgres(let rows): readRow(rows, entity: entity, into: object, arena: &arena)
        }
    }

    /// The current row of `statement` (`Z_PK, Z_ENT, Z_OPT`, then the table's columns).
    func decodeStoredRow<Row: StoreRow>(_ statement: Row, entity: EntityRuntime) -> StoredRow {
        StoredRow(values: decodeValues(statement, entity: entity), version: statement.int64(at: 2))
    }

    /// ``decodeRow(_:entity:into:)`` of a statement of either store (one switch, then the specialised decoder).
    func decodeRow(_ statement: StoreStatement, entity: EntityRuntime, into object: ManagedObject) {
        switch statement {
        case .sqlite(let rows): decodeRow(rows, entity: entity, into: object)
        case .postgres(let rows): decodeRow(rows, entity: entity, into: object)
        }
    }

    /// ``decodeRow(_:entity:into:arena:sharedIndex:sharedID:)`` of a statement of either store.
    func decodeRow(
        _ statement: StoreStatement, entity: EntityRuntime, into object: ManagedObject, arena: inout ObjectValueArena
    ) {
        switch statement {
        case .sqlite(let rows): decodeRow(rows, entity: entity, into: object, arena: &arena)
        case .postgres(let rows): decodeRow(rows, entity: entity, into: object, arena: &arena)
        }
    }

    /// ``decodeStoredRow(_:entity:)`` of a statement of either store.
    func decodeStoredRow(_ statement: StoreStatement, entity: EntityRuntime) -> StoredRow {
        switch statement {
        case .sqlite(let rows): decodeStoredRow(rows, entity: entity)
        case .postgres(let rows): decodeStoredRow(rows, entity: entity)
        }
    }

    /// The values of the current row of `statement`: each is written once, straight from its
    /// column into the object's one buffer (no copy of the defaults, no temporary lists).
    private func decodeValues<Row: StoreRow>(_ statement: Row, entity: EntityRuntime) -> ObjectValues {
        let attributes = entity.attributeDecoding
        let relationships = entity.relationshipDecoding
        return ObjectValues(attributeCount: attributes.count, relationshipCount: relationships.count) { values in
            decodeValues(statement, entity: entity, into: values)
        }
    }

    /// ``decodeValues(_:entity:)`` into the next block of `arena`.
    @inline(__always)
    private func decodeValues<Row: StoreRow>(
        _ statement: Row, entity: EntityRuntime, in arena: inout ObjectValueArena, sharedIndex: Int, sharedID: ObjectID?
    ) -> ObjectValues {
        ObjectValues(
            attributeCount: entity.attributeDecoding.count, relationshipCount: entity.relationshipDecoding.count,
            in: &arena
        ) { values in
            decodeValues(statement, entity: entity, into: values, sharedIndex: sharedIndex, sharedID: sharedID)
        }
    }

    /// Writes the values of the current row of `statement` through `values`.
    @inline(__always)
    private func decodeValues<Row: StoreRow>(
        _ statement: Row, entity: EntityRuntime, into values: ObjectValueWriter, sharedIndex: Int = -1,
        sharedID: ObjectID? = nil
    ) {
        // The tables read in place (the entity owns them for the call): copying them out of the entity retained and
        // released both arrays per row.
        entity.attributeDecoding.withUnsafeBufferPointer { attributes in
            for index in attributes.indices {
                switch attributes[index] {
                case .column(let column, .externalBinary):
                    values.initialize(attribute: index, to: coordinator.externalData.read(statement, at: column))
                case .column(let column, let kind):
                    Self.read(statement, at: column, as: kind, into: values, attribute: index)
                case .constant(let value):
                    values.initialize(attribute: index, to: value)
                }
            }
        }
        entity.relationshipDecoding.withUnsafeBufferPointer { relationships in
            for index in relationships.indices {
                if index == sharedIndex {
                    values.initialize(relationship: index, to: .toOne(sharedID))
                } else {
                    values.initialize(
                        relationship: index,
                        to: relationshipValue(statement, relationships[index], storeNumber: entity.storeNumber))
                }
            }
        }
    }

    /// A relationship's value in the current row of `statement`, of a row of an entity in store `storeNumber`.
    @inline(__always)
    private func relationshipValue<Row: StoreRow>(
        _ statement: Row, _ decoding: RelationshipDecoding, storeNumber: Int
    ) -> RelationshipValue {
        switch decoding {
        case .toManyFault:
            return .toManyFault
        case .noDestination:
            return .toOne(nil)
        case .toOne(let keyColumn, let entityColumn, let destinationNumber):
            guard let primaryKey = statement.nullableInt64(at: keyColumn) else { return .toOne(nil) }
            guard entityColumn >= 0 else {
                // A destination without sub-entities: its number is one of the model's, and its store the row's
                // (every entity of a model runtime has its coordinator's store number), so the ID is made without
                // looking the entity up per row (0.54 M of a 20,000-row fetch, two to-ones a row).
                return .toOne(
                    ObjectID(storeNumber: storeNumber, entityNumber: destinationNumber, primaryKey: primaryKey))
            }
            let number =
                statement.nullableInt64(at: entityColumn).map { Int(truncatingIfNeeded: $0) } ?? destinationNumber
            return .toOne(runtime.objectID(entityNumber: number, primaryKey: primaryKey))
        }
    }

    /// Column `index` of the current row, read as `kind` straight into attribute `attribute` of
    /// `values`, without a ``PrimitiveValue`` in between (a `NULL` leaves the attribute `null`, as it
    /// starts). The storage class is asked only when the value alone cannot tell (see
    /// ``readInteger(_:at:)``): one SQLite call per column on the common path.
    @inline(__always)
    private static func read<Row: StoreRow>(
        _ statement: Row, at index: Int32, as kind: ColumnKind, into values: ObjectValueWriter, attribute: Int
    ) {
        switch kind {
        case .integer:
            let value = statement.int64(at: index)
            if value == 0 || value == .max || value == .min {
                values.initialize(attribute: attribute, to: readInteger(statement, at: index))
            } else {
                values.initialize(attribute: attribute, integer: value)
            }
        case .real:
            if let value = statement.nullableDouble(at: index) { values.initialize(attribute: attribute, real: value) }
        case .text, .decimalText:
            if let text = readText(statement, at: index) { values.initialize(attribute: attribute, text: text) }
        case .blob, .externalBinary:
            if let data = statement.data(at: index) { values.initialize(attribute: attribute, blob: data) }
        }
    }

    /// A text column: its text, `""` for a zero-length blob, `nil` for `NULL`.
    @inline(__always)
    static func readText<Row: StoreRow>(_ statement: Row, at index: Int32) -> String? {
        if let text = statement.string(at: index) { return text }
        return statement.storageClass(at: index) != .null ? "" : nil
    }

    /// An integer column. SQLite converts a REAL to an integer by truncating it, and clamps one
    /// out of range to `Int64.min` / `Int64.max`; so only 0 (maybe `NULL`, maybe a fraction)
    /// and the two limits (maybe out of range) need the storage class, and a REAL then reads
    /// as its integral part, or `NULL` when it has none.
    @inline(__always)
    static func readInteger<Row: StoreRow>(_ statement: Row, at index: Int32) -> PrimitiveValue {
        let value = statement.int64(at: index)
        guard value == 0 || value == .max || value == .min else { return .integer(value) }
        switch statement.storageClass(at: index) {
        case .null: return .null
        case .real: return PrimitiveValue.real(statement.double(at: index)).integer.map { .integer($0) } ?? .null
        default: return .integer(value)
        }
    }

    /// The destinations of a to-many of `object` as the store holds them (objects deleted in
    /// this context left out). One query reads the destinations' rows too: faults among them
    /// are filled, unknown ones registered, registered ones keep their in-memory values.
    func loadToMany(_ relationship: RelationshipRuntime, of object: ManagedObject) -> ObjectIDList {
        loadToMany(relationship, of: object, collecting: nil)
    }

    /// ``loadToMany(_:of:)``, appending the destination objects it reads, in the list's order, to `objects` when
    /// it is not `nil` (so the caller need not look each one up again; a list read another way appends nothing).
    func loadToMany(
        _ relationship: RelationshipRuntime, of object: ManagedObject, collecting objects: DestinationObjects?
    ) -> ObjectIDList {
        guard !object.isInserted else { return ObjectIDList() }
        if let parent { return coordinator.locked { toManyThroughParent(parent, relationship, of: object) } }
        guard let sql = relationship.loadSQL else { return ObjectIDList() }
        // Borrowed: the model runtime owns every entity runtime.
        let rowEntity = relationship.destinationOwnsTable ? Unmanaged.passUnretained(relationship.destination) : nil
        // Every row holds this object's key in the column the query tests: the to-one back to it is made here, once,
        // as the rows' decoding would make it from that column (one column read and ID less per row: 1.8 M of
        // 103.2 M at 20,000 rows).
        let shared = relationship.rowsSharedToOne
        let sharedID = shared.flatMap {
            runtime.objectID(entityNumber: $0.entityNumber, primaryKey: object.objectID.primaryKey)
        }
        return coordinator.locked {
            loadToManyLocked(
                sql, rowEntity: rowEntity, sharedIndex: shared?.index ?? -1, sharedID: sharedID, of: object,
                collecting: objects)
        }
    }

    /// `rowEntity`, when set, is the entity of every row (``RelationshipRuntime/destinationOwnsTable``): `Z_ENT`
    /// is not read. Its relationship `sharedIndex`, when not -1, is `sharedID` in every row
    /// (``RelationshipRuntime/rowsSharedToOne``).
    private func loadToManyLocked(
        _ sql: String, rowEntity: Unmanaged<EntityRuntime>?, sharedIndex: Int, sharedID: ObjectID?,
        of object: ManagedObject, collecting objects: DestinationObjects?
    ) -> ObjectIDList {
        var list: [ObjectID] = []
        // The objects whose values are read get `awakeFromFetch()` after the statement is reset (the `defer` below
        // runs first): from `objects` when collecting (every one but the `unread` positions after `start`), else
        // from `loaded`.
        let start = objects?.count ?? 0
        var loaded: [ManagedObject] = []
        var unread: [Int] = []
        defer {
            if let objects {
                deliverAwakeFromFetch(objects.base + start, count: objects.count - start, skipping: unread)
            } else {
                deliverAwakeFromFetch(loaded)
            }
        }
        do {
            let statement = try database.cachedStatement(sql)
            defer { statement.resetIgnoringErrors() }
            try statement.bind(object.objectID.primaryKey, at: 1)
            // One loop per store type, specialised (as a fetch's `readRows`): no dispatch per row or column.
            switch statement {
            case .sqlite(let rows):
                try loadToManyRows(
                    rows, rowEntity: rowEntity, sharedIndex: sharedIndex, sharedID: sharedID, into: &list,
                    collecting: objects, start: start, loaded: &loaded, unread: &unread)
            case .postgres(let rows):
                try loadToManyRows(
                    rows, rowEntity: rowEntity, sharedIndex: sharedIndex, sharedID: sharedID, into: &list,
                    collecting: objects, start: start, loaded: &loaded, unread: &unread)
            }
        } catch {
            return ObjectIDList(distinct: list)
        }
        return ObjectIDList(distinct: list)
    }

    /// The rows of a to-many's statement as registered objects (faults filled, unknown ones registered), their IDs
    /// appended to `list` (deleted ones left out), and the objects to `objects` when it is not `nil`.
    private func loadToManyRows<Row: StoreRow>(
        _ statement: Row, rowEntity: Unmanaged<EntityRuntime>?, sharedIndex: Int, sharedID: ObjectID?,
        into list: inout [ObjectID], collecting objects: DestinationObjects?, start: Int, loaded: inout [ManagedObject],
        unread: inout [Int]
    ) throws(StoreError) {
        let storeNumber = coordinator.storeNumber
        // The shared to-one is one of `rowEntity`'s; rows of entities read from `Z_ENT` decode every column.
        let sharedIndex = rowEntity == nil ? -1 : sharedIndex
        var vacancy = ObjectTable.Vacancy()
        var arena = ObjectValueArena()
        // The IDs gathered in a local array and handed to `list` when the loop ends (also by an error): appends to
        // the `inout` list cost more per row (0.11 M of 100.2 M at 20,000 rows).
        var ids: [ObjectID] = []
        defer { list = ids }
        while try statement.nextRow() {
            // The row's entity borrowed for the row (the model runtime owns every entity runtime): binding it
            // retained and released it per row, 0.9 M of 105.4 M at 20,000 rows.
            let entityReference: Unmanaged<EntityRuntime>
            if let rowEntity {
                entityReference = rowEntity
            } else {
                guard let entity = runtime.entity(number: statement.int(at: 1)) else { continue }
                entityReference = Unmanaged.passUnretained(entity)
            }
            entityReference._withUnsafeGuaranteedRef { entity in
                let id = ObjectID(
                    storeNumber: storeNumber, entityNumber: entity.number, primaryKey: statement.int64(at: 0))
                if let existing = registered.find(id, orVacancy: &vacancy) {
                    if existing.isDeleted { return }
                    if existing.isFault {
                        readRow(
                            statement, entity: entity, into: existing, arena: &arena, sharedIndex: sharedIndex,
                            sharedID: sharedID)
                        if objects == nil { loaded.append(existing) }
                    } else if let count = objects?.count {
                        unread.append(count - start)
                    }
                    objects?.append(existing)
                } else {
                    let object = entity.objectType.init(
                        ObjectSeed(entity: entity, objectID: id, context: self, isFault: true, isRegistered: true))
                    readRow(
                        statement, entity: entity, into: object, arena: &arena, sharedIndex: sharedIndex,
                        sharedID: sharedID)
                    registered.fill(vacancy, with: object)
                    // Optional chaining, not `if let`: binding the collector retains and releases it per row.
                    objects?.append(object)
                    if objects == nil { loaded.append(object) }
                }
                ids.append(id)
            }
        }
    }

    // MARK: Deleting

    /// Deletes `object` when the context saves, applying delete rules now: Nullify removes it
    /// from its destinations' inverses, Cascade deletes the destinations too, Deny makes the save
    /// fail while the relationship has destinations, No Action does nothing.
    public func delete(_ object: ManagedObject) {
        guard object.context === self, !object.isDeleted, !object.isInvalid else { return }
        object.fireFaultIfNeeded()
        if object.entityRuntime.callsLifecycleMethods {
            object.prepareForDeletion()
            // The override may have deleted the object itself (or had it deleted by a cascade).
            guard !object.isDeleted, !object.isInvalid else { return }
        }
        if undoManager != nil { noteUndoableChange(object) }
        if object.isInserted {
            object.isInserted = false
            object.wasInsertedWhenDeleted = true
        } else if object.snapshot == nil {
            object.snapshot = object.values
        }
        object.isDeleted = true
        deletedList.append(object)
        for relationship in object.entityRuntime.relationships {
            switch relationship.description.deleteRule {
            case .deny, .noAction:
                continue
            case .nullify, .cascade:
                let destinations = object.destinations(relationship.name)
                for destination in destinations {
                    if relationship.description.deleteRule == .cascade { delete(destination) }
                    if let inverse = relationship.inverseIndex,
                        destination.entityRuntime.relationships.indices.contains(inverse)
                    {
                        destination.detachRaw(object, via: destination.entityRuntime.relationships[inverse])
                    }
                }
            }
        }
    }

    // MARK: Rollback

    /// Discards every unsaved change: inserted objects leave the context, updated and deleted
    /// ones get their saved values and relationships back.
    public func rollback() {
        let rolledBack = changesBeforeRollback()
        defer { reportRollback(rolledBack) }
        for object in insertedList where object.isInserted || object.wasInsertedWhenDeleted {
            object.willChangeAllObserved()
            unregister(object)
            object.didChangeAllObserved()
        }
        for object in deletedList where object.wasInsertedWhenDeleted && !object.isInvalid {
            object.willChangeAllObserved()
            unregister(object)
            object.didChangeAllObserved()
        }
        for object in updatedList + deletedList where !object.isInvalid && !object.wasInsertedWhenDeleted {
            if let snapshot = object.snapshot {
                object.replaceObserved(snapshot)
            }
            object.snapshot = nil
            object.isUpdated = false
            object.isDeleted = false
        }
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        undoManager?.removeAllActions()
        undoRecord = nil
        eventStartValues.removeAll()
    }

    /// Forgets every object, as Core Data's `reset()`: unsaved changes are discarded, and every object the context
    /// handed out becomes invalid (fetch or ``existingObject(with:)`` again for fresh ones). Use it to free the
    /// memory of a long-running context.
    public func reset() {
        defer { reportReset() }
        rollback()
        fetchedPropertyCache.removeAll()
        for object in registered.objects {
            object.willChangeAllObserved()
            unregister(object)
            object.didChangeAllObserved()
        }
        shared.fieldArena = ObjectValueArena()
    }

    func unregister(_ object: ManagedObject) {
        let calls = !object.isInvalid && object.entityRuntime.callsLifecycleMethods
        if calls { object.willTurnIntoFault() }
        defer { if calls { object.didTurnIntoFault() } }
        registered.remove(object.objectID)
        object.isInvalid = true
        object.isInserted = false
        object.isUpdated = false
        object.isDeleted = false
        object.snapshot = nil
        object.context = nil
    }
}

@available(*, unavailable, message: "A ManagedObjectContext belongs to one isolation domain.")
extension ManagedObjectContext: Sendable {}

/// A row as the store holds it: attribute values, relationships (to-manys as faults), `Z_OPT`.
struct StoredRow {
    var values: ObjectValues
    var version: Int64
}

/// The faults one fetch batch created: the first to fire loads them all.
final class FaultBatch {
    var ids: [ObjectID] = []
}
