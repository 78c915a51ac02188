import DataModel
import DataModelNaming

/// A stored property of a generated runtime class that keeps one column of a fetched row (the runtime's
/// `FieldLayout`): the generated properties read it until the object's first change.
public struct FieldContext: Sendable, Hashable {
    /// The stored property's name (`_nameField`): the model name, which starts with a letter, between `_` and
    /// `Field`, so it never meets a generated property.
    public let fieldName: String
    /// Its type: `Swift.Int64` or `Swift.Double` for a field with a null bit, `Swift.Int64?`, `Swift.Double?`,
    /// `Swift.String?` or `Foundation.Data?` otherwise.
    public let fieldType: String
    /// The runtime's `FieldReader` and `FieldWriter` method that reads and writes it (`integer`, `real`, `text`,
    /// `blob`, `toOne`).
    public let fieldKind: String
    /// The property's index among the entity's attributes, or among its relationships, inherited ones first (the
    /// runtime's order).
    public let fieldIndex: Int
    /// The field's bit in the object's `fieldNulls`, set when its column was `NULL`: integer, real and to-one fields,
    /// numbered root class first in declaration order (a class's bits are its ancestors' bits and then its own), up
    /// to ``FieldPlanner/nullBitCount``. `nil` for the others, which keep an optional (a string or data optional
    /// takes no more room than the value).
    public let nullBit: Int?

    /// `, nullBit: 3` for a field with a null bit, empty for one without: what the runtime's field methods take after
    /// the field.
    public var nullBitArgument: String { nullBit.map { ", nullBit: \($0)" } ?? "" }

    init(fieldName: String, fieldKind: String, fieldIndex: Int, nullBit: Int?) {
        self.fieldName = fieldName
        self.fieldKind = fieldKind
        self.fieldIndex = fieldIndex
        self.nullBit = nullBit
        let type =
            switch fieldKind {
            case "integer", "toOne": "Swift.Int64"
            case "real": "Swift.Double"
            case "text": "Swift.String"
            default: "Foundation.Data"
            }
        // Qualified: an entity's class may be called `Data` or `String` (the fields are declared inside it).
        fieldType = nullBit == nil ? type + "?" : type
    }
}

/// An entity's fields: its own, and the whole lineage's in the runtime's order, with the layout the class reports.
struct EntityFields: Sendable {
    /// The fields the entity's class declares (its ancestors' classes declare theirs).
    var own: [FieldContext]
    /// Every field of the entity and its ancestors, root first: what the class reads and writes.
    var lineage: [FieldContext]
    /// `FieldLayout(attributes: [...], relationships: [...])`, one property a line.
    var layoutLiteral: String
    /// Whether a field of the lineage has a null bit (the class's `readFields` collects them).
    var hasNullBits: Bool { lineage.contains { $0.nullBit != nil } }
}

/// Decides which entities' generated classes keep fetched rows in fields, and names the fields.
///
/// An entity gets fields when both of its files are generated on every build (codegen `class`, runtime flavor: the
/// class file is regenerated with the properties that read it), its ancestors have fields, and each of its
/// properties can be read straight from one column the way the runtime reads it: no composite, object ID or
/// undefined attribute, no binary in Core Data's external-storage form, no to-one into an entity with
/// sub-entities (its row names the destination's entity). The runtime checks the layout against the store's
/// columns again and falls back to its own decoding when they disagree.
struct FieldPlanner {
    /// The bits of the runtime's `ManagedObject.fieldNulls`: a lineage's integer, real and to-one fields past these
    /// keep optionals.
    static let nullBitCount = 32

    let names: EntityNames
    /// Each entity's parent entity's name.
    let parents: [String?]
    /// Entities other entities inherit from.
    let parentNames: Set<String>

    private struct Plan {
        var attributes: [(name: String, kind: String, field: FieldContext?)]
        var relationships: [(name: String, kind: String, field: FieldContext?)]
        var own: [FieldContext]
        /// The null bits the lineage's classes use so far.
        var nullBits = 0

        /// The next null bit for a field of `kind`, if it takes one.
        mutating func nullBit(for kind: String) -> Int? {
            guard kind == "integer" || kind == "real" || kind == "toOne", nullBits < FieldPlanner.nullBitCount else {
                return nil
            }
            nullBits += 1
            return nullBits - 1
        }
    }

    /// Gives each entity of `parts` its fields, and each of their attributes and relationships its field.
    func assignFields(to parts: inout [EntityParts]) {
        var plans: [Int: Plan?] = [:]
        for index in parts.indices {
            guard let plan = plan(for: index, parts: parts, plans: &plans, visiting: []) else { continue }
            let lineage = (plan.attributes.compactMap(\.field) + plan.relationships.compactMap(\.field))
            guard !lineage.isEmpty else { continue }
            let attributes = plan.attributes.map { ".\($0.kind)(\(RuntimeContextBuilder.literal($0.name)))" }
            let relationships = plan.relationships.map { ".\($0.kind)(\(RuntimeContextBuilder.literal($0.name)))" }
            parts[index].fields = EntityFields(
                own: plan.own, lineage: lineage,
                layoutLiteral: "FieldLayout(\n            attributes: " + Self.listLiteral(attributes)
                    + ",\n            relationships: " + Self.listLiteral(relationships) + ")")
            let ownAttributes = plan.attributes.suffix(parts[index].attributes.count)
            parts[index].attributes = zip(parts[index].attributes, ownAttributes).map { $0.with(field: $1.field) }
            let ownRelationships = plan.relationships.suffix(parts[index].relationships.count)
            parts[index].relationships = zip(parts[index].relationships, ownRelationships).map {
                $0.with(field: $1.field)
            }
        }
    }

    private func plan(for index: Int, parts: [EntityParts], plans: inout [Int: Plan?], visiting: Set<Int>) -> Plan? {
        if let known = plans[index] { return known }
        let plan = makePlan(for: index, parts: parts, plans: &plans, visiting: visiting.union([index]))
        plans[index] = plan
        return plan
    }

    private func makePlan(for index: Int, parts: [EntityParts], plans: inout [Int: Plan?], visiting: Set<Int>)
        -> Plan?
    {
        let entity = parts[index]
        guard entity.generatesClass, ModelNaming.CodeGeneration(attributeValue: entity.codeGeneration) == .class,
            names.firstIndex[entity.entityName] == index
        else { return nil }
        var plan = Plan(attributes: [], relationships: [], own: [])
        if let parentName = parents[index] {
            guard let parent = names.firstIndex[parentName], !visiting.contains(parent),
                let inherited = self.plan(for: parent, parts: parts, plans: &plans, visiting: visiting)
            else { return nil }
            plan.attributes = inherited.attributes
            plan.relationships = inherited.relationships
            plan.nullBits = inherited.nullBits
        }
        for attribute in entity.attributes {
            guard let runtime = attribute.runtime, let kind = Self.kind(of: runtime) else { return nil }
            var field: FieldContext?
            if kind != "transient" {
                field = FieldContext(
                    fieldName: "_" + attribute.name + "Field", fieldKind: kind, fieldIndex: plan.attributes.count,
                    nullBit: plan.nullBit(for: kind))
            }
            if let field { plan.own.append(field) }
            plan.attributes.append((attribute.name, kind, field))
        }
        for relationship in entity.relationships {
            guard let runtime = relationship.runtime else { return nil }
            var kind = "toOne"
            if runtime.isTransient && !relationship.isToMany {
                kind = "transient"
            } else if relationship.isToMany {
                kind = "toMany"
            } else {
                let destination = relationship.destinationEntityName
                guard names.firstIndex[destination] != nil, !parentNames.contains(destination) else { return nil }
            }
            var field: FieldContext?
            if kind == "toOne" {
                let toOne = FieldContext(
                    fieldName: "_" + relationship.name + "Field", fieldKind: kind,
                    fieldIndex: plan.relationships.count, nullBit: plan.nullBit(for: kind))
                plan.own.append(toOne)
                field = toOne
            }
            plan.relationships.append((relationship.name, kind, field))
        }
        return plan
    }

    /// How an attribute's column is read into a field, `transient` for none, `nil` when it cannot be.
    private static func kind(of attribute: RuntimeAttributeContext) -> String? {
        if attribute.isTransient { return "transient" }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .boolean: return "integer"
        case .double, .float, .date: return "real"
        case .decimal, .string, .uri: return "text"
        case .binary: return attribute.allowsExternalBinaryDataStorage ? nil : "blob"
        case .uuid, .transformable: return "blob"
        case .composite, .objectID, .undefined: return nil
        }
    }

    /// `[]`, or the items one a line (a property added to the model adds one line), indented for the class body.
    private static func listLiteral(_ items: [String]) -> String {
        guard !items.isEmpty else { return "[]" }
        return "[\n" + items.map { "                " + $0 + ",\n" }.joined() + "            ]"
    }
}
