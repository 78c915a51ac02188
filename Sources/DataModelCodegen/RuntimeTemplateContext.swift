import DataModel
import DataModelStoreLayout
import Mustache

/// The keys only the `runtime` flavor's templates use: what `DataModelRuntime`'s model
/// description needs (as Swift literals) and which runtime accessor each property calls.
///
/// Built by ``RuntimeContextBuilder`` and merged into the entity, attribute and relationship
/// dictionaries templates see; documented in `Templates/README.md`.
public struct RuntimeEntityContext: Sendable, Hashable {
    /// The entity name as a Swift string literal (`"BusinessEntity"`).
    public var entityNameLiteral: String
    /// The parent entity's name as a Swift string literal, or `nil`.
    public var parentNameLiteral: String
    /// The class the model registers for the entity: the generated (or user-owned) class, or
    /// `ManagedObject` when no generated code refers to the class (a Manual/None entity whose
    /// objects are used through `ManagedObject`'s key-based accessors).
    public var objectTypeName: String
    /// `[["a", "b"]]`: the uniqueness constraints as a Swift literal.
    public var uniquenessConstraintsLiteral: String
    /// Fetch indexes.
    public var fetchIndexes: [RuntimeFetchIndexContext]
    /// Every property (inherited first) with a generated Swift property, for the key-path map.
    public var keyPathProperties: [RuntimeKeyPathContext]
    /// Whether the properties file declares `fetchRequest()`: only outside inheritance
    /// hierarchies, where it cannot be ambiguous (the runtime's `fetchRequest() -> FetchRequest<Self>`
    /// serves the others).
    public var declaresFetchRequest: Bool
    /// The model enum's function describing the entity (`describeBusinessEntity`): one small
    /// function per entity keeps the model file fast to type-check.
    public var describeFunctionName: String
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
    public var nameLiteral: String
    /// The `AttributeType` case (`integer16`, `string` …).
    public var runtimeAttributeType: String
    /// `value`, or `transformableValue` for `Codable` values: the getter the property calls.
    public var runtimeGetter: String
    /// `setValue` or `setTransformableValue`.
    public var runtimeSetter: String
    /// Whether the attribute is derived.
    public var isDerived: Bool
    /// Whether the attribute is indexed.
    public var isIndexed: Bool
    /// The default value text as a Swift string literal, or `nil`.
    public var defaultValueLiteral: String
    /// The minimum (value, length, or seconds since 2001) as a Swift literal, or `nil`.
    public var minValueLiteral: String
    /// The maximum, or `nil`.
    public var maxValueLiteral: String
    /// The regular expression as a Swift string literal, or `nil`.
    public var regularExpressionLiteral: String
    /// The arguments of `AttributeDescription(…)`, leaving out those equal to the initializer's defaults.
    public var descriptionArguments: String
}

/// A relationship's runtime keys.
public struct RuntimeRelationshipContext: Sendable, Hashable {
    /// The model name as a Swift string literal.
    public var nameLiteral: String
    /// The destination entity's name as a Swift string literal.
    public var destinationNameLiteral: String
    /// The inverse's name as a Swift string literal, or `nil`.
    public var inverseNameLiteral: String
    /// `toOne`, `toManySet` or `toManyArray`.
    public var runtimeGetter: String
    /// `setToOne`, `setToManySet` or `setToManyArray`.
    public var runtimeSetter: String
    /// The `DeleteRule` case (`nullify`, `cascade`, `deny`, `noAction`).
    public var deleteRule: String
    /// Whether it is transient.
    public var isTransient: Bool
    /// `minCount`, 0 when absent.
    public var minCount: Int
    /// `maxCount`, 0 when absent (unbounded).
    public var maxCount: Int
    /// The arguments of `RelationshipDescription(…)`, leaving out those equal to the initializer's defaults.
    public var descriptionArguments: String
}

/// Fills the runtime keys of a ``ModelContext``'s entities from the IR.
struct RuntimeContextBuilder {
    let model: ObjectModel

    /// Fills the entity-level runtime keys of `entities` (in `model.entities` order); the attribute and
    /// relationship keys are filled while their contexts are built.
    func enrich(_ entities: inout [EntityContext]) {
        var contextByName: [String: EntityContext] = [:]
        contextByName.reserveCapacity(entities.count)
        for context in entities where contextByName[context.entityName] == nil {
            contextByName[context.entityName] = context
        }
        // Classes generated code refers to: those it writes, their superclasses, and relationship destinations.
        var referenced: Set<String> = []
        for context in entities {
            if context.generatesClass { referenced.insert(context.superclassName) }
            if context.generatesClass || context.generatesProperties {
                referenced.insert(context.className)
                for relationship in context.relationships { referenced.insert(relationship.destinationClassName) }
            }
        }
        for index in entities.indices {
            guard let entity = model.entity(named: entities[index].entityName) else { continue }
            let runtime = entityContext(
                entity, context: entities[index], contexts: contextByName,
                isReferenced: referenced.contains(entities[index].className))
            entities[index].runtime = runtime
        }
    }

    private func entityContext(
        _ entity: Entity, context: EntityContext, contexts: [String: EntityContext], isReferenced: Bool
    ) -> RuntimeEntityContext {
        let hasClass = context.generatesClass || context.generatesProperties
        var keyPaths: [RuntimeKeyPathContext] = []
        if hasClass {
            for ancestor in model.ancestry(of: entity).reversed() {
                guard let ancestorContext = contexts[ancestor.name], ancestorContext.generatesProperties else {
                    continue
                }
                // The properties' runtime keys already hold their name literals.
                for attribute in ancestorContext.attributes {
                    keyPaths.append(
                        RuntimeKeyPathContext(
                            swiftName: attribute.swiftName,
                            nameLiteral: attribute.runtime?.nameLiteral ?? Self.literal(attribute.name)))
                }
                for relationship in ancestorContext.relationships {
                    keyPaths.append(
                        RuntimeKeyPathContext(
                            swiftName: relationship.swiftName,
                            nameLiteral: relationship.runtime?.nameLiteral ?? Self.literal(relationship.name)))
                }
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
            entityNameLiteral: Self.literal(entity.name),
            parentNameLiteral: entity.parentEntity.map(Self.literal) ?? "nil",
            objectTypeName: hasClass || isReferenced ? context.className : "ManagedObject",
            uniquenessConstraintsLiteral: "[" + constraints.joined(separator: ", ") + "]",
            fetchIndexes: fetchIndexes, keyPathProperties: keyPaths,
            declaresFetchRequest: !context.hasParent && !context.hasSubentities,
            describeFunctionName: "describe"
                + SwiftNaming.capitalized(Self.typeIdentifier(entity.name).drop { $0 == "_" }.description))
    }

    /// The runtime keys of an attribute; `usesCodable` says whether its value goes through `Codable` (an
    /// object ID, or a transformable of a `Codable` type: see ``SwiftTypeMapper``).
    static func attributeContext(_ attribute: Attribute, usesCodable: Bool) -> RuntimeAttributeContext {
        let isDate = attribute.type == .date
        let minimum = isDate ? attribute.minDateTimeInterval ?? attribute.minValueString : attribute.minValueString
        let maximum = isDate ? attribute.maxDateTimeInterval ?? attribute.maxValueString : attribute.maxValueString
        let defaultText =
            isDate ? attribute.defaultDateTimeInterval ?? attribute.defaultValueString : attribute.defaultValueString
        let nameLiteral = literal(attribute.name)
        let type = runtimeType(attribute.type)
        let defaultLiteral = defaultText.map(literal)
        let minimumLiteral = number(minimum)
        let maximumLiteral = number(maximum)
        let patternLiteral = attribute.regularExpressionString.map(literal)
        var arguments = StringBuilder(capacity: 192)
        arguments.append("name: ")
        arguments.append(nameLiteral)
        arguments.append(", type: .")
        arguments.append(type)
        if !attribute.isOptional { arguments.append(", isOptional: false") }
        if attribute.isTransient { arguments.append(", isTransient: true") }
        if attribute.isDerived { arguments.append(", isDerived: true") }
        if attribute.isIndexed { arguments.append(", isIndexed: true") }
        if let defaultLiteral {
            arguments.append(", defaultValue: ")
            arguments.append(defaultLiteral)
        }
        if minimum != nil {
            arguments.append(", minValue: ")
            arguments.append(minimumLiteral)
        }
        if maximum != nil {
            arguments.append(", maxValue: ")
            arguments.append(maximumLiteral)
        }
        if let patternLiteral {
            arguments.append(", regularExpression: ")
            arguments.append(patternLiteral)
        }
        return RuntimeAttributeContext(
            nameLiteral: nameLiteral, runtimeAttributeType: type,
            runtimeGetter: usesCodable ? "transformableValue" : "value",
            runtimeSetter: usesCodable ? "setTransformableValue" : "setValue",
            isDerived: attribute.isDerived, isIndexed: attribute.isIndexed,
            defaultValueLiteral: defaultLiteral ?? "nil",
            minValueLiteral: minimumLiteral, maxValueLiteral: maximumLiteral,
            regularExpressionLiteral: patternLiteral ?? "nil",
            descriptionArguments: arguments.string)
    }

    static func relationshipContext(_ relationship: Relationship) -> RuntimeRelationshipContext {
        let accessor =
            !relationship.isToMany ? "ToOne" : relationship.isOrdered ? "ToManyArray" : "ToManySet"
        let deleteRule: String
        switch relationship.deletionRule {
        case .nullify: deleteRule = "nullify"
        case .cascade: deleteRule = "cascade"
        case .deny: deleteRule = "deny"
        case .noAction: deleteRule = "noAction"
        }
        let nameLiteral = literal(relationship.name)
        let destinationLiteral = literal(relationship.destinationEntity)
        let inverseLiteral = relationship.inverseName.map(literal)
        var arguments = StringBuilder(capacity: 224)
        arguments.append("name: ")
        arguments.append(nameLiteral)
        arguments.append(", destinationEntityName: ")
        arguments.append(destinationLiteral)
        if let inverseLiteral {
            arguments.append(", inverseName: ")
            arguments.append(inverseLiteral)
        }
        if relationship.isToMany { arguments.append(", isToMany: true") }
        if relationship.isToMany && relationship.isOrdered { arguments.append(", isOrdered: true") }
        if !relationship.isOptional { arguments.append(", isOptional: false") }
        if relationship.isTransient { arguments.append(", isTransient: true") }
        if deleteRule != "nullify" {
            arguments.append(", deleteRule: .")
            arguments.append(deleteRule)
        }
        if let minimum = relationship.minCount, minimum != 0 {
            arguments.append(", minCount: ")
            arguments.append(String(minimum))
        }
        if let maximum = relationship.maxCount, maximum != 0 {
            arguments.append(", maxCount: ")
            arguments.append(String(maximum))
        }
        let getter: String
        switch accessor {
        case "ToOne": getter = "toOne"
        case "ToManyArray": getter = "toManyArray"
        default: getter = "toManySet"
        }
        return RuntimeRelationshipContext(
            nameLiteral: nameLiteral, destinationNameLiteral: destinationLiteral,
            inverseNameLiteral: inverseLiteral ?? "nil", runtimeGetter: getter, runtimeSetter: "set" + accessor,
            deleteRule: deleteRule, isTransient: relationship.isTransient, minCount: relationship.minCount ?? 0,
            maxCount: relationship.maxCount ?? 0, descriptionArguments: arguments.string)
    }

    /// The runtime's `AttributeType` case for a model type.
    static func runtimeType(_ type: AttributeType) -> String {
        switch type {
        case .integer16: "integer16"
        case .integer32: "integer32"
        case .integer64: "integer64"
        case .decimal: "decimal"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .boolean: "boolean"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .transformable: "transformable"
        case .objectID: "objectID"
        case .composite: "composite"
        case .undefined: "undefined"
        }
    }

    /// The class of `entity` in the runtime flavor: its class name, or the entity name when the
    /// model names `NSManagedObject` (what older Xcode wrote for "no custom class").
    static func runtimeClassName(of entity: Entity) -> String {
        entity.className == "NSManagedObject" ? entity.name : entity.className
    }

    /// `name` made a Swift identifier: characters other than letters, digits and `_` become
    /// `_`, and a leading digit gets a `_` before it (`151-ordered` → `_151_ordered`).
    static func typeIdentifier(_ name: String) -> String {
        if let first = name.utf8.first, !Self.isASCIIDigit(first),
            UTF8Scan.allSatisfy(name, { Self.isASCIIDigit($0) || Self.isASCIILetter($0) || $0 == UInt8(ascii: "_") })
        {
            return name
        }
        var result = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if result.first?.isNumber ?? true { result = "_" + result }
        return result
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// `text` as a Swift string literal, with `\`, `"` and control characters escaped.
    static func literal(_ text: String) -> String {
        // Control characters are single bytes below 0x20 in UTF-8: no other byte is below 0x20.
        if !UTF8Scan.contains(text, where: { $0 < 0x20 || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) {
            return StringConcat.concat("\"", text, "\"")
        }
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

    /// A number from the model as a Swift `Double` literal, or `nil` when absent or not a number.
    static func number(_ text: String?) -> String {
        guard let text, let value = Double(text), value.isFinite else { return "nil" }
        return String(value)
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
    static func runtimeTransformableType(_ attribute: Attribute) -> String? {
        guard let custom = attribute.customClassName, !custom.isEmpty else { return nil }
        let name = custom.split(separator: ".").last.map(String.init) ?? custom
        if name.isEmpty || nonCodableTransformableClasses.contains(name) { return nil }
        let frameworkPrefixes = ["NS", "UI", "CL", "MK", "CG", "CI", "CK", "AV", "PH", "SK", "SC"]
        if name.count > 2, frameworkPrefixes.contains(String(name.prefix(2))),
            name.dropFirst(2).first?.isUppercase == true
        {
            return nil
        }
        return name
    }
}
