import DataModel
import DataModelNaming
import DataModelStoreLayout
import Mustache

/// The keys only the `runtime` flavor's templates use: what `DataModelRuntime`'s model
/// description needs (as Swift literals) and which runtime accessor each property calls.
///
/// Built by ``RuntimeContextBuilder`` and answered by the entity, attribute and relationship
/// contexts templates see; documented in `Templates/README.md`. Literals a template uses once (in the
/// model file) are made when asked for.
public struct RuntimeEntityContext: Sendable {
    /// The entity's name.
    let entityName: String
    /// The parent entity's name, if any.
    let parentName: String?
    /// The class the model registers for the entity: the generated (or user-owned) class, or
    /// `ManagedObject` when no generated code refers to the class (a Manual/None entity whose
    /// objects are used through `ManagedObject`'s key-based accessors).
    public let objectTypeName: String
    /// `[["a", "b"]]`: the uniqueness constraints as a Swift literal.
    public let uniquenessConstraintsLiteral: String
    /// Fetch indexes.
    public let fetchIndexes: [RuntimeFetchIndexContext]
    /// The properties of the entity and its ancestors with generated Swift properties, root first.
    let keyPathSources: [KeyPathSource]
    /// Whether the properties file declares `fetchRequest()`: only outside inheritance
    /// hierarchies, where it cannot be ambiguous (the runtime's `fetchRequest() -> FetchRequest<Self>`
    /// serves the others).
    public let declaresFetchRequest: Bool
    /// The model enum's function describing the entity (`describeBusinessEntity`): one small
    /// function per entity keeps the model file fast to type-check.
    public let describeFunctionName: String
    /// The renaming identifier (`elementID`), for migration.
    let renamingIdentifier: String?

    /// The entity name as a Swift string literal (`"BusinessEntity"`).
    public var entityNameLiteral: String { RuntimeContextBuilder.literal(entityName) }
    /// The parent entity's name as a Swift string literal, or `nil`.
    public var parentNameLiteral: String { parentName.map(RuntimeContextBuilder.literal) ?? "nil" }
    /// Every property (inherited first) with a generated Swift property, for the key-path map.
    public var keyPathProperties: [RuntimeKeyPathContext] {
        var properties: [RuntimeKeyPathContext] = []
        for source in keyPathSources {
            for attribute in source.attributes {
                properties.append(
                    RuntimeKeyPathContext(
                        swiftName: attribute.swiftName,
                        nameLiteral: attribute.runtime?.nameLiteral ?? RuntimeContextBuilder.literal(attribute.name)))
            }
            for relationship in source.relationships {
                properties.append(
                    RuntimeKeyPathContext(
                        swiftName: relationship.swiftName,
                        nameLiteral: relationship.runtime?.nameLiteral
                            ?? RuntimeContextBuilder.literal(relationship.name)))
            }
        }
        return properties
    }

    /// Writes one of the runtime text keys straight into a template's output.
    func writeText(for key: EntityContext.Key, to output: inout MustacheOutputBuffer) {
        switch key {
        case .entityNameLiteral: output.appendLiteral(entityName)
        case .parentNameLiteral:
            if let parentName { output.appendLiteral(parentName) } else { output.append("nil" as StaticString) }
        case .objectTypeName: output.append(objectTypeName)
        case .uniquenessConstraintsLiteral: output.append(uniquenessConstraintsLiteral)
        case .describeFunctionName: output.append(describeFunctionName)
        case .renamingIdentifierLiteral: if let renamingIdentifier { output.appendLiteral(renamingIdentifier) }
        default: break
        }
    }

    /// The properties one entity contributes to the key-path maps of itself and its sub-entities.
    struct KeyPathSource: Sendable {
        var attributes: [AttributeContext]
        var relationships: [RelationshipContext]
    }
}

/// A fetch index as a literal.
public struct RuntimeFetchIndexContext: Sendable, Hashable {
    /// The index name as a Swift string literal.
    public var nameLiteral: String
    /// `[.init(property: "a", isAscending: true), …]`.
    public var elementsLiteral: String
}

/// One entry of an entity's key-path → property-name map.
public struct RuntimeKeyPathContext: Sendable, Hashable {
    /// The Swift property name, escaped.
    public var swiftName: String
    /// The model name as a Swift string literal.
    public var nameLiteral: String
}

/// An attribute's runtime keys.
public struct RuntimeAttributeContext: Sendable, Hashable {
    /// The model name as a Swift string literal.
    public let nameLiteral: String
    /// The model type.
    let type: AttributeType
    /// Whether the value goes through `Codable` (see ``SwiftTypeMapper``).
    let usesCodable: Bool
    /// Whether the model marks the attribute optional and transient.
    let isOptional: Bool
    let isTransient: Bool
    /// Whether the attribute is derived.
    public let isDerived: Bool
    /// A derived attribute's expression.
    let derivationExpression: String?
    /// Whether the attribute is indexed.
    public let isIndexed: Bool
    /// The default value and the bounds, parsed by the one ``AttributeValueParser`` (the
    /// `…DateTimeInterval` texts for dates); `nil` when absent or invalid (the validator warns).
    let defaultValue: AttributeValue?
    let minimum: Double?
    let maximum: Double?
    let regularExpression: String?
    /// The renaming identifier (`elementID`), for migration.
    let renamingIdentifier: String?
    /// `allowsExternalBinaryDataStorage="YES"` on a Binary attribute.
    let allowsExternalBinaryDataStorage: Bool

    /// The runtime keys of an attribute; `usesCodable` says whether its value goes through `Codable` (an
    /// object ID, or a transformable of a `Codable` type: see ``SwiftTypeMapper``).
    init(_ attribute: UnsafePointer<Attribute>, usesCodable: Bool) {
        // Fields are read in place: copying an `Attribute` retains each of its many fields.
        nameLiteral = RuntimeContextBuilder.literal(attribute.pointee.name)
        type = attribute.pointee.type
        self.usesCodable = usesCodable
        isOptional = attribute.pointee.isOptional
        isTransient = attribute.pointee.isTransient
        isDerived = attribute.pointee.isDerived
        derivationExpression = attribute.pointee.derivationExpression
        isIndexed = attribute.pointee.isIndexed
        allowsExternalBinaryDataStorage =
            attribute.pointee.type == .binary && attribute.pointee.allowsExternalBinaryDataStorage
        let valueType = attribute.pointee.type
        func parsed(_ role: AttributeValueRole) -> AttributeValue? {
            attribute.pointee.valueText(role).flatMap {
                AttributeValueParser.parse($0, as: valueType, role: role).value
            }
        }
        defaultValue = parsed(.defaultValue)
        minimum = parsed(.minimum)?.number
        maximum = parsed(.maximum)?.number
        regularExpression = attribute.pointee.regularExpressionString
        renamingIdentifier = attribute.pointee.renamingIdentifier
    }

    /// The `AttributeType` case (`integer16`, `string` …).
    public var runtimeAttributeType: String { type.caseName }
    /// `value`, or `transformableValue` for `Codable` values: the getter the property calls.
    public var runtimeGetter: String { usesCodable ? "transformableValue" : "value" }
    /// `setValue` or `setTransformableValue`.
    public var runtimeSetter: String { usesCodable ? "setTransformableValue" : "setValue" }
    /// The default value as a typed `AttributeValue` literal (`.integer(5)`, `.string("x")`), or `nil`.
    public var defaultValueLiteral: String { defaultValue.map(RuntimeContextBuilder.valueLiteral) ?? "nil" }
    /// The minimum (value, length, or seconds since 2001) as a Swift literal, or `nil`.
    public var minValueLiteral: String { minimum.map { String($0) } ?? "nil" }
    /// The maximum, or `nil`.
    public var maxValueLiteral: String { maximum.map { String($0) } ?? "nil" }
    /// The regular expression as a Swift string literal, or `nil`.
    public var regularExpressionLiteral: String { regularExpression.map(RuntimeContextBuilder.literal) ?? "nil" }

    /// The arguments of `AttributeDescription(…)`, leaving out those equal to the initializer's defaults.
    public var descriptionArguments: String {
        MustacheOutputBuffer.text(capacity: 96) { writeDescriptionArguments(to: &$0) }
    }

    /// Writes ``descriptionArguments``.
    func writeDescriptionArguments(to arguments: inout MustacheOutputBuffer) {
        arguments.append("name: " as StaticString)
        arguments.append(nameLiteral)
        arguments.append(", type: ." as StaticString)
        arguments.append(runtimeAttributeType)
        if !isOptional { arguments.append(", isOptional: false" as StaticString) }
        if isTransient { arguments.append(", isTransient: true" as StaticString) }
        if isDerived { arguments.append(", isDerived: true" as StaticString) }
        if isDerived, let derivationExpression {
            arguments.append(", derivationExpression: " as StaticString)
            arguments.appendLiteral(derivationExpression)
        }
        if isIndexed { arguments.append(", isIndexed: true" as StaticString) }
        if let defaultValue {
            arguments.append(", defaultValue: " as StaticString)
            arguments.append(RuntimeContextBuilder.valueLiteral(defaultValue))
        }
        if minimum != nil {
            arguments.append(", minValue: " as StaticString)
            arguments.append(minValueLiteral)
        }
        if maximum != nil {
            arguments.append(", maxValue: " as StaticString)
            arguments.append(maxValueLiteral)
        }
        if let regularExpression {
            arguments.append(", regularExpression: " as StaticString)
            arguments.appendLiteral(regularExpression)
        }
        if let renamingIdentifier {
            arguments.append(", renamingIdentifier: " as StaticString)
            arguments.appendLiteral(renamingIdentifier)
        }
        if allowsExternalBinaryDataStorage {
            arguments.append(", allowsExternalBinaryDataStorage: true" as StaticString)
        }
    }

    /// Writes one of the runtime text keys straight into a template's output.
    func writeText(for key: AttributeContext.Key, to output: inout MustacheOutputBuffer) {
        switch key {
        case .nameLiteral: output.append(nameLiteral)
        case .runtimeAttributeType: output.append(runtimeAttributeType)
        case .runtimeGetter: output.append(runtimeGetter)
        case .runtimeSetter: output.append(runtimeSetter)
        case .defaultValueLiteral:
            output.append(defaultValueLiteral)
        case .minValueLiteral: output.append(minValueLiteral)
        case .maxValueLiteral: output.append(maxValueLiteral)
        case .regularExpressionLiteral:
            if let regularExpression {
                output.appendLiteral(regularExpression)
            } else {
                output.append("nil" as StaticString)
            }
        case .descriptionArguments: writeDescriptionArguments(to: &output)
        default: break
        }
    }
}

/// A relationship's runtime keys.
public struct RuntimeRelationshipContext: Sendable, Hashable {
    /// The model name as a Swift string literal.
    public let nameLiteral: String
    /// The destination entity's name and the inverse's name.
    let destinationName: String
    let inverseName: String?
    /// The relationship's kind and flags.
    let isToMany: Bool
    let isOrdered: Bool
    let isOptional: Bool
    /// Whether it is transient.
    public let isTransient: Bool
    let deletionRule: DeleteRule
    /// `minCount`, 0 when absent.
    public let minCount: Int
    /// `maxCount`, 0 when absent (unbounded).
    public let maxCount: Int
    /// The renaming identifier (`elementID`), for migration.
    let renamingIdentifier: String?
    /// Whether a to-many property has Xcode's type (`NSSet?`, `NSOrderedSet?`: `--xcode-compatible`).
    let usesXcodeTypes: Bool

    init(_ relationship: UnsafePointer<Relationship>, usesXcodeTypes: Bool = false) {
        self.usesXcodeTypes = usesXcodeTypes
        nameLiteral = RuntimeContextBuilder.literal(relationship.pointee.name)
        destinationName = relationship.pointee.destinationEntity
        inverseName = relationship.pointee.inverseName
        isToMany = relationship.pointee.isToMany
        isOrdered = relationship.pointee.isToMany && relationship.pointee.isOrdered
        isOptional = relationship.pointee.isOptional
        isTransient = relationship.pointee.isTransient
        deletionRule = relationship.pointee.deletionRule
        minCount = relationship.pointee.minCount ?? 0
        maxCount = relationship.pointee.maxCount ?? 0
        renamingIdentifier = relationship.pointee.renamingIdentifier
    }

    /// The destination entity's name as a Swift string literal.
    public var destinationNameLiteral: String { RuntimeContextBuilder.literal(destinationName) }
    /// The inverse's name as a Swift string literal, or `nil`.
    public var inverseNameLiteral: String { inverseName.map(RuntimeContextBuilder.literal) ?? "nil" }
    /// `toOne`, `toManySet` or `toManyArray`; with `--xcode-compatible`, `toManyNSSet` or `toManyNSOrderedSet`.
    public var runtimeGetter: String {
        if !isToMany { return "toOne" }
        if usesXcodeTypes { return isOrdered ? "toManyNSOrderedSet" : "toManyNSSet" }
        return isOrdered ? "toManyArray" : "toManySet"
    }
    /// `setToOne`, `setToManySet` or `setToManyArray`; with `--xcode-compatible`, `setToManyNSSet` or
    /// `setToManyNSOrderedSet`.
    public var runtimeSetter: String { "set" + ModelNaming.capitalized(runtimeGetter) }
    /// The `DeleteRule` case (`nullify`, `cascade`, `deny`, `noAction`).
    public var deleteRule: String { deletionRule.caseName }

    /// The arguments of `RelationshipDescription(…)`, leaving out those equal to the initializer's defaults.
    public var descriptionArguments: String {
        MustacheOutputBuffer.text(capacity: 128) { writeDescriptionArguments(to: &$0) }
    }

    /// Writes ``descriptionArguments``.
    func writeDescriptionArguments(to arguments: inout MustacheOutputBuffer) {
        arguments.append("name: " as StaticString)
        arguments.append(nameLiteral)
        arguments.append(", destinationEntityName: " as StaticString)
        arguments.appendLiteral(destinationName)
        if let inverseName {
            arguments.append(", inverseName: " as StaticString)
            arguments.appendLiteral(inverseName)
        }
        if isToMany { arguments.append(", isToMany: true" as StaticString) }
        if isOrdered { arguments.append(", isOrdered: true" as StaticString) }
        if !isOptional { arguments.append(", isOptional: false" as StaticString) }
        if isTransient { arguments.append(", isTransient: true" as StaticString) }
        if deletionRule != .nullify {
            arguments.append(", deleteRule: ." as StaticString)
            arguments.append(deleteRule)
        }
        if minCount != 0 {
            arguments.append(", minCount: " as StaticString)
            arguments.append(String(minCount))
        }
        if maxCount != 0 {
            arguments.append(", maxCount: " as StaticString)
            arguments.append(String(maxCount))
        }
        if let renamingIdentifier {
            arguments.append(", renamingIdentifier: " as StaticString)
            arguments.appendLiteral(renamingIdentifier)
        }
    }

    /// Writes one of the runtime text keys straight into a template's output.
    func writeText(for key: RelationshipContext.Key, to output: inout MustacheOutputBuffer) {
        switch key {
        case .nameLiteral: output.append(nameLiteral)
        case .destinationNameLiteral: output.appendLiteral(destinationName)
        case .inverseNameLiteral:
            if let inverseName { output.appendLiteral(inverseName) } else { output.append("nil" as StaticString) }
        case .runtimeGetter: output.append(runtimeGetter)
        case .runtimeSetter: output.append(runtimeSetter)
        case .deleteRule: output.append(deleteRule)
        case .descriptionArguments: writeDescriptionArguments(to: &output)
        default: break
        }
    }
}

/// Builds the runtime keys of a model's entities from the IR.
struct RuntimeContextBuilder {
    let model: ObjectModel
    let names: EntityNames

    /// The runtime keys of each entity (in `model.entities` order), given every entity's other keys.
    ///
    /// Like the rest of the context, an entity's model facts (parent, constraints, indexes, ancestors) come
    /// from the first entity of its name.
    func entityContexts(_ parts: [EntityParts]) -> [RuntimeEntityContext] {
        // Classes generated code refers to: those it writes, their superclasses, and relationship destinations.
        var referenced: Set<String> = []
        for entity in parts {
            if entity.generatesClass { referenced.insert(entity.superclassName) }
            if entity.generatesClass || entity.generatesProperties {
                referenced.insert(entity.className)
                for relationship in entity.relationships { referenced.insert(relationship.destinationClassName) }
            }
        }
        return model.entities.withUnsafeBufferPointer { entities in
            parts.indices.map { index in
                let source = names.firstIndex[parts[index].entityName] ?? index
                return entityContext(
                    entities[source], index: source, parts: parts[index], allParts: parts, entities: entities,
                    isReferenced: referenced.contains(parts[index].className))
            }
        }
    }

    private func entityContext(
        _ entity: borrowing Entity, index: Int, parts: EntityParts, allParts: [EntityParts],
        entities: UnsafeBufferPointer<Entity>, isReferenced: Bool
    ) -> RuntimeEntityContext {
        let hasClass = parts.generatesClass || parts.generatesProperties
        var keyPathSources: [RuntimeEntityContext.KeyPathSource] = []
        if hasClass {
            for ancestor in ancestry(of: index, in: entities).reversed() where allParts[ancestor].generatesProperties {
                keyPathSources.append(
                    .init(attributes: allParts[ancestor].attributes, relationships: allParts[ancestor].relationships))
            }
        }
        let constraints = entity.uniquenessConstraints.map { constraint in
            "[" + constraint.properties.map(Self.literal).joined(separator: ", ") + "]"
        }
        let fetchIndexes = entity.fetchIndexes.map { index in
            RuntimeFetchIndexContext(
                nameLiteral: Self.literal(index.name),
                elementsLiteral: "["
                    + index.elements.map {
                        ".init(property: \(Self.literal($0.property)), isAscending: \($0.isAscending))"
                    }
                    .joined(separator: ", ") + "]")
        }
        return RuntimeEntityContext(
            entityName: entity.name, parentName: entity.parentEntity,
            objectTypeName: hasClass || isReferenced ? parts.className : "ManagedObject",
            uniquenessConstraintsLiteral: constraints.isEmpty ? "[]" : "[" + constraints.joined(separator: ", ") + "]",
            fetchIndexes: fetchIndexes, keyPathSources: keyPathSources,
            declaresFetchRequest: !parts.hasParent && !parts.hasSubentities,
            describeFunctionName: ModelNaming.describeFunctionName(entityName: entity.name),
            renamingIdentifier: entity.renamingIdentifier)
    }

    /// The indices of the chain of entities from the entity at `index` up to its root (the entity first), each
    /// the first of its name. Stops at cycles and missing parents, like `ObjectModel.ancestry(of:)`.
    private func ancestry(of index: Int, in entities: UnsafeBufferPointer<Entity>) -> [Int] {
        var chain = [index]
        guard entities[index].parentEntity != nil else { return chain }
        var seen: Set<String> = [entities[index].name]
        var current = index
        while let parentName = entities[current].parentEntity, let parent = names.firstIndex[parentName],
            seen.insert(entities[parent].name).inserted
        {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// `text` as a Swift string literal, with `\\`, `"` and control characters escaped.
    static func literal(_ text: String) -> String {
        // Control characters are single bytes below 0x20 in UTF-8: no other byte is below 0x20.
        let quoted = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") {
                return nil
            }
            return String(unsafeUninitializedCapacity: bytes.count + 2) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                for (offset, byte) in bytes.enumerated() { buffer[offset + 1] = byte }
                buffer[bytes.count + 1] = UInt8(ascii: "\"")
                return bytes.count + 2
            }
        }
        if let quoted, let quoted { return quoted }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `value` as a Swift expression of the runtime's `AttributeValue` (`.integer(5)`, `.double(2.5)`).
    static func valueLiteral(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): ".integer(" + String(number) + ")"
        case .double(let number): ".double(" + String(number) + ")"
        case .decimal(let text): ".decimal(" + literal(text) + ")"
        case .boolean(let flag): flag ? ".boolean(true)" : ".boolean(false)"
        case .string(let text): ".string(" + literal(text) + ")"
        case .date(let seconds): ".date(" + String(seconds) + ")"
        case .uuid(let text): ".uuid(" + literal(text) + ")"
        }
    }
}

extension MustacheOutputBuffer {
    /// The text `write` writes, as a string: for the string form of a key whose text is written in place.
    static func text(capacity: Int = 64, _ write: (inout MustacheOutputBuffer) -> Void) -> String {
        var buffer = MustacheOutputBuffer(capacity: capacity)
        write(&buffer)
        return buffer.string
    }

    /// Appends `text` as a Swift string literal, as ``RuntimeContextBuilder/literal(_:)`` spells it.
    mutating func appendLiteral(_ text: String) {
        let isPlain =
            text.utf8.withContiguousStorageIfAvailable { source -> Bool in
                for byte in source where byte < 0x20 || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") {
                    return false
                }
                append(UInt8(ascii: "\""))
                append(source)
                append(UInt8(ascii: "\""))
                return true
            } ?? false
        if !isPlain { append(RuntimeContextBuilder.literal(text)) }
    }
}

extension SwiftTypeMapper {
    /// Objective-C classes that are not `Codable` in Swift: a transformable of one of these
    /// keeps its bytes as `Data` in the runtime flavor.
    static let nonCodableTransformableClasses: Set<String> = [
        "NSObject", "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSOrderedSet", "NSString", "NSNumber", "NSData", "NSValue", "NSAttributedString", "NSCoding",
        "NSSecureCoding", "UIColor", "NSColor", "UIImage", "NSImage", "CLLocation", "NSValueTransformer",
    ]

    /// The `Codable` Swift type of a transformable attribute in the runtime flavor, or `nil`
    /// when it is stored as plain `Data` (no custom class, or an Objective-C class).
    ///
    /// A module prefix is dropped (`.Dataset`, `MyApp.Dataset` → `Dataset`): generated code lives
    /// in the app's module. Apple framework classes (`NS…`, `UI…`, `CL…` and the like) are not
    /// `Codable`.
    static func runtimeTransformableType(_ attribute: borrowing Attribute) -> String? {
        guard let custom = attribute.customClassName, !custom.isEmpty else { return nil }
        guard let name = ModelNaming.unqualified(custom), !nonCodableTransformableClasses.contains(name) else {
            return nil
        }
        let frameworkPrefixes = ["NS", "UI", "CL", "MK", "CG", "CI", "CK", "AV", "PH", "SK", "SC"]
        if name.count > 2, frameworkPrefixes.contains(String(name.prefix(2))),
            name.dropFirst(2).first?.isUppercase == true
        {
            return nil
        }
        return name
    }
}
