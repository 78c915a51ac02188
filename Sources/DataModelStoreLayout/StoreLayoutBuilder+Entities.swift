// MARK: - 7. Entities (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    /// Where a stored relationship is kept, or nil when it is not.
    @inline(__always)
    func storage(of relationship: Int) -> RelationshipStorage? {
        let facts = relationships[relationship]
        if !facts.isToMany {
            return toOneColumns[relationship].map { .foreignKey($0) }
        }
        if usesInverseForeignKey(relationship), let columns = toOneColumns[facts.inverse] {
            return .inverseForeignKey(
                table: tableName[rootNumber[owner(ofRelationship: facts.inverse)]], columns: columns)
        }
        return joinColumns[relationship].map { .joinTable($0) }
    }

    mutating func assembleEntities() -> [EntityLayout] {
        var result: [EntityLayout] = []
        result.reserveCapacity(entityCount)
        for number in stride(from: 1, through: entityCount, by: 1) {
            let parent = parentNumber[number]
            let root = rootNumber[number]
            let own = relationshipsByNameStart[number]..<relationshipsByNameStart[number + 1]
            var relationshipLayouts = parent == 0 ? [] : result[parent - 1].relationships
            var attributes: [AttributeLayout] = []
            swap(&attributes, &entityAttributes[number])
            var names = PropertyNameTable(
                extending: parent == 0 ? PropertyNameTable() : result[parent - 1].propertyNames,
                toHold: attributes.count + relationshipLayouts.count + own.count)
            for attribute in attributeStart[number]..<attributeStart[number + 1]
            where attributeLayoutIndex[attribute] >= 0 {
                names.insertAttribute(at: Int(attributeLayoutIndex[attribute]), hash: propertyHash[attribute])
            }
            if !own.isEmpty { relationshipLayouts.reserveCapacity(relationshipLayouts.count + own.count) }
            for position in own {
                let relationship = relationshipsByName[position]
                guard let storage = storage(of: relationship) else { continue }
                let facts = relationships[relationship]
                names.insertRelationship(
                    at: relationshipLayouts.count, hash: propertyHash[attributeTotal + relationship])
                relationshipLayouts.append(
                    RelationshipLayout(
                        name: facts.name, declaringEntityNumber: number, destinationEntityNumber: facts.destination,
                        inverseName: facts.inverse >= 0 ? relationships[facts.inverse].name : nil,
                        isToMany: facts.isToMany, isOrdered: facts.isToMany && facts.isOrdered, storage: storage))
            }
            var columns: [ColumnLayout] = []
            swap(&columns, &entityColumns[number])
            result.append(
                EntityLayout(
                    name: entityName(number), number: number, superentityNumber: parent, rootEntityNumber: root,
                    isAbstract: source[sourceIndex[number]].isAbstract, tableName: tableName[root],
                    subentityNumbers: childNumbers[number], hierarchyNumbers: number...lastDescendant[number],
                    attributes: attributes, relationships: relationshipLayouts, columns: columns,
                    propertyNames: names))
        }
        return result
    }
}
