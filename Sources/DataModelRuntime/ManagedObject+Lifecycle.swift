import Foundation

/// Core Data's object lifecycle methods: a class of yours (an entity with Manual/None or Category/Extension codegen,
/// or one named with ``ManagedObjectModel/setObjectType(_:forEntityName:)``) overrides them to set up values, keep
/// derived state or check rules, as an `NSManagedObject` subclass does. The base implementations do nothing, so an
/// override need not call `super` (it may).
///
/// ```swift
/// final class Note: ManagedObject {
///     override func awakeFromInsert() {
///         super.awakeFromInsert()
///         setValue(Date(), forKey: "created")       // a default no model can give: counts as the initial value
///     }
///     override func willSave() {
///         if !isDeleted, hasChanges { setValue(Date(), forKey: "modified") }   // saved with the rest
///     }
///     override func validateForUpdate() throws {
///         try super.validateForUpdate()
///         if (value(forKey: "title") as? String)?.isEmpty == true {
///             throw ValidationError(object: self, property: "title", message: "a note needs a title")
///         }
///     }
/// }
/// ```
///
/// When they are called (see Docs/Runtime.md, "Object lifecycle", for the order within a save):
/// - ``awakeFromInsert()``: once, when the object is created in a context (`init(context:)`,
///   ``ManagedObjectContext/insertNewObject(forEntityName:)``, `init(entity:insertInto:)`); not again when undo
///   brings a deleted insertion back, nor when a child context's save takes the object into its parent.
/// - ``awakeFromFetch()``: each time the object's values are read from the store (a fetch, a fault that fires, a
///   to-many or a prefetch that reads the row), after the read has finished. Changes made in it are not changes:
///   the object stays unchanged (nothing saved, nothing to undo), as in Core Data, whose change processing is off
///   there so that setters can fill transient values and caches.
/// - ``willSave()`` / ``didSave()``: on every inserted, updated and deleted object of a save, first thing (before
///   derived attributes and validation) and after it succeeded. Changes made in `willSave()` are saved; an object
///   that such a change makes changed gets `willSave()` too, pass after pass, up to 100 passes (Core Data loops
///   without a bound when two objects keep changing each other).
/// - ``prepareForDeletion()``: when ``ManagedObjectContext/delete(_:)`` is called, before the delete rules run,
///   so the object still sees its relationships.
/// - ``willTurnIntoFault()`` / ``didTurnIntoFault()``: when the object's values are let go: turned into a fault by
///   ``ManagedObjectContext/refresh(_:mergeChanges:)`` (`false`), or leaving the context (its deletion saved, its
///   insertion rolled back, ``ManagedObjectContext/reset()``).
/// - ``validateForInsert()`` / ``validateForUpdate()`` / ``validateForDelete()``: during a save, after the model's
///   own rules, for the objects inserted, updated and deleted. What they throw fails the save with nothing written;
///   every failure of every object comes in one ``ValidationError`` (a thrown `ValidationError` gives its failures,
///   any other error one failure of rule ``ValidationError/Rule/custom`` with its description).
///
/// The methods are declared in ``ManagedObject`` itself (a method declared in an extension cannot be overridden);
/// this file holds the context's side.
extension ValidationError {
    /// One failure of rule ``Rule/custom`` for `object` (its `property`, or the whole object when empty): what a
    /// ``ManagedObject/validateForInsert()`` override throws.
    public init(object: ManagedObject, property: String = "", message: String) {
        self.init(failures: [
            Failure(
                objectID: object.objectID, entityName: object.entityRuntime.name, property: property, rule: .custom,
                message: message)
        ])
    }
}

extension ManagedObjectContext {
    /// Calls `willSave()` on every object the save would write, then on the objects those calls changed (the
    /// lists' new tails), up to 100 passes. Each object is called once: the lists hold an object once, until a
    /// save or rollback empties them.
    func deliverWillSave() {
        var start = (inserted: 0, updated: 0, deleted: 0)
        for _ in 0..<100 {
            let end = (inserted: insertedList.count, updated: updatedList.count, deleted: deletedList.count)
            // Nothing new, or lists emptied (a `rollback()` in a `willSave()`): done.
            guard end != start, end.inserted >= start.inserted, end.updated >= start.updated,
                end.deleted >= start.deleted
            else { return }
            // By index, each checked: the calls may append to the lists, and a `rollback()` in one would empty them.
            for index in start.inserted..<end.inserted where index < insertedList.count {
                let object = insertedList[index]
                if object.isInserted && object.entityRuntime.callsLifecycleMethods { object.willSave() }
            }
            for index in start.updated..<end.updated where index < updatedList.count {
                let object = updatedList[index]
                if object.isUpdated && !object.isDeleted && !object.isInvalid
                    && object.entityRuntime.callsLifecycleMethods
                {
                    object.willSave()
                }
            }
            for index in start.deleted..<end.deleted where index < deletedList.count {
                let object = deletedList[index]
                if object.isDeleted && !object.wasInsertedWhenDeleted && !object.isInvalid
                    && object.entityRuntime.callsLifecycleMethods
                {
                    object.willSave()
                }
            }
            start = end
        }
    }

    /// Runs the objects' own validation methods; their failures, in object order.
    func customValidationFailures(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]
    ) -> [ValidationError.Failure] {
        var failures: [ValidationError.Failure] = []
        func collect(_ object: ManagedObject, _ validation: (ManagedObject) throws -> Void) {
            do {
                try validation(object)
            } catch let error as ValidationError {
                failures += error.failures
            } catch {
                failures.append(
                    ValidationError.Failure(
                        objectID: object.objectID, entityName: object.entityRuntime.name, property: "", rule: .custom,
                        message: (error as? LocalizedError)?.errorDescription ?? "\(error)"))
            }
        }
        for object in inserted where object.entityRuntime.callsLifecycleMethods {
            collect(object) { try $0.validateForInsert() }
        }
        for object in updated where object.entityRuntime.callsLifecycleMethods {
            collect(object) { try $0.validateForUpdate() }
        }
        for object in deleted where object.entityRuntime.callsLifecycleMethods {
            collect(object) { try $0.validateForDelete() }
        }
        return failures
    }

    /// Calls `awakeFromFetch()` on `objects`, whose values were just read, with change processing off: what the
    /// calls set leaves the objects unchanged. Concrete types only (a generic sequence here cost a witness call per
    /// object in unspecialized code).
    func deliverAwakeFromFetch(_ objects: [ManagedObject]) {
        guard !objects.isEmpty, runtime.callsLifecycleMethods else { return }
        let wasSuspended = shared.suspendsChangeProcessing
        shared.suspendsChangeProcessing = true
        defer { shared.suspendsChangeProcessing = wasSuspended }
        for object in objects where !object.isInvalid && object.entityRuntime.callsLifecycleMethods {
            object.awakeFromFetch()
        }
    }

    /// `deliverAwakeFromFetch(_:)` for one object.
    func deliverAwakeFromFetch(_ object: ManagedObject) {
        guard object.entityRuntime.callsLifecycleMethods else { return }
        let wasSuspended = shared.suspendsChangeProcessing
        shared.suspendsChangeProcessing = true
        defer { shared.suspendsChangeProcessing = wasSuspended }
        if !object.isInvalid { object.awakeFromFetch() }
    }

    /// `awakeFromFetch()` for a fetch's objects, `count` of them from `base` on: every one but those at `skipped`
    /// (ascending positions of objects whose values the fetch did not read). The buffer holds the objects for the
    /// whole call and nothing appends to it meanwhile, so each is read borrowed (no retain and release).
    func deliverAwakeFromFetch(_ base: UnsafeMutablePointer<ManagedObject>, count: Int, skipping skipped: [Int]) {
        guard count > 0, runtime.callsLifecycleMethods else { return }
        let wasSuspended = shared.suspendsChangeProcessing
        shared.suspendsChangeProcessing = true
        defer { shared.suspendsChangeProcessing = wasSuspended }
        var next = 0
        for index in 0..<count {
            if next < skipped.count && skipped[next] == index {
                next += 1
                continue
            }
            // safe: `base` holds `count` initialized references (see above).
            UnsafeMutableRawPointer(base + index).load(as: Unmanaged<ManagedObject>.self)._withUnsafeGuaranteedRef {
                if !$0.isInvalid && $0.entityRuntime.callsLifecycleMethods { $0.awakeFromFetch() }
            }
        }
    }
}
