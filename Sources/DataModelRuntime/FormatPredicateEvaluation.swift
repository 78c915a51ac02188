import Foundation
import PredicateFormat
import SQLiteKit

// In-memory evaluation of format predicates (pending changes, and whatever SQL does not answer).
// The SQL translation (`FormatPredicateTranslation.swift`) gives the same answers: where it cannot,
// it declines and the fetch evaluates here.

/// A value a format predicate computes.
enum FormatValue {
    case null
    /// Integers and Booleans (0 and 1), as `NSNumber` compares them.
    case integer(Int64)
    case real(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case uuid(UUID)
    case data(Data)
    case object(ManagedObject)
    /// An object or ID given as an argument, by its identity (``ObjectID/description``).
    case reference(String)
    case collection([FormatValue])

    init(_ value: PredicateValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .integer(bool ? 1 : 0)
        case .integer(let integer): self = .integer(integer)
        case .double(let double): self = .real(double)
        case .decimal(let decimal): self = .decimal(decimal)
        case .string(let string): self = .string(string)
        case .date(let date): self = .date(date)
        case .uuid(let uuid): self = .uuid(uuid)
        case .data(let data): self = .data(data)
        case .array(let elements): self = .collection(elements.map(FormatValue.init))
        case .object(let reference): self = .reference(reference.identity)
        }
    }

    /// A Swift value read by key-value coding.
    init(swift value: Any?) {
        guard let value, let value = unwrapped(value) else {
            self = .null
            return
        }
        switch value {
        case let bool as Bool: self = .integer(bool ? 1 : 0)
        case let integer as Int16: self = .integer(Int64(integer))
        case let integer as Int32: self = .integer(Int64(integer))
        case let integer as Int64: self = .integer(integer)
        case let integer as Int: self = .integer(Int64(integer))
        case let double as Double: self = .real(double)
        case let float as Float: self = .real(Double(float))
        case let decimal as Decimal: self = .decimal(decimal)
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date)
        case let uuid as UUID: self = .uuid(uuid)
        case let url as URL: self = .string(url.absoluteString)
        case let data as Data: self = .data(data)
        case let object as ManagedObject: self = .object(object)
        case let objects as Set<ManagedObject>:
            self = .collection(
                objects.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }.map(FormatValue.object))
        case let objects as [ManagedObject]: self = .collection(objects.map(FormatValue.object))
        case let id as ObjectID: self = .reference(id.description)
        default: self = .null
        }
    }

    /// The attribute or relationship `key` of `object`, read without key-value coding's `Any` (whose casts cost
    /// more than the rest of an evaluation): the same value ``init(swift:)`` makes of `checkedValue(forKey:)`, the
    /// destinations of an unordered to-many in primary key order as there. `nil` for what key-value coding alone
    /// reads (transformable attributes, fetched properties) and unknown keys.
    init?(property key: String, of object: ManagedObject) {
        let entity = object.entityRuntime
        if let index = entity.attributeIndex(key) {
            let type = entity.attributes[index].type
            guard type != .transformable else { return nil }
            self.init(stored: object.primitiveValue(for: key), type: type)
            return
        }
        guard let relationship = object.relationship(key) else { return nil }
        if !relationship.isToMany {
            self = (object.toOne(for: key) as ManagedObject?).map(FormatValue.object) ?? .null
            return
        }
        var destinations = object.destinationObjects(key)
        if !relationship.isOrdered { destinations.sort { $0.objectID.primaryKey < $1.objectID.primaryKey } }
        self = .collection(destinations.map(FormatValue.object))
    }

    /// A stored attribute value as ``init(swift:)`` makes it of the Swift value key-value coding reads
    /// (`ManagedObject.swiftValue(_:of:)`); not for transformable attributes (archives decode to other values).
    init(stored: PrimitiveValue, type: AttributeType) {
        if stored.isNull {
            self = .null
            return
        }
        let value: FormatValue?
        switch type {
        case .integer16: value = Int16(primitiveValue: stored).map { .integer(Int64($0)) }
        case .integer32: value = Int32(primitiveValue: stored).map { .integer(Int64($0)) }
        case .integer64: value = Int64(primitiveValue: stored).map { .integer($0) }
        case .boolean: value = Bool(primitiveValue: stored).map { .integer($0 ? 1 : 0) }
        case .double: value = Double(primitiveValue: stored).map { .real($0) }
        case .float: value = Float(primitiveValue: stored).map { .real(Double($0)) }
        case .decimal: value = Decimal(primitiveValue: stored).map { .decimal($0) }
        case .string: value = String(primitiveValue: stored).map { .string($0) }
        case .date: value = Date(primitiveValue: stored).map { .date($0) }
        case .uuid: value = UUID(primitiveValue: stored).map { .uuid($0) }
        case .uri: value = URL(primitiveValue: stored).map { .string($0.absoluteString) }
        case .binary, .transformable, .composite, .objectID: value = Data(primitiveValue: stored).map { .data($0) }
        case .undefined: value = nil
        }
        self = value ?? .null
    }

    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        default: nil
        }
    }
}

/// Evaluates a format predicate on one object with Foundation's meaning (see `Docs/Runtime.md`).
struct FormatEvaluator {
    let objects: [String: ObjectID]
    /// `SUBQUERY` variables in scope.
    var variables: [String: FormatValue] = [:]
    /// The group a `havingPredicate` is evaluated on: its key paths read this dictionary, not an object.
    private var group: [String: Any]?

    init(objects: [String: ObjectID]) {
        self.objects = objects
    }

    /// Whether `predicate` holds for one group of a grouped dictionary fetch (``FetchRequest/havingPredicate``): a
    /// key path reads the longest of its prefixes that is a key of `group` (`department.name` is one key), then
    /// the rest from that value; a key the group lacks (a property without a value) reads as `nil`.
    func holds(_ predicate: FormatPredicate, onGroup group: [String: Any]) throws -> Bool {
        var evaluator = self
        evaluator.group = group
        return try evaluator.holds(predicate, on: nil)
    }

    func holds(_ predicate: FormatPredicate, on object: ManagedObject?) throws -> Bool {
        switch predicate {
        case .truePredicate: return true
        case .falsePredicate: return false
        case .not(let inner): return try !holds(inner, on: object)
        case .and(let parts):
            for part in parts where try !holds(part, on: object) { return false }
            return true
        case .or(let parts):
            for part in parts where try holds(part, on: object) { return true }
            return false
        case .comparison(let comparison):
            let right = try value(comparison.right, on: object)
            let left = try value(comparison.left, on: object)
            switch comparison.modifier {
            case .direct:
                return compare(left, comparison.operator, right, comparison.options)
            case .any:
                return elements(left).contains { compare($0, comparison.operator, right, comparison.options) }
            case .all:
                return elements(left).allSatisfy { compare($0, comparison.operator, right, comparison.options) }
            }
        }
    }

    /// The elements `ANY` / `ALL` / `SUBQUERY` range over: none for `nil` (a to-many across a
    /// missing to-one), the value itself when it is not a collection.
    private func elements(_ value: FormatValue) -> [FormatValue] {
        switch value {
        case .collection(let elements): return elements
        case .null: return []
        default: return [value]
        }
    }

    // MARK: Expressions

    func value(_ expression: FormatExpression, on object: ManagedObject?) throws -> FormatValue {
        switch expression {
        case .constant(let constant): return FormatValue(constant)
        case .evaluatedObject: return object.map(FormatValue.object) ?? .null
        case .keyPath(let components):
            if let group { return try groupValue(group, components[...]) }
            return try path(object.map(FormatValue.object) ?? .null, components[...])
        case .member(let base, let components): return try path(value(base, on: object), components[...])
        case .variable(let name):
            guard let bound = variables[name] else { throw StoreError.predicateFailed("$\(name) has no value") }
            return bound
        case .aggregate(let elements): return try .collection(elements.map { try value($0, on: object) })
        case .arithmetic(let op, let lhs, let rhs):
            return arithmetic(op, try value(lhs, on: object), try value(rhs, on: object))
        case .function(let name, let arguments):
            return try function(name, try arguments.map { try value($0, on: object) })
        case .subquery(let collection, let variable, let predicate):
            var inner = self
            var kept: [FormatValue] = []
            for element in elements(try value(collection, on: object)) {
                inner.variables[variable] = element
                if try inner.holds(predicate, on: object) { kept.append(element) }
            }
            return .collection(kept)
        case .method, .cast:
            throw StoreError.predicateFailed("'\(expression)' is not supported in fetch request predicates")
        }
    }

    /// The value at `components` in a group's dictionary (see ``holds(_:onGroup:)``).
    private func groupValue(_ group: [String: Any], _ components: ArraySlice<FormatExpression.KeyPathComponent>)
        throws -> FormatValue
    {
        var keys: [String] = []
        for component in components {
            guard case .key(let key) = component else { break }
            keys.append(key)
        }
        for length in stride(from: keys.count, to: 0, by: -1) {
            if let value = group[keys.prefix(length).joined(separator: ".")] {
                return try path(FormatValue(swift: value), components.dropFirst(length))
            }
        }
        return .null
    }

    /// The value at `components` from `base`.
    private func path(_ base: FormatValue, _ components: ArraySlice<FormatExpression.KeyPathComponent>) throws
        -> FormatValue
    {
        guard let component = components.first else { return base }
        let rest = components.dropFirst()
        switch (base, component) {
        case (.null, _):
            return .null
        case (.collection(let elements), .collection(let op)):
            let values = try elements.map { try path($0, rest) }
            return aggregate(op, values)
        case (.collection(let elements), .key(let key)):
            if key == "count" && rest.isEmpty { return .integer(Int64(elements.count)) }
            var mapped: [FormatValue] = []
            for element in elements {
                let value = try path(element, components)
                if case .collection(let inner) = value { mapped += inner } else { mapped.append(value) }
            }
            return .collection(mapped)
        case (.object(let object), .key(let key)):
            if let value = FormatValue(property: key, of: object) { return try path(value, rest) }
            let value: Any?
            do {
                value = try object.checkedValue(forKey: key)
            } catch {
                throw StoreError.unknownProperty(entity: object.entity.name, property: key)
            }
            return try path(FormatValue(swift: value), rest)
        case (.string(let text), .key("length")):
            return try path(.integer(Int64(text.utf16.count)), rest)
        default:
            throw StoreError.predicateFailed("no key '\(component)' on \(base)")
        }
    }

    private func aggregate(_ op: FormatExpression.CollectionOperator, _ values: [FormatValue]) -> FormatValue {
        if op == .count { return .integer(Int64(values.count)) }
        let present = values.filter { if case .null = $0 { false } else { true } }
        switch op {
        case .count: return .integer(Int64(values.count))
        case .sum:
            if present.allSatisfy({ if case .integer = $0 { true } else { false } }) {
                var total: Int64 = 0
                for case .integer(let value) in present { total &+= value }
                return .integer(total)
            }
            return .real(present.compactMap(\.number).reduce(0, +))
        case .avg:
            guard !present.isEmpty else { return .null }
            if present.allSatisfy({ if case .integer = $0 { true } else { false } }) {
                var total: Int64 = 0
                for case .integer(let value) in present { total &+= value }
                return .real(Double(total) / Double(present.count))
            }
            return .real(present.compactMap(\.number).reduce(0, +) / Double(present.count))
        case .min, .max:
            var best: FormatValue?
            for value in present {
                guard let current = best else {
                    best = value
                    continue
                }
                guard let order = ordering(value, current) else { continue }
                if (op == .min && order < 0) || (op == .max && order > 0) { best = value }
            }
            return best ?? .null
        }
    }

    private func arithmetic(_ op: FormatExpression.ArithmeticOperator, _ a: FormatValue, _ b: FormatValue)
        -> FormatValue
    {
        if case .integer(let x) = a, case .integer(let y) = b {
            switch op {
            case .add: if case (let r, false) = x.addingReportingOverflow(y) { return .integer(r) }
            case .subtract: if case (let r, false) = x.subtractingReportingOverflow(y) { return .integer(r) }
            case .multiply: if case (let r, false) = x.multipliedReportingOverflow(by: y) { return .integer(r) }
            case .divide, .power: break
            }
        }
        guard let x = a.number, let y = b.number else { return .null }
        switch op {
        case .add: return .real(x + y)
        case .subtract: return .real(x - y)
        case .multiply: return .real(x * y)
        case .divide: return .real(x / y)
        case .power: return .real(pow(x, y))
        }
    }

    /// `canonical:` — case and diacritics folded, as Foundation's `folding(options: [.caseInsensitive,
    /// .diacriticInsensitive], locale: nil)`. ASCII text has no diacritics and folds to its lower case, which Swift
    /// makes without bridging to `NSString` (the bridge was a third of a derived `canonical:(name)`'s cost).
    static func canonical(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private func function(_ name: String, _ arguments: [FormatValue]) throws -> FormatValue {
        switch (name, arguments.first) {
        case ("now", _): return .date(Date())
        case ("lowercase:", .string(let text)?): return .string(text.lowercased())
        case ("uppercase:", .string(let text)?): return .string(text.uppercased())
        case ("canonical:", .string(let text)?):
            return .string(Self.canonical(text))
        case ("lowercase:", _), ("uppercase:", _), ("canonical:", _): return .null
        case ("abs:", .integer(let value)?): return .integer(value.magnitude > Int64.max.magnitude ? value : abs(value))
        case ("abs:", let value?): return value.number.map { .real(Swift.abs($0)) } ?? .null
        default:
            throw StoreError.predicateFailed("the function \(name) is not supported in fetch request predicates")
        }
    }

    // MARK: Comparisons

    func compare(
        _ left: FormatValue, _ op: FormatComparison.Operator, _ right: FormatValue, _ options: FormatComparison.Options
    ) -> Bool {
        switch op {
        case .equalTo: return equal(left, right, options)
        case .notEqualTo: return !equal(left, right, options)
        case .lessThan: return order(left, right, options).map { $0 < 0 } ?? false
        case .lessThanOrEqualTo: return order(left, right, options).map { $0 <= 0 } ?? false
        case .greaterThan: return order(left, right, options).map { $0 > 0 } ?? false
        case .greaterThanOrEqualTo: return order(left, right, options).map { $0 >= 0 } ?? false
        case .between:
            guard case .collection(let bounds) = right, bounds.count == 2,
                let low = order(left, bounds[0], options), let high = order(left, bounds[1], options)
            else { return false }
            return low >= 0 && high <= 0
        case .in:
            switch right {
            case .collection(let elements): return elements.contains { equal(left, $0, options) }
            case .string(let text):
                guard case .string(let needle) = left else { return false }
                return FormatStringMatching.matches(.contains, options, text, needle)
            default: return false
            }
        case .contains:
            switch left {
            case .collection(let elements): return elements.contains { equal($0, right, options) }
            case .string(let text):
                guard case .string(let needle) = right else { return false }
                return FormatStringMatching.matches(.contains, options, text, needle)
            default: return false
            }
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let text) = left, case .string(let pattern) = right else { return false }
            let kind: FormatStringMatching.Operation =
                switch op {
                case .beginsWith: .beginsWith
                case .endsWith: .endsWith
                case .like: .like
                default: .matches
                }
            return FormatStringMatching.matches(kind, options, text, pattern)
        }
    }

    func equal(_ left: FormatValue, _ right: FormatValue, _ options: FormatComparison.Options) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)):
            return FormatStringMatching.matches(.equal, options, a, b)
        case (.date(let a), .date(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.object(let a), .object(let b)): return a.objectID == b.objectID
        case (.object(let object), .reference(let identity)), (.reference(let identity), .object(let object)):
            if let id = objects[identity] { return object.objectID == id }
            return object.objectID.description == identity
        case (.reference(let a), .reference(let b)): return a == b
        case (.collection(let a), .collection(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        default:
            return ordering(left, right) == 0
        }
    }

    private func order(_ left: FormatValue, _ right: FormatValue, _ options: FormatComparison.Options) -> Int? {
        if case .string(let a) = left, case .string(let b) = right, !options.subtracting(.normalized).isEmpty {
            let x = FormatStringMatching.fold(a, options)
            let y = FormatStringMatching.fold(b, options)
            return x == y ? 0 : (x < y ? -1 : 1)
        }
        return ordering(left, right)
    }

    /// The order of two values of comparable kinds (numbers, strings, dates), else `nil`.
    func ordering(_ left: FormatValue, _ right: FormatValue) -> Int? {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.string(let a), .string(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.date(let a), .date(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.decimal(let a), .decimal(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        default:
            guard let a = left.number, let b = right.number, !a.isNaN, !b.isNaN else { return nil }
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }
}

/// String operators with `[c]` / `[d]` options, shared by the in-memory evaluator and the SQL
/// functions `dm_fp_<operation>_<options>`, so both give the same answers.
enum FormatStringMatching {
    enum Operation: String, CaseIterable {
        case equal = "eq"
        case contains
        case beginsWith = "beginswith"
        case endsWith = "endswith"
        case like
        case matches
    }

    /// The option suffixes registered as SQL functions.
    static let optionCodes = ["", "c", "d", "cd"]

    /// The SQL function for `operation` with `options`, or `nil` (`MATCHES` runs in memory).
    static func sqlFunction(_ operation: Operation, _ options: FormatComparison.Options) -> String? {
        guard operation != .matches else { return nil }
        // Without options: the functions `#Predicate`'s `starts(with:)` and `contains` use (same
        // `Character` semantics, with their ASCII fast paths).
        if options.subtracting(.normalized).isEmpty {
            if operation == .beginsWith { return "dm_starts_with" }
            if operation == .contains { return "dm_contains" }
        }
        var code = ""
        if options.contains(.caseInsensitive) { code += "c" }
        if options.contains(.diacriticInsensitive) { code += "d" }
        return "dm_fp_" + operation.rawValue + "_" + (code.isEmpty ? "x" : code)
    }

    static func register(on database: Database) throws(SQLiteError) {
        for operation in Operation.allCases where operation != .matches {
            for code in optionCodes where !(code.isEmpty && (operation == .beginsWith || operation == .contains)) {
                var options: FormatComparison.Options = []
                if code.contains("c") { options.insert(.caseInsensitive) }
                if code.contains("d") { options.insert(.diacriticInsensitive) }
                guard let name = sqlFunction(operation, options) else { continue }
                let fixed = options
                try database.createTextPredicate(name) { text, pattern in
                    matches(
                        operation, fixed, String(decoding: text, as: UTF8.self),
                        String(decoding: pattern, as: UTF8.self))
                }
            }
        }
    }

    /// `text` folded as Foundation folds for `[c]` / `[d]` (`String.folding(options:locale: nil)`).
    static func fold(_ text: String, _ options: FormatComparison.Options) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// Whether `text` and `pattern` meet `operation`, comparing `Character`s (canonical
    /// equivalence, as Swift's `String`) after folding both.
    static func matches(_ operation: Operation, _ options: FormatComparison.Options, _ text: String, _ pattern: String)
        -> Bool
    {
        let text = fold(text, options)
        switch operation {
        case .equal: return text == fold(pattern, options)
        case .contains:
            let needle = fold(pattern, options)
            return needle.isEmpty || text.firstRange(of: needle) != nil
        case .beginsWith: return text.starts(with: fold(pattern, options))
        case .endsWith: return text.reversed().starts(with: fold(pattern, options).reversed())
        case .like: return like(Array(text), Array(fold(pattern, options)))
        case .matches:
            // The pattern is not folded: `[c]` makes the expression case-insensitive.
            var regexOptions: NSRegularExpression.Options = []
            if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
            guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: regexOptions)
            else { return false }
            return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    /// `LIKE` with `?` (one character) and `*` (any run); `\` escapes the next character.
    private static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        // Tokens: nil for `*`, "?" as a wildcard flag.
        var tokens: [(Character, isAny: Bool, isOne: Bool)] = []
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            if character == "\\" && index + 1 < pattern.count {
                tokens.append((pattern[index + 1], false, false))
                index += 2
                continue
            }
            tokens.append((character, character == "*", character == "?"))
            index += 1
        }
        // Greedy matching with backtracking to the last star.
        var t = 0
        var p = 0
        var star: Int?
        var starText = 0
        while t < text.count {
            if p < tokens.count && !tokens[p].isAny && (tokens[p].isOne || tokens[p].0 == text[t]) {
                t += 1
                p += 1
            } else if p < tokens.count && tokens[p].isAny {
                star = p
                starText = t
                p += 1
            } else if let last = star {
                p = last + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < tokens.count && tokens[p].isAny { p += 1 }
        return p == tokens.count
    }
}
