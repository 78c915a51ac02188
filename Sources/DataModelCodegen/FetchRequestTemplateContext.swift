import DataModel
import DataModelNaming
import Mustache
import PredicateFormat

/// One fetch request template of the model (`<fetchRequest>` at model level) as templates see it: the typed function
/// the template's entity class gets (`fetchRequestEmployeesNamed(prefix:)`), one parameter per `$VARIABLE`.
public final class FetchRequestTemplateContext: Sendable {
    /// The template's name in the model.
    public let name: String
    /// The function's name: `fetchRequest` followed by the template's name, capitalized (`fetchRequestByName`).
    public let functionName: String
    /// The entity the template fetches.
    public let entityName: String
    /// The predicate as written, or empty.
    public let predicateFormat: String
    /// The function's parameters, one per substitution variable, sorted by variable name.
    public let parameters: [Parameter]
    /// The template's other settings (`fetchLimit`, `includeSubentities` …) as written.
    let options: [String: String]

    /// One parameter of the typed function.
    public struct Parameter: Sendable, Hashable {
        /// The variable's name without the `$` (`PREFIX`).
        public let variable: String
        /// The parameter's label: the variable's name in lower camel case (`prefix`, `minimumAge`), escaped.
        public let label: String
        /// Its Swift type: what the variable is compared with (the attribute's property type, `[T]` after `IN`,
        /// the destination class for a to-one), or the flavor's general value type when that cannot be told.
        public let swiftType: String
    }

    init(
        name: String, functionName: String, entityName: String, predicateFormat: String, parameters: [Parameter],
        options: [String: String]
    ) {
        self.name = name
        self.functionName = functionName
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.parameters = parameters
        self.options = options
    }

    /// `prefix: String?, minimumAge: Int16`: the function's parameter list.
    public var parameterList: String {
        parameters.map { $0.label + ": " + $0.swiftType }.joined(separator: ", ")
    }

    /// `["PREFIX": prefix]` (`[:]` without variables): the runtime flavor's substitution variables.
    public var substitutionVariables: String {
        parameters.isEmpty
            ? "[:]"
            : "["
                + parameters.map { RuntimeContextBuilder.literal($0.variable) + ": " + $0.label }
                .joined(separator: ", ") + "]"
    }

    /// `["PREFIX": prefix as Any]`: the Core Data flavor's (`nil` becomes `NSNull` when bridged).
    public var coreDataSubstitutionVariables: String {
        parameters.isEmpty
            ? "[:]"
            : "["
                + parameters.map { RuntimeContextBuilder.literal($0.variable) + ": " + $0.label + " as Any" }
                .joined(separator: ", ") + "]"
    }

    /// What the request fetches, for a `///` comment: ``every `Team` object``, or
    /// ``the `Member` objects matching `name BEGINSWITH[cd] $PREFIX` `` (the predicate on one line).
    public var predicateComment: String {
        predicateFormat.isEmpty
            ? "every `" + entityName + "` object"
            : "the `" + entityName + "` objects matching `"
                + predicateFormat.split(whereSeparator: \.isNewline).joined(separator: " ") + "`"
    }

    /// The arguments of the runtime's `FetchRequestTemplateDescription(…)`.
    public var descriptionArguments: String {
        var arguments =
            "name: " + RuntimeContextBuilder.literal(name) + ", entityName: "
            + RuntimeContextBuilder.literal(entityName)
        if !predicateFormat.isEmpty {
            arguments += ", predicateFormat: " + RuntimeContextBuilder.literal(predicateFormat)
        }
        if let limit = options["fetchLimit"].flatMap({ Int($0) }), limit > 0 {
            arguments += ", fetchLimit: " + String(limit)
        }
        if let size = options["fetchBatchSize"].flatMap({ Int($0) }), size > 0 {
            arguments += ", fetchBatchSize: " + String(size)
        }
        if options["includeSubentities"] == "NO" { arguments += ", includesSubentities: false" }
        if options["includesPendingChanges"] == "NO" { arguments += ", includesPendingChanges: false" }
        return arguments
    }
}

/// Builds the fetch request template contexts of a model.
struct FetchRequestTemplateBuilder {
    let model: ObjectModel
    let names: EntityNames
    let typeMapper: SwiftTypeMapper
    let flavor: Flavor

    /// The type of a parameter whose variable's type cannot be told.
    var generalType: String { flavor == .coredata ? "Any" : "Any?" }

    /// Every template of the model whose entity exists, sorted by name, with unique function names.
    func templates() -> [FetchRequestTemplateContext] {
        var used: Set<String> = []
        var contexts: [FetchRequestTemplateContext] = []
        for template in TemplateContextBuilder.sortedByName(model.fetchRequests, name: \.name) {
            guard let entity = model.entity(named: template.entity) else { continue }
            var functionName = "fetchRequest" + ModelNaming.capitalized(Self.identifier(template.name))
            if used.contains(functionName) {
                var suffix = 2
                while used.contains(functionName + String(suffix)) { suffix += 1 }
                functionName += String(suffix)
            }
            used.insert(functionName)
            let predicate = template.predicateString.flatMap { try? FormatPredicate(format: $0) }
            contexts.append(
                FetchRequestTemplateContext(
                    name: template.name, functionName: functionName, entityName: entity.name,
                    predicateFormat: template.predicateString ?? "",
                    parameters: predicate.map { parameters(of: $0, entity: entity) } ?? [],
                    options: template.options))
        }
        return contexts
    }

    /// `text` with every character that cannot be in an identifier replaced by `_`.
    static func identifier(_ text: String) -> String {
        var result = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if result.isEmpty || result.first?.isNumber == true { result = "_" + result }
        return result
    }

    // MARK: Parameters

    private func parameters(of predicate: FormatPredicate, entity: Entity) -> [FetchRequestTemplateContext.Parameter] {
        var types: [String: String] = [:]
        var conflicting: Set<String> = []
        func note(_ variable: String, _ type: String?) {
            let type = type ?? generalType
            if let known = types[variable], known != type { conflicting.insert(variable) }
            types[variable] = type
        }
        for comparison in predicate.comparisons {
            let sides = [(comparison.right, comparison.left, true), (comparison.left, comparison.right, false)]
            for (side, other, variableOnRight) in sides {
                guard case .variable(let variable) = side else { continue }
                note(
                    variable,
                    type(
                        of: variable, comparedWith: other, comparison, variableOnRight: variableOnRight,
                        entity: entity))
            }
        }
        var labels: Set<String> = []
        return predicate.variables.map { variable in
            // `TEAM_NAME` → `teamName`, `UUID` → `uuid`, `minAge` stays.
            let words = variable.contains(where: \.isLowercase) ? variable : variable.lowercased()
            var label = Self.identifier(TemplateLambdas.transform(words, by: .camelCase))
            if label == "_" || labels.contains(label) { label = Self.identifier(variable) }
            while labels.contains(label) { label += "_" }
            labels.insert(label)
            let type = conflicting.contains(variable) ? generalType : types[variable] ?? generalType
            return FetchRequestTemplateContext.Parameter(
                variable: variable, label: ModelNaming.escaped(label), swiftType: type)
        }
    }

    /// The type a variable compared with `other` takes, or nil when it cannot be told.
    private func type(
        of variable: String, comparedWith other: FormatExpression, _ comparison: FormatComparison,
        variableOnRight: Bool, entity: Entity
    ) -> String? {
        switch comparison.operator {
        case .beginsWith, .endsWith, .like, .matches:
            return "String"
        case .contains where variableOnRight:
            // A string contains a string; a collection contains an element.
            guard case .keyPath(let path) = other, let resolved = resolve(path, from: entity) else { return nil }
            return resolved.isToMany ? resolved.elementType : "String"
        case .in where variableOnRight, .between where variableOnRight:
            guard case .keyPath(let path) = other, let resolved = resolve(path, from: entity), !resolved.isToMany
            else { return nil }
            return "[" + resolved.elementType + "]"
        case .in:
            // `$x IN collection`: an element of it.
            guard case .keyPath(let path) = other, let resolved = resolve(path, from: entity) else { return nil }
            return resolved.isToMany ? resolved.elementType : nil
        default:
            guard case .keyPath(let path) = other, let resolved = resolve(path, from: entity) else { return nil }
            if resolved.isToMany { return comparison.modifier == .direct ? nil : resolved.elementType }
            return resolved.propertyType
        }
    }

    /// What a key path from `entity` reaches: its property type, and its element type when it crosses a to-many.
    private struct ResolvedPath {
        /// The property's Swift type (`String?`, `Int16`, `DepartmentEntity?`).
        var propertyType: String
        /// The type without `?`.
        var elementType: String
        /// Whether the path crosses or ends in a to-many relationship.
        var isToMany: Bool
    }

    private func resolve(_ path: [FormatExpression.KeyPathComponent], from entity: Entity) -> ResolvedPath? {
        var current = entity
        var crossesToMany = false
        for (offset, component) in path.enumerated() {
            let isLast = offset == path.count - 1
            switch component {
            case .collection(.count):
                return isLast && crossesToMany
                    ? ResolvedPath(propertyType: "Int", elementType: "Int", isToMany: false) : nil
            case .collection:
                return nil
            case .key(let key):
                if let attribute = attribute(named: key, of: current) {
                    guard isLast else { return nil }
                    guard let type = attributeType(attribute) else { return nil }
                    let element = type.hasSuffix("?") ? String(type.dropLast()) : type
                    if crossesToMany {
                        return ResolvedPath(propertyType: element, elementType: element, isToMany: true)
                    }
                    return ResolvedPath(propertyType: type, elementType: element, isToMany: false)
                }
                guard let relationship = relationship(named: key, of: current),
                    let destination = model.entity(named: relationship.destinationEntity)
                else { return nil }
                if relationship.isToMany { crossesToMany = true }
                if isLast {
                    let className = names.className(of: destination.name)
                    return ResolvedPath(
                        propertyType: crossesToMany ? className : className + "?", elementType: className,
                        isToMany: crossesToMany)
                }
                current = destination
            }
        }
        return nil
    }

    /// The attribute's property type in this flavor, or nil for values predicates cannot take (transformables,
    /// composites, object IDs).
    private func attributeType(_ attribute: Attribute) -> String? {
        switch attribute.type {
        case .transformable, .composite, .objectID, .undefined: return nil
        default: return withUnsafePointer(to: attribute) { typeMapper.type(of: $0).name }
        }
    }

    private func attribute(named name: String, of entity: Entity) -> Attribute? {
        for ancestor in model.ancestry(of: entity) {
            if let attribute = ancestor.attributes.first(where: { $0.name == name }) { return attribute }
        }
        return nil
    }

    private func relationship(named name: String, of entity: Entity) -> Relationship? {
        for ancestor in model.ancestry(of: entity) {
            if let relationship = ancestor.relationships.first(where: { $0.name == name }) { return relationship }
        }
        return nil
    }
}

/// A fetch request template's keys.
extension FetchRequestTemplateContext: KeyedMustacheObject, MustacheRepresentable {
    public var mustacheValue: MustacheValue { .object(self) }

    /// The template keys, named as in `Templates/README.md`.
    public enum Key: String, CaseIterable, Sendable {
        case `name`, nameLiteral, functionName, entityName, predicateComment, parameterList, hasParameters,
            substitutionVariables, coreDataSubstitutionVariables, descriptionArguments
    }

    /// The table of ``Key``'s names.
    public static let keys = makeKeys()

    /// The value of one key.
    public func value(for known: Key) -> MustacheValue? {
        switch known {
        case .hasParameters: .bool(!parameters.isEmpty)
        default: writtenValue(for: known)
        }
    }

    /// Writes a key straight into a template's output (see ``value(for:)``).
    public func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        switch known {
        case .name: output.append(name)
        case .nameLiteral: output.append(RuntimeContextBuilder.literal(name))
        case .functionName: output.append(functionName)
        case .entityName: output.append(entityName)
        case .predicateComment: output.append(predicateComment)
        case .parameterList: output.append(parameterList)
        case .substitutionVariables: output.append(substitutionVariables)
        case .coreDataSubstitutionVariables: output.append(coreDataSubstitutionVariables)
        case .descriptionArguments: output.append(descriptionArguments)
        case .hasParameters: return .notText
        }
        return .written
    }
}
