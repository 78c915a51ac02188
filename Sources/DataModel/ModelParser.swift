import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        guard let root = tree.root() else {
            throw ModelLoadingError(
                .invalidModel,
                [.error("document has no root element", rule: .xmlMalformed, at: SourceLocation(file: file))])
        }
        guard root.name == "model" else {
            throw ModelLoadingError(
                .invalidModel,
                [
                    .error(
                        "root element is <\(root.name)>, expected <model>: this is not a Core Data model",
                        rule: .wrongRoot, at: root.location)
                ])
        }
        var reader = ElementReader(tree: tree)
        let model = reader.readModel(root, name: modelName, versionName: versionName)
        return (model, reader.diagnostics)
    }
}

/// Walks the element tree, building IR nodes and collecting warnings.
private struct ElementReader {
    var diagnostics: [Diagnostic] = []
    private let tree: XMLTree
    /// For the element last read with ``read(_:as:)``: the index of each of its known attributes, indexed by
    /// ``XMLName`` raw value (-1 when absent).
    private var slots = [Int](repeating: -1, count: XMLName.allCases.count)
    /// The attributes of the element last read, whose slots the next `read` clears.
    private var slotted: Range<Int> = 0..<0

    init(tree: XMLTree) {
        self.tree = tree
    }

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
        read(element, accepting: .entity)
        var entity = Entity(name: required(text(.name), "name", of: element), location: element.location)
        entity.representedClassName = text(.representedClassName)
        entity.parentEntity = text(.parentEntity)
        entity.isAbstract = flag(.isAbstract, of: element) ?? false
        entity.codeGenerationType = codeGeneration(text(.codeGenerationType), of: element)
        entity.syncable = flag(.syncable, of: element)
        entity.renamingIdentifier = text(.elementID) ?? text(.renamingIdentifier)
        entity.versionHashModifier = text(.versionHashModifier)
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        attributes.reserveCapacity(element.childCount(of: .attribute))
        relationships.reserveCapacity(element.childCount(of: .relationship))
        for child in element.children {
            switch child.kind {
            case .attribute?: readAttribute(child, into: &attributes)
            case .relationship?: readRelationship(child, into: &relationships)
            case .fetchedProperty?: entity.fetchedProperties.append(readFetchedProperty(child))
            case .userInfo?: entity.userInfo = readUserInfo(child)
            case .uniquenessConstraints?: entity.uniquenessConstraints += readUniquenessConstraints(child)
            case .fetchIndex?: entity.fetchIndexes.append(readFetchIndex(child))
            case .compoundIndexes?: entity.compoundIndexes += readCompoundIndexes(child)
            default: unknownElement(child, in: "entity")
            }
        }
        entity.attributes = attributes
        entity.relationships = relationships
        return entity
    }

    private mutating func codeGeneration(_ value: String?, of element: XMLElementNode) -> CodeGenerationType {
        guard let value else { return .manual }
        if let type = CodeGenerationType(rawValue: value), type != .manual { return type }
        diagnostics.append(
            .warning(
                "unknown codeGenerationType '\(value)'; treating the entity as Manual/None",
                rule: .invalidAttributeValue, at: element.location))
        return .manual
    }

    /// Reads an attribute and appends it to `attributes` (made in place there, not copied in).
    @inline(__always)
    mutating func readAttribute(_ element: XMLElementNode, into attributes: inout [Attribute]) {
        read(element, accepting: .attribute)
        let type = attributeType(of: element)
        // Every value is taken (in this order, which is the order of its diagnostics) before the children are
        // read, and the attribute is made in one step at the end: building a struct this large field by field
        // costs a copy of it.
        let name = required(text(.name), "name", of: element)
        let isOptional = flag(.optional, of: element) ?? false
        let isTransient = flag(.transient, of: element) ?? false
        let isDerived = flag(.derived, of: element) ?? false
        let derivationExpression = text(.derivationExpression)
        let defaultValueString = text(.defaultValueString) ?? text(.defaultValue)
        let defaultDateTimeInterval = text(.defaultDateTimeInterval)
        let minValueString = text(.minValueString)
        let maxValueString = text(.maxValueString)
        let minDateTimeInterval = text(.minDateTimeInterval)
        let maxDateTimeInterval = text(.maxDateTimeInterval)
        let regularExpressionString = text(.regularExpressionString)
        let usesScalarValueType = flag(.usesScalarValueType, of: element)
        let allowsExternalBinaryDataStorage = flag(.allowsExternalBinaryDataStorage, of: element) ?? false
        let preserveAfterDeletion = flag(.preserveAfterDeletion, of: element) ?? false
        let allowsCloudEncryption = flag(.allowsCloudEncryption, of: element) ?? false
        let spotlightIndexingEnabled =
            flag(.spotlightIndexingEnabled, of: element) ?? flag(.indexedBySpotlight, of: element) ?? false
        let storedInTruthFile = flag(.storedInTruthFile, of: element) ?? false
        let isIndexed = flag(.indexed, of: element) ?? false
        let syncable = flag(.syncable, of: element)
        let valueTransformerName = text(.valueTransformerName)
        let customClassName = text(.customClassName)
        let composite = text(.composite)
        let renamingIdentifier = text(.elementID) ?? text(.renamingIdentifier)
        let versionHashModifier = text(.versionHashModifier)
        var userInfo: UserInfo = []
        for child in element.children {
            switch child.kind {
            case .userInfo?: userInfo = readUserInfo(child)
            default: unknownElement(child, in: "attribute")
            }
        }
        attributes.append(
            Attribute(
                name: name, type: type, isOptional: isOptional, isTransient: isTransient, isDerived: isDerived,
                derivationExpression: derivationExpression, defaultValueString: defaultValueString,
                defaultDateTimeInterval: defaultDateTimeInterval, minValueString: minValueString,
                maxValueString: maxValueString, minDateTimeInterval: minDateTimeInterval,
                maxDateTimeInterval: maxDateTimeInterval, regularExpressionString: regularExpressionString,
                usesScalarValueType: usesScalarValueType,
                allowsExternalBinaryDataStorage: allowsExternalBinaryDataStorage,
                preserveAfterDeletion: preserveAfterDeletion, allowsCloudEncryption: allowsCloudEncryption,
                spotlightIndexingEnabled: spotlightIndexingEnabled, storedInTruthFile: storedInTruthFile,
                isIndexed: isIndexed, syncable: syncable, valueTransformerName: valueTransformerName,
                customClassName: customClassName, composite: composite, renamingIdentifier: renamingIdentifier,
                versionHashModifier: versionHashModifier, userInfo: userInfo, location: element.location))
    }

    /// Reads a relationship and appends it to `relationships`.
    @inline(__always)
    private mutating func readRelationship(_ element: XMLElementNode, into relationships: inout [Relationship]) {
        read(element, accepting: .relationship)
        // As for attributes: every value first, in the order of its diagnostics, then the relationship in one step.
        let name = required(text(.name), "name", of: element)
        let destinationEntity = text(.destinationEntity) ?? ""
        let inverseName = text(.inverseName)
        let inverseEntity = text(.inverseEntity)
        let isToMany = flag(.toMany, of: element) ?? false
        let isOrdered = flag(.ordered, of: element) ?? false
        let rule = deletionRule(of: element) ?? .nullify
        let minCount = integer(text(.minCount), "minCount", of: element)
        let maxCount = integer(text(.maxCount), "maxCount", of: element)
        let isOptional = flag(.optional, of: element) ?? false
        let isTransient = flag(.transient, of: element) ?? false
        let isIndexed = flag(.indexed, of: element) ?? false
        let syncable = flag(.syncable, of: element)
        let renamingIdentifier = text(.elementID) ?? text(.renamingIdentifier)
        let versionHashModifier = text(.versionHashModifier)
        var userInfo: UserInfo = []
        for child in element.children {
            switch child.kind {
            case .userInfo?: userInfo = readUserInfo(child)
            default: unknownElement(child, in: "relationship")
            }
        }
        relationships.append(
            Relationship(
                name: name, destinationEntity: destinationEntity, inverseName: inverseName,
                inverseEntity: inverseEntity,
                isToMany: isToMany, isOrdered: isOrdered, deletionRule: rule, minCount: minCount,
                maxCount: maxCount, isOptional: isOptional, isTransient: isTransient, isIndexed: isIndexed,
                syncable: syncable, renamingIdentifier: renamingIdentifier, versionHashModifier: versionHashModifier,
                userInfo: userInfo, location: element.location))
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
                check(child, known: XMLKeys.name)
                configuration.memberEntities.append(child.attribute(.name) ?? "")
            } else {
                unknownElement(child, in: "configuration")
            }
        }
        return configuration
    }

    private mutating func readComposite(_ element: XMLElementNode) -> CompositeDefinition {
        check(element, known: XMLKeys.name)
        var attributes: [Attribute] = []
        for child in element.children {
            if child.kind == .attribute {
                readAttribute(child, into: &attributes)
            } else {
                unknownElement(child, in: "composite")
            }
        }
        return CompositeDefinition(
            name: required("name", of: element), attributes: attributes, location: element.location)
    }

    private mutating func readUserInfo(_ element: XMLElementNode) -> UserInfo {
        check(element, known: XMLKeys.none)
        var entries: UserInfo = []
        for child in element.children {
            guard child.kind == .entry else {
                unknownElement(child, in: "userInfo")
                continue
            }
            check(child, known: XMLKeys.entry)
            entries.append(
                UserInfoEntry(
                    key: child.attribute(.key) ?? "", value: child.attribute(.value) ?? "", location: child.location))
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
                check(constraint, known: XMLKeys.value)
                properties.append(constraint.attribute(.value) ?? "")
            }
            constraints.append(UniquenessConstraint(properties: properties, location: child.location))
        }
        return constraints
    }

    private mutating func readFetchIndex(_ element: XMLElementNode) -> FetchIndex {
        check(element, known: XMLKeys.name)
        var elements: [FetchIndex.Element] = []
        for child in element.children {
            guard child.kind == .fetchIndexElement else {
                unknownElement(child, in: "fetchIndex")
                continue
            }
            check(child, known: XMLKeys.fetchIndexElement)
            elements.append(
                FetchIndex.Element(
                    property: child.attribute(.property) ?? child.attribute(.expression) ?? "",
                    type: child.attribute(.type) ?? "Binary",
                    isAscending: (child.attribute(.order) ?? "ascending") != "descending", location: child.location))
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
                properties.append(index.attribute(.value) ?? "")
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
        diagnostics.append(.error("<\(element.name)> \(problem)", rule: .missingName, at: element.location))
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
                    "'\(name)' is '\(value)', expected YES or NO; ignoring it", rule: .invalidAttributeValue,
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
                "'\(name)' is '\(value)', expected an integer", rule: .invalidAttributeValue, at: element.location))
        return nil
    }

    /// Reads an element's attributes into the reusable slot table, warning about unknown ones (one pass).
    ///
    /// ``text(_:)``, ``flag(_:of:)`` and the other accessors see this element's values until the next `read`:
    /// callers take every value before reading children.
    private mutating func read(_ element: XMLElementNode, accepting attributes: AcceptedAttributes) {
        let accepted = attributes.accepted
        let tree = tree
        let previous = slotted
        let positions = element.attributeIndices
        var allKnown = true
        slots.withUnsafeMutableBufferPointer { slots in
            for position in previous {
                if let known = tree.attributeKind(position) { slots[known.rawValue] = -1 }
            }
            for position in positions {
                if let known = tree.attributeKind(position), accepted[known.rawValue] {
                    slots[known.rawValue] = position
                } else {
                    allKnown = false
                }
            }
        }
        slotted = positions
        if allKnown { return }
        for position in positions {
            if let known = tree.attributeKind(position), accepted[known.rawValue] { continue }
            diagnostics.append(
                .warning(
                    "unknown attribute '\(tree.attributeName(position))' on <\(element.name)>; ignoring it",
                    rule: .unknownAttribute, at: element.location))
        }
    }

    /// The value of the read element's attribute `name`, if it has one.
    private func text(_ name: XMLName) -> String? {
        let position = slots[name.rawValue]
        return position < 0 ? nil : tree.attributeValue(position)
    }

    /// The Boolean value of the read element's attribute `name`; `YES` and `NO` are matched on the bytes.
    private mutating func flag(_ name: XMLName, of element: XMLElementNode) -> Bool? {
        let position = slots[name.rawValue]
        guard position >= 0 else { return nil }
        // `YES` and `NO` are all ASCII with no character that another one is canonically equivalent to, so
        // byte equality is String equality for them.
        let keyword = tree.withValueBytes(position) { bytes -> Bool? in
            if Self.equals(bytes, "YES") { return true }
            if Self.equals(bytes, "NO") { return false }
            return nil
        }
        if let keyword { return keyword }
        return bool(tree.attributeValue(position), name.xmlString, of: element)
    }

    /// Whether `bytes` are exactly `literal`'s.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return bytes.isEmpty }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }

    /// The read element's `attributeType`: `.undefined` when absent, with an error when unknown.
    private mutating func attributeType(of element: XMLElementNode) -> AttributeType {
        let position = slots[XMLName.attributeType.rawValue]
        guard position >= 0 else { return .undefined }
        if let known = tree.withValueBytes(position, Keywords.attributeTypes.value(for:)) { return known }
        let typeName = tree.attributeValue(position)
        if let known = AttributeType(rawValue: typeName) { return known }
        var message = "unknown attribute type '\(typeName)'"
        if let best = NameSuggestion.closest(to: typeName, among: AttributeType.allCases.map(\.rawValue)) {
            message += "; did you mean '\(best)'?"
        }
        diagnostics.append(.error(message, rule: .unknownAttributeType, at: element.location))
        return .undefined
    }

    /// The read element's `deletionRule`: nil when absent or unknown (with an error).
    private mutating func deletionRule(of element: XMLElementNode) -> DeleteRule? {
        let position = slots[XMLName.deletionRule.rawValue]
        guard position >= 0 else { return nil }
        if let known = tree.withValueBytes(position, Keywords.deletionRules.value(for:)) { return known }
        let rule = tree.attributeValue(position)
        if let parsed = DeleteRule(rawValue: rule) { return parsed }
        diagnostics.append(
            .error("unknown deletion rule '\(rule)'", rule: .invalidAttributeValue, at: element.location))
        return nil
    }

    private mutating func check(_ element: XMLElementNode, known: Set<String>) {
        for attribute in element.attributes where !known.contains(attribute.name) {
            diagnostics.append(
                .warning(
                    "unknown attribute '\(attribute.name)' on <\(element.name)>; ignoring it",
                    rule: .unknownAttribute, at: element.location))
        }
    }

    private mutating func unknownElement(_ element: XMLElementNode, in parent: String) {
        diagnostics.append(
            .warning(
                "unknown element <\(element.name)> in <\(parent)>; ignoring it", rule: .unknownElement,
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
    static let entry: Set<String> = ["key", "value"]
    static let fetchIndexElement: Set<String> = ["property", "type", "order", "expression", "expressionType"]
    static let name: Set<String> = ["name"]
    static let value: Set<String> = ["value"]
    static let none: Set<String> = []
}

/// The values of enumerated XML attributes, found from their bytes without making a `String`.
private enum Keywords {
    static let attributeTypes = KeywordTable(AttributeType.allCases.map { ($0.rawValue, $0) })
    static let deletionRules = KeywordTable(DeleteRule.allCases.map { ($0.rawValue, $0) })
}

/// A few ASCII keywords and their values, grouped by length; a lookup compares bytes with the keywords of the
/// same length only.
///
/// For keywords without `K`, `;` or `` ` `` (the only ASCII characters another character is canonically
/// equivalent to), matching bytes is matching strings; callers fall back to `String` comparison on a miss
/// anyway, so a match is only ever faster, never different.
struct KeywordTable<Value: Sendable>: Sendable {
    private var byLength: [[(bytes: [UInt8], value: Value)]] = []

    init(_ keywords: [(String, Value)]) {
        for (keyword, value) in keywords {
            let bytes = Array(keyword.utf8)
            while byLength.count <= bytes.count { byLength.append([]) }
            byLength[bytes.count].append((bytes, value))
        }
    }

    /// The value of the keyword spelled by `bytes`, if any.
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard bytes.count < byLength.count else { return nil }
        for entry in byLength[bytes.count] where entry.bytes.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
            return entry.value
        }
        return nil
    }
}

/// The attributes an element accepts.
struct AcceptedAttributes {
    /// For each ``XMLName`` raw value, whether the element accepts it.
    let accepted: [Bool]

    init(_ names: [XMLName]) {
        var accepted = [Bool](repeating: false, count: XMLName.allCases.count)
        for name in names { accepted[name.rawValue] = true }
        self.accepted = accepted
    }

    static let entity = AcceptedAttributes([
        .name, .representedClassName, .parentEntity, .isAbstract, .codeGenerationType, .syncable, .elementID,
        .renamingIdentifier, .versionHashModifier,
    ])

    static let attribute = AcceptedAttributes([
        .name, .attributeType, .optional, .transient, .derived, .derivationExpression, .defaultValueString,
        .defaultValue, .defaultDateTimeInterval, .minValueString, .maxValueString, .minDateTimeInterval,
        .maxDateTimeInterval, .regularExpressionString, .usesScalarValueType, .allowsExternalBinaryDataStorage,
        .preserveAfterDeletion, .allowsCloudEncryption, .spotlightIndexingEnabled, .indexedBySpotlight,
        .storedInTruthFile, .indexed, .syncable, .valueTransformerName, .customClassName, .composite, .elementID,
        .renamingIdentifier, .versionHashModifier,
    ])

    static let relationship = AcceptedAttributes([
        .name, .destinationEntity, .inverseName, .inverseEntity, .toMany, .ordered, .deletionRule, .minCount,
        .maxCount, .optional, .transient, .indexed, .syncable, .elementID, .renamingIdentifier, .versionHashModifier,
        .spotlightIndexingEnabled, .indexedBySpotlight, .storedInTruthFile,
    ])
}
