// MARK: - 2. Properties (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    enum PropertyReference {
        /// An attribute, by its number.
        case attribute(Int)
        /// A relationship, by its number.
        case relationship(Int)
    }

    mutating func indexProperties() throws(StoreLayoutError) {
        attributesOf = [[]] + sourceIndex.dropFirst().map { source[$0].attributes }
        relationshipsOf = [[]] + sourceIndex.dropFirst().map { source[$0].relationships }
        attributeStart = [Int](repeating: 0, count: entityCount + 2)
        relationshipStart = [Int](repeating: 0, count: entityCount + 2)
        for number in stride(from: 1, through: entityCount, by: 1) {
            attributeStart[number + 1] = attributeStart[number] + attributesOf[number].count
            relationshipStart[number + 1] = relationshipStart[number] + relationshipsOf[number].count
        }
        attributeTotal = attributeStart[entityCount + 1]
        let propertyTotal = attributeTotal + relationshipStart[entityCount + 1]
        propertyOwner = [Int32](repeating: 0, count: propertyTotal)
        propertyHash = [UInt64](repeating: 0, count: propertyTotal)
        propertySlots = [UInt64](repeating: 0, count: HashSlot.slotCount(for: propertyTotal))
        for number in stride(from: 1, through: entityCount, by: 1) {
            let attributes = attributesOf[number]
            for index in attributes.indices
            where !declareProperty(attributes[index].name, code: attributeStart[number] + index, of: number) {
                throw .duplicateProperty(entity: entityName(number), property: attributes[index].name)
            }
            let relationships = relationshipsOf[number]
            for index in relationships.indices
            where !declareProperty(
                relationships[index].name, code: attributeTotal + relationshipStart[number] + index, of: number)
            {
                throw .duplicateProperty(entity: entityName(number), property: relationships[index].name)
            }
        }
    }

    /// Adds property `code` to entity `number`'s own properties; false when the entity or an
    /// ancestor declares the name already.
    ///
    /// (Not a throwing function: a typed throw of the large error costs a copy per call.)
    mutating func declareProperty(_ name: String, code: Int, of number: Int) -> Bool {
        propertyOwner[code] = Int32(truncatingIfNeeded: number)
        let hash = NameHash.hash(name)
        propertyHash[code] = hash
        let key = NameHash.combine(hash, number)
        switch HashSlot.probe(key, in: propertySlots, matches: { isProperty($0, named: name, of: number) }) {
        case .found: return false
        case .free(let slot): propertySlots[slot] = HashSlot.entry(hash: key, position: code)
        }
        return property(name, hash: hash, from: parentNumber[number]) == nil
    }

    @inline(__always)
    func isProperty(_ code: Int, named name: String, of number: Int) -> Bool {
        guard Int(propertyOwner[code]) == number else { return false }
        if code < attributeTotal { return attributesOf[number][code - attributeStart[number]].name == name }
        return relationshipsOf[number][code - attributeTotal - relationshipStart[number]].name == name
    }

    /// The property called `name` on entity `number` or an ancestor: O(depth).
    @inline(__always)
    func property(_ name: String, of number: Int) -> PropertyReference? {
        property(name, hash: NameHash.hash(name), from: number)
    }

    /// The property called `name` (hashing to `hash`) on entity `number` or an ancestor; nil
    /// when `number` is 0.
    @inline(__always)
    func property(_ name: String, hash: UInt64, from number: Int) -> PropertyReference? {
        var current = number
        while current != 0 {
            let owner = current
            let key = NameHash.combine(hash, owner)
            if case .found(let code) = HashSlot.probe(
                key, in: propertySlots, matches: { isProperty($0, named: name, of: owner) })
            {
                return code < attributeTotal ? .attribute(code) : .relationship(code - attributeTotal)
            }
            current = parentNumber[current]
        }
        return nil
    }

    /// The number of the entity declaring relationship `relationship`.
    @inline(__always)
    func owner(ofRelationship relationship: Int) -> Int {
        Int(propertyOwner[attributeTotal + relationship])
    }
}
