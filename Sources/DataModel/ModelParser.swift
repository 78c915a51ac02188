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
        let root: XMLElementNode
        switch XMLTreeParser.parse(data, file: file, limits: limits) {
        case .success(let tree): root = tree
        case .failure(let error): throw error
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

    mutating func readModel(_ element: XMLElementNode, name: String, versionName: String) -> ObjectModel {
        check(element, known: XMLKeys.model)
        var metadata: [String: String] = [:]
        for attribute in element.attributes { metadata[attribute.name] = attribute.value }
        var model = ObjectModel(name: name, versionName: versionName, metadata: metadata, location: element.location)
        var entities: [Entity] = []
        for child in element.children {
            switch child.name {
            case "entity": entities.append(readEntity(child))
            case "fetchRequest": model.fetchRequests.append(readFetchRequest(child))
            case "configuration": model.configurations.append(readConfiguration(child))
            case "composite": model.composites.append(readComposite(child))
            case "elements": break
            default: unknownElement(child, in: "model")
            }
        }
        model.entities = entities
        return model
    }

    private mutating func readEntity(_ element: XMLElementNode) -> Entity {
        check(element, known: XMLKeys.entity)
        var entity = Entity(name: required("name", of: element), location: element.location)
        entity.representedClassName = element.attribute("representedClassName")
        entity.parentEntity = element.attribute("parentEntity")
        entity.isAbstract = bool("isAbstract", of: element) ?? false
        entity.codeGenerationType = codeGeneration(element)
        entity.syncable = bool("syncable", of: element)
        entity.renamingIdentifier = element.attribute("elementID") ?? element.attribute("renamingIdentifier")
        entity.versionHashModifier = element.attribute("versionHashModifier")
        for child in element.children {
            switch child.name {
            case "attribute": entity.attributes.append(readAttribute(child))
            case "relationship": entity.relationships.append(readRelationship(child))
            case "fetchedProperty": entity.fetchedProperties.append(readFetchedProperty(child))
            case "userInfo": entity.userInfo = readUserInfo(child)
            case "uniquenessConstraints": entity.uniquenessConstraints += readUniquenessConstraints(child)
            case "fetchIndex": entity.fetchIndexes.append(readFetchIndex(child))
            case "compoundIndexes": entity.compoundIndexes += readCompoundIndexes(child)
            default: unknownElement(child, in: "entity")
            }
        }
        return entity
    }

    private mutating func codeGeneration(_ element: XMLElementNode) -> CodeGenerationType {
        guard let value = element.attribute("codeGenerationType") else { return .manual }
        if let type = CodeGenerationType(rawValue: value), type != .manual { return type }
        diagnostics.append(
            .warning(
                "unknown codeGenerationType '\(value)'; treating the entity as Manual/None",
                rule: "invalid-attribute-value", at: element.location))
        return .manual
    }

    mutating func readAttribute(_ element: XMLElementNode) -> Attribute {
        check(element, known: XMLKeys.attribute)
        let typeName = element.attribute("attributeType")
        var type = AttributeType.undefined
        if let typeName {
            if let known = AttributeType(rawValue: typeName) {
                type = known
            } else {
                diagnostics.append(
                    .error("unknown attribute type '\(typeName)'", rule: "unknown-attribute-type", at: element.location)
                )
            }
        }
        var attribute = Attribute(name: required("name", of: element), type: type, location: element.location)
        attribute.isOptional = bool("optional", of: element) ?? false
        attribute.isTransient = bool("transient", of: element) ?? false
        attribute.isDerived = bool("derived", of: element) ?? false
        attribute.derivationExpression = element.attribute("derivationExpression")
        attribute.defaultValueString = element.attribute("defaultValueString") ?? element.attribute("defaultValue")
        attribute.defaultDateTimeInterval = element.attribute("defaultDateTimeInterval")
        attribute.minValueString = element.attribute("minValueString")
        attribute.maxValueString = element.attribute("maxValueString")
        attribute.minDateTimeInterval = element.attribute("minDateTimeInterval")
        attribute.maxDateTimeInterval = element.attribute("maxDateTimeInterval")
        attribute.regularExpressionString = element.attribute("regularExpressionString")
        attribute.usesScalarValueType = bool("usesScalarValueType", of: element)
        attribute.allowsExternalBinaryDataStorage = bool("allowsExternalBinaryDataStorage", of: element) ?? false
        attribute.preserveAfterDeletion = bool("preserveAfterDeletion", of: element) ?? false
        attribute.allowsCloudEncryption = bool("allowsCloudEncryption", of: element) ?? false
        attribute.spotlightIndexingEnabled =
            bool("spotlightIndexingEnabled", of: element) ?? bool("indexedBySpotlight", of: element) ?? false
        attribute.storedInTruthFile = bool("storedInTruthFile", of: element) ?? false
        attribute.isIndexed = bool("indexed", of: element) ?? false
        attribute.syncable = bool("syncable", of: element)
        attribute.valueTransformerName = element.attribute("valueTransformerName")
        attribute.customClassName = element.attribute("customClassName")
        attribute.composite = element.attribute("composite")
        attribute.renamingIdentifier = element.attribute("elementID") ?? element.attribute("renamingIdentifier")
        attribute.versionHashModifier = element.attribute("versionHashModifier")
        for child in element.children {
            switch child.name {
            case "userInfo": attribute.userInfo = readUserInfo(child)
            default: unknownElement(child, in: "attribute")
            }
        }
        return attribute
    }

    private mutating func readRelationship(_ element: XMLElementNode) -> Relationship {
        check(element, known: XMLKeys.relationship)
        var relationship = Relationship(
            name: required("name", of: element), destinationEntity: element.attribute("destinationEntity") ?? "",
            location: element.location)
        relationship.inverseName = element.attribute("inverseName")
        relationship.inverseEntity = element.attribute("inverseEntity")
        relationship.isToMany = bool("toMany", of: element) ?? false
        relationship.isOrdered = bool("ordered", of: element) ?? false
        if let rule = element.attribute("deletionRule") {
            if let parsed = DeletionRule(rawValue: rule) {
                relationship.deletionRule = parsed
            } else {
                diagnostics.append(
                    .error("unknown deletion rule '\(rule)'", rule: "invalid-attribute-value", at: element.location))
            }
        }
        relationship.minCount = integer("minCount", of: element)
        relationship.maxCount = integer("maxCount", of: element)
        relationship.isOptional = bool("optional", of: element) ?? false
        relationship.isTransient = bool("transient", of: element) ?? false
        relationship.isIndexed = bool("indexed", of: element) ?? false
        relationship.syncable = bool("syncable", of: element)
        relationship.renamingIdentifier = element.attribute("elementID") ?? element.attribute("renamingIdentifier")
        relationship.versionHashModifier = element.attribute("versionHashModifier")
        for child in element.children {
            switch child.name {
            case "userInfo": relationship.userInfo = readUserInfo(child)
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
            switch child.name {
            case "fetchRequest": property.fetchRequest = readFetchRequest(child)
            case "userInfo": property.userInfo = readUserInfo(child)
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
            if child.name == "memberEntity" {
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
            if child.name == "attribute" { attributes.append(readAttribute(child)) } else {
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
            guard child.name == "entry" else {
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
            guard child.name == "uniquenessConstraint" else {
                unknownElement(child, in: "uniquenessConstraints")
                continue
            }
            var properties: [String] = []
            for constraint in child.children {
                guard constraint.name == "constraint" else {
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
            guard child.name == "fetchIndexElement" else {
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
            guard child.name == "compoundIndex" else {
                unknownElement(child, in: "compoundIndexes")
                continue
            }
            var properties: [String] = []
            for index in child.children {
                guard index.name == "index" else {
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
        if let value = element.attribute(name) { return value }
        diagnostics.append(
            .error("<\(element.name)> has no '\(name)' attribute", rule: "missing-name", at: element.location))
        return ""
    }

    private mutating func bool(_ name: String, of element: XMLElementNode) -> Bool? {
        guard let value = element.attribute(name) else { return nil }
        switch value {
        case "YES", "yes", "true", "1": return true
        case "NO", "no", "false", "0": return false
        default:
            diagnostics.append(
                .warning(
                    "'\(name)' is '\(value)', expected YES or NO; ignoring it", rule: "invalid-attribute-value",
                    at: element.location))
            return nil
        }
    }

    private mutating func integer(_ name: String, of element: XMLElementNode) -> Int? {
        guard let value = element.attribute(name) else { return nil }
        if let number = Int(value) { return number }
        diagnostics.append(
            .error("'\(name)' is '\(value)', expected an integer", rule: "invalid-attribute-value", at: element.location))
        return nil
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
    static let entity: Set<String> = [
        "name", "representedClassName", "parentEntity", "isAbstract", "codeGenerationType", "syncable", "elementID",
        "renamingIdentifier", "versionHashModifier",
    ]
    static let attribute: Set<String> = [
        "name", "attributeType", "optional", "transient", "derived", "derivationExpression", "defaultValueString",
        "defaultValue", "defaultDateTimeInterval", "minValueString", "maxValueString", "minDateTimeInterval",
        "maxDateTimeInterval", "regularExpressionString", "usesScalarValueType", "allowsExternalBinaryDataStorage",
        "preserveAfterDeletion", "allowsCloudEncryption", "spotlightIndexingEnabled", "indexedBySpotlight",
        "storedInTruthFile", "indexed", "syncable", "valueTransformerName", "customClassName", "composite",
        "elementID", "renamingIdentifier", "versionHashModifier",
    ]
    static let relationship: Set<String> = [
        "name", "destinationEntity", "inverseName", "inverseEntity", "toMany", "ordered", "deletionRule", "minCount",
        "maxCount", "optional", "transient", "indexed", "syncable", "elementID", "renamingIdentifier",
        "versionHashModifier", "spotlightIndexingEnabled", "indexedBySpotlight", "storedInTruthFile",
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
