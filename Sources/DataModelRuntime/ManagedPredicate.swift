import DataModelStoreLayout
import Foundation
import PredicateFormat

/// Core Data's `NSPredicate(format:)` for this runtime: a predicate written in the format string
/// language, as a Foundation `Predicate` over managed objects.
///
/// `ManagedPredicate<Result>` *is* `Predicate<Result>`: a format predicate goes wherever a
/// `#Predicate` goes (a fetch request's ``FetchRequest/predicate``, ``FetchRequest/filtered(by:)``,
/// batch requests, `evaluate(_:)`), and both kinds take the same SQL translation and the same
/// fallbacks. Its name does not clash with Foundation's `NSPredicate` when both modules are
/// imported. Porting Core Data code changes only the type name:
///
/// ```swift
/// request.predicate = ManagedPredicate(format: "name == %@", name)
/// request.predicate = ManagedPredicate(
///     format: "(id.length > 0 AND id == %@) OR (name == %@)", argumentArray: [id, name])
/// request.predicate = #Predicate { $0.name == name }  // still fine
/// ```
///
/// Arguments may be any Swift value the format language knows (strings, numbers, `Bool`,
/// `Date`, `UUID`, `Data`, `Decimal`, optionals, arrays and sets of these), managed objects and
/// ``ObjectID``s (compared by identity), and arrays or sets of objects and IDs. The string is
/// parsed once, when the predicate is made; see `Docs/Runtime.md` ("String predicates") for the
/// operators and their semantics.
public typealias ManagedPredicate<Result: ManagedObject> = Predicate<Result>

extension Predicate {
    /// A predicate parsed from `format` with `arguments` for its `%@`, `%K`, `%d`… in order.
    ///
    /// As Core Data's `NSPredicate(format:)` raises an exception, a malformed string stops the
    /// program with the parser's message (`predicate:1:6: error: …`, naming the column); use
    /// ``init(validatingFormat:_:)`` to get the error instead.
    public init(format: String, _ arguments: Any?...) where repeat each Input: ManagedObject {
        self.init(format: format, argumentArray: arguments as [Any?])
    }

    /// A predicate parsed from `format` with the arguments of `argumentArray` in order; stops the
    /// program on a malformed string (see ``init(format:_:)``).
    public init(format: String, argumentArray: [Any?]?) where repeat each Input: ManagedObject {
        do {
            try self.init(validatingFormat: format, argumentArray: argumentArray)
        } catch {
            preconditionFailure((error as? PredicateFormatError)?.detailedDescription ?? "\(error)")
        }
    }

    /// A predicate parsed from `format`, or the parser's error (`PredicateFormatError`, with the
    /// offending column) or a ``PredicateArgumentError``.
    public init(validatingFormat format: String, _ arguments: Any?...) throws
    where repeat each Input: ManagedObject {
        try self.init(validatingFormat: format, argumentArray: arguments as [Any?])
    }

    /// A predicate parsed from `format` with `argumentArray`, or the parser's error.
    public init(validatingFormat format: String, argumentArray: [Any?]?) throws
    where repeat each Input: ManagedObject {
        var objects: [String: ObjectID] = [:]
        var values: [any PredicateValueConvertible] = []
        for (index, argument) in (argumentArray ?? []).enumerated() {
            guard let value = FormatArguments.value(argument, objects: &objects) else {
                throw PredicateArgumentError(
                    format: format, position: index + 1, type: String(describing: type(of: argument as Any)))
            }
            values.append(value)
        }
        let parsed = try FormatPredicate(format: format, argumentArray: values)
        self.init(parsed: parsed, objects: objects)
    }

    /// Core Data's `NSPredicate(value:)`: `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) where repeat each Input: ManagedObject {
        self.init(parsed: value ? .truePredicate : .falsePredicate, objects: [:])
    }

    init(parsed: FormatPredicate, objects: [String: ObjectID]) where repeat each Input: ManagedObject {
        self.init { (variables: repeat PredicateExpressions.Variable<each Input>) in
            var inputs: [any FormatPredicateInput] = []
            for variable in repeat each variables { inputs.append(variable) }
            // safe: `ManagedPredicate<Result>` has one input; more are a programming error.
            precondition(inputs.count == 1, "a format predicate takes exactly one managed object")
            return FormatPredicateExpression(predicate: parsed, objects: objects, input: inputs[0])
        }
    }

    /// Core Data's `NSCompoundPredicate(andPredicateWithSubpredicates:)`: whether every one of `subpredicates` holds
    /// (`TRUEPREDICATE` for none). Format predicates combine into one (`(a) AND (b)`, translated to SQL as one);
    /// with a `#Predicate` among them, the combination is evaluated in memory, exactly.
    public init(andPredicateWithSubpredicates subpredicates: [Predicate<repeat each Input>])
    where repeat each Input: ManagedObject {
        self.init(combining: subpredicates, as: .and)
    }

    /// Core Data's `NSCompoundPredicate(orPredicateWithSubpredicates:)`: whether any of `subpredicates` holds
    /// (`FALSEPREDICATE` for none); combined as ``init(andPredicateWithSubpredicates:)`` combines.
    public init(orPredicateWithSubpredicates subpredicates: [Predicate<repeat each Input>])
    where repeat each Input: ManagedObject {
        self.init(combining: subpredicates, as: .or)
    }

    /// Core Data's `NSCompoundPredicate(notPredicateWithSubpredicate:)`: whether `subpredicate` does not hold.
    public init(notPredicateWithSubpredicate subpredicate: Predicate<repeat each Input>)
    where repeat each Input: ManagedObject {
        self.init(combining: [subpredicate], as: .not)
    }

    private init(combining subpredicates: [Predicate<repeat each Input>], as kind: CompoundPredicateKind)
    where repeat each Input: ManagedObject {
        let formats = subpredicates.compactMap { $0.expression as? FormatPredicateExpression }
        guard formats.count == subpredicates.count else {
            self.init { (variables: repeat PredicateExpressions.Variable<each Input>) in
                var inputs: [any FormatPredicateInput] = []
                for variable in repeat each variables { inputs.append(variable) }
                // safe: `ManagedPredicate<Result>` has one input; more are a programming error.
                precondition(inputs.count == 1, "a compound predicate takes exactly one managed object")
                return CompoundPredicateExpression(kind: kind, input: inputs[0]) { object in
                    try subpredicates.map {
                        try $0.evaluate(repeat try FormatArguments.input(object, as: (each Input).self))
                    }
                }
            }
            return
        }
        var objects: [String: ObjectID] = [:]
        for format in formats { objects.merge(format.objects) { first, _ in first } }
        let parts = formats.map(\.predicate)
        let combined: FormatPredicate
        switch kind {
        case .and: combined = parts.count == 1 ? parts[0] : (parts.isEmpty ? .truePredicate : .and(parts))
        case .or: combined = parts.count == 1 ? parts[0] : (parts.isEmpty ? .falsePredicate : .or(parts))
        case .not: combined = .not(parts.first ?? .falsePredicate)
        }
        self.init(parsed: combined, objects: objects)
    }

    /// The format string of a predicate made from one (in canonical form), else `nil`.
    public var predicateFormat: String? {
        (expression as? FormatPredicateExpression)?.predicate.description
    }

    /// Core Data's `evaluate(with:)`: whether `object` (a managed object of the predicate's entity)
    /// meets the predicate, format string or `#Predicate`. An object of another type does not; an
    /// unknown key stops the program (Core Data raises), as ``evaluate(_:)``'s error would say.
    public func evaluate(with object: Any?) -> Bool where repeat each Input: ManagedObject {
        do {
            return try evaluate(repeat try FormatArguments.input(object, as: (each Input).self))
        } catch is FormatArguments.WrongInput {
            return false
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Core Data's `withSubstitutionVariables(_:)`: the format predicate with its `$NAME`
    /// variables replaced by `variables`' values (objects and IDs allowed). A `#Predicate`, or a
    /// variable left without a value, stops the program (Core Data raises).
    public func withSubstitutionVariables(_ variables: [String: Any?]) -> Predicate
    where repeat each Input: ManagedObject {
        guard let format = expression as? FormatPredicateExpression else {
            preconditionFailure("withSubstitutionVariables(_:) applies to predicates made from a format string")
        }
        var objects = format.objects
        var values: [String: PredicateValue] = [:]
        for (name, value) in variables {
            guard let converted = FormatArguments.value(value, objects: &objects) else {
                preconditionFailure("the value of $\(name) has a type predicates cannot use")
            }
            values[name] = converted
        }
        do {
            return Predicate(parsed: try format.predicate.withSubstitutionVariables(values), objects: objects)
        } catch {
            preconditionFailure(error.description)
        }
    }
}

/// A format predicate's argument of a type the format language has no value for.
public struct PredicateArgumentError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The format string.
    public let format: String
    /// The argument's position, from 1.
    public let position: Int
    /// The argument's Swift type.
    public let type: String

    public var description: String {
        "predicate: error: argument \(position) of '\(format)' is a \(type), which predicates cannot use"
    }

    public var errorDescription: String? { description }
}

// Foundation's reference types, as Core Data code passes them (`NSNumber(value: 30)`, `date as NSDate`): the values
// of the Swift types they stand for.

extension NSNumber: PredicateValueConvertible {
    /// A floating-point number as ``PredicateValue/double(_:)``, any other (integers, and `Bool`s as 1 or 0, as
    /// Core Data's store compares them) as ``PredicateValue/integer(_:)``; an unsigned value beyond `Int64` as a
    /// double.
    public var predicateValue: PredicateValue {
        let type = objCType.pointee
        if type == CChar(UInt8(ascii: "f")) || type == CChar(UInt8(ascii: "d")) { return .double(doubleValue) }
        if type == CChar(UInt8(ascii: "Q")) && uint64Value > UInt64(Int64.max) { return .double(doubleValue) }
        return .integer(int64Value)
    }
}

extension NSDate: PredicateValueConvertible {
    /// ``PredicateValue/date(_:)``.
    public var predicateValue: PredicateValue {
        .date(Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate))
    }
}

extension NSString: PredicateValueConvertible {
    /// ``PredicateValue/string(_:)``.
    public var predicateValue: PredicateValue { .string(String(describing: self)) }
}

extension NSNull: PredicateValueConvertible {
    /// ``PredicateValue/null``.
    public var predicateValue: PredicateValue { .null }
}

/// Format arguments as the parser's values.
enum FormatArguments {
    /// An object that is not of a predicate's input type.
    struct WrongInput: Error {}

    static func input<T>(_ object: Any?, as type: T.Type) throws -> T {
        guard let typed = object as? T else { throw WrongInput() }
        return typed
    }

    /// The value for `argument`; objects and IDs become ``ObjectReference``s by their URI, noted
    /// in `objects`. `nil` for a value of no usable type.
    static func value(_ argument: Any?, objects: inout [String: ObjectID]) -> PredicateValue? {
        guard let argument, let value = unwrapped(argument) else { return .null }
        if let object = value as? ManagedObject { return reference(object.objectID, &objects) }
        if let id = value as? ObjectID { return reference(id, &objects) }
        if let predicateValue = value as? PredicateValue { return predicateValue }
        if let bridged = PredicateValue(bridging: value) { return bridged }
        guard !(value is String), let collection = value as? any Sequence else { return nil }
        var elements: [PredicateValue] = []
        for element in collection {
            guard let converted = self.value(element, objects: &objects) else { return nil }
            elements.append(converted)
        }
        return .array(elements)
    }

    private static func reference(_ id: ObjectID, _ objects: inout [String: ObjectID]) -> PredicateValue {
        let identity = id.description
        objects[identity] = id
        return .object(ObjectReference(identity))
    }
}

/// A `Predicate`'s input variable, seen without its type.
protocol FormatPredicateInput: Sendable {
    /// The variable's key, under which the SQL translator finds the fetched row.
    var key: PredicateExpressions.VariableID { get }
    /// The object the predicate is evaluated on.
    func object(in bindings: PredicateBindings) throws -> Any
}

extension PredicateExpressions.Variable: FormatPredicateInput {
    func object(in bindings: PredicateBindings) throws -> Any {
        try evaluate(bindings)
    }
}

/// A parsed format predicate as the expression of a Foundation `Predicate`: evaluated in memory by
/// ``FormatEvaluator``, translated to SQL by ``FormatSQLWalker``.
struct FormatPredicateExpression: StandardPredicateExpression {
    typealias Output = Bool

    let predicate: FormatPredicate
    /// The objects and IDs the arguments named, by their ``ObjectReference`` identity.
    let objects: [String: ObjectID]
    let input: any FormatPredicateInput
    /// The SQL translation per entity, made on first use.
    let cache = FormatTranslationCache()

    init(predicate: FormatPredicate, objects: [String: ObjectID], input: any FormatPredicateInput) {
        self.predicate = predicate
        self.objects = objects
        self.input = input
    }

    func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        guard let object = try input.object(in: bindings) as? ManagedObject else { return false }
        return try FormatEvaluator(objects: objects).holds(predicate, on: object)
    }

    private enum CodingKeys: String, CodingKey { case format }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a format predicate is decoded from its format string with ManagedPredicate(format:)")
        )
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(predicate.description, forKey: .format)
    }
}

/// How a compound predicate combines its subpredicates.
enum CompoundPredicateKind: String, Sendable, Codable {
    case and, or, not
}

/// A compound of subpredicates of which one at least is not a format predicate, evaluated in memory (the fetch's
/// exact fallback: it has no SQL translation).
struct CompoundPredicateExpression: StandardPredicateExpression {
    typealias Output = Bool

    let kind: CompoundPredicateKind
    let input: any FormatPredicateInput
    /// Each subpredicate's answer for the object.
    let answers: @Sendable (Any) throws -> [Bool]

    func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        let object = try input.object(in: bindings)
        let answers: [Bool]
        do {
            answers = try self.answers(object)
        } catch is FormatArguments.WrongInput {
            return false
        }
        switch kind {
        case .and: return answers.allSatisfy { $0 }
        case .or: return answers.contains(true)
        case .not: return !(answers.first ?? false)
        }
    }

    init(
        kind: CompoundPredicateKind, input: any FormatPredicateInput,
        answers: @escaping @Sendable (Any) throws -> [Bool]
    ) {
        self.kind = kind
        self.input = input
        self.answers = answers
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "a compound predicate is not decoded"))
    }

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            kind,
            EncodingError.Context(
                codingPath: encoder.codingPath, debugDescription: "a compound predicate is not encoded"))
    }
}

/// The translations of one format predicate, by entity: the string is parsed once when the predicate
/// is made and translated once per entity it is fetched from.
final class FormatTranslationCache: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var entries: [(entity: EntityRuntime, dialect: SQLDialect, made: (SQLTerm?, Bool, String?))] = []

    /// The term, whether it reads relationships, and why the dialect has none (when it has none for that reason).
    func translation(
        for entity: EntityRuntime, dialect: SQLDialect, make: () -> (SQLTerm?, Bool, String?)
    ) -> (SQLTerm?, Bool, String?) {
        lock.lock()
        if let entry = entries.first(where: { $0.entity === entity && $0.dialect == dialect }) {
            lock.unlock()
            return entry.made
        }
        lock.unlock()
        let made = make()
        lock.lock()
        if entries.count < 8 { entries.append((entity, dialect, made)) }
        lock.unlock()
        return made
    }
}
