// MARK: - Core Data's `Entity.entity()`

extension ManagedObject {
    /// The entity whose class is this class, as Core Data's `NSManagedObject.entity()`: found in the models passed to
    /// ``ManagedObjectModel/register(_:)`` and the generated models linked into the process (see
    /// ``ManagedObjectModel/named(_:)``), knowing its model (its ``EntityDescription/superentity`` and
    /// ``EntityDescription/subentities``).
    ///
    /// ```swift
    /// let entity = EmployeeEntity.entity()          // the entity description of `EmployeeEntity`
    /// let employee = EmployeeEntity(entity: entity, insertInto: context)
    /// ```
    ///
    /// Stops the program, naming the class, when no known model has an entity of this class, or when models of
    /// different names do (a class shared by two models: ask a model, ``ManagedObjectModel/entity(forName:)``); use
    /// ``entityIfKnown()`` to get `nil` instead. A model whose classes were set by hand
    /// (``ManagedObjectModel/setObjectType(_:forEntityName:)``) is known once it is registered.
    public class func entity() -> EntityDescription {
        switch classEntityLookup() {
        case .found(let entity):
            return entity
        case .none:
            preconditionFailure(
                "\(String(reflecting: self)) is not the class of an entity of any known model (generated models linked "
                    + "into the program and models passed to ManagedObjectModel.register(_:))")
        case .ambiguous(let models):
            preconditionFailure(
                "\(String(reflecting: self)) is the class of an entity in several models (\(models.joined(separator: ", "))): "
                    + "ask the model for the entity by name")
        }
    }

    /// ``entity()``, or `nil` when no known model or more than one has an entity of this class.
    public class func entityIfKnown() -> EntityDescription? {
        if case .found(let entity) = classEntityLookup() { return entity }
        return nil
    }

    private enum ClassEntityLookup {
        case found(EntityDescription)
        case none
        case ambiguous([String])
    }

    private class func classEntityLookup() -> ClassEntityLookup {
        let type = ObjectIdentifier(self)
        // A registered model replaces a generated model of its name, as in `ManagedObjectModel.named(_:)`.
        let registered = ModelRegistry.registered.withLock { $0 }
        let models =
            registered.values.sorted { $0.name < $1.name }
            + ModelRegistry.generated.filter { registered[$0.name] == nil }
        var found: [(model: String, entity: EntityDescription)] = []
        for model in models {
            for entity in model.entities where ObjectIdentifier(entity.objectType) == type {
                // The same model linked twice, or a class mapped to one entity: found once per model name.
                guard !found.contains(where: { $0.model == model.name }),
                    let connected = model.entity(forName: entity.name)
                else { continue }
                found.append((model.name, connected))
            }
        }
        guard let first = found.first else { return .none }
        guard found.count == 1 else { return .ambiguous(found.map(\.model)) }
        return .found(first.entity)
    }
}
