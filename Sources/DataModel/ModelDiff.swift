import DataModelStoreLayout

/// One semantic difference between two versions of a model: an element added, removed, renamed, or one
/// field of it changed (old and new value).
///
/// Elements are matched as Core Data matches them, by renaming identifier: an element's identifier is its
/// `elementID` (the renaming identifier Xcode writes) when it has one, else its name; an element of the new
/// model matches the old element with the same identifier. Nothing is ever matched by similarity.
public struct ModelChange: Hashable, Sendable {
    /// What happened to the element.
    public enum Kind: String, Hashable, Sendable, Codable {
        case added, removed, renamed, changed
    }

    /// What kind of element changed.
    public enum Element: String, Hashable, Sendable, Codable {
        case entity, attribute, relationship
        case fetchedProperty = "fetched property"
        case fetchIndex = "fetch index"
        case uniquenessConstraint = "uniqueness constraint"
        case configuration
        case fetchRequest = "fetch request"
    }

    /// What happened.
    public var kind: Kind
    /// The element's kind.
    public var element: Element
    /// The entity it belongs to (its name in the new model; in the old one for a removal); for a configuration
    /// or a fetch request, its own name.
    public var entity: String
    /// The property, index or constraint name within the entity; nil for entity-level changes.
    public var name: String?
    /// The changed field (`type`, `optional`, `default` …) of a ``Kind/changed`` change.
    public var field: String?
    /// The old value (for a rename, the old name); nil when absent.
    public var oldValue: String?
    /// The new value (for a rename, the new name); nil when absent.
    public var newValue: String?
    /// Where the element is: in the new model, or in the old one for a removal.
    public var location: SourceLocation

    /// Creates a change.
    public init(
        _ kind: Kind, _ element: Element, entity: String, name: String? = nil, field: String? = nil,
        oldValue: String? = nil, newValue: String? = nil, location: SourceLocation
    ) {
        self.kind = kind
        self.element = element
        self.entity = entity
        self.name = name
        self.field = field
        self.oldValue = oldValue
        self.newValue = newValue
        self.location = location
    }

    /// `Entity` or `Entity.name`.
    public var path: String { name.map { "\(entity).\($0)" } ?? entity }

    /// One line for a reviewer: `changed attribute Person.age: optional YES → NO`.
    public var summary: String {
        var text = "\(kind.rawValue) \(element.rawValue) \(path)"
        switch kind {
        case .added, .removed: break
        case .renamed: text += " (was \(oldValue ?? "?"))"
        case .changed: text += ": \(field ?? "?") \(Self.show(oldValue)) → \(Self.show(newValue))"
        }
        return text
    }

    private static func show(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "none" }
}

/// Compares two versions of a model (see ``ModelChange``).
public enum ModelDiff {
    /// Every difference between `old` and `new`, in the new model's order (removals where the element stood
    /// in the old model, after the new model's changes).
    public static func changes(from old: ObjectModel, to new: ObjectModel) -> [ModelChange] {
        var changes: [ModelChange] = []
        let oldEntities = Matcher(
            old.entities,
            identifier: { RenamingIdentifier.of(name: $0.name, renamingIdentifier: $0.renamingIdentifier) })
        var matchedOld = Set<String>()
        for entity in new.entities {
            let identifier = RenamingIdentifier.of(name: entity.name, renamingIdentifier: entity.renamingIdentifier)
            guard let previous = oldEntities[identifier] ?? oldEntities[entity.name],
                !matchedOld.contains(previous.name)
            else {
                changes.append(ModelChange(.added, .entity, entity: entity.name, location: entity.location))
                continue
            }
            matchedOld.insert(previous.name)
            compare(entity: previous, with: entity, into: &changes)
        }
        for entity in old.entities where !matchedOld.contains(entity.name) {
            changes.append(ModelChange(.removed, .entity, entity: entity.name, location: entity.location))
        }
        compareProperties(
            old.configurations, new.configurations, element: .configuration, entity: nil, name: \.name,
            identifier: \.name, location: \.location, fields: configurationFields, into: &changes)
        compareProperties(
            old.fetchRequests, new.fetchRequests, element: .fetchRequest, entity: nil, name: \.name,
            identifier: \.name, location: \.location, fields: fetchRequestFields, into: &changes)
        return changes
    }

    // MARK: Entities

    private static func compare(entity old: Entity, with new: Entity, into changes: inout [ModelChange]) {
        let here = new.location
        if old.name != new.name {
            changes.append(
                ModelChange(.renamed, .entity, entity: new.name, oldValue: old.name, newValue: new.name, location: here)
            )
        }
        func field(_ name: String, _ before: String?, _ after: String?) {
            guard before != after else { return }
            changes.append(
                ModelChange(
                    .changed, .entity, entity: new.name, field: name, oldValue: before, newValue: after, location: here)
            )
        }
        field("parent entity", old.parentEntity, new.parentEntity)
        field("abstract", yesNo(old.isAbstract), yesNo(new.isAbstract))
        field("codegen", old.codeGenerationType.rawValue, new.codeGenerationType.rawValue)
        field("class name", old.representedClassName, new.representedClassName)
        field("version hash modifier", old.versionHashModifier, new.versionHashModifier)

        compareProperties(
            old.attributes, new.attributes, element: .attribute, entity: new.name, name: \.name,
            identifier: { RenamingIdentifier.of(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            location: \.location, fields: attributeFields,
            into: &changes)
        compareProperties(
            old.relationships, new.relationships, element: .relationship, entity: new.name, name: \.name,
            identifier: { RenamingIdentifier.of(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            location: \.location, fields: relationshipFields,
            into: &changes)
        compareProperties(
            old.fetchedProperties, new.fetchedProperties, element: .fetchedProperty, entity: new.name, name: \.name,
            identifier: \.name, location: \.location, fields: fetchedPropertyFields, into: &changes)
        compareProperties(
            old.fetchIndexes, new.fetchIndexes, element: .fetchIndex, entity: new.name, name: \.name,
            identifier: \.name, location: \.location,
            fields: { [("elements", describe($0.elements), describe($1.elements))] }, into: &changes)
        // Uniqueness constraints have no name: a constraint is its list of properties.
        let oldConstraints = old.uniquenessConstraints.map { $0.properties.joined(separator: ",") }
        let newConstraints = new.uniquenessConstraints.map { $0.properties.joined(separator: ",") }
        for constraint in new.uniquenessConstraints
        where !oldConstraints.contains(constraint.properties.joined(separator: ",")) {
            changes.append(
                ModelChange(
                    .added, .uniquenessConstraint, entity: new.name, name: constraint.properties.joined(separator: ","),
                    location: constraint.location))
        }
        for constraint in old.uniquenessConstraints
        where !newConstraints.contains(constraint.properties.joined(separator: ",")) {
            changes.append(
                ModelChange(
                    .removed, .uniquenessConstraint, entity: new.name,
                    name: constraint.properties.joined(separator: ","), location: constraint.location))
        }
    }

    /// Added, removed, renamed and changed elements of one kind: within `entity`, or model-level elements
    /// (configurations, fetch requests) when `entity` is nil.
    private static func compareProperties<T>(
        _ old: [T], _ new: [T], element: ModelChange.Element, entity: String?, name: (T) -> String,
        identifier: (T) -> String, location: (T) -> SourceLocation, fields: (T, T) -> [(String, String?, String?)],
        into changes: inout [ModelChange]
    ) {
        func change(
            _ kind: ModelChange.Kind, _ item: T, field: String? = nil, old: String? = nil, new: String? = nil
        ) -> ModelChange {
            ModelChange(
                kind, element, entity: entity ?? name(item), name: entity == nil ? nil : name(item), field: field,
                oldValue: old, newValue: new, location: location(item))
        }
        let oldByIdentifier = Matcher(old, identifier: identifier)
        let oldByName = Matcher(old, identifier: name)
        var matched = Set<String>()
        for item in new {
            // The renaming identifier first; an old element of the same name when the identifier names none.
            guard let previous = oldByIdentifier[identifier(item)] ?? oldByName[name(item)],
                !matched.contains(name(previous))
            else {
                changes.append(change(.added, item))
                continue
            }
            matched.insert(name(previous))
            if name(previous) != name(item) {
                changes.append(change(.renamed, item, old: name(previous), new: name(item)))
            }
            for (field, before, after) in fields(previous, item) where before != after {
                changes.append(change(.changed, item, field: field, old: before, new: after))
            }
        }
        for item in old where !matched.contains(name(item)) {
            changes.append(change(.removed, item))
        }
    }

    private static func attributeFields(_ old: Attribute, _ new: Attribute) -> [(String, String?, String?)] {
        [
            ("type", old.type.rawValue, new.type.rawValue),
            ("optional", yesNo(old.isOptional), yesNo(new.isOptional)),
            ("transient", yesNo(old.isTransient), yesNo(new.isTransient)),
            ("derived", yesNo(old.isDerived), yesNo(new.isDerived)),
            ("derivation", old.derivationExpression, new.derivationExpression),
            (
                "default", old.defaultValueString ?? old.defaultDateTimeInterval,
                new.defaultValueString ?? new.defaultDateTimeInterval
            ),
            ("min", old.minValueString ?? old.minDateTimeInterval, new.minValueString ?? new.minDateTimeInterval),
            ("max", old.maxValueString ?? old.maxDateTimeInterval, new.maxValueString ?? new.maxDateTimeInterval),
            ("regular expression", old.regularExpressionString, new.regularExpressionString),
            ("indexed", yesNo(old.isIndexed), yesNo(new.isIndexed)),
            ("scalar", old.usesScalarValueType.map(yesNo), new.usesScalarValueType.map(yesNo)),
            (
                "external storage", yesNo(old.allowsExternalBinaryDataStorage),
                yesNo(new.allowsExternalBinaryDataStorage)
            ),
            ("value transformer", old.valueTransformerName, new.valueTransformerName),
            ("custom class", old.customClassName, new.customClassName),
            ("composite", old.composite, new.composite),
            ("preserve after deletion", yesNo(old.preserveAfterDeletion), yesNo(new.preserveAfterDeletion)),
            ("version hash modifier", old.versionHashModifier, new.versionHashModifier),
        ]
    }

    private static func relationshipFields(_ old: Relationship, _ new: Relationship) -> [(String, String?, String?)] {
        [
            ("destination", old.destinationEntity, new.destinationEntity),
            ("inverse", old.inverseName, new.inverseName),
            ("cardinality", old.isToMany ? "to-many" : "to-one", new.isToMany ? "to-many" : "to-one"),
            ("ordered", yesNo(old.isOrdered), yesNo(new.isOrdered)),
            ("delete rule", old.deletionRule.rawValue, new.deletionRule.rawValue),
            ("optional", yesNo(old.isOptional), yesNo(new.isOptional)),
            ("min count", old.minCount.map(String.init), new.minCount.map(String.init)),
            ("max count", old.maxCount.map(String.init), new.maxCount.map(String.init)),
            ("transient", yesNo(old.isTransient), yesNo(new.isTransient)),
            ("indexed", yesNo(old.isIndexed), yesNo(new.isIndexed)),
            ("version hash modifier", old.versionHashModifier, new.versionHashModifier),
        ]
    }

    private static func fetchedPropertyFields(_ old: FetchedProperty, _ new: FetchedProperty) -> [(
        String, String?, String?
    )] {
        [
            ("entity", old.fetchRequest?.entity, new.fetchRequest?.entity),
            ("predicate", old.fetchRequest?.predicateString, new.fetchRequest?.predicateString),
        ]
    }

    // MARK: Model-level elements

    private static func configurationFields(_ old: Configuration, _ new: Configuration) -> [(String, String?, String?)]
    {
        [
            ("entities", old.memberEntities.joined(separator: ", "), new.memberEntities.joined(separator: ", ")),
            ("CloudKit", yesNo(old.usedWithCloudKit), yesNo(new.usedWithCloudKit)),
        ]
    }

    private static func fetchRequestFields(_ old: FetchRequestTemplate, _ new: FetchRequestTemplate) -> [(
        String, String?, String?
    )] {
        [
            ("entity", old.entity, new.entity),
            ("predicate", old.predicateString, new.predicateString),
            ("options", describe(old.options), describe(new.options)),
        ]
    }

    // MARK: Helpers

    private static func yesNo(_ value: Bool) -> String { value ? "YES" : "NO" }

    private static func describe(_ elements: [FetchIndex.Element]) -> String {
        elements.map { "\($0.property) \($0.type) \($0.isAscending ? "ascending" : "descending")" }
            .joined(separator: ", ")
    }

    private static func describe(_ options: [String: String]) -> String {
        options.keys.sorted().map { "\($0)=\(options[$0] ?? "")" }.joined(separator: " ")
    }

    /// Elements by identifier; the first of several with one identifier wins (the validator reports duplicates).
    private struct Matcher<T> {
        private var elements: [String: T] = [:]

        init(_ items: [T], identifier: (T) -> String) {
            for item in items where elements[identifier(item)] == nil { elements[identifier(item)] = item }
        }

        subscript(identifier: String) -> T? { elements[identifier] }
    }
}
