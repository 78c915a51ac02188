import Foundation

/// Parses one `contents` file of an Xcode data model into an ``ObjectModel``.
///
/// Unknown elements and attributes are warnings, never failures: Xcode adds new ones every year.
public enum ModelParser {
    /// Parses model XML.
    ///
    /// - Parameters:
    ///   - data: The bytes of a `contents` file.
    ///   - file: The path used in diagnostics.
    ///   - modelName: The model's name (the bundle's name without extension).
    ///   - versionName: The version's name (the `.xcdatamodel` directory's name without extension).
    /// - Returns: The model and the warnings found; throws ``ModelLoadingError`` when the XML is unusable.
    public static func parse(
        _ data: Data, file: String, modelName: String, versionName: String, limits: XMLParsingLimits = .default
    ) throws(ModelLoadingError) -> (model: ObjectModel, diagnostics: [Diagnostic]) {
        let tree: XMLTree
        switch XMLTreeParser.parse(data, file: file, limits: limits) {
        case .success(let parsed): tree = parsed
        case .failure(let error): throw error
        }
        defer { ExitTeardown.keep(tree) }
        guard let root = tree.root() else {
            throw ModelLoadingError(
                .invalidModel,
                [.error("document has no root element", rule: "xml-malformed", at: SourceLocation(file: file))])
        }
        guard root.name == "model" else {
            throw ModelLoadingError(
                .invalidModel,
                [
                    .error(
                        "root element is <\(root.name)>, expected <model>: this is not a Core Data model",
                        rule: "wrong-root", at: root.location)
                ])
        }
        var reader = ElementReader()
        let model = reader.readModel(root, name: modelName, versionName: versionName)
        return (model, reader.diagnostics)
    }
}

/// Walks the element tree, building IR nodes and collecting warnings.
private struct ElementReader {
    var diagnostics: [Diagnostic] = []
    /// Attribute values of the element being read, indexed by ``XMLName`` raw value.
    private var scratch = [String?](repeating: nil, count: XMLName.allCases.count)
    private var touched: [Int] = []

    mutating func readModel(_ element: XMLElementNode, name: String, versionName: String) -> ObjectModel {
        check(element, known: XMLKeys.model)
        var metadata: [String: String] = [:]
        for attribute in element.attributes { metadata[attribute.name] = attribute.value }
        var model = ObjectModel(name: name, versionName: versionName, metadata: metadata, location: element.location)
        var entities: [Entity] = []
        for child in element.children {
            switch child.kind {
            case .entity?: entities.append(readEntity(child))
            case .fetchRequest?: model.fetchRequests.append(readFetchRequest(child))
            case .configuration?: model.configurations.append(readConfiguration(child))
            case .composite?: model.composites.append(readComposite(child))
            case .elements?: break
            default: unknownElement(child, in: "model")
            }
        }
        model.entities = entities
        return model
    }

    private mutating func readEntity(_ element: XMLElementNode) -> Entity {
        let values = read(element, as: EntityKey.self)
        var entity = Entity(name: required(values[.name], "name", of: element), location: element.location)
        entity.representedClassName = values[.representedClassName]
        entity.parentEntity = values[.parentEntity]
        entity.isAbstract = bool(values[.isAbstract], "isAbstract", of: element) ?? false
        entity.codeGenerationType = codeGeneration(values[.codeGenerationType], of: element)
        entity.syncable = bool(values[.syncable], "syncable", of: element)
        entity.renamingIdentifier = values[.elementID] ?? values[.renamingIdentifier]
        entity.versionHashModifier = values[.versionHashModifier]
        for child in element.children {
            switch child.kind {
            case .attribute?: entity.attributes.append(readAttribute(child))
            case .relationship?: entity.relationships.append(readRelationship(child))
            case .fetchedProperty?: entity.fetchedProperties.append(readFetchedProperty(child))
            case .userInfo?: entity.userInfo = readUserInfo(child)
            case .uniquenessConstraints?: entity.uniquenessConstraints += readUniquenessConstraints(child)
            case .fetchIndex?: entity.fetchIndexes.append(readFetchIndex(child))
            case .compoundIndexes?: entity.compoundIndexes += readCompoundIndexes(child)
            default: unknownElement(child, in: "entity")
            }
        }
        return entity
    }

    private mutating func codeGeneration(_ value: String?, of element: XMLElementNode) -> CodeGenerationType {
        guard let value else { return .manual }
        if let type = CodeGenerationType(rawValue: value), type != .manual { return type }
        diagnostics.append(
            .warning(
                "unknown codeGenerationType '\(value)'; treating the entity as Manual/None",
                rule: "invalid-attribute-value", at: element.location))
        return .manual
    }

    mutating func readAttribute(_ element: XMLElementNode) -> Attribute {
        let values = read(element, as: AttributeKey.self)
        var type = AttributeType.undefined
        if let typeName = values[.attributeType] {
            if let known = AttributeType(rawValue: typeName) {
                type = known
            } else {
                diagnostics.append(
                    .error("unknown attribute type '\(typeName)'", rule: "unknown-attribute-type", at: element.location)
                )
            }
        }
        var attribute = Attribute(
            name: required(values[.name], "name", of: element), type: type, location: element.location)
        attribute.isOptional = bool(values[.optional], "optional", of: element) ?? false
        attribute.isTransient = bool(values[.transient], "transient", of: element) ?? false
        attribute.isDerived = bool(values[.derived], "derived", of: element) ?? false
        attribute.derivationExpression = values[.derivationExpression]
        attribute.defaultValueString = values[.defaultValueString] ?? values[.defaultValue]
        attribute.defaultDateTimeInterval = values[.defaultDateTimeInterval]
        attribute.minValueString = values[.minValueString]
        attribute.maxValueString = values[.maxValueString]
        attribute.minDateTimeInterval = values[.minDateTimeInterval]
        attribute.maxDateTimeInterval = values[.maxDateTimeInterval]
        attribute.regularExpressionString = values[.regularExpressionString]
        attribute.usesScalarValueType = bool(values[.usesScalarValueType], "usesScalarValueType", of: element)
        attribute.allowsExternalBinaryDataStorage =
            bool(values[.allowsExternalBinaryDataStorage], "allowsExternalBinaryDataStorage", of: element) ?? false
        attribute.preserveAfterDeletion =
            bool(values[.preserveAfterDeletion], "preserveAfterDeletion", of: element) ?? false
        attribute.allowsCloudEncryption =
            bool(values[.allowsCloudEncryption], "allowsCloudEncryption", of: element) ?? false
        attribute.spotlightIndexingEnabled =
            bool(values[.spotlightIndexingEnabled], "spotlightIndexingEnabled", of: element)
            ?? bool(values[.indexedBySpotlight], "indexedBySpotlight", of: element) ?? false
        attribute.storedInTruthFile = bool(values[.storedInTruthFile], "storedInTruthFile", of: element) ?? false
        attribute.isIndexed = bool(values[.indexed], "indexed", of: element) ?? false
        attribute.syncable = bool(values[.syncable], "syncable", of: element)
        attribute.valueTransformerName = values[.valueTransformerName]
        attribute.customClassName = values[.customClassName]
        attribute.composite = values[.composite]
        attribute.renamingIdentifier = values[.elementID] ?? values[.renamingIdentifier]
        attribute.versionHashModifier = values[.versionHashModifier]
        for child in element.children {
            switch child.kind {
            case .userInfo?: attribute.userInfo = readUserInfo(child)
            default: unknownElement(child, in: "attribute")
            }
        }
        return attribute
    }

    private mutating func readRelationship(_ element: XMLElementNode) -> Relationship {
        let values = read(element, as: RelationshipKey.self)
        var relationship = Relationship(
            name: required(values[.name], "name", of: element), destinationEntity: values[.destinationEntity] ?? "",
            location: element.location)
        relationship.inverseName = values[.inverseName]
        relationship.inverseEntity = values[.inverseEntity]
        relationship.isToMany = bool(values[.toMany], "toMany", of: element) ?? false
        relationship.isOrdered = bool(values[.ordered], "ordered", of: element) ?? false
        if let rule = values[.deletionRule] {
            if let parsed = DeletionRule(rawValue: rule) {
                relationship.deletionRule = parsed
            } else {
                diagnostics.append(
                    .error("unknown deletion rule '\(rule)'", rule: "invalid-attribute-value", at: element.location))
            }
        }
        relationship.minCount = integer(values[.minCount], "minCount", of: element)
        relationship.maxCount = integer(values[.maxCount], "maxCount", of: element)
        relationship.isOptional = bool(values[.optional], "optional", of: element) ?? false
        relationship.isTransient = bool(values[.transient], "transient", of: element) ?? false
        relationship.isIndexed = bool(values[.indexed], "indexed", of: element) ?? false
        relationship.syncable = bool(values[.syncable], "syncable", of: element)
        relationship.renamingIdentifier = values[.elementID] ?? values[.renamingIdentifier]
        relationship.versionHashModifier = values[.versionHashModifier]
        for child in element.children {
            switch child.kind {
            case .userInfo?: relationship.userInfo = readUserInfo(child)
            default: unknownElement(child, in: "relationship")
            }
        }
        return relationship
    }

    private mutating func readFetchedProperty(_ element: XMLElementNode) -> FetchedProperty {
        check(element, known: XMLKeys.fetchedProperty)
        var property = FetchedProperty(name: required("name", of: element), location: element.location)
        property.isOptional = bool("optional", of: element) ?? false
        for child in element.children {
            switch child.kind {
            case .fetchRequest?: property.fetchRequest = readFetchRequest(child)
            case .userInfo?: property.userInfo = readUserInfo(child)
            default: unknownElement(child, in: "fetchedProperty")
            }
        }
        return property
    }

    private mutating func readFetchRequest(_ element: XMLElementNode) -> FetchRequestTemplate {
        check(element, known: XMLKeys.fetchRequest)
        var options: [String: String] = [:]
        for attribute in element.attributes where !["name", "entity", "predicateString"].contains(attribute.name) {
            options[attribute.name] = attribute.value
        }
        for child in element.children { unknownElement(child, in: "fetchRequest") }
        return FetchRequestTemplate(
            name: element.attribute("name") ?? "", entity: element.attribute("entity") ?? "",
            predicateString: element.attribute("predicateString"), options: options, location: element.location)
    }

    private mutating func readConfiguration(_ element: XMLElementNode) -> Configuration {
        check(element, known: XMLKeys.configuration)
        var configuration = Configuration(name: required("name", of: element), location: element.location)
        configuration.usedWithCloudKit = bool("usedWithCloudKit", of: element) ?? false
        for child in element.children {
            if child.kind == .memberEntity {
                check(child, known: ["name"])
                configuration.memberEntities.append(child.attribute("name") ?? "")
            } else {
                unknownElement(child, in: "configuration")
            }
        }
        return configuration
    }

    private mutating func readComposite(_ element: XMLElementNode) -> CompositeDefinition {
        check(element, known: ["name"])
        var attributes: [Attribute] = []
        for child in element.children {
            if child.kind == .attribute {
                attributes.append(readAttribute(child))
            } else {
                unknownElement(child, in: "composite")
            }
        }
        return CompositeDefinition(
            name: required("name", of: element), attributes: attributes, location: element.location)
    }

    private mutating func readUserInfo(_ element: XMLElementNode) -> UserInfo {
        check(element, known: [])
        var entries: UserInfo = []
        for child in element.children {
            guard child.kind == .entry else {
                unknownElement(child, in: "userInfo")
                continue
            }
            check(child, known: ["key", "value"])
            entries.append(
                UserInfoEntry(
                    key: child.attribute("key") ?? "", value: child.attribute("value") ?? "", location: child.location))
        }
        return entries
    }

    private mutating func readUniquenessConstraints(_ element: XMLElementNode) -> [UniquenessConstraint] {
        var constraints: [UniquenessConstraint] = []
        for child in element.children {
            guard child.kind == .uniquenessConstraint else {
                unknownElement(child, in: "uniquenessConstraints")
                continue
            }
            var properties: [String] = []
            for constraint in child.children {
                guard constraint.kind == .constraint else {
                    unknownElement(constraint, in: "uniquenessConstraint")
                    continue
                }
                check(constraint, known: ["value"])
                properties.append(constraint.attribute("value") ?? "")
            }
            constraints.append(UniquenessConstraint(properties: properties, location: child.location))
        }
        return constraints
    }

    private mutating func readFetchIndex(_ element: XMLElementNode) -> FetchIndex {
        check(element, known: ["name"])
        var elements: [FetchIndex.Element] = []
        for child in element.children {
            guard child.kind == .fetchIndexElement else {
                unknownElement(child, in: "fetchIndex")
                continue
            }
            check(child, known: ["property", "type", "order", "expression", "expressionType"])
            elements.append(
                FetchIndex.Element(
                    property: child.attribute("property") ?? child.attribute("expression") ?? "",
                    type: child.attribute("type") ?? "Binary",
                    isAscending: (child.attribute("order") ?? "ascending") != "descending", location: child.location))
        }
        return FetchIndex(name: required("name", of: element), elements: elements, location: element.location)
    }

    private mutating func readCompoundIndexes(_ element: XMLElementNode) -> [CompoundIndex] {
        var indexes: [CompoundIndex] = []
        for child in element.children {
            guard child.kind == .compoundIndex else {
                unknownElement(child, in: "compoundIndexes")
                continue
            }
            var properties: [String] = []
            for index in child.children {
                guard index.kind == .index else {
                    unknownElement(index, in: "compoundIndex")
                    continue
                }
                properties.append(index.attribute("value") ?? "")
            }
            indexes.append(CompoundIndex(properties: properties, location: child.location))
        }
        return indexes
    }

    // MARK: Attribute helpers

    private mutating func required(_ name: String, of element: XMLElementNode) -> String {
        required(element.attribute(name), name, of: element)
    }

    private mutating func required(_ value: String?, _ name: String, of element: XMLElementNode) -> String {
        if let value, !value.isEmpty { return value }
        let problem = value == nil ? "has no '\(name)' attribute" : "has an empty '\(name)' attribute"
        diagnostics.append(.error("<\(element.name)> \(problem)", rule: "missing-name", at: element.location))
        return value ?? ""
    }

    private mutating func bool(_ name: String, of element: XMLElementNode) -> Bool? {
        bool(element.attribute(name), name, of: element)
    }

    private mutating func bool(_ value: String?, _ name: String, of element: XMLElementNode) -> Bool? {
        guard let value else { return nil }
        if Self.hasBytes(value, "YES") { return true }
        if Self.hasBytes(value, "NO") { return false }
        switch value {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default:
            diagnostics.append(
                .warning(
                    "'\(name)' is '\(value)', expected YES or NO; ignoring it", rule: "invalid-attribute-value",
                    at: element.location))
            return nil
        }
    }

    /// Whether `value`'s bytes are exactly `literal`'s (no Unicode equivalence), compared in place.
    private static func hasBytes(_ value: String, _ literal: StaticString) -> Bool {
        guard value.utf8.count == literal.utf8CodeUnitCount else { return false }
        var value = value
        return value.withUTF8 { bytes in
            literal.withUTF8Buffer { expected in bytes.elementsEqual(expected) }
        }
    }

    private mutating func integer(_ value: String?, _ name: String, of element: XMLElementNode) -> Int? {
        guard let value else { return nil }
        if let number = Int(value) { return number }
        diagnostics.append(
            .error(
                "'\(name)' is '\(value)', expected an integer", rule: "invalid-attribute-value", at: element.location))
        return nil
    }

    /// Reads an element's attributes into the reusable scratch table, warning about unknown ones (one pass).
    ///
    /// The returned view stays valid until the next `read`: callers take every value before reading children.
    private mutating func read<Key: XMLAttributeKey>(_ element: XMLElementNode, as: Key.Type) -> XMLAttributeValues<Key>
    {
        for index in touched { scratch[index] = nil }
        touched.removeAll(keepingCapacity: true)
        let accepted = Key.accepted
        for attribute in element.keyedAttributes {
            if let known = attribute.kind, accepted[known.rawValue] {
                scratch[known.rawValue] = attribute.value
                touched.append(known.rawValue)
            } else {
                diagnostics.append(
                    .warning(
                        "unknown attribute '\(attribute.name)' on <\(element.name)>; ignoring it",
                        rule: "unknown-attribute", at: element.location))
            }
        }
        return XMLAttributeValues<Key>(scratch: scratch)
    }

    private mutating func check(_ element: XMLElementNode, known: Set<String>) {
        for attribute in element.attributes where !known.contains(attribute.name) {
            diagnostics.append(
                .warning(
                    "unknown attribute '\(attribute.name)' on <\(element.name)>; ignoring it",
                    rule: "unknown-attribute", at: element.location))
        }
    }

    private mutating func unknownElement(_ element: XMLElementNode, in parent: String) {
        diagnostics.append(
            .warning(
                "unknown element <\(element.name)> in <\(parent)>; ignoring it", rule: "unknown-element",
                at: element.location))
    }
}

/// The XML attribute names the parser knows, per element.
private enum XMLKeys {
    static let model: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion", "sourceLanguage",
        "userDefinedModelVersionIdentifier", "usedWithCloudKit", "usedWithSwiftData", "iOSVersion", "macOSVersion",
        "name",
    ]
    static let fetchedProperty: Set<String> = [
        "name", "optional", "syncable", "transient", "elementID", "renamingIdentifier", "versionHashModifier",
    ]
    static let fetchRequest: Set<String> = [
        "name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "fetchOffset", "resultType",
        "returnDistinctResults", "returnObjectsAsFaults", "includesPendingChanges", "includeSubentities",
        "includePropertyValues", "includesPropertyValues", "includesSubentities", "refreshRefetchedObjects",
        "propertiesToFetch", "propertiesToGroupBy", "havingPredicateString", "sortDescriptors",
    ]
    static let configuration: Set<String> = ["name", "usedWithCloudKit"]
}

/// The attributes an element accepts, as an enum whose case names are the XML names.
protocol XMLAttributeKey: CaseIterable {
    /// For each ``XMLName`` raw value, whether this element accepts it.
    static var accepted: [Bool] { get }
    /// The known name of this key.
    var xmlName: XMLName { get }
}

extension XMLAttributeKey {
    static func makeAccepted() -> [Bool] {
        var accepted = [Bool](repeating: false, count: XMLName.allCases.count)
        for key in allCases { accepted[key.xmlName.rawValue] = true }
        return accepted
    }
}

/// An element's attribute values, looked up by key.
struct XMLAttributeValues<Key: XMLAttributeKey> {
    let scratch: [String?]

    subscript(_ key: Key) -> String? { scratch[key.xmlName.rawValue] }
}

private enum EntityKey: Int, XMLAttributeKey {
    case name, representedClassName, parentEntity, isAbstract, codeGenerationType, syncable, elementID
    case renamingIdentifier, versionHashModifier
    static let accepted = makeAccepted()
    var xmlName: XMLName { Self.names[rawValue] }
    static let names: [XMLName] = allCases.map { XMLName.byString["\($0)"] ?? .name }
}

private enum AttributeKey: Int, XMLAttributeKey {
    case name, attributeType, `optional`, transient, derived, derivationExpression, defaultValueString
    case defaultValue, defaultDateTimeInterval, minValueString, maxValueString, minDateTimeInterval
    case maxDateTimeInterval, regularExpressionString, usesScalarValueType, allowsExternalBinaryDataStorage
    case preserveAfterDeletion, allowsCloudEncryption, spotlightIndexingEnabled, indexedBySpotlight
    case storedInTruthFile, indexed, syncable, valueTransformerName, customClassName, composite, elementID
    case renamingIdentifier, versionHashModifier
    static let accepted = makeAccepted()
    var xmlName: XMLName { Self.names[rawValue] }
    static let names: [XMLName] = allCases.map { XMLName.byString["\($0)"] ?? .name }
}

private enum RelationshipKey: Int, XMLAttributeKey {
    case name, destinationEntity, inverseName, inverseEntity, toMany, ordered, deletionRule, minCount, maxCount
    case `optional`, transient, indexed, syncable, elementID, renamingIdentifier, versionHashModifier
    case spotlightIndexingEnabled, indexedBySpotlight, storedInTruthFile
    static let accepted = makeAccepted()
    var xmlName: XMLName { Self.names[rawValue] }
    static let names: [XMLName] = allCases.map { XMLName.byString["\($0)"] ?? .name }
}
