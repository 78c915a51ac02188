// MARK: - 1. Numbering (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    /// Entity numbers: a pre-order walk of the inheritance forest, roots in name order, each
    /// followed by its sub-entities in name order (observed).
    mutating func numberEntities() throws(StoreLayoutError) {
        let count = source.count
        entityCount = count
        var hashes = [UInt64](repeating: 0, count: count)
        sourceNames = NameIndex(capacity: count)
        for (index, entity) in source.enumerated() {
            let hash = NameHash.hash(entity.name)
            guard sourceNames.insert(entity.name, hash: hash).inserted else { throw .duplicateEntity(entity.name) }
            hashes[index] = hash
        }
        var parentIndex = [Int](repeating: -1, count: count)
        var childStart = [Int](repeating: 0, count: count + 1)
        for (index, entity) in source.enumerated() {
            guard let parent = entity.parentName else { continue }
            guard let position = sourceNames.position(of: parent) else {
                throw .unknownParent(entity: entity.name, parent: parent)
            }
            parentIndex[index] = position
            childStart[position + 1] += 1
        }
        for index in 0..<count { childStart[index + 1] += childStart[index] }

        // Every entity in name order: so are the roots, and each entity's children.
        var sorter = ModelNameSorter()
        sorter.sort(count: count) { source[$0].name }
        var children = [Int](repeating: 0, count: childStart[count])
        var childEnd = childStart
        var roots: [Int] = []
        for rank in 0..<count {
            let index = sorter.item(at: rank)
            let parent = parentIndex[index]
            if parent < 0 {
                roots.append(index)
            } else {
                children[childEnd[parent]] = index
                childEnd[parent] += 1
            }
        }

        var order: [Int] = []
        order.reserveCapacity(count)
        var stack: [Int] = roots.reversed()
        while let index = stack.popLast() {
            order.append(index)
            stack.append(contentsOf: children[childStart[index]..<childStart[index + 1]].reversed())
        }
        guard order.count == count else {
            throw .inheritanceCycle(entity: Self.cycleMember(source: source, reached: order, names: sourceNames))
        }

        sourceIndex = [0] + order
        numberOfSource = [Int](repeating: 0, count: count)
        for (position, index) in order.enumerated() { numberOfSource[index] = position + 1 }
        entityIndex = NameIndex(capacity: count)
        for index in order { entityIndex.insert(source[index].name, hash: hashes[index]) }
        numbersByName = (0..<count).map { numberOfSource[sorter.item(at: $0)] }

        parentNumber = [Int](repeating: 0, count: count + 1)
        childNumbers = [[Int]](repeating: [], count: count + 1)
        lastDescendant = Array(0...count)
        rootNumber = [Int](repeating: 0, count: count + 1)
        for number in stride(from: 1, through: count, by: 1) {
            let index = sourceIndex[number]
            let parent = parentIndex[index] < 0 ? 0 : numberOfSource[parentIndex[index]]
            parentNumber[number] = parent
            rootNumber[number] = parent == 0 ? number : rootNumber[parent]
            if parent == 0 { rootNumbers.append(number) }
            if childStart[index] < childStart[index + 1] {
                childNumbers[number] = children[childStart[index]..<childStart[index + 1]].map { numberOfSource[$0] }
            }
        }
        for number in stride(from: count, through: 1, by: -1) {
            if let last = childNumbers[number].last { lastDescendant[number] = lastDescendant[last] }
        }
    }

    /// An entity on an inheritance cycle, for the error: walk up from an unreached entity until
    /// an entity repeats.
    static func cycleMember(source: [LayoutEntity], reached: [Int], names: NameIndex) -> String {
        let reachedSet = Set(reached)
        guard var index = source.indices.first(where: { !reachedSet.contains($0) }) else { return "" }
        var seen: Set<Int> = []
        while seen.insert(index).inserted, let parent = source[index].parentName,
            let next = names.position(of: parent)
        {
            index = next
        }
        return source[index].name
    }
}
