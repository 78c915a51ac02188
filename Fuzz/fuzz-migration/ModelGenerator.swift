// Two versions of a small model from the fuzzer's bytes: a random valid first version (entities with inheritance
// and abstract ones, attributes of every stored type with defaults, optionality, indexes, fetch indexes and external
// storage, relationships of every kind — to-one, to-many, ordered, one-to-one, many-to-many, one-sided), then a
// random edit script that produces the second (renames with and without renaming identifiers, additions, removals,
// type changes, flag changes, a new parent, relationships turned to-many or to-one, ordered or not).
import DataModelStoreLayout

/// The fuzzer's bytes as a stream of choices; 0 once they run out.
struct ByteChoices {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isExhausted: Bool { position >= bytes.count }

    mutating func byte() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    mutating func int(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return (bound <= 256 ? byte() : byte() << 8 | byte()) % bound
    }

    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }

    mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }
}

/// The attribute types a store has a column for.
let storedTypes: [AttributeType] = [
    .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid, .uri,
    .transformable,
]

struct ModelGenerator {
    var choices: ByteChoices
    var model = LayoutModel(entities: [])
    /// Names are fresh (a letter and a counter), so a rename never collides and nothing maps by accident.
    private var counter = 0

    init(_ choices: ByteChoices) { self.choices = choices }

    mutating func freshEntityName() -> String {
        counter += 1
        return String(UnicodeScalar(UInt8(65 + choices.int(26)))) + "\(counter)"
    }

    mutating func freshPropertyName() -> String {
        counter += 1
        return String(UnicodeScalar(UInt8(97 + choices.int(26)))) + "\(counter)"
    }

    mutating func defaultValue(for type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64: .integer(Int64(choices.int(200)) - 100)
        case .double, .float: .double(Double(choices.int(64)) / 4 - 8)
        case .date: .date(Double(choices.int(1000)) * 1000)
        case .decimal: .decimal("\(choices.int(100)).\(choices.int(10))")
        case .boolean: .boolean(choices.chance(50))
        case .string: .string(choices.pick(["", "d", "it's", "é", "NULL"]))
        case .uuid: .uuid("00112233-4455-6677-8899-AABBCCDDEE" + String(choices.int(90) + 10))
        default: nil
        }
    }

    mutating func attribute() -> LayoutAttribute {
        let type = choices.pick(storedTypes)
        var attribute = LayoutAttribute(name: freshPropertyName(), type: type)
        attribute.isOptional = choices.chance(70)
        if choices.chance(40) { attribute.defaultValue = defaultValue(for: type) }
        attribute.isIndexed = choices.chance(15)
        attribute.isTransient = choices.chance(4)
        attribute.isDerived = choices.chance(4)
        attribute.allowsExternalBinaryDataStorage = type == .binary && choices.chance(50)
        return attribute
    }

    mutating func entity(parents: [String]) -> LayoutEntity {
        var entity = LayoutEntity(name: freshEntityName())
        if !parents.isEmpty, choices.chance(35) { entity.parentName = choices.pick(parents) }
        entity.isAbstract = choices.chance(15)
        for _ in 0..<choices.int(5) { entity.attributes.append(attribute()) }
        addFetchIndex(to: &entity)
        return entity
    }

    mutating func addFetchIndex(to entity: inout LayoutEntity) {
        let stored = entity.attributes.filter { !$0.isTransient }
        guard !stored.isEmpty, choices.chance(25) else { return }
        let elements = (0..<(1 + choices.int(2))).map { _ in
            LayoutFetchIndexElement(property: choices.pick(stored).name, isAscending: choices.chance(70))
        }
        entity.fetchIndexes.append(LayoutFetchIndex(name: freshPropertyName(), elements: elements))
    }

    /// A relationship between two entities, with its inverse (declared on the destination itself) or one-sided.
    mutating func addRelationship() {
        guard !model.entities.isEmpty else { return }
        let source = choices.int(model.entities.count)
        let destination = choices.int(model.entities.count)
        let name = freshPropertyName()
        let inverseName = freshPropertyName()
        let toMany = choices.chance(50)
        let paired = choices.chance(75)
        var forward = LayoutRelationship(
            name: name, destinationName: model.entities[destination].name, inverseName: paired ? inverseName : nil,
            isToMany: toMany, isOrdered: toMany && choices.chance(40))
        forward.isTransient = choices.chance(3)
        model.entities[source].relationships.append(forward)
        guard paired else { return }
        let inverseToMany = choices.chance(50)
        model.entities[destination].relationships.append(
            LayoutRelationship(
                name: inverseName, destinationName: model.entities[source].name, inverseName: name,
                isToMany: inverseToMany, isOrdered: inverseToMany && choices.chance(40)))
    }

    mutating func firstVersion() -> LayoutModel {
        for _ in 0..<(1 + choices.int(5)) {
            model.entities.append(entity(parents: model.entities.map(\.name)))
        }
        for _ in 0..<choices.int(6) { addRelationship() }
        return model
    }

    // MARK: Edits

    private static func identifier(_ name: String, _ renamingIdentifier: String?) -> String {
        RenamingIdentifier.of(name: name, renamingIdentifier: renamingIdentifier)
    }

    /// Whether `candidate` is `entity` or one of its descendants.
    private func descends(_ candidate: String, from entity: String) -> Bool {
        var current: String? = candidate
        var steps = 0
        while let name = current, steps <= model.entities.count {
            if name == entity { return true }
            current = model.entities.first { $0.name == name }?.parentName
            steps += 1
        }
        return false
    }

    mutating func edit() {
        guard !model.entities.isEmpty else {
            model.entities.append(entity(parents: []))
            return
        }
        let index = choices.int(model.entities.count)
        let name = model.entities[index].name
        switch choices.int(15) {
        case 0:  // rename the entity, usually keeping its identity
            let renamed = freshEntityName()
            let keep = choices.chance(80)
            let old = model.entities[index]
            model.entities[index].name = renamed
            model.entities[index].renamingIdentifier = keep ? Self.identifier(old.name, old.renamingIdentifier) : nil
            for entityIndex in model.entities.indices {
                if model.entities[entityIndex].parentName == name { model.entities[entityIndex].parentName = renamed }
                for relationshipIndex in model.entities[entityIndex].relationships.indices
                where model.entities[entityIndex].relationships[relationshipIndex].destinationName == name {
                    model.entities[entityIndex].relationships[relationshipIndex].destinationName = renamed
                }
            }
        case 1:  // rename an attribute
            guard !model.entities[index].attributes.isEmpty else { return }
            let attributeIndex = choices.int(model.entities[index].attributes.count)
            let old = model.entities[index].attributes[attributeIndex]
            let renamed = freshPropertyName()
            model.entities[index].attributes[attributeIndex].name = renamed
            model.entities[index].attributes[attributeIndex].renamingIdentifier =
                choices.chance(85) ? Self.identifier(old.name, old.renamingIdentifier) : nil
            for fetchIndex in model.entities[index].fetchIndexes.indices {
                for element in model.entities[index].fetchIndexes[fetchIndex].elements.indices
                where model.entities[index].fetchIndexes[fetchIndex].elements[element].property == old.name {
                    model.entities[index].fetchIndexes[fetchIndex].elements[element].property = renamed
                }
            }
        case 2:  // rename a relationship (and the inverse's reference to it)
            guard !model.entities[index].relationships.isEmpty else { return }
            let relationshipIndex = choices.int(model.entities[index].relationships.count)
            let old = model.entities[index].relationships[relationshipIndex]
            let renamed = freshPropertyName()
            model.entities[index].relationships[relationshipIndex].name = renamed
            model.entities[index].relationships[relationshipIndex].renamingIdentifier =
                choices.chance(85) ? Self.identifier(old.name, old.renamingIdentifier) : nil
            if let inverse = old.inverseName,
                let destination = model.entities.firstIndex(where: {
                    $0.name == old.destinationName
                })
            {
                for other in model.entities[destination].relationships.indices
                where model.entities[destination].relationships[other].name == inverse
                    && model.entities[destination].relationships[other].inverseName == old.name
                {
                    model.entities[destination].relationships[other].inverseName = renamed
                }
            }
        case 3:  // add an attribute
            model.entities[index].attributes.append(attribute())
        case 4:  // remove an attribute (and the fetch index elements naming it)
            guard !model.entities[index].attributes.isEmpty else { return }
            let removed = model.entities[index].attributes.remove(
                at: choices.int(model.entities[index].attributes.count))
            for fetchIndex in model.entities[index].fetchIndexes.indices {
                model.entities[index].fetchIndexes[fetchIndex].elements.removeAll { $0.property == removed.name }
            }
            model.entities[index].fetchIndexes.removeAll { $0.elements.isEmpty }
        case 5:  // change an attribute's type
            guard !model.entities[index].attributes.isEmpty else { return }
            let attributeIndex = choices.int(model.entities[index].attributes.count)
            let type = choices.pick(storedTypes)
            model.entities[index].attributes[attributeIndex].type = type
            if model.entities[index].attributes[attributeIndex].defaultValue != nil {
                model.entities[index].attributes[attributeIndex].defaultValue = defaultValue(for: type)
            }
            if type != .binary {
                model.entities[index].attributes[attributeIndex].allowsExternalBinaryDataStorage = false
            }
        case 6:  // flags of an attribute
            guard !model.entities[index].attributes.isEmpty else { return }
            let attributeIndex = choices.int(model.entities[index].attributes.count)
            let type = model.entities[index].attributes[attributeIndex].type
            switch choices.int(5) {
            case 0: model.entities[index].attributes[attributeIndex].isOptional.toggle()
            case 1: model.entities[index].attributes[attributeIndex].defaultValue = defaultValue(for: type)
            case 2: model.entities[index].attributes[attributeIndex].defaultValue = nil
            case 3: model.entities[index].attributes[attributeIndex].isIndexed.toggle()
            default:
                model.entities[index].attributes[attributeIndex].allowsExternalBinaryDataStorage =
                    type == .binary && !model.entities[index].attributes[attributeIndex].allowsExternalBinaryDataStorage
            }
        case 7:  // add an entity
            model.entities.append(entity(parents: model.entities.map(\.name)))
        case 8:  // remove an entity: relationships to it go, its sub-entities move up
            let removed = model.entities.remove(at: index)
            for entityIndex in model.entities.indices {
                if model.entities[entityIndex].parentName == name {
                    model.entities[entityIndex].parentName = removed.parentName
                }
                model.entities[entityIndex].relationships.removeAll { $0.destinationName == name }
            }
        case 9:  // a new parent (or none), never a descendant
            let candidates = model.entities.map(\.name).filter { !descends($0, from: name) }
            model.entities[index].parentName = choices.chance(30) || candidates.isEmpty ? nil : choices.pick(candidates)
        case 10:  // to-one ↔ to-many, ordered or not
            guard !model.entities[index].relationships.isEmpty else { return }
            let relationshipIndex = choices.int(model.entities[index].relationships.count)
            if choices.chance(50) {
                model.entities[index].relationships[relationshipIndex].isToMany.toggle()
            }
            model.entities[index].relationships[relationshipIndex].isOrdered =
                model.entities[index].relationships[relationshipIndex].isToMany && choices.chance(50)
        case 11:
            addRelationship()
        case 12:  // remove a relationship; its inverse goes too or becomes one-sided
            guard !model.entities[index].relationships.isEmpty else { return }
            let removed = model.entities[index].relationships.remove(
                at: choices.int(model.entities[index].relationships.count))
            let both = choices.chance(50)
            for entityIndex in model.entities.indices where model.entities[entityIndex].name == removed.destinationName
            {
                if both {
                    model.entities[entityIndex].relationships.removeAll {
                        $0.name == removed.inverseName && $0.inverseName == removed.name
                    }
                } else {
                    for other in model.entities[entityIndex].relationships.indices
                    where model.entities[entityIndex].relationships[other].inverseName == removed.name {
                        model.entities[entityIndex].relationships[other].inverseName = nil
                    }
                }
            }
        case 13:
            model.entities[index].isAbstract.toggle()
        default:
            if model.entities[index].fetchIndexes.isEmpty || choices.chance(50) {
                var entity = model.entities[index]
                addFetchIndex(to: &entity)
                model.entities[index] = entity
            } else {
                model.entities[index].fetchIndexes.removeLast()
            }
        }
    }
}
