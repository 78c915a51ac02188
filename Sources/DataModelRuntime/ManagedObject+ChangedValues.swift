import Foundation

// MARK: - Which values changed

/// Core Data's `changedValues()`, `committedValues(forKeys:)` and `changedValuesForCurrentEvent()`: which persistent
/// properties of an object changed, and their values before and after.
///
/// The dictionaries are keyed by property name (model spelling) and hold what ``value(forKey:)`` reads: an
/// attribute as its Swift type (`String`, `Int16`, `Date`, `Data` …), a to-one as its `ManagedObject`, an unordered
/// to-many as a `Set<ManagedObject>`, an ordered one as a `[ManagedObject]`. A property without a value (an
/// attribute or a to-one that is `nil`) is in the dictionary with `nil` as its value (`Optional<Any>.none`, where
/// Core Data puts `NSNull`): the key tells that it is there, and casting the value gives `nil`.
///
/// ```swift
/// employee.name = "Ada"
/// employee.department = nil
/// let changes = employee.changedValues()
/// changes["name"] as? String               // "Ada"
/// changes.keys.contains("department")      // true
/// changes["department"] as? DepartmentEntity  // nil: the new value is nil
/// employee.committedValues(forKeys: ["name"])["name"] as? String  // the saved name
/// ```
///
/// Only persistent properties count: transient attributes and relationships and fetched properties are never
/// reported. A value set back to what it was is no change, as in Core Data. To-many relationships that were never
/// loaded are not loaded to answer ``changedValues()`` or ``changedValuesForCurrentEvent()`` (an unloaded to-many
/// cannot have changed).
extension ManagedObject {
    /// The persistent properties changed since the object was last fetched or saved, with their **current** values.
    ///
    /// An inserted object (not saved yet) has no saved values to compare with: every persistent property that has a
    /// value is reported (attributes that are not `nil`, model defaults included; a to-one that is set; a to-many
    /// that is not empty), as Core Data reports them. A fault, an object without changes and one that left its
    /// context report nothing. A deleted object reports the changes made to it before its deletion; the objects
    /// related to it report the delete rule's changes in their relationships that were loaded (a to-many first read
    /// after the deletion is read without the deleted object, and so is no change).
    public func changedValues() -> [String: Any] {
        guard !isFault, !isInvalid, context != nil else { return [:] }
        if isInserted || wasInsertedWhenDeleted { return valuedProperties(reporting: .current) }
        guard let snapshot else { return [:] }
        return differences(from: snapshot, reporting: .current)
    }

    /// The values of persistent properties `keys` as the object was last fetched or saved (`nil`: every persistent
    /// property), whatever was changed since; a key naming a transient property or a fetched property is left out.
    ///
    /// An object inserted and not saved yet has no such values: the dictionary is empty, as in Core Data. A fault
    /// is loaded first; a to-many relationship not loaded yet is loaded from the store.
    ///
    /// A key that names no property of the entity is a programming error, as for ``value(forKey:)``: the program
    /// stops with a message naming the entity and the key (``checkedCommittedValues(forKeys:)`` throws instead).
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        do {
            return try checkedCommittedValues(forKeys: keys)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// ``committedValues(forKeys:)``, throwing ``KeyValueError/unknownKey(entity:key:)`` for a key that names no
    /// property of the entity (nothing is loaded then).
    public func checkedCommittedValues(forKeys keys: [String]?) throws(KeyValueError) -> [String: Any] {
        let entity = entityRuntime
        var attributeIndices: [Int] = []
        var relationships: [RelationshipRuntime] = []
        if let keys {
            for key in keys {
                if let index = entity.attributeIndex(key) {
                    if !entity.attributes[index].isTransient { attributeIndices.append(index) }
                } else if let relationship = relationship(key) {
                    if !relationship.description.isTransient { relationships.append(relationship) }
                } else if fetchedPropertyDescription(key) == nil {
                    throw .unknownKey(entity: entity.name, key: key)
                }
            }
        } else {
            attributeIndices = entity.attributes.indices.filter { !entity.attributes[$0].isTransient }
            relationships = entity.relationships.filter { !$0.description.isTransient }
        }
        guard !isInvalid, context != nil, !isInserted, !wasInsertedWhenDeleted else { return [:] }
        if isFault { fireFaultIfNeeded() }
        // Loading a to-many fault fills the snapshot's fault too (`loadRelationship`): the saved list either way.
        for relationship in relationships where relationship.isToMany { _ = loadRelationship(relationship) }
        let committed = snapshot ?? values
        var result: [String: Any] = [:]
        for index in attributeIndices where committed.attributeIndices.contains(index) {
            let attribute = entity.attributes[index]
            result.updateValue(
                Self.attributeValue(committed[attribute: index], of: attribute.type) as Any, forKey: attribute.name)
        }
        for relationship in relationships where committed.relationshipIndices.contains(relationship.index) {
            result.updateValue(
                objects(committed[relationship: relationship.index], of: relationship) as Any, forKey: relationship.name
            )
        }
        return result
    }

    /// The persistent properties changed during the current event, with their values **before** it: what
    /// ``ManagedObjectContext/processPendingChanges()`` ends, as does a save, a rollback, a reset, an undo or a redo
    /// (Core Data's event ends where it posts `NSManagedObjectContextObjectsDidChange`).
    ///
    /// Core Data's reference pages disagree on which values it returns (one says the old values, a later one the
    /// new); the values before the event are the ones no other call gives (the new ones are the object's).
    ///
    /// A property changed in an earlier event and not since is not reported (``changedValues()`` has it). A
    /// property whose value came back to the event's start is not either. An object inserted during the event
    /// reports every persistent property that has a value, each with `nil` (it had none before).
    ///
    /// With an ``ManagedObjectContext/undoManager`` the event is its open undo group, and the values before it are
    /// the ones the group recorded for undo (an explicit ``UndoManager/beginUndoGrouping()`` group spans every
    /// event until its end; changes made while undo registration is disabled are not seen). Without one, the
    /// context keeps the values of the objects with unsaved changes when an event ends.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard !isFault, !isInvalid, let context else { return [:] }
        switch context.eventStart(of: self) {
        case .unchanged:
            return [:]
        case .absent:
            return valuedProperties(reporting: .nothing)
        case .values(let start):
            return differences(from: start, reporting: .previous)
        }
    }

    // MARK: Comparing

    /// Which value a comparison reports for each changed property.
    private enum ReportedValue {
        /// The object's value now.
        case current
        /// The value compared with.
        case previous
        /// `nil`: the property had no value.
        case nothing
    }

    /// The persistent properties whose values differ between `base` and the object's values, with the value
    /// `reporting` says. Relationship faults on either side count as unchanged.
    private func differences(from base: ObjectValues, reporting: ReportedValue) -> [String: Any] {
        let entity = entityRuntime
        var result: [String: Any] = [:]
        for index in entity.attributes.indices
        where !entity.attributes[index].isTransient && base.attributeIndices.contains(index)
            && values.attributeIndices.contains(index)
        {
            let old = base[attribute: index]
            let new = values[attribute: index]
            guard old != new else { continue }
            let attribute = entity.attributes[index]
            let reported: Any? =
                switch reporting {
                case .current: Self.attributeValue(new, of: attribute.type)
                case .previous: Self.attributeValue(old, of: attribute.type)
                case .nothing: nil
                }
            result.updateValue(reported as Any, forKey: attribute.name)
        }
        for relationship in entity.relationships
        where !relationship.description.isTransient && base.relationshipIndices.contains(relationship.index)
            && values.relationshipIndices.contains(relationship.index)
        {
            let old = base[relationship: relationship.index]
            let new = values[relationship: relationship.index]
            guard Self.differ(old, new, isOrdered: relationship.isOrdered) else { continue }
            let reported: Any? =
                switch reporting {
                case .current: objects(new, of: relationship)
                case .previous: objects(old, of: relationship)
                case .nothing: nil
                }
            result.updateValue(reported as Any, forKey: relationship.name)
        }
        return result
    }

    /// Every persistent property that has a value (an attribute not `nil`, a to-one set, a to-many not empty),
    /// with its value now or `nil`: an object compared with its absence.
    private func valuedProperties(reporting: ReportedValue) -> [String: Any] {
        let entity = entityRuntime
        var result: [String: Any] = [:]
        for index in entity.attributes.indices
        where !entity.attributes[index].isTransient && values.attributeIndices.contains(index) {
            let stored = values[attribute: index]
            guard !stored.isNull else { continue }
            let attribute = entity.attributes[index]
            let reported: Any? = reporting == .current ? Self.attributeValue(stored, of: attribute.type) : nil
            result.updateValue(reported as Any, forKey: attribute.name)
        }
        for relationship in entity.relationships
        where !relationship.description.isTransient && values.relationshipIndices.contains(relationship.index) {
            let value = values[relationship: relationship.index]
            switch value {
            case .toOne(nil), .toManyFault: continue
            case .toMany(let list) where list.count == 0: continue
            default: break
            }
            let reported: Any? = reporting == .current ? objects(value, of: relationship) : nil
            result.updateValue(reported as Any, forKey: relationship.name)
        }
        return result
    }

    /// Whether two values of a relationship differ: an ordered to-many by its order too, an unordered one by its
    /// members only; a fault on either side is no difference.
    private static func differ(_ old: RelationshipValue, _ new: RelationshipValue, isOrdered: Bool) -> Bool {
        switch (old, new) {
        case (.toManyFault, _), (_, .toManyFault):
            return false
        case (.toMany(let before), .toMany(let after)):
            if isOrdered { return before.ids != after.ids }
            return before.count != after.count || Set(before.ids) != Set(after.ids)
        default:
            return old != new
        }
    }

    /// A relationship value as ``value(forKey:)`` reads it: the to-one's object (or `nil`), the to-many's objects
    /// as a set, or in order for an ordered one.
    private func objects(_ value: RelationshipValue, of relationship: RelationshipRuntime) -> Any? {
        guard let context else { return nil }
        switch value {
        case .toOne(let id):
            return id.flatMap { context.object(for: $0) }
        case .toMany(let list):
            let objects = list.ids.compactMap { context.object(for: $0) }
            return relationship.isOrdered ? objects as Any : Set(objects) as Any
        case .toManyFault:
            return relationship.isOrdered ? [ManagedObject]() as Any : Set<ManagedObject>() as Any
        }
    }
}

// MARK: - The current event

/// What an object was when the current event began (``ManagedObject/changedValuesForCurrentEvent()``).
enum EventStart {
    /// The object has not changed during the event.
    case unchanged
    /// The object was not in the context: it was inserted during the event.
    case absent
    /// The object's values when the event began.
    case values(ObjectValues)
}

extension ManagedObjectContext {
    /// What `object` was when the current event began.
    ///
    /// One source per context, never two copies: with an undo manager, the state its open group recorded before
    /// the group's first change of the object (``UndoRecord``), which is the event's start; without one,
    /// ``eventStartValues`` for an object that had unsaved changes when the last event ended, and otherwise its
    /// saved values (``ManagedObject/snapshot``, taken before its first change since) or nothing for an object
    /// inserted since.
    func eventStart(of object: ManagedObject) -> EventStart {
        if undoManager != nil {
            guard let state = openUndoRecord?.state(of: object) else { return .unchanged }
            guard state.isRegistered else { return .absent }
            // Recorded while a fault (no values yet): it had its saved values.
            if state.values.isEmpty { return object.snapshot.map { .values($0) } ?? .unchanged }
            return .values(state.values)
        }
        if let values = eventStartValues[object.objectID] { return .values(values) }
        if object.isInserted || object.wasInsertedWhenDeleted { return .absent }
        return object.snapshot.map { .values($0) } ?? .unchanged
    }

    /// Ends the current event for ``ManagedObject/changedValuesForCurrentEvent()`` without an undo manager: the
    /// objects with unsaved changes keep their values now as the next event's start (buffers shared, not copied).
    /// With an undo manager, its next group records them instead.
    func noteEventEnd() {
        eventStartValues.removeAll(keepingCapacity: true)
        guard undoManager == nil else { return }
        for list in [insertedList, updatedList, deletedList] {
            for object in list where !object.isInvalid && !object.isFault {
                eventStartValues[object.objectID] = object.values
            }
        }
    }
}
