import DataModelStoreLayout
import FoundationEssentials

// Relationship checks of a validation run: counts, destinations, inverses.
extension ValidationRun {
    func check(_ relationship: borrowing Relationship, in entity: Entity, at entityIndex: Int) {
        if let min = relationship.minCount, let max = relationship.maxCount, max > 0, min > max {
            error(
                "relationship '\(entity.name).\(relationship.name)' has minCount \(min) greater than maxCount \(max)",
                .minCountExceedsMax,
                relationship.location)
        }
        if !relationship.isToMany, let max = relationship.maxCount, max != 1 {
            warning(
                "to-one relationship '\(entity.name).\(relationship.name)' has maxCount \(max); it is ignored",
                .maxCountOnToOne,
                relationship.location)
        }
        if relationship.isOrdered && !relationship.isToMany {
            warning(
                "to-one relationship '\(entity.name).\(relationship.name)' is marked ordered; it is ignored",
                .orderedToOne,
                relationship.location)
        }
        guard !relationship.destinationEntity.isEmpty else {
            error(
                "relationship '\(entity.name).\(relationship.name)' has no destination entity", .missingDestination,
                relationship.location)
            return
        }
        let destination = relationship.destinationEntity
        guard let destinationIndex = model.entityIndex(named: destination) else {
            error(
                "relationship '\(entity.name).\(relationship.name)' has destination entity '\(relationship.destinationEntity)', which does not exist",
                .missingDestination, relationship.location)
            return
        }
        guard let inverseName = relationship.inverseName, !inverseName.isEmpty else {
            warning(
                "relationship '\(entity.name).\(relationship.name)' has no inverse; this is an advanced setting (no integrity checks, deletes leave dangling references)",
                .missingInverse, relationship.location)
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destination {
            error(
                "relationship '\(entity.name).\(relationship.name)' has inverse entity '\(inverseEntity)' but destination '\(destination)'",
                .inverseMismatch, relationship.location)
            return
        }
        guard let inverse = relationshipNamed(inverseName, inOrAbove: destinationIndex) else {
            error(
                "relationship '\(entity.name).\(relationship.name)' has inverse '\(inverseName)', which is not a relationship of '\(destination)'",
                .inverseNotFound, relationship.location)
            return
        }
        let pointsBack =
            inverse.destinationEntity == entity.name
            || (entity.parentEntity != nil
                && model.entityIndex(named: inverse.destinationEntity).map {
                    ancestors(of: canonical[entityIndex]).contains($0)
                } ?? false)
        if !pointsBack {
            error(
                "relationship '\(entity.name).\(relationship.name)' has inverse '\(destination).\(inverseName)', which points to '\(inverse.destinationEntity)' instead of '\(entity.name)'",
                .inverseMismatch, relationship.location)
        } else if let back = inverse.inverseName, back != relationship.name, !back.isEmpty {
            warning(
                "relationship '\(entity.name).\(relationship.name)' has inverse '\(destination).\(inverseName)', whose own inverse is '\(back)'",
                .inverseMismatch, relationship.location)
        }
    }

    /// The destination and inverse of the first relationship named `name` of the entity at canonical index
    /// `index` or, failing that, of its nearest ancestor that has one.
    func relationshipNamed(_ name: String, inOrAbove index: Int) -> (
        destinationEntity: String, inverseName: String?
    )? {
        func relationship(_ position: Int, of entity: Int) -> (destinationEntity: String, inverseName: String?) {
            model.entities[entity].relationships.withUnsafeBufferPointer {
                ($0[position].destinationEntity, $0[position].inverseName)
            }
        }
        if let found = relationships[index][name] { return relationship(found, of: index) }
        guard parents[index] >= 0 else { return nil }
        for candidate in ancestors(of: index).dropFirst() {
            if let found = relationships[candidate][name] { return relationship(found, of: candidate) }
        }
        return nil
    }
}
