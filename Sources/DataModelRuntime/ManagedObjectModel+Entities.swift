/// The model an entity description was found in, so that it can answer for its hierarchy.
final class ModelReference: Sendable {
    let model: ManagedObjectModel
    init(_ model: ManagedObjectModel) { self.model = model }
}

// MARK: - Core Data's entity access

extension ManagedObjectModel {
    /// Every entity by name, as Core Data's `entitiesByName`. The descriptions know their model: their
    /// ``EntityDescription/superentity``, ``EntityDescription/subentities`` and inherited properties.
    public var entitiesByName: [String: EntityDescription] {
        let reference = ModelReference(self)
        var byName: [String: EntityDescription] = [:]
        for entity in entities where byName[entity.name] == nil {
            var connected = entity
            connected.modelReference = reference
            byName[entity.name] = connected
        }
        return byName
    }

    /// The entity called `name`, knowing its model (see ``entitiesByName``); `nil` when there is none.
    public func entity(forName name: String) -> EntityDescription? {
        guard var entity = entities.first(where: { $0.name == name }) else { return nil }
        entity.modelReference = ModelReference(self)
        return entity
    }
}

extension EntityDescription {
    /// The entity called `entityName` in the model of `context`, as Core Data's
    /// `NSEntityDescription.entity(forEntityName:in:)`.
    public static func entity(forEntityName entityName: String, in context: ManagedObjectContext)
        -> EntityDescription?
    {
        context.runtime.entity(named: entityName)?.description
    }

    /// A new object of the entity called `entityName`, of the entity's class (``ManagedObject`` when it has none of
    /// its own), inserted into `context`, as Core Data's `NSEntityDescription.insertNewObject(forEntityName:into:)`.
    /// As there, an unknown entity stops the program with a message naming it; the throwing form is
    /// ``ManagedObjectContext/insertNewObject(forEntityName:)``.
    public static func insertNewObject(forEntityName entityName: String, into context: ManagedObjectContext)
        -> ManagedObject
    {
        do {
            return try context.insertNewObject(forEntityName: entityName)
        } catch {
            preconditionFailure(
                "\(error.description) in model '\(context.runtime.model.name)'; its entities are "
                    + context.runtime.entities.map(\.name).sorted().joined(separator: ", "))
        }
    }

    /// The parent entity, or `nil` for a root entity (or a description not taken from a model).
    public var superentity: EntityDescription? {
        guard let parentName, let model = modelReference?.model else { return nil }
        return model.entity(forName: parentName)
    }

    /// The entities whose parent this entity is, by name.
    public var subentities: [EntityDescription] {
        guard let model = modelReference?.model else { return [] }
        return model.entities.filter { $0.parentName == name }.sorted { $0.name < $1.name }.compactMap {
            model.entity(forName: $0.name)
        }
    }

    /// The entity's own and inherited attributes by name, as Core Data's `attributesByName` (only its own for a
    /// description not taken from a model).
    public var attributesByName: [String: AttributeDescription] {
        var byName: [String: AttributeDescription] = [:]
        for entity in lineageFromRoot {
            for attribute in entity.attributes { byName[attribute.name] = attribute }
        }
        return byName
    }

    /// The entity's own and inherited relationships by name, as Core Data's `relationshipsByName`.
    public var relationshipsByName: [String: RelationshipDescription] {
        var byName: [String: RelationshipDescription] = [:]
        for entity in lineageFromRoot {
            for relationship in entity.relationships { byName[relationship.name] = relationship }
        }
        return byName
    }

    /// The name of the class of the entity's objects (`ManagedObject` for an entity without a class of its own).
    public var managedObjectClassName: String { String(describing: objectType) }

    /// Whether objects of `entity` are objects of this entity: it is this entity or one of its sub-entities.
    public func isKindOf(entity other: EntityDescription) -> Bool {
        lineageFromRoot.contains { $0.name == other.name }
    }

    /// The root entity first, this entity last.
    private var lineageFromRoot: [EntityDescription] {
        var chain = [self]
        guard let model = modelReference?.model else { return chain }
        var seen: Set<String> = [name]
        var parent = parentName
        while let parentName = parent, seen.insert(parentName).inserted,
            let ancestor = model.entities.first(where: { $0.name == parentName })
        {
            chain.insert(ancestor, at: 0)
            parent = ancestor.parentName
        }
        return chain
    }
}

extension RelationshipDescription {
    /// The destination entity in `model`.
    public func destinationEntity(in model: ManagedObjectModel) -> EntityDescription? {
        model.entity(forName: destinationEntityName)
    }
}

extension ManagedObject {
    /// Creates an object of `entity` and inserts it into `context`, as Core Data's `init(entity:insertInto:)`.
    ///
    /// ```swift
    /// let entity = EntityDescription.entity(forEntityName: "Note", in: context)!
    /// let note = ManagedObject(entity: entity, insertInto: context)
    /// note.setValue("Hello", forKey: "text")
    /// ```
    ///
    /// The class called must be the entity's (``EntityDescription/objectType``: `ManagedObject` for an entity
    /// without a class of its own), and `context` must be given: an object not inserted into any context is not
    /// supported. Either mistake stops the program with a message saying so.
    public convenience init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        guard let context else {
            preconditionFailure(
                "\(Self.self)(entity: \(entity.name), insertInto: nil): objects live in a context; pass one")
        }
        guard let runtime = context.runtime.entity(named: entity.name) else {
            preconditionFailure("entity '\(entity.name)' is not in model '\(context.runtime.model.name)'")
        }
        guard runtime.objectType == Self.self else {
            preconditionFailure(
                "objects of entity '\(entity.name)' are of class \(runtime.objectType), not \(Self.self): use "
                    + "\(runtime.objectType)(entity:insertInto:) or EntityDescription.insertNewObject(forEntityName:into:)"
            )
        }
        self.init(context.makeInsertionSeed(for: runtime))
        context.register(inserted: self)
        if runtime.callsLifecycleMethods { awakeFromInsert() }
    }
}

extension ManagedObjectContext {
    /// The model of the context's store, as Core Data's `persistentStoreCoordinator?.managedObjectModel`.
    public var model: ManagedObjectModel { runtime.model }

    /// The context's store, as Core Data's.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        PersistentStoreCoordinator(coordinator: coordinator)
    }
}

extension PersistentStoreCoordinator {
    /// The model: Core Data's spelling of ``model``.
    public var managedObjectModel: ManagedObjectModel { model }
}
