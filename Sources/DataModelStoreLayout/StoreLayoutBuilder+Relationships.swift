// MARK: - 3. Relationships (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    /// A relationship with its destination and inverse found: the facts later stages need.
    struct RelationshipFacts {
        let name: String
        let isToMany: Bool
        let isOrdered: Bool
        let isTransient: Bool
        /// The destination entity's number; 0 for a transient relationship.
        var destination = 0
        /// The inverse's number, when the two name each other and it is stored; -1 otherwise.
        var inverse = -1
    }

    @inline(__always)
    func inverseIsOrderedToMany(_ relationship: Int) -> Bool {
        let inverse = relationships[relationship].inverse
        return inverse >= 0 && relationships[inverse].isToMany && relationships[inverse].isOrdered
    }

    /// A to-many stored through its inverse's foreign key.
    @inline(__always)
    func usesInverseForeignKey(_ relationship: Int) -> Bool {
        let facts = relationships[relationship]
        return facts.isToMany && facts.inverse >= 0 && !relationships[facts.inverse].isToMany
    }

    /// A stored to-many kept in a join table.
    @inline(__always)
    func usesJoinTable(_ relationship: Int) -> Bool {
        let facts = relationships[relationship]
        return facts.isToMany && !facts.isTransient && !usesInverseForeignKey(relationship)
    }

    mutating func resolveRelationships() throws(StoreLayoutError) {
        relationships.reserveCapacity(relationshipStart[entityCount + 1])
        relationshipsByName.reserveCapacity(relationshipStart[entityCount + 1])
        relationshipsByNameStart = [Int](repeating: 0, count: entityCount + 2)
        var sorter = ModelNameSorter()
        for number in stride(from: 1, through: entityCount, by: 1) {
            let declared = relationshipsOf[number]
            for index in declared.indices {
                var facts = RelationshipFacts(
                    name: declared[index].name, isToMany: declared[index].isToMany,
                    isOrdered: declared[index].isOrdered, isTransient: declared[index].isTransient)
                if !facts.isTransient, let failure = resolve(&facts, index, declaredBy: number) {
                    let relationship = declared[index]
                    switch failure {
                    case .unknownDestination:
                        throw .unknownDestination(
                            entity: entityName(number), relationship: relationship.name,
                            destination: relationship.destinationName)
                    case .unknownInverse:
                        throw .unknownInverse(
                            entity: entityName(number), relationship: relationship.name,
                            inverse: relationship.inverseName ?? "")
                    }
                }
                relationships.append(facts)
            }
            let own = relationshipStart[number]..<relationshipStart[number + 1]
            let facts = relationships
            sorter.sort(items: own.lazy.filter { !facts[$0].isTransient }) { facts[$0].name }
            for rank in 0..<sorter.count { relationshipsByName.append(sorter.item(at: rank)) }
            relationshipsByNameStart[number + 1] = relationshipsByName.count
        }
    }

    enum ResolutionFailure {
        case unknownDestination
        case unknownInverse
    }

    /// Finds the destination and inverse of relationship `index` of entity `number`; the
    /// failure, if any (not a throwing function: a typed throw of the large error costs a copy
    /// per call).
    @inline(__always)
    func resolve(_ facts: inout RelationshipFacts, _ index: Int, declaredBy number: Int) -> ResolutionFailure? {
        let declared = relationshipsOf[number]
        guard let destination = self.number(ofEntityNamed: declared[index].destinationName) else {
            return .unknownDestination
        }
        facts.destination = destination
        guard let inverseName = declared[index].inverseName else { return nil }
        guard case .relationship(let inverse)? = property(inverseName, of: destination) else {
            return .unknownInverse
        }
        let owner = owner(ofRelationship: inverse)
        let candidate = inverse - relationshipStart[owner]
        let inverseDeclared = relationshipsOf[owner]
        if !inverseDeclared[candidate].isTransient && inverseDeclared[candidate].inverseName == facts.name {
            facts.inverse = inverse
        }
        return nil
    }
}
