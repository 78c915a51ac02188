import DataModelStoreLayout
import Foundation
import SQLiteKit

/// Thrown inside the save transaction to roll it back when rows are in conflict.
private struct ConflictsFound: Error {}

extension ManagedObjectContext {
    /// Validates every change, then writes them all in one SQLite transaction.
    ///
    /// All or nothing: when validation or the store fails, nothing is written and the
    /// context keeps its unsaved changes (fix them and save again, or ``rollback()``).
    ///
    /// - Throws: ``ValidationError`` listing every failed rule, or ``StoreError``.
    public func save() throws {
        try operation { () throws in try saveInOperation() }
    }

    private func saveInOperation() throws {
        // The objects' `willSave()` first: what they change is saved too.
        if runtime.callsLifecycleMethods { deliverWillSave() }
        // Compacted in place (no copies of large lists): what remains is exactly what is saved.
        insertedList.removeAll { !$0.isInserted }
        updatedList.removeAll { !$0.isUpdated || $0.isDeleted || $0.isInvalid }
        var deleted = deletedList.filter { $0.isDeleted && !$0.wasInsertedWhenDeleted && !$0.isInvalid }
        let discarded = deletedList.filter { $0.wasInsertedWhenDeleted && !$0.isInvalid }
        guard !insertedList.isEmpty || !updatedList.isEmpty || !deleted.isEmpty || !discarded.isEmpty else { return }

        // Derived attributes are computed when the changes reach the store, as Core Data's store does.
        if parent == nil, runtime.hasDerivedAttributes { try deriveAttributes(deleted: deleted) }
        try validate(inserted: insertedList, updated: updatedList, deleted: deleted)
        if let parent {
            let (inserted, updated) = (insertedList, updatedList)
            pushChanges(into: parent, deleted: deleted, discarded: discarded)
            if runtime.callsLifecycleMethods { Self.deliverDidSave(inserted, updated, deleted) }
            return
        }

        // Rows another context changed since they were read are found by the writes themselves
        // (`WHERE "Z_OPT" = <version read>` matching nothing); the transaction is rolled back, the
        // merge policy resolves the conflicts, and the save runs again.
        var attempts = 0
        // Binary values with external storage: large ones are written to files before the transaction (a failed
        // attempt removes them); the files of replaced or deleted values go after the commit.
        let external = runtime.hasExternalAttributes ? ExternalDataWrites(files: coordinator.externalData) : nil
        while true {
            var conflicts: [ManagedObject] = []
            do {
                try external?.writeLargeValues(of: insertedList)
                try external?.writeLargeValues(of: updatedList)
                try database.transaction {
                    if attempts > 0 { try settleAgainstLockedRows(&deleted) }
                    try writeDeletions(deleted, conflicts: &conflicts, external: external)
                    try writeUpdates(updatedList, conflicts: &conflicts, external: external)
                    if !conflicts.isEmpty { throw ConflictsFound() }
                    try writeInsertions(insertedList, external: external)
                    try writePositions(insertedList)
                    try writePositions(updatedList)
                    try writeJoinRows(inserted: insertedList, updated: updatedList)
                    // PostgreSQL: every statement queued in the pipeline has run (its failure fails the save).
                    _ = try database.finishQueued()
                    try coordinator.writePrimaryKeyMaxima()
                }
                break
            } catch is ConflictsFound {
                external?.discardWritten()
                attempts += 1
                try resolveConflicts(conflicts, lastAttempt: attempts >= 3)
                updatedList.removeAll { !$0.isUpdated || $0.isDeleted || $0.isInvalid }
                deleted.removeAll { !$0.isDeleted || $0.isInvalid }
            } catch let error as StoreError {
                external?.discardWritten()
                throw StoreError(error)
            } catch {
                external?.discardWritten()
                throw error
            }
        }

        external?.removeObsolete()
        coordinator.primaryKeyMaximaCommitted()
        // The changes are collected (hashing every ID) only for contexts that merge them. The
        // store stays held until the end of the operation, so none can start merging meanwhile.
        let collectsChanges = coordinator.hasMergingContexts(besides: inbox) || reportsChanges
        var changes = StoreChanges()
        if collectsChanges {
            changes.inserted.reserveCapacity(insertedList.count)
            changes.updated.reserveCapacity(updatedList.count)
            changes.deleted.reserveCapacity(deleted.count)
        }
        for object in insertedList {
            object.isInserted = false
            object.version = 1
            if collectsChanges { changes.inserted.insert(object.objectID) }
        }
        for object in updatedList {
            object.isUpdated = false
            object.snapshot = nil
            object.version += 1
            if collectsChanges { changes.updated.insert(object.objectID) }
        }
        // The saved objects' snapshots were blocks of this buffer: let it go with them.
        if !updatedList.isEmpty { shared.fieldArena = ObjectValueArena() }
        for object in deleted {
            if collectsChanges { changes.deleted.insert(object.objectID) }
            unregister(object)
        }
        for object in discarded { unregister(object) }
        // Taken out (the buffers move, nothing is copied): changes the objects' `didSave()` makes start new lists.
        let (inserted, updated) = (insertedList, updatedList)
        insertedList.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        noteSaveForUndo()
        if collectsChanges { coordinator.post(changes, from: inbox) }
        if runtime.callsLifecycleMethods { Self.deliverDidSave(inserted, updated, deleted) }
        reportSave(changes)
    }

    /// Calls `didSave()` on the objects a save wrote.
    private static func deliverDidSave(
        _ inserted: [ManagedObject], _ updated: [ManagedObject], _ deleted: [ManagedObject]
    ) {
        for object in inserted where object.entityRuntime.callsLifecycleMethods { object.didSave() }
        for object in updated where object.entityRuntime.callsLifecycleMethods { object.didSave() }
        for object in deleted where object.entityRuntime.callsLifecycleMethods { object.didSave() }
    }

    /// A save's attempt after a conflict. Other contexts write at the same time — other processes on one SQLite
    /// file, and on PostgreSQL also this process's background connections — so a row can change again between the
    /// merge policy's resolution and this attempt, and again however often it is retried. As Core Data resolves
    /// conflicts while it holds the store, this reads the version of every row the save updates or deletes inside
    /// the attempt's transaction, where no other writer can move it before the commit (SQLite's transaction holds
    /// the file's write lock from its start; on PostgreSQL `SELECT … FOR UPDATE` locks each row, in table and key
    /// order so that two savers cannot deadlock), and resolves what changed since against those rows. The
    /// attempt's writes then find no conflict.
    private func settleAgainstLockedRows(_ deleted: inout [ManagedObject]) throws {
        let objects = (deleted + updatedList).sorted {
            ($0.entityRuntime.tableName, $0.objectID.primaryKey) < ($1.entityRuntime.tableName, $1.objectID.primaryKey)
        }
        var stale: [ManagedObject] = []
        for object in objects {
            let sql = object.entityRuntime.selectVersionSQL
            let statement = try database.cachedStatement(database.isPostgres ? sql + " FOR UPDATE" : sql)
            defer { statement.resetIgnoringErrors() }
            try statement.bind(object.objectID.primaryKey, at: 1)
            if try statement.step() == .row, statement.int64(at: 0) == object.version { continue }
            stale.append(object)
        }
        guard !stale.isEmpty else { return }
        try resolveConflicts(stale, lastAttempt: false)
        updatedList.removeAll { !$0.isUpdated || $0.isDeleted || $0.isInvalid }
        deleted.removeAll { !$0.isDeleted || $0.isInvalid }
    }

    // MARK: Writing

    /// Deletes the rows, checking each still has the version the context read; a row another
    /// context changed is a conflict, a row it deleted is not.
    ///
    /// On PostgreSQL the deletes go out in the pipeline, many a round trip; each one's row count comes back on its
    /// own, so the check is the same, object by object.
    private func writeDeletions(
        _ objects: [ManagedObject], conflicts: inout [ManagedObject], external: ExternalDataWrites?
    ) throws(StoreError) {
        let queues = database.isPostgres
        var queued: [(object: ManagedObject, position: Int)] = []
        if queues { queued.reserveCapacity(objects.count) }
        var unmatched: [ManagedObject] = []
        for object in objects {
            let entity = object.entityRuntime
            try external?.recordReplaced(
                entity, primaryKey: object.objectID.primaryKey, attributes: nil, database: database)
            let statement = try database.cachedStatement(entity.deleteSQL)
            try statement.bind(object.objectID.primaryKey, at: 1)
            try statement.bind(object.version, at: 2)
            if queues {
                queued.append((object, database.queuedCount))
                try statement.runQueued()
            } else {
                try statement.run()
                if database.changes == 0 { unmatched.append(object) }
            }
            for relationship in entity.joinRelationships {
                guard let sql = relationship.joinDeleteAllSQL else { continue }
                let delete = try database.cachedStatement(sql)
                try delete.bind(object.objectID.primaryKey, at: 1)
                try delete.runQueued()
            }
        }
        if queues {
            let counts = try database.finishQueued()
            for (object, position) in queued where counts.indices.contains(position) && counts[position] == 0 {
                unmatched.append(object)
            }
        }
        // A delete that matched nothing: a conflict when the row is still there (another version of it).
        for object in unmatched {
            let version = try database.cachedStatement(object.entityRuntime.selectVersionSQL)
            defer { version.resetIgnoringErrors() }
            try version.bind(object.objectID.primaryKey, at: 1)
            if try version.step() == .row { conflicts.append(object) }
        }
    }

    private func writeInsertions(_ objects: [ManagedObject], external: ExternalDataWrites?) throws(StoreError) {
        if database.isPostgres {
            try writeMultiRowInsertions(objects, external: external)
            return
        }
        // One statement a run, its entity and columns held once a run.
        try Self.forEachEntityRun(in: objects) { (entity, run) throws(StoreError) in
            let insert = try database.cachedStatement(entity.insertSQL)
            let columns = entity.insertColumns
            try insert.bind(Int64(entity.number), at: 2)
            try insert.bind(Int64(1), at: 3)
            for index in run {
                // Rewound, its bindings kept: `Z_ENT` and `Z_OPT` are the same for the whole run.
                if index > run.lowerBound { try insert.reset() }
                let object = objects[index]
                try insert.bind(object.objectID.primaryKey, at: 1)
                try bind(columns, of: object, to: insert, from: 4, external: external)
                try insert.step()
            }
        }
    }

    /// Calls `body` with each run of consecutive objects of one entity in `objects` (a save lists objects as they
    /// were changed, so runs are long): the run's entity, held once a run, and the run's indices.
    @inline(__always)
    private static func forEachEntityRun(
        in objects: [ManagedObject], _ body: (EntityRuntime, Range<Int>) throws(StoreError) -> Void
    ) throws(StoreError) {
        var start = 0
        while start < objects.count {
            let entity = objects[start].entityRuntime
            var end = start + 1
            while end < objects.count && objects[end].hasEntityRuntime(entity) { end += 1 }
            try body(entity, start..<end)
            start = end
        }
    }

    /// PostgreSQL: the inserted objects' rows, consecutive objects of one entity in multi-row
    /// `INSERT … VALUES (…), (…)` statements sent in the pipeline — a few round trips for any number of rows.
    ///
    /// A run of objects is cut into statements of a power of two rows (the largest that fits, at most
    /// ``multiRowInsertLimit`` rows and ``multiRowParameterLimit`` parameters), so an entity has at most ten statements prepared
    /// whatever the run's length.
    private func writeMultiRowInsertions(_ objects: [ManagedObject], external: ExternalDataWrites?) throws(StoreError) {
        try Self.forEachEntityRun(in: objects) { (entity, run) throws(StoreError) in
            let columns = entity.insertColumns
            let width = columns.count + 3
            var largest = 1
            while largest * 2 <= Self.multiRowInsertLimit, largest * 2 * width <= Self.multiRowParameterLimit {
                largest *= 2
            }
            let entityNumber = Int64(entity.number)
            var index = run.lowerBound
            while index < run.upperBound {
                var rows = largest
                while rows > run.upperBound - index { rows /= 2 }
                let insert = try database.multiRowInsert(entity.insertSQL, rows: rows)
                for row in 0..<rows {
                    let object = objects[index + row]
                    let base = Int32(row * width)
                    try insert.bind(object.objectID.primaryKey, at: base + 1)
                    try insert.bind(entityNumber, at: base + 2)
                    try insert.bind(Int64(1), at: base + 3)
                    try bind(columns, of: object, to: insert, from: base + 4, external: external)
                }
                try insert.runQueued()
                index += rows
            }
        }
    }

    /// The most rows one multi-row `INSERT` writes on PostgreSQL.
    static let multiRowInsertLimit = 512

    /// The most parameters of one multi-row `INSERT`. The protocol allows 65,535, but libpq before 16 reads a
    /// statement's parameter description (4 bytes a parameter) only up to 30,000 bytes and drops the connection
    /// beyond ("lost synchronization with server"), and preparing describes the statement.
    static let multiRowParameterLimit = 7_000

    /// Updates the rows whose version is still the one the context read; the others are conflicts.
    /// Each update writes `Z_OPT` and the columns whose values changed since the row was read.
    ///
    /// On PostgreSQL the updates go out in the pipeline, many a round trip, and each one's row count comes back on
    /// its own: a conflict is found object by object, exactly as on SQLite.
    private func writeUpdates(
        _ objects: [ManagedObject], conflicts: inout [ManagedObject], external: ExternalDataWrites?
    ) throws(StoreError) {
        var queued: [(object: ManagedObject, position: Int)] = []
        if database.isPostgres { queued.reserveCapacity(objects.count) }
        // The entity and its columns are held once a run, not once an object.
        try Self.forEachEntityRun(in: objects) { (entity, run) throws(StoreError) in
            try writeUpdates(objects, in: run, of: entity, conflicts: &conflicts, queued: &queued, external: external)
        }
        guard database.isPostgres else { return }
        let counts = try database.finishQueued()
        for (object, position) in queued where counts.indices.contains(position) && counts[position] == 0 {
            conflicts.append(object)
        }
    }

    /// The updates of `objects[range]`, all of `entity`. A PostgreSQL update is queued in the pipeline (its object
    /// and position appended to `queued`); a SQLite update that changes no row is a conflict.
    private func writeUpdates(
        _ objects: [ManagedObject], in range: Range<Int>, of entity: EntityRuntime,
        conflicts: inout [ManagedObject], queued: inout [(object: ManagedObject, position: Int)],
        external: ExternalDataWrites?
    ) throws(StoreError) {
        let queues = database.isPostgres
        let columns = entity.updateColumns
        let writesExternal = external != nil && !entity.externalAttributes.isEmpty
        var lastMask: UInt64 = 0
        // The statement of the last update, reused while the changed columns stay the same (a run of objects
        // changed alike is one statement rewound, not a statement-cache lookup hashing the SQL each).
        var lastStatement: StoreStatement?
        for index in range {
            let object = objects[index]
            let update: StoreStatement
            if columns.count <= 64, let snapshot = object.snapshot {
                let mask = object.values.changeMask(of: columns, since: snapshot)
                if let external, writesExternal {
                    var changedExternal = Set<Int>()
                    for (offset, column) in columns.enumerated() where mask & (1 << UInt64(offset)) != 0 {
                        if case .attribute(let attribute, .externalBinary) = column {
                            changedExternal.insert(attribute)
                        }
                    }
                    if !changedExternal.isEmpty {
                        try external.recordReplaced(
                            entity, primaryKey: object.objectID.primaryKey, attributes: changedExternal,
                            database: database)
                    }
                }
                if let statement = lastStatement, mask == lastMask {
                    try statement.reset()
                    update = statement
                } else {
                    update = try database.cachedStatement(entity.updateSQL(columns: mask))
                    lastStatement = update
                    lastMask = mask
                }
                try update.bind(object.version + 1, at: 1)
                var index: Int32 = 2
                for (offset, column) in columns.enumerated() where mask & (1 << UInt64(offset)) != 0 {
                    try bind(column, of: object, to: update, at: index, external: external)
                    index += 1
                }
                try update.bind(object.objectID.primaryKey, at: index)
                try update.bind(object.version, at: index + 1)
            } else {
                try external?.recordReplaced(
                    entity, primaryKey: object.objectID.primaryKey, attributes: nil, database: database)
                update = try database.cachedStatement(entity.updateSQL)
                lastStatement = nil
                try update.bind(object.version + 1, at: 1)
                try bind(columns, of: object, to: update, from: 2, external: external)
                let next = Int32(columns.count + 2)
                try update.bind(object.objectID.primaryKey, at: next)
                try update.bind(object.version, at: next + 1)
            }
            if queues {
                queued.append((object, database.queuedCount))
                try update.runQueued()
            } else {
                try update.run()
                if database.changes == 0 { conflicts.append(object) }
            }
        }
    }

    /// Binds a row's columns: one switch on the store type, then a loop specialised for it.
    private func bind(
        _ columns: [RowColumn], of object: ManagedObject, to statement: StoreStatement, from start: Int32,
        external: ExternalDataWrites?
    ) throws(StoreError) {
        switch statement {
        case .sqlite(let binder): try bindSQLite(columns, of: object, to: binder, from: start, external: external)
        case .postgres(let binder): try bind(columns, of: object, to: binder, from: start, external: external)
        }
    }

    /// SQLite: a row's attribute and foreign-key columns bound by direct calls, the others as
    /// ``bind(_:of:to:at:external:)-(_,_,Binder,_,_)`` binds them. (Through the generic path each bind was called
    /// through `StoreBinder`'s witness table, looking the statement's metadata up per call: a save binds every
    /// column of every row.)
    private func bindSQLite(
        _ columns: [RowColumn], of object: ManagedObject, to statement: Statement, from start: Int32,
        external: ExternalDataWrites?
    ) throws(StoreError) {
        var index = start
        for column in columns {
            switch column {
            case .attribute(_, .externalBinary):
                try bind(column, of: object, to: statement, at: index, external: external)
            case .attribute(let attribute, _):
                // Read in place, as the generic path does.
                let slot = object.values.borrowedAttributeSlot(attribute)
                do {
                    switch slot.tag.pointee {
                    case 1: try statement.bind(slot.payload.load(as: Int64.self), at: index)
                    case 2: try statement.bind(slot.payload.load(as: Double.self), at: index)
                    case 3: try statement.bind(slot.payload.assumingMemoryBound(to: String.self).pointee, at: index)
                    case 4: try statement.bind(slot.payload.assumingMemoryBound(to: Data.self).pointee, at: index)
                    default: try statement.bindNull(at: index)
                    }
                } catch { throw .sqlite(error) }
            case .foreignKey(let relationship):
                let slot = object.values.borrowedRelationshipSlot(relationship)
                do {
                    if slot.tag.pointee == 1 {
                        try statement.bind(slot.payload.load(as: ObjectID.self).primaryKey, at: index)
                    } else {
                        try statement.bindNull(at: index)
                    }
                } catch { throw .sqlite(error) }
            case .foreignEntity, .foreignOrder, .unused:
                try bind(column, of: object, to: statement, at: index, external: external)
            }
            index += 1
        }
    }

    private func bind<Binder: StoreBinder>(
        _ columns: [RowColumn], of object: ManagedObject, to statement: Binder, from start: Int32,
        external: ExternalDataWrites?
    ) throws(StoreError) {
        var index = start
        for column in columns {
            try bind(column, of: object, to: statement, at: index, external: external)
            index += 1
        }
    }

    private func bind(
        _ column: RowColumn, of object: ManagedObject, to statement: StoreStatement, at index: Int32,
        external: ExternalDataWrites?
    ) throws(StoreError) {
        switch statement {
        case .sqlite(let binder): try bind(column, of: object, to: binder, at: index, external: external)
        case .postgres(let binder): try bind(column, of: object, to: binder, at: index, external: external)
        }
    }

    @inline(__always)
    private func bind<Binder: StoreBinder>(
        _ column: RowColumn, of object: ManagedObject, to statement: Binder, at index: Int32,
        external: ExternalDataWrites?
    ) throws(StoreError) {
        switch column {
        case .attribute(let attribute, .externalBinary):
            let stored =
                external?.storedForm(of: object, attribute: attribute)
                ?? coordinator.externalData.inlineForm(object.values[attribute: attribute])
            try statement.bindValue(stored, at: index)
        case .attribute(let attribute, _):
            // Read in place (no `PrimitiveValue` built, no text retained and released): `object` holds its values
            // unchanged while they are bound.
            let slot = object.values.borrowedAttributeSlot(attribute)
            switch slot.tag.pointee {
            case 1: try statement.bindValue(slot.payload.load(as: Int64.self), at: index)
            case 2: try statement.bindValue(slot.payload.load(as: Double.self), at: index)
            case 3: try statement.bindValue(slot.payload.assumingMemoryBound(to: String.self).pointee, at: index)
            case 4: try statement.bindValue(slot.payload.assumingMemoryBound(to: Data.self).pointee, at: index)
            default: try statement.bindNullValue(at: index)
            }
        case .foreignKey(let relationship):
            let slot = object.values.borrowedRelationshipSlot(relationship)
            if slot.tag.pointee == 1 {
                try statement.bindValue(slot.payload.load(as: ObjectID.self).primaryKey, at: index)
            } else {
                try statement.bindNullValue(at: index)
            }
        case .foreignEntity(let relationship):
            if case .toOne(let id?) = object.values[relationship: relationship] {
                try statement.bindValue(Int64(id.entityNumber), at: index)
            } else {
                try statement.bindNullValue(at: index)
            }
        case .foreignOrder(let relationship):
            if let position = position(of: object, inInverseOf: relationship) {
                try statement.bindValue(Int64(position), at: index)
            } else {
                try statement.bindNullValue(at: index)
            }
        case .unused:
            try statement.bindNullValue(at: index)
        }
    }

    /// The 1-based position of `object` in the loaded ordered inverse of its to-one `relationship`.
    private func position(of object: ManagedObject, inInverseOf relationship: Int) -> Int? {
        guard case .toOne(let id?) = object.values[relationship: relationship], let owner = registered[id],
            let inverse = object.entityRuntime.relationships[relationship].inverseIndex,
            owner.values.relationshipIndices.contains(inverse),
            case .toMany(let list) = owner.values[relationship: inverse],
            let index = list.firstIndex(of: object.objectID)
        else { return nil }
        return index + 1
    }

    /// `Z_FOK_` positions of ordered to-many relationships stored through foreign keys, for
    /// every list that changed.
    private func writePositions(_ objects: [ManagedObject]) throws(StoreError) {
        guard runtime.hasPositionedRelationships else { return }
        for object in objects {
            for relationship in object.entityRuntime.positionedRelationships {
                guard let sql = relationship.positionUpdateSQL,
                    case .toMany(let list) = object.values[relationship: relationship.index]
                else { continue }
                if !object.isInserted, let snapshot = object.snapshot,
                    snapshot[relationship: relationship.index] == .toMany(list)
                {
                    continue
                }
                let update = try database.cachedStatement(sql)
                for (offset, id) in list.ids.enumerated() {
                    try update.reset()
                    try update.bind(Int64(offset + 1), at: 1)
                    try update.bind(id.primaryKey, at: 2)
                    try update.runQueued()
                }
            }
        }
    }

    /// Join table rows: the difference between the committed and current destinations, written
    /// by one side of each pair; ordered relationships rewrite all their rows when they changed.
    private func writeJoinRows(inserted: [ManagedObject], updated: [ManagedObject]) throws(StoreError) {
        try writeJoinRows(inserted)
        try writeJoinRows(updated)
    }

    private func writeJoinRows(_ objects: [ManagedObject]) throws(StoreError) {
        guard runtime.hasJoinTables else { return }
        // Objects come in runs of one entity: its join relationships are looked up once per run, and a run of an
        // entity without any (the employees beside a business's departments) costs one comparison per object.
        try Self.forEachEntityRun(in: objects) { (entity, run) throws(StoreError) in
            let relationships = entity.joinWritingRelationships
            guard !relationships.isEmpty else { return }
            for index in run { try writeJoinRows(of: objects[index], relationships: relationships) }
        }
    }

    /// The join-table rows `object`'s to-manys in `relationships` added and removed since its snapshot (all of
    /// them for an inserted object).
    private func writeJoinRows(of object: ManagedObject, relationships: [RelationshipRuntime]) throws(StoreError) {
        for relationship in relationships {
            guard case .joinTable(let columns)? = relationship.storage,
                case .toMany(let current) = object.values[relationship: relationship.index]
            else { continue }
            let committed: ObjectIDList
            if object.isInserted {
                committed = ObjectIDList()
            } else if let snapshot = object.snapshot,
                case .toMany(let list) = snapshot[relationship: relationship.index]
            {
                committed = list
            } else {
                continue
            }
            if current == committed { continue }
            let source = object.objectID.primaryKey
            let ordered = columns.orderColumn != nil || columns.inverseOrderColumn != nil
            if ordered, !committed.ids.isEmpty, let sql = relationship.joinDeleteAllSQL {
                let delete = try database.cachedStatement(sql)
                try delete.bind(source, at: 1)
                try delete.runQueued()
            } else if let sql = relationship.joinDeleteOneSQL {
                for id in committed.ids where !current.contains(id) {
                    let delete = try database.cachedStatement(sql)
                    try delete.bind(source, at: 1)
                    try delete.bind(id.primaryKey, at: 2)
                    try delete.runQueued()
                }
            }
            guard let sql = database.isPostgres ? relationship.joinInsertPostgresSQL : relationship.joinInsertSQL
            else { continue }
            for (offset, id) in current.ids.enumerated() where ordered || !committed.contains(id) {
                let insert = try database.cachedStatement(sql)
                try insert.bind(source, at: 1)
                try insert.bind(id.primaryKey, at: 2)
                var index: Int32 = 3
                if columns.orderColumn != nil {
                    try insert.bind(Int64(offset + 1), at: index)
                    index += 1
                }
                if columns.inverseOrderColumn != nil {
                    try insert.bind(
                        Int64(inversePosition(of: object, in: id, relationship: relationship)), at: index)
                }
                try insert.runQueued()
            }
        }
    }

    private func inversePosition(
        of object: ManagedObject, in destinationID: ObjectID, relationship: RelationshipRuntime
    ) -> Int {
        guard let destination = registered[destinationID], let inverse = relationship.inverseIndex,
            destination.values.relationshipIndices.contains(inverse),
            case .toMany(let list) = destination.values[relationship: inverse],
            let index = list.firstIndex(of: object.objectID)
        else { return 0 }
        return index + 1
    }
}

extension ObjectValues {
    /// The columns among `columns` (bit `i` for `columns[i]`) whose values differ from `snapshot`'s, the committed
    /// state, each compared in place; positions in ordered relationships always count as changed.
    func changeMask(of columns: [RowColumn], since snapshot: ObjectValues) -> UInt64 {
        var mask: UInt64 = 0
        for (offset, column) in columns.enumerated() {
            let changed: Bool
            switch column {
            case .attribute(let attribute, _):
                changed = !snapshot.attributeIndices.contains(attribute) || !attributeEquals(attribute, in: snapshot)
            case .foreignKey(let relationship), .foreignEntity(let relationship):
                changed =
                    !snapshot.relationshipIndices.contains(relationship)
                    || !relationshipEquals(relationship, in: snapshot)
            case .foreignOrder, .unused:
                changed = true
            }
            if changed { mask |= 1 << UInt64(offset) }
        }
        return mask
    }
}
