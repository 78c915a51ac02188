import Foundation

// MARK: - Classes of your own for entities without generated ones

/// Why ``ManagedObjectModel/setObjectType(_:forEntityName:)`` refused a class.
public enum EntityClassError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The model has no entity of that name; `known` lists the entities it has.
    case unknownEntity(model: String, entity: String, known: [String])
    /// The entity already has a class of its own (a generated one: *Class Definition* or *Category/Extension*
    /// codegen), whose accessors the generated code declares.
    case entityHasClass(entity: String, existing: String, requested: String)
    /// The class is already the class of another entity of the model: a class names one entity.
    case classInUse(className: String, entity: String, requestedEntity: String)
    /// The entity's parent entity has a class, and the class is not a subclass of it: objects of the entity
    /// would not be objects of its parent's class.
    case notASubclassOfParentClass(className: String, entity: String, parentEntity: String, parentClass: String)

    public var description: String {
        switch self {
        case .unknownEntity(let model, let entity, let known):
            "model '\(model)' has no entity '\(entity)'; its entities are \(known.joined(separator: ", "))"
        case .entityHasClass(let entity, let existing, let requested):
            "entity '\(entity)' already has the class \(existing); \(requested) can only be set for an entity "
                + "whose class is ManagedObject (Manual/None codegen, or the class NSManagedObject)"
        case .classInUse(let className, let entity, let requestedEntity):
            "\(className) is already the class of entity '\(entity)'; entity '\(requestedEntity)' needs a class "
                + "of its own"
        case .notASubclassOfParentClass(let className, let entity, let parentEntity, let parentClass):
            "\(className) cannot be the class of entity '\(entity)': it is not a subclass of \(parentClass), "
                + "the class of its parent entity '\(parentEntity)'"
        }
    }

    public var errorDescription: String? { description }
}

extension ManagedObjectModel {
    /// Makes `type`, a ``ManagedObject`` subclass you wrote, the class of the entity called `entityName`: fetches,
    /// faults, relationships and ``ManagedObjectContext/insertNewObject(forEntityName:)`` then make objects of
    /// `type`, and `type.init(context:)` inserts objects of the entity.
    ///
    /// It is for entities the generator writes no class for (*Manual/None* codegen, or the class `NSManagedObject`),
    /// which the generated model registers with the generic ``ManagedObject``. Core Data finds such a class by the
    /// name in the model (`representedClassName`); Swift cannot look a class up by name, so you set it on the model
    /// before making the container:
    ///
    /// ```swift
    /// final class Owner: ManagedObject {
    ///     var name: String? {
    ///         get { value(for: "name") }
    ///         set { setValue(newValue, for: "name") }
    ///     }
    ///     var notebooks: Set<Notebook> { toManySet(for: "notebooks") }
    /// }
    ///
    /// var model = NotebookModel.model
    /// try model.setObjectType(Owner.self, forEntityName: "Owner")
    /// let container = try PersistentContainer(model: model, store: .sqlite(at: url))
    /// ```
    ///
    /// Write accessors with the calls the generated code uses: ``ManagedObject/value(for:)`` and
    /// ``ManagedObject/setValue(_:for:)`` for attributes, ``ManagedObject/toOne(for:)`` /
    /// ``ManagedObject/setToOne(_:for:)``, ``ManagedObject/toManySet(for:)`` / ``ManagedObject/toManyArray(for:)``
    /// and ``ManagedObject/addObject(_:to:)`` for relationships. Key-path sorts and `#Predicate` need the
    /// entity's key-path names, which a class of your own does not give: use `SortDescriptor(key:ascending:)` and
    /// `ManagedPredicate(format:)`.
    ///
    /// Setting the class the entity already has does nothing. Another class is refused once the entity has one
    /// (the generic ``ManagedObject`` aside): start again from the generated model to choose another.
    ///
    /// - Throws: ``EntityClassError``: an unknown entity; an entity that has a class of its own already; a class that
    ///   is already another entity's; a class that is not a subclass of the parent entity's class.
    public mutating func setObjectType(_ type: ManagedObject.Type, forEntityName entityName: String)
        throws(EntityClassError)
    {
        guard let index = entities.firstIndex(where: { $0.name == entityName }) else {
            throw .unknownEntity(model: name, entity: entityName, known: entities.map(\.name).sorted())
        }
        let current = entities[index].objectType
        if current == type { return }
        let className = String(reflecting: type)
        guard current == ManagedObject.self else {
            throw .entityHasClass(entity: entityName, existing: String(reflecting: current), requested: className)
        }
        if let other = entities.first(where: { $0.objectType == type }) {
            throw .classInUse(className: className, entity: other.name, requestedEntity: entityName)
        }
        var parentName = entities[index].parentName
        while let name = parentName, let parent = entities.first(where: { $0.name == name }) {
            if parent.objectType != ManagedObject.self {
                guard Self.isClass(type, aSubclassOf: parent.objectType) else {
                    throw .notASubclassOfParentClass(
                        className: className, entity: entityName, parentEntity: parent.name,
                        parentClass: String(reflecting: parent.objectType))
                }
                break
            }
            parentName = parent.parentName
        }
        entities[index].objectType = type
        entities[index].hasGeneratedClass = false
    }

    /// The model with `type` as the class of the entity called `entityName` (see
    /// ``setObjectType(_:forEntityName:)``).
    ///
    /// ```swift
    /// let model = try NotebookModel.model.settingObjectType(Owner.self, forEntityName: "Owner")
    /// ```
    public func settingObjectType(_ type: ManagedObject.Type, forEntityName entityName: String)
        throws(EntityClassError) -> ManagedObjectModel
    {
        var model = self
        try model.setObjectType(type, forEntityName: entityName)
        return model
    }

    /// Whether `type` is `ancestor` or one of its subclasses.
    private static func isClass(_ type: ManagedObject.Type, aSubclassOf ancestor: ManagedObject.Type) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if ObjectIdentifier(candidate) == ObjectIdentifier(ancestor) { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }
}
