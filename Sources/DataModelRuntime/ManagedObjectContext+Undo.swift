import Foundation

/// The state of one object before the changes of an undo group: enough to put it back as it was.
struct UndoState {
    let isRegistered: Bool
    let values: ObjectValues
    let snapshot: ObjectValues?
    let isInserted: Bool
    let isUpdated: Bool
    let isDeleted: Bool
    let wasInsertedWhenDeleted: Bool
    /// The context's ``ManagedObjectContext/saveGeneration`` when recorded.
    let generation: Int

    init(of object: ManagedObject, isRegistered: Bool = true, generation: Int) {
        self.isRegistered = isRegistered
        self.generation = generation
        values = object.values
        snapshot = object.snapshot
        isInserted = object.isInserted
        isUpdated = object.isUpdated
        isDeleted = object.isDeleted
        wasInsertedWhenDeleted = object.wasInsertedWhenDeleted
    }
}

/// The objects one undo group changed, each with its state before the group's first change of it.
final class UndoRecord {
    let token: Int
    private(set) var objects: [ManagedObject] = []
    private var states: [ObjectIdentifier: UndoState] = [:]

    init(token: Int) {
        self.token = token
    }

    /// Remembers `state` for `object` unless the record has it already (the earliest state wins).
    func capture(_ object: ManagedObject, _ state: @autoclosure () -> UndoState) {
        let key = ObjectIdentifier(object)
        guard states[key] == nil else { return }
        states[key] = state()
        objects.append(object)
    }

    func state(of object: ManagedObject) -> UndoState? {
        states[ObjectIdentifier(object)]
    }
}

extension ManagedObjectContext {
    /// Undoes the last group of changes (see ``undoManager``); nothing without an undo manager.
    public func undo() {
        operation { undoManager?.undo() }
    }

    /// Redoes the last undone group of changes.
    public func redo() {
        operation { undoManager?.redo() }
    }

    /// Ends the current event's undo group, as Core Data does at the end of each event: the changes made
    /// since are undone by the next ``undo()``, separately from these.
    ///
    /// It also ends the event ``ManagedObject/changedValuesForCurrentEvent()`` reports.
    public func processPendingChanges() {
        undoManager?.endEventGroup()
        noteEventEnd()
    }

    /// The record of the undo manager's open group, when it has one: the states before the group's first change of
    /// each object it changed.
    var openUndoRecord: UndoRecord? {
        guard let undoManager, let record = undoRecord, record.token == undoManager.groupToken,
            undoManager.groupingLevel > 0
        else { return nil }
        return record
    }

    /// Records `object`'s state before a change, for the undo manager's open group.
    @inline(never)
    func noteUndoableChange(_ object: ManagedObject, wasRegistered: Bool = true) {
        guard let record = currentUndoRecord() else { return }
        record.capture(object, UndoState(of: object, isRegistered: wasRegistered, generation: saveGeneration))
    }

    /// The record of the undo manager's open group, registering a new one (and opening an event group)
    /// when there is none; `nil` without an undo manager or while it does not record.
    private func currentUndoRecord() -> UndoRecord? {
        guard let undoManager, undoManager.isUndoRegistrationEnabled, !undoManager.isUndoing,
            !undoManager.isRedoing
        else { return nil }
        if let record = openUndoRecord { return record }
        var created: UndoRecord?
        undoManager.registerUndo(withTarget: self) { context in
            if let created { context.revert(created) }
        }
        // The registration opened the event group when none was open: the record belongs to the group open now.
        let record = UndoRecord(token: undoManager.groupToken)
        created = record
        undoRecord = record
        return record
    }

    /// A save (into the store, or a child's into its parent) ends the undo manager's event group and keeps its
    /// actions: the states they recorded are now older than the saved state.
    func noteSaveForUndo() {
        saveGeneration += 1
        // The saved values are the next event's start (``ManagedObject/changedValuesForCurrentEvent()``).
        eventStartValues.removeAll()
        guard let undoManager else { return }
        undoManager.endEventGroup()
        undoRecord = nil
    }

    /// An object just inserted: before the change it was not in the context.
    func recordInsertion(_ object: ManagedObject) {
        guard undoManager != nil else { return }
        noteUndoableChange(object, wasRegistered: false)
    }

    /// Puts every object of `record` back in its recorded state, and registers the opposite as the undo
    /// manager's next action (redo after an undo, undo after a redo).
    private func revert(_ record: UndoRecord) {
        undoRecord = nil
        let opposite = UndoRecord(token: -1)
        for object in record.objects {
            opposite.capture(
                object,
                UndoState(
                    of: object, isRegistered: object.context === self && !object.isInvalid, generation: saveGeneration))
        }
        for object in record.objects {
            guard let state = record.state(of: object) else { continue }
            restore(object, to: state)
        }
        undoManager?.registerUndo(withTarget: self) { context in context.revert(opposite) }
    }

    private func restore(_ object: ManagedObject, to state: UndoState) {
        let isRegistered = object.context === self && !object.isInvalid
        if state.generation != saveGeneration {
            restoreAcrossSave(object, to: state, isRegistered: isRegistered)
            return
        }
        guard state.isRegistered else {
            if isRegistered {
                object.willChangeAllObserved()
                unregister(object)
                object.didChangeAllObserved()
            }
            return
        }
        if !isRegistered {
            object.context = self
            object.isInvalid = false
            registered.insert(object)
        }
        object.replaceObserved(state.values)
        object.snapshot = state.snapshot
        object.isInserted = state.isInserted
        object.isUpdated = state.isUpdated
        object.isDeleted = state.isDeleted
        object.wasInsertedWhenDeleted = state.wasInsertedWhenDeleted
        if object.isInserted && !insertedList.contains(where: { $0 === object }) { insertedList.append(object) }
        if object.isUpdated && !updatedList.contains(where: { $0 === object }) { updatedList.append(object) }
        if object.isDeleted && !deletedList.contains(where: { $0 === object }) { deletedList.append(object) }
    }

    /// Restores a state recorded before the last save: the saved state is now the committed one, and the
    /// recorded state becomes unsaved changes against it (values to update, a row to delete, or an object
    /// to insert again with its ID).
    private func restoreAcrossSave(_ object: ManagedObject, to state: UndoState, isRegistered: Bool) {
        let shouldExist = state.isRegistered && !state.isDeleted
        let hasRow = isRegistered && !object.isInserted && !object.wasInsertedWhenDeleted
        switch (shouldExist, hasRow) {
        case (true, true):
            if object.snapshot == nil { object.snapshot = object.values }
            object.replaceObserved(state.values)
            object.isDeleted = false
            object.isUpdated = true
            if !updatedList.contains(where: { $0 === object }) { updatedList.append(object) }
        case (true, false):
            if !isRegistered {
                object.context = self
                object.isInvalid = false
                registered.insert(object)
            }
            object.replaceObserved(state.values)
            object.snapshot = nil
            object.isInserted = true
            object.isUpdated = false
            object.isDeleted = false
            object.wasInsertedWhenDeleted = false
            if !insertedList.contains(where: { $0 === object }) { insertedList.append(object) }
        case (false, true):
            if object.snapshot == nil { object.snapshot = object.values }
            object.isDeleted = true
            if !deletedList.contains(where: { $0 === object }) { deletedList.append(object) }
        case (false, false):
            if isRegistered {
                object.willChangeAllObserved()
                unregister(object)
                object.didChangeAllObserved()
            }
        }
    }
}
