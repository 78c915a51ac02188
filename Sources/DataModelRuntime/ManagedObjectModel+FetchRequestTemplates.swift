import Foundation
import PredicateFormat

/// A fetch request template of a model (Xcode's *Fetch Requests*, `<fetchRequest>` in the model file): an entity
/// and a predicate in the format string language whose `$VARIABLE`s are given when a request is made from it.
///
/// Generated code describes the model's templates (`CompanyModel.model.fetchRequestTemplates`) and declares a typed
/// function per template on the entity's class; ``ManagedObjectModel/fetchRequestFromTemplate(withName:substitutionVariables:)``
/// is Core Data's dynamic way in.
public struct FetchRequestTemplateDescription: Sendable, Hashable {
    /// The template's name (`employeesNamed`).
    public var name: String
    /// The entity it fetches, in its model spelling.
    public var entityName: String
    /// The predicate's format string (`name BEGINSWITH[c] $PREFIX`), or `nil` for every object.
    public var predicateFormat: String?
    /// At most this many results; `nil` for all.
    public var fetchLimit: Int?
    /// How many rows to load at a time (``FetchRequest/fetchBatchSize``); `nil` for all at once.
    public var fetchBatchSize: Int?
    /// Whether objects of sub-entities are included.
    public var includesSubentities: Bool
    /// Whether unsaved changes show in the results.
    public var includesPendingChanges: Bool
    /// The parsed predicate, or the parser's error (with the column of the problem in ``predicateFormat``).
    let parsedPredicate: Result<FormatPredicate, PredicateFormatError>?

    /// Creates a template; the predicate is parsed once, here.
    public init(
        name: String, entityName: String, predicateFormat: String? = nil, fetchLimit: Int? = nil,
        fetchBatchSize: Int? = nil, includesSubentities: Bool = true, includesPendingChanges: Bool = true
    ) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.includesPendingChanges = includesPendingChanges
        parsedPredicate = FormatPredicate.parsed(predicateFormat)
    }

    /// The names of the predicate's substitution variables, sorted, without the `$`.
    public var variables: [String] {
        (try? parsedPredicate?.get())?.variables ?? []
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.entityName == rhs.entityName && lhs.predicateFormat == rhs.predicateFormat
            && lhs.fetchLimit == rhs.fetchLimit && lhs.fetchBatchSize == rhs.fetchBatchSize
            && lhs.includesSubentities == rhs.includesSubentities
            && lhs.includesPendingChanges == rhs.includesPendingChanges
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(entityName)
        hasher.combine(predicateFormat)
    }
}

/// Why a request could not be made from a model's fetch request template.
public enum FetchRequestTemplateError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The model has no template of this name.
    case unknownTemplate(String)
    /// The template fetches another entity than the result type's.
    case wrongEntity(template: String, entity: String, expected: String)
    /// The template's predicate does not parse (the parser's message, with its column).
    case invalidPredicate(template: String, message: String)
    /// A substitution variable of the template has no value, or a value of a type predicates cannot use.
    case badVariable(template: String, variable: String, reason: String)

    public var description: String {
        switch self {
        case .unknownTemplate(let name): "the model has no fetch request template '\(name)'"
        case .wrongEntity(let template, let entity, let expected):
            "the fetch request template '\(template)' fetches \(entity), not \(expected)"
        case .invalidPredicate(let template, let message):
            "the predicate of the fetch request template '\(template)' is invalid: \(message)"
        case .badVariable(let template, let variable, let reason):
            "the fetch request template '\(template)': $\(variable) \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

extension ManagedObjectModel {
    /// The fetch request template called `name`: Core Data's `fetchRequestTemplate(forName:)`.
    public func fetchRequestTemplate(named name: String) -> FetchRequestTemplateDescription? {
        fetchRequestTemplates.first { $0.name == name }
    }

    /// A request made from the template `name` with its `$VARIABLE`s replaced by `substitutionVariables`' values
    /// (strings, numbers, dates, … , managed objects and object IDs, arrays of them; `nil` for `NULL`), as Core
    /// Data's `fetchRequestFromTemplate(withName:substitutionVariables:)`; `nil` when the model has no such template.
    /// A variable without a value, or with a value of a type predicates cannot use, stops the program (Core Data
    /// raises); ``checkedFetchRequest(fromTemplate:substitutionVariables:as:)`` throws instead.
    ///
    /// ```swift
    /// let request = CompanyModel.model.fetchRequestFromTemplate(
    ///     withName: "employeesNamed", substitutionVariables: ["PREFIX": "A"])
    /// let found = try context.fetch(request!)  // [ManagedObject]
    /// ```
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables: [String: Any?] = [:])
        -> FetchRequest<ManagedObject>?
    {
        do {
            return try checkedFetchRequest(
                fromTemplate: name, substitutionVariables: substitutionVariables, as: ManagedObject.self)
        } catch .unknownTemplate {
            return nil
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// A typed request made from the template `name`: what the generated functions
    /// (`EmployeeEntity.fetchRequestEmployeesNamed(prefix:)`) return. The generated model always has the template,
    /// so any failure stops the program with the reason.
    public func fetchRequest<T: ManagedObject>(
        fromTemplate name: String, substitutionVariables: [String: Any?] = [:], as type: T.Type = T.self
    ) -> FetchRequest<T> {
        do {
            return try checkedFetchRequest(fromTemplate: name, substitutionVariables: substitutionVariables, as: type)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// A typed request made from the template `name`, or the reason it cannot be made: no such template, a template
    /// of another entity than `T`'s (`ManagedObject` takes any), a predicate that does not parse, or a variable
    /// without a usable value.
    public func checkedFetchRequest<T: ManagedObject>(
        fromTemplate name: String, substitutionVariables: [String: Any?] = [:], as type: T.Type = T.self
    ) throws(FetchRequestTemplateError) -> FetchRequest<T> {
        guard let template = fetchRequestTemplate(named: name) else { throw .unknownTemplate(name) }
        if T.self != ManagedObject.self, let entity = entity(named: template.entityName),
            !(entity.objectType is T.Type)
        {
            throw .wrongEntity(template: name, entity: template.entityName, expected: String(describing: T.self))
        }
        let request = FetchRequest<T>(entityName: template.entityName)
        request.fetchLimit = template.fetchLimit
        request.fetchBatchSize = template.fetchBatchSize
        request.includesSubentities = template.includesSubentities
        request.includesPendingChanges = template.includesPendingChanges
        switch template.parsedPredicate {
        case nil: break
        case .failure(let error)?: throw .invalidPredicate(template: name, message: error.description)
        case .success(let parsed)?:
            var objects: [String: ObjectID] = [:]
            var values: [String: PredicateValue] = [:]
            for variable in parsed.variables {
                guard let given = substitutionVariables[variable] else {
                    throw .badVariable(template: name, variable: variable, reason: "has no value")
                }
                guard let value = FormatArguments.value(given, objects: &objects) else {
                    throw .badVariable(
                        template: name, variable: variable,
                        reason: "is a \(String(describing: Swift.type(of: given as Any))), which predicates cannot use")
                }
                values[variable] = value
            }
            do {
                request.predicate = Predicate<T>(
                    parsed: try parsed.withSubstitutionVariables(values), objects: objects)
            } catch {
                throw .invalidPredicate(template: name, message: error.description)
            }
        }
        return request
    }
}

extension FormatPredicate {
    /// A model's predicate string parsed once, when its description is made (fetch request templates, fetched
    /// properties): `nil` without one, the parse error kept to report when the predicate is used.
    static func parsed(_ format: String?) -> Result<FormatPredicate, PredicateFormatError>? {
        format.map { format in Result { () throws(PredicateFormatError) in try FormatPredicate(format: format) } }
    }
}
