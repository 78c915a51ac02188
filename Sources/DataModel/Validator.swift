import Foundation

/// Checks a parsed model the way momc does, producing diagnostics with stable rule ids.
///
/// Errors are what momc refuses to compile; warnings are what it compiles but reports.
/// Every lookup is hashed, so validation stays linear in the model's size.
public struct Validator: Sendable {
    /// The most ancestors an entity may have. Real models nest a handful deep; the limit keeps every
    /// walk up a chain (and the generated code, which repeats inherited properties) small.
    public static let maximumInheritanceDepth = 256

    /// Property names Core Data reserves (momc refuses them): a property "cannot be the same as any
    /// no-parameter method name of NSObject or NSManagedObject" (NSPropertyDescription's documentation).
    public static let reservedPropertyNames: Set<String> = [
        // NSManagedObject
        "description", "objectID", "entity", "managedObjectContext", "isDeleted", "isInserted", "isUpdated",
        "isFault", "hasChanges", "hasPersistentChangedValues", "faultingState", "changedValues",
        "changedValuesForCurrentEvent", "awakeFromFetch", "awakeFromInsert", "willSave", "didSave",
        "willTurnIntoFault", "didTurnIntoFault", "validateForDelete", "validateForInsert", "validateForUpdate",
        "prepareForDeletion", "observationInfo",
        // NSObject
        "hash", "class", "self", "superclass", "debugDescription", "isProxy", "zone", "retainCount", "retain",
        "release", "autorelease", "copy", "mutableCopy", "init", "dealloc", "classForCoder",
    ]

    /// Creates a validator.
    public init() {}

    /// Validates `model` and returns what it found, sorted by location.
    public func validate(_ model: ObjectModel) -> [Diagnostic] {
        var run = ValidationRun(model: model)
        run.checkEntities()
        run.checkInheritance()
        for entity in model.entities { run.check(entity) }
        run.checkFetchRequests()
        run.checkConfigurations()
        return run.diagnostics.sortedByLocation()
    }
}

/// The property names of an entity and its ancestors, checked without building their union.
private struct KnownNames {
    let own: Set<String>
    let inherited: [(entity: String, names: Set<String>)]

    func contains(_ name: String) -> Bool {
        own.contains(name) || inherited.contains { $0.names.contains(name) }
    }
}

/// The state of one validation pass.
fileprivate struct ValidationRun {
    let model: ObjectModel
    var diagnostics: [Diagnostic] = []
    /// Entity name → own property names.
    private var propertyNames: [String: Set<String>] = [:]
    /// Entity name → relationships by name.
    private var relationships: [String: [String: Relationship]] = [:]
    /// Entity name → parent entity name.
    private var parents: [String: String?] = [:]
    /// Entity name → number of ancestors, set by `checkInheritance` (no entry on or below a cycle).
    private var depths: [String: Int] = [:]

    init(model: ObjectModel) {
        self.model = model
        parents.reserveCapacity(model.entities.count)
        propertyNames.reserveCapacity(model.entities.count)
        relationships.reserveCapacity(model.entities.count)
        for entity in model.entities where propertyNames[entity.name] == nil {
            parents[entity.name] = entity.parentEntity
            propertyNames[entity.name] = Set(entity.propertyNames)
            var byName: [String: Relationship] = [:]
            byName.reserveCapacity(entity.relationships.count)
            for relationship in entity.relationships where byName[relationship.name] == nil {
                byName[relationship.name] = relationship
            }
            relationships[entity.name] = byName
        }
    }

    private mutating func error(_ message: String, _ rule: String, _ location: SourceLocation) {
        diagnostics.append(.error(message, rule: rule, at: location))
    }

    private mutating func warning(_ message: String, _ rule: String, _ location: SourceLocation) {
        diagnostics.append(.warning(message, rule: rule, at: location))
    }

    // MARK: Entities

    mutating func checkEntities() {
        var seen: [String: SourceLocation] = [:]
        var classNames: [String: (entity: String, className: String)] = [:]
        for entity in model.entities {
            if let first = seen[entity.name] {
                error(
                    "duplicate entity '\(entity.name)' (first declared at line \(first.line))", "duplicate-entity",
                    entity.location)
            } else {
                seen[entity.name] = entity.location
            }
            checkIdentifier(entity.name, kind: "entity", location: entity.location, uppercase: true)
            if let represented = entity.representedClassName, !represented.isEmpty,
                !Self.isIdentifier(entity.className)
            {
                // The class name becomes a Swift declaration and a file name: `Foo Bar`, `1Foo` or `../x` cannot be either.
                error(
                    "entity '\(entity.name)' has class name '\(represented)', whose class part '\(entity.className)' is not a valid identifier",
                    "invalid-class-name", entity.location)
            }
            if entity.codeGenerationType != .manual {
                // Keyed case-insensitively: the class names are also file names, and `Item.swift` overwrites
                // `item.swift` on the case-insensitive file systems Xcode projects usually live on.
                let key = entity.className.lowercased()
                if let other = classNames[key], other.entity != entity.name {
                    let what =
                        other.className == entity.className
                        ? "both generate class '\(entity.className)'"
                        : "generate classes '\(other.className)' and '\(entity.className)', whose file names differ only in case"
                    error(
                        "entities '\(other.entity)' and '\(entity.name)' \(what)", "duplicate-class-name",
                        entity.location)
                } else {
                    classNames[key] = (entity.name, entity.className)
                }
            }
        }
    }

    mutating func checkInheritance() {
        depths = inheritanceDepths()
        let limit = Validator.maximumInheritanceDepth
        for entity in model.entities {
            guard let parentName = entity.parentEntity else { continue }
            guard model.entity(named: parentName) != nil else {
                error(
                    "entity '\(entity.name)' has parent entity '\(parentName)', which does not exist",
                    "missing-parent", entity.location)
                continue
            }
            guard let depth = depths[entity.name] else {
                error("entity '\(entity.name)' inherits from itself", "cyclic-inheritance", entity.location)
                continue
            }
            if depth == limit + 1 {
                // Reported where a chain first passes the limit, not for every entity below it.
                error(
                    "entity '\(entity.name)' has more than \(limit) ancestor entities; inheritance this deep is not supported",
                    "inheritance-too-deep", entity.location)
            }
        }
    }

    /// Entity name → number of ancestors (0 for a root or an entity whose parent is missing); no entry for an
    /// entity on or below an inheritance cycle. Linear: each entity is walked over once.
    private func inheritanceDepths() -> [String: Int] {
        var depths: [String: Int] = [:]
        var cyclic: Set<String> = []
        for entity in model.entities where depths[entity.name] == nil && !cyclic.contains(entity.name) {
            var path: [String] = []
            var onPath: Set<String> = []
            var current = entity.name
            var depthAbove = -1  // the depth of the entity above the path's last entry
            var reachesCycle = false
            while true {
                if let known = depths[current] {
                    depthAbove = known
                    break
                }
                if cyclic.contains(current) || !onPath.insert(current).inserted {
                    reachesCycle = true
                    break
                }
                path.append(current)
                guard let parent = parents[current] ?? nil, propertyNames[parent] != nil else { break }
                current = parent
            }
            if reachesCycle {
                cyclic.formUnion(path)
            } else {
                for (offset, name) in path.reversed().enumerated() { depths[name] = depthAbove + 1 + offset }
            }
        }
        return depths
    }

    /// The names of `name` and its ancestors, nearest first; stops at cycles, missing parents and
    /// ``Validator/maximumInheritanceDepth``, so every walk is short.
    private func ancestorNames(of name: String) -> [String] {
        var chain = [name]
        var seen: Set<String> = [name]
        var current = name
        while chain.count <= Validator.maximumInheritanceDepth, let parent = parents[current] ?? nil,
            propertyNames[parent] != nil, seen.insert(parent).inserted
        {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// The property names of `entity`'s ancestors (not its own), nearest first.
    private func inheritedProperties(of entity: Entity) -> [(entity: String, names: Set<String>)] {
        // Entities on a cycle or past the depth limit are reported already; skipping them keeps a
        // 100,000-level chain linear.
        guard entity.parentEntity != nil, let depth = depths[entity.name], depth <= Validator.maximumInheritanceDepth
        else { return [] }
        return ancestorNames(of: entity.name).dropFirst().map { ($0, propertyNames[$0] ?? []) }
    }

    mutating func check(_ entity: Entity) {
        var seen: Set<String> = []
        seen.reserveCapacity(entity.attributes.count + entity.relationships.count)
        let inherited = inheritedProperties(of: entity)
        for attribute in entity.attributes {
            checkPropertyName(attribute.name, at: attribute.location, in: entity, seen: &seen, inherited: inherited)
        }
        for relationship in entity.relationships {
            checkPropertyName(
                relationship.name, at: relationship.location, in: entity, seen: &seen, inherited: inherited)
        }
        for property in entity.fetchedProperties {
            checkPropertyName(property.name, at: property.location, in: entity, seen: &seen, inherited: inherited)
        }
        for attribute in entity.attributes { check(attribute, in: entity) }
        for relationship in entity.relationships { check(relationship, in: entity) }
        for property in entity.fetchedProperties {
            if let request = property.fetchRequest, model.entity(named: request.entity) == nil {
                error(
                    "fetched property '\(entity.name).\(property.name)' fetches entity '\(request.entity)', which does not exist",
                    "unknown-fetch-entity", property.location)
            }
        }
        checkPropertyLists(entity)
    }

    private mutating func checkPropertyName(
        _ name: String, at location: SourceLocation, in entity: Entity, seen: inout Set<String>,
        inherited: [(entity: String, names: Set<String>)]
    ) {
        if !seen.insert(name).inserted {
            error("duplicate property '\(name)' in entity '\(entity.name)'", "duplicate-property", location)
        }
        if !inherited.isEmpty, let owner = inherited.first(where: { $0.names.contains(name) }) {
            error(
                "property '\(name)' of entity '\(entity.name)' shadows the property of the same name in its parent entity '\(owner.entity)'",
                "shadowed-property", location)
        }
        checkIdentifier(name, kind: "property", location: location, uppercase: false)
        if Validator.reservedPropertyNames.contains(name) {
            error(
                "'\(name)' is a reserved name in Core Data (a member of NSManagedObject); rename the property",
                "reserved-name", location)
        }
    }

    private mutating func checkPropertyLists(_ entity: Entity) {
        guard !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty
        else { return }
        let own = propertyNames[entity.name] ?? []
        let inherited = inheritedProperties(of: entity)
        let known = KnownNames(own: own, inherited: inherited)
        for constraint in entity.uniquenessConstraints {
            for name in constraint.properties where !known.contains(name) {
                error(
                    "uniqueness constraint of entity '\(entity.name)' names '\(name)', which is not one of its properties",
                    "unknown-constraint-property", constraint.location)
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements where !known.contains(element.property) && isPlainName(element.property) {
                error(
                    "fetch index '\(index.name)' of entity '\(entity.name)' names '\(element.property)', which is not one of its properties",
                    "unknown-index-property", element.location)
            }
        }
        for index in entity.compoundIndexes {
            for name in index.properties where !known.contains(name) {
                error(
                    "compound index of entity '\(entity.name)' names '\(name)', which is not one of its properties",
                    "unknown-index-property", index.location)
            }
        }
    }

    // MARK: Attributes

    private mutating func check(_ attribute: Attribute, in entity: Entity) {
        var name: String { "\(entity.name).\(attribute.name)" }
        if attribute.type == .undefined && !attribute.isTransient {
            error(
                "attribute '\(name)' has type Undefined, which only a transient attribute may have",
                "undefined-not-transient", attribute.location)
        }
        if attribute.type == .transformable && (attribute.customClassName ?? "").isEmpty {
            warning(
                "transformable attribute '\(name)' has no custom class; its value is untyped",
                "transformable-without-class",
                attribute.location)
        }
        if let custom = attribute.customClassName, !Validator.trimmingWhitespace(custom).isEmpty,
            !Validator.isTypeReference(custom)
        {
            error(
                "attribute '\(name)' has custom class '\(custom)', which is not a Swift type name",
                "invalid-custom-class-name", attribute.location)
        }
        if attribute.type == .composite, let composite = attribute.composite,
            !model.composites.contains(where: { $0.name == composite })
        {
            error(
                "attribute '\(name)' uses composite '\(composite)', which the model does not define",
                "unknown-composite",
                attribute.location)
        }
        let defaultValue = checkValue(
            attribute.defaultValueString, of: attribute, role: "default", rule: "invalid-default-value")
        let minimum = checkValue(attribute.minValueString, of: attribute, role: "minimum", rule: "invalid-min-value")
        let maximum = checkValue(attribute.maxValueString, of: attribute, role: "maximum", rule: "invalid-max-value")
        let defaultDate = checkInterval(
            attribute.defaultDateTimeInterval, of: attribute, role: "default date", rule: "invalid-default-value")
        let minimumDate = checkInterval(
            attribute.minDateTimeInterval, of: attribute, role: "minimum date", rule: "invalid-min-value")
        let maximumDate = checkInterval(
            attribute.maxDateTimeInterval, of: attribute, role: "maximum date", rule: "invalid-max-value")
        if let minimum, let maximum, minimum > maximum {
            error(
                "attribute '\(name)' has a minimum (\(minimum)) greater than its maximum (\(maximum))",
                "min-exceeds-max", attribute.location)
        }
        if let minimumDate, let maximumDate, minimumDate > maximumDate {
            error(
                "attribute '\(name)' has a minimum date greater than its maximum date", "min-exceeds-max",
                attribute.location)
        }
        if attribute.type.isNumeric, let value = defaultValue {
            if let minimum, value < minimum {
                warning("default value of '\(name)' is below its minimum", "default-out-of-range", attribute.location)
            }
            if let maximum, value > maximum {
                warning("default value of '\(name)' is above its maximum", "default-out-of-range", attribute.location)
            }
        }
        _ = defaultDate
        if let pattern = attribute.regularExpressionString, (try? NSRegularExpression(pattern: pattern)) == nil {
            error(
                "attribute '\(name)' has an invalid regular expression", "invalid-regular-expression",
                attribute.location)
        }
    }

    /// Checks a value string; returns its numeric value for range checks (nil when not numeric or absent).
    private mutating func checkValue(_ text: String?, of attribute: Attribute, role: String, rule: String) -> Double? {
        guard let text else { return nil }
        let name = attribute.name
        switch AttributeValueParser.parse(text, as: attribute.type, role: role) {
        case .valid(let number): return number
        case .invalid(let reason):
            // momc compiles such models (the value is coerced or dropped), so this is a warning.
            warning(
                "\(role) value '\(text)' of attribute '\(name)' \(reason); Core Data will ignore or coerce it", rule,
                attribute.location)
            return nil
        }
    }

    private mutating func checkInterval(_ text: String?, of attribute: Attribute, role: String, rule: String) -> Double?
    {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite else {
            error(
                "\(role) '\(text)' of attribute '\(attribute.name)' is not a number of seconds", rule,
                attribute.location)
            return nil
        }
        return value
    }

    // MARK: Relationships

    private mutating func check(_ relationship: Relationship, in entity: Entity) {
        var name: String { "\(entity.name).\(relationship.name)" }
        if let min = relationship.minCount, let max = relationship.maxCount, max > 0, min > max {
            error(
                "relationship '\(name)' has minCount \(min) greater than maxCount \(max)", "min-count-exceeds-max",
                relationship.location)
        }
        if !relationship.isToMany, let max = relationship.maxCount, max != 1 {
            warning(
                "to-one relationship '\(name)' has maxCount \(max); it is ignored", "max-count-on-to-one",
                relationship.location)
        }
        if relationship.isOrdered && !relationship.isToMany {
            warning(
                "to-one relationship '\(name)' is marked ordered; it is ignored", "ordered-to-one",
                relationship.location)
        }
        guard !relationship.destinationEntity.isEmpty else {
            error("relationship '\(name)' has no destination entity", "missing-destination", relationship.location)
            return
        }
        let destination = relationship.destinationEntity
        guard propertyNames[destination] != nil else {
            error(
                "relationship '\(name)' has destination entity '\(relationship.destinationEntity)', which does not exist",
                "missing-destination", relationship.location)
            return
        }
        guard let inverseName = relationship.inverseName, !inverseName.isEmpty else {
            warning(
                "relationship '\(name)' has no inverse; this is an advanced setting (no integrity checks, deletes leave dangling references)",
                "missing-inverse", relationship.location)
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destination {
            error(
                "relationship '\(name)' has inverse entity '\(inverseEntity)' but destination '\(destination)'",
                "inverse-mismatch", relationship.location)
            return
        }
        guard let inverse = relationshipNamed(inverseName, inOrAbove: destination) else {
            error(
                "relationship '\(name)' has inverse '\(inverseName)', which is not a relationship of '\(destination)'",
                "inverse-not-found", relationship.location)
            return
        }
        let pointsBack =
            inverse.destinationEntity == entity.name
            || (entity.parentEntity != nil && ancestorNames(of: entity.name).contains(inverse.destinationEntity))
        if !pointsBack {
            error(
                "relationship '\(name)' has inverse '\(destination).\(inverseName)', which points to '\(inverse.destinationEntity)' instead of '\(entity.name)'",
                "inverse-mismatch", relationship.location)
        } else if let back = inverse.inverseName, back != relationship.name, !back.isEmpty {
            warning(
                "relationship '\(name)' has inverse '\(destination).\(inverseName)', whose own inverse is '\(back)'",
                "inverse-mismatch", relationship.location)
        }
    }

    private func relationshipNamed(_ name: String, inOrAbove entityName: String) -> Relationship? {
        if let found = relationships[entityName]?[name] { return found }
        for candidate in ancestorNames(of: entityName).dropFirst() {
            if let found = relationships[candidate]?[name] { return found }
        }
        return nil
    }

    // MARK: Model level

    mutating func checkFetchRequests() {
        for request in model.fetchRequests where model.entity(named: request.entity) == nil {
            error(
                "fetch request '\(request.name)' fetches entity '\(request.entity)', which does not exist",
                "unknown-fetch-entity", request.location)
        }
    }

    mutating func checkConfigurations() {
        for configuration in model.configurations {
            for member in configuration.memberEntities where model.entity(named: member) == nil {
                error(
                    "configuration '\(configuration.name)' lists entity '\(member)', which does not exist",
                    "unknown-configuration-entity", configuration.location)
            }
        }
    }

    // MARK: Names

    private mutating func checkIdentifier(_ name: String, kind: String, location: SourceLocation, uppercase: Bool) {
        guard !name.isEmpty else { return }  // reported by the parser
        guard Self.isIdentifier(name) else {
            error(
                "\(kind) name '\(name)' is not a valid identifier (letters, digits and '_', not starting with a digit)",
                "invalid-identifier", location)
            return
        }
    }

    /// Letters, digits and `_`, not starting with a digit (ASCII fast path, Unicode letters allowed).
    static func isIdentifier(_ name: String) -> Bool {
        var isASCIIIdentifier = !name.isEmpty
        var first = true
        for byte in name.utf8 {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            if !(isLetter || (!first && byte >= 0x30 && byte <= 0x39)) {
                isASCIIIdentifier = false
                break
            }
            first = false
        }
        if isASCIIIdentifier { return true }
        var isFirst = true
        for scalar in name.unicodeScalars {
            let value = scalar.value
            let ok: Bool
            if value < 0x80 {
                let isLetter = (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) || value == 0x5F
                let isDigit = value >= 0x30 && value <= 0x39
                ok = isLetter || (!isFirst && isDigit)
            } else {
                // Foundation's letters include combining marks, which Swift refuses at the start of a name.
                ok =
                    isFirst
                    ? CharacterSet.letters.contains(scalar) && !CharacterSet.nonBaseCharacters.contains(scalar)
                    : CharacterSet.alphanumerics.contains(scalar)
            }
            if !ok { return false }
            isFirst = false
        }
        return !isFirst
    }

    private func isPlainName(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}

extension Validator {
    /// `text.trimmingCharacters(in: .whitespaces)`, without Foundation's cost when the text starts and ends
    /// with a character that is ASCII and not a space or tab (the usual case: nothing to trim).
    public static func trimmingWhitespace(_ text: String) -> String {
        func isPlainASCII(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
        }
        if isPlainASCII(text.utf8.first) && isPlainASCII(text.utf8.last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// A Swift type as written in a `customClassName`: an optional leading `.` (Xcode's current module), then
    /// identifiers joined by `.`, with balanced `<…>` generic arguments, `[…]`/`[K: V]` collection sugar and
    /// `?`, separated by `,` `:` or spaces. Anything else (comments, quotes, newlines, `{`, `/`) would break the
    /// generated code.
    static func isTypeReference(_ text: String) -> Bool {
        var body = Substring(trimmingWhitespace(text))
        while body.first == "." { body.removeFirst() }
        var stack: [Character] = []
        var word = ""
        var previous: Character = ","  // the last character that is not a space
        var spaced = false
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
        func wordIsName() -> Bool {
            word.isEmpty || (ValidationRun.isIdentifier(word) && !nonTypeKeywords.contains(word))
        }
        for character in body {
            if isWordCharacter(character) {
                // A name starts a type or follows `.`, `<`, `[`, `,` or `:` (so `Foo Bar` and `Foo<A>B` are refused).
                if word.isEmpty, !"<[,:.".contains(previous) || (spaced && previous == ".") { return false }
                word.append(character)
                previous = character
                spaced = false
                continue
            }
            guard wordIsName() else { return false }
            word = ""
            if character == " " {
                spaced = true
                continue
            }
            let endsType = isWordCharacter(previous) || previous == ">" || previous == "]" || previous == "?"
            switch character {
            case "<": guard endsType, !spaced else { return false }
            case "[": guard "<[,:".contains(previous) else { return false }
            case ">": guard endsType, stack.last == "<" else { return false }
            case "]": guard endsType, stack.last == "[" else { return false }
            case ".": guard endsType, !spaced else { return false }
            case ",", ":": guard endsType, !stack.isEmpty else { return false }
            case "?": guard endsType, !spaced else { return false }
            default: return false
            }
            switch character {
            case "<", "[": stack.append(character)
            case ">", "]": _ = stack.popLast()
            default: break
            }
            previous = character
            spaced = false
        }
        let endsType = isWordCharacter(previous) || previous == ">" || previous == "]" || previous == "?"
        return wordIsName() && endsType && stack.isEmpty
    }

    /// Swift keywords that cannot name a type, even as one part of a qualified name (`Any`, `Self`, `Type`
    /// and `Protocol` can).
    static let nonTypeKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "as", "await", "false", "is", "nil", "self", "super", "throws", "true", "try", "_", "some", "any",
        "each",
    ]
}

/// Parses default, minimum and maximum value strings for an attribute type.
public enum AttributeValueParser {
    /// The outcome of parsing a value string.
    public enum Outcome: Equatable, Sendable {
        /// The string is valid; the number is its numeric value (or length bound), when it has one.
        case valid(Double?)
        /// The string is invalid, with the reason as a sentence fragment.
        case invalid(String)
    }

    /// Parses `text` as a value of `type`. Minimum and maximum of String and Binary are lengths.
    public static func parse(_ text: String, as type: AttributeType, role: String) -> Outcome {
        let isBound = role == "minimum" || role == "maximum"
        switch type {
        case .integer16, .integer32, .integer64:
            let trimmed = trimmedSpaces(text)
            guard let value = Int64(trimmed) ?? wholeNumber(trimmed) else {
                return .invalid("is not an integer")
            }
            guard let range = type.integerRange, range.contains(value) else {
                return .invalid("is out of range for \(type.rawValue)")
            }
            return .valid(Double(value))
        case .double, .float, .decimal:
            guard let value = Double(trimmedSpaces(text)), value.isFinite else {
                return .invalid("is not a number")
            }
            return .valid(value)
        case .boolean:
            if isBound { return .valid(nil) }
            switch text {
            case "YES", "NO", "yes", "no", "true", "false", "TRUE", "FALSE", "1", "0": return .valid(nil)
            default: return .invalid("is not a Boolean (YES or NO)")
            }
        case .string, .binary, .uri, .transformable:
            if isBound {
                guard let length = Int(text), length >= 0 else { return .invalid("is not a length") }
                return .valid(Double(length))
            }
            if type == .uri, URL(string: text) == nil { return .invalid("is not a URL") }
            return .valid(nil)
        case .uuid:
            if isBound { return .valid(nil) }
            return UUID(uuidString: text) == nil ? .invalid("is not a UUID") : .valid(nil)
        case .date:
            if isBound { return .valid(nil) }
            return Double(text) == nil ? .invalid("is not a number of seconds") : .valid(nil)
        case .objectID, .composite, .undefined:
            return .valid(nil)
        }
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmedSpaces(_ text: String) -> Substring {
        var slice = text[...]
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }

    private static func wholeNumber(_ text: Substring) -> Int64? {
        guard let value = Double(text), value.isFinite, value.rounded() == value, abs(value) < 9.2e18 else {
            return nil
        }
        return Int64(value)
    }
}
