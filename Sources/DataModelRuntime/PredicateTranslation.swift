import DataModelStoreLayout
import Foundation
import SQLiteKit

// Translation of Foundation `#Predicate`s to SQL `WHERE` fragments with bound parameters.
//
// Every `PredicateExpressions` type the runtime understands conforms to `SQLTranslatable`; the
// translator walks `predicate.expression` and asks each node for an `SQLTerm`, or `nil` when the
// node (or one of its children) has no exact SQL equivalent — the request then falls back to
// evaluating the predicate in memory. The rules (see `Docs/Runtime.md`):
//
// - Conditions are built so they are never SQL `NULL` (`IS` / `IS NOT` for equality, `COALESCE`
//   and `CASE` around optionals), so `AND` / `OR` / `NOT` have Swift's two-valued meaning.
// - Values are bound exactly as the store writes them (``StorableValue/primitiveValue``).
// - Strings compare as Swift compares them (characters, canonical equivalence): on SQLite `contains` /
//   `starts(with:)` call SQL functions written with Swift's `String`, and `==`, `<`, `IN` and
//   string sorts use the `DM_SWIFT` collation where bytes could disagree
//   (`SwiftStringFunctions`); PostgreSQL's spelling of each is in `PredicateDialect.swift`. A
//   condition that selects a superset (`exact: false`) makes the request evaluate the predicate
//   again in memory on the rows SQL returned.

/// How a fetch request's predicate is answered, as ``ManagedObjectContext/explain(_:)`` reports it.
public struct FetchExplanation: Sendable, CustomStringConvertible {
    /// Where the predicate is evaluated.
    public enum Path: String, Sendable {
        /// The store's SQL (SQLite's or PostgreSQL's) answers the whole predicate.
        case sql
        /// The store's SQL narrows the rows, then the predicate is evaluated in memory on them.
        case sqlThenMemory
        /// Every row of the entity is loaded and the predicate is evaluated in memory.
        case memory
    }

    /// The path the request takes.
    public let path: Path
    /// The SQL `WHERE` clause the fetch runs (entity range, conditions and the translated
    /// predicate), with `?` for bound values.
    public let whereClause: String
    /// The predicate's part of ``whereClause`` alone; `nil` when it is not translated.
    public let predicateSQL: String?
    /// The values bound to the predicate's `?`s, in order.
    public let arguments: [PrimitiveValue]
    /// Why part of the work is done in memory, when it is.
    public let reason: String?

    public var description: String {
        "\(path.rawValue): WHERE \(whereClause)" + (reason.map { " (\($0))" } ?? "")
    }
}

/// A predicate translated to SQL.
struct TranslatedPredicate {
    let sql: String
    let arguments: [PrimitiveValue]
    /// `false`: the SQL selects a superset; the predicate must still be evaluated in memory.
    let isExact: Bool
    /// Whether the SQL reads other rows than the object's own (relationships): unsaved changes of
    /// any object can then change the answer.
    let usesRelationships: Bool
}

/// A piece of SQL with its bound values, in the order of its `?`s.
struct SQLFragment {
    var sql: String
    var arguments: [PrimitiveValue]

    init(_ sql: String, _ arguments: [PrimitiveValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// What a value expression computes, for choosing encodings and operators.
enum SQLScalarType {
    case attribute(AttributeType)
    /// A condition's value (0 or 1).
    case boolean
    /// A count.
    case integer

    /// Whether SQLite orders these values as Swift does (`<` and friends).
    var isOrderable: Bool {
        switch self {
        case .boolean, .integer: return true
        case .attribute(let type):
            switch type {
            case .integer16, .integer32, .integer64, .double, .float, .date, .string: return true
            default: return false
            }
        }
    }
}

/// A row of an entity reachable from the predicate's object.
struct SQLObjectReference {
    let entity: EntityRuntime
    /// Evaluates to the object's `Z_PK`, or `NULL` when there is none.
    let primaryKey: SQLFragment
    /// The alias of the object's row when the query reads it (`t0`, or a `contains(where:)`
    /// row): its columns are then read directly, else through a scalar subquery.
    let alias: String?
    /// Evaluates to the object's `Z_ENT`; `nil` when it can only be ``entity``'s number (a to-one whose
    /// destination has no sub-entities stores no entity column).
    let entityNumber: SQLFragment?

    init(entity: EntityRuntime, primaryKey: SQLFragment, alias: String?, entityNumber: SQLFragment?) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.alias = alias
        self.entityNumber = entityNumber
    }

    /// The row aliased `alias` (the fetched row, a `contains(where:)` row).
    init(entity: EntityRuntime, alias: String) {
        self.init(
            entity: entity, primaryKey: SQLFragment(alias + #"."Z_PK""#), alias: alias,
            entityNumber: SQLFragment(alias + #"."Z_ENT""#))
    }

    /// A condition, never `NULL`, true when the object is the one `id` names: its primary key and
    /// entity (a row of a sub-entity has its own `Z_ENT`). An ID of another store, or of an entity
    /// outside this one's hierarchy, names no row: `nil`.
    func isIdentified(by id: ObjectID, _ translator: PredicateSQLTranslator) -> SQLFragment? {
        guard id.storeNumber == entity.storeNumber, entity.layout.hierarchyNumbers.contains(id.entityNumber) else {
            return nil
        }
        let op = translator.isOperator(negated: false)
        let key = SQLFragment(primaryKey.sql + op + "?", primaryKey.arguments + [.integer(id.primaryKey)])
        guard let entityNumber else {
            return id.entityNumber == entity.number ? key : nil
        }
        return SQLFragment(
            "(" + key.sql + " AND " + entityNumber.sql + op + "?)",
            key.arguments + entityNumber.arguments + [.integer(Int64(id.entityNumber))])
    }
}

/// A to-many relationship of an object.
struct SQLToManyReference {
    let relationship: RelationshipRuntime
    let owner: SQLFragment
}

/// The translation of one expression.
enum SQLTerm {
    /// A condition: never `NULL`. `exact: false` means it selects a superset.
    case condition(SQLFragment, exact: Bool)
    /// A value (possibly `NULL` when `nullable`).
    case scalar(SQLFragment, SQLScalarType, nullable: Bool)
    /// A Swift value known before the query runs (a captured value or a literal).
    case constant(Any)
    /// An object (the predicate's input, or a to-one destination).
    case object(SQLObjectReference)
    /// A to-many relationship.
    case toMany(SQLToManyReference)
    /// An optional Bool whose `true` rows are a subset of the condition's rows
    /// (`$0.s?.contains(t)`): usable only as `== true` or `?? false`.
    case optionalNarrowing(SQLFragment)
}

/// The parts of `CASE WHEN test IS NULL THEN NULL ELSE condition END` (an optional chain's exact condition), whose
/// arguments are the test's then the condition's.
struct OptionalCondition {
    let testSQL: String
    let testArgumentCount: Int
    let conditionSQL: String
    /// Whether the condition is already 0 when the test is `NULL`: `?? false` is then the condition alone.
    let isFalseWhenTestIsNull: Bool

    /// `optional ?? fallback` as a condition, for a fragment with this SQL and its `arguments`.
    func coalesced(_ arguments: [PrimitiveValue], fallback: Bool) -> SQLFragment {
        let test = Array(arguments.prefix(testArgumentCount))
        let condition = Array(arguments.dropFirst(testArgumentCount))
        if fallback {
            return SQLFragment("(" + testSQL + " IS NULL OR " + conditionSQL + ")", test + condition)
        }
        if isFalseWhenTestIsNull { return SQLFragment(conditionSQL, condition) }
        return SQLFragment("(" + testSQL + " IS NOT NULL AND " + conditionSQL + ")", test + condition)
    }
}

/// Something the translator turns into SQL.
protocol SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm?
}

/// Walks one predicate (single use).
final class PredicateSQLTranslator {
    let runtime: ModelRuntime
    /// The SQL written: SQLite's or PostgreSQL's (`PredicateDialect.swift`).
    let dialect: SQLDialect
    var variables: [PredicateExpressions.VariableID: SQLTerm] = [:]
    private var aliasCounter = 0
    private(set) var usesRelationships = false
    /// Why a node has no translation in this dialect, when the dialect is the reason (the first one noted).
    private(set) var declineReason: String?
    /// The column references each condition is false (0) for when they are `NULL`, by the condition's SQL: a string
    /// match (`COALESCE(dm_starts_with(t0."ZNAME", ?), 0)` is 0 when `t0."ZNAME"` is `NULL`). The same SQL text is
    /// the same shape of expression, whatever values its `?`s are bound to.
    var falseWhenNull: [String: Set<String>] = [:]
    /// The optional Bools an optional chain made of an exact condition (`$0.name?.starts(with: "A")`, written
    /// `CASE WHEN test IS NULL THEN NULL ELSE condition END`), by that SQL: `?? false` and `?? true` turn them back
    /// into a condition without the `CASE` (see ``OptionalCondition``).
    var optionalConditions: [String: OptionalCondition] = [:]

    init(runtime: ModelRuntime, dialect: SQLDialect = .sqlite) {
        self.runtime = runtime
        self.dialect = dialect
    }

    /// The predicate as SQL over the root entity's table aliased `t0`, in `dialect`, or `nil`.
    static func translate<T>(
        _ predicate: Predicate<T>, entity: EntityRuntime, runtime: ModelRuntime, dialect: SQLDialect = .sqlite
    ) -> TranslatedPredicate? {
        var reason: String?
        return translate(predicate, entity: entity, runtime: runtime, dialect: dialect, declineReason: &reason)
    }

    /// As above; `declineReason` is set to why the dialect has no translation, when that is why there is none.
    static func translate<T>(
        _ predicate: Predicate<T>, entity: EntityRuntime, runtime: ModelRuntime, dialect: SQLDialect,
        declineReason: inout String?
    ) -> TranslatedPredicate? {
        let translator = PredicateSQLTranslator(runtime: runtime, dialect: dialect)
        translator.variables[predicate.variable.key] = .object(SQLObjectReference(entity: entity, alias: "t0"))
        guard let term = translator.term(predicate.expression),
            case .condition(let fragment, let exact)? = translator.condition(term)
        else {
            declineReason = translator.declineReason
            return nil
        }
        return TranslatedPredicate(
            sql: fragment.sql, arguments: fragment.arguments, isExact: exact,
            usesRelationships: translator.usesRelationships)
    }

    func term(_ expression: Any) -> SQLTerm? {
        (expression as? any SQLTranslatable)?.sqlTerm(self)
    }

    func nextAlias() -> String {
        aliasCounter += 1
        return "s\(aliasCounter)"
    }

    /// A term as a condition (Bool attributes and constants included).
    func condition(_ term: SQLTerm) -> SQLTerm? {
        switch term {
        case .condition: return term
        case .scalar(let fragment, let type, let nullable):
            guard !nullable else { return nil }
            switch type {
            case .boolean, .attribute(.boolean):
                return .condition(SQLFragment(isTrue(fragment.sql), fragment.arguments), exact: true)
            default: return nil
            }
        case .constant(let value):
            guard let bool = unwrapped(value) as? Bool else { return nil }
            return .condition(SQLFragment(literal(bool)), exact: true)
        case .object, .toMany, .optionalNarrowing: return nil
        }
    }

    /// A term as a value: a condition becomes its 0/1 (only when exact).
    func scalar(_ term: SQLTerm) -> (SQLFragment, SQLScalarType, nullable: Bool)? {
        switch term {
        case .scalar(let fragment, let type, let nullable): return (fragment, type, nullable)
        case .condition(let fragment, let exact):
            guard exact else { return nil }
            return (fragment, .boolean, false)
        default: return nil
        }
    }

    /// The stored form of a Swift value compared with a value of `type`; `.null` for `nil`.
    func encode(_ value: Any, as type: SQLScalarType) -> PrimitiveValue? {
        guard let value = unwrapped(value) else { return .null }
        switch type {
        case .boolean:
            return (value as? Bool).map { .integer($0 ? 1 : 0) }
        case .integer:
            return (value as? Int).map { .integer(Int64($0)) }
        case .attribute:
            guard let primitive = (value as? any StorableValue)?.primitiveValue, isExactlyStored(primitive, type)
            else { return nil }
            return primitive
        }
    }

    /// The object reached by to-one `relationship` from `source`.
    func toOne(_ relationship: RelationshipRuntime, of source: SQLObjectReference) -> SQLObjectReference? {
        // Only the source's row is read (its foreign key): comparing the destination with an object or
        // `nil` needs no other row, so unsaved changes of other objects cannot change the answer.
        guard case .foreignKey(let columns)? = relationship.storage,
            let foreignKey = column(columns.column, of: source)
        else { return nil }
        var entityNumber: SQLFragment?
        if let entityColumn = columns.entityColumn {
            guard let fragment = column(entityColumn, of: source) else { return nil }
            // A row's entity column is `NULL` only with its key: the destination's number then.
            entityNumber = SQLFragment(
                "COALESCE(" + fragment.sql + ", " + String(relationship.destination.number) + ")", fragment.arguments)
        } else if relationship.destination.layout.hierarchyNumbers.count > 1 {
            return nil
        }
        return SQLObjectReference(
            entity: relationship.destination, primaryKey: foreignKey, alias: nil, entityNumber: entityNumber)
    }

    /// A column of `object`'s row: direct for rows in the query, a scalar subquery otherwise.
    /// `empty`: the value a NULL column reads as (`COALESCE`), for a non-optional property of an optional
    /// attribute; through a to-one it applies inside the subquery, so a missing destination still reads NULL.
    func column(_ name: String, of object: SQLObjectReference, orEmpty empty: PrimitiveValue? = nil) -> SQLFragment? {
        func read(_ qualified: String) -> SQLFragment {
            guard let empty else { return SQLFragment(qualified) }
            return SQLFragment("COALESCE(" + qualified + ", ?)", [empty])
        }
        if let alias = object.alias { return read(alias + "." + SQLQuoting.identifier(name)) }
        // Another row than the fetched one: other objects' unsaved changes can change the answer.
        usesRelationships = true
        let alias = nextAlias()
        let value = read(alias + "." + SQLQuoting.identifier(name))
        return SQLFragment(
            "(SELECT " + value.sql + " FROM " + SQLQuoting.identifier(object.entity.tableName)
                + " AS " + alias + " WHERE " + alias + #"."Z_PK" = "# + object.primaryKey.sql + ")",
            value.arguments + object.primaryKey.arguments)
    }

    /// `FROM … WHERE …` selecting the destinations of a to-many (the destination row aliased
    /// by the returned name when `needsDestination`).
    func toManySource(_ reference: SQLToManyReference, needsDestination: Bool) -> (sql: String, alias: String)? {
        usesRelationships = true
        let relationship = reference.relationship
        switch relationship.storage {
        case .inverseForeignKey(let table, let columns)?:
            let alias = nextAlias()
            return (
                "FROM " + SQLQuoting.identifier(table) + " AS " + alias + " WHERE " + alias + "."
                    + SQLQuoting.identifier(columns.column) + " = " + reference.owner.sql, alias
            )
        case .joinTable(let join)?:
            let joinAlias = nextAlias()
            let condition =
                " WHERE " + joinAlias + "." + SQLQuoting.identifier(join.sourceColumn) + " = " + reference.owner.sql
            guard needsDestination else {
                return ("FROM " + SQLQuoting.identifier(join.table) + " AS " + joinAlias + condition, joinAlias)
            }
            let alias = nextAlias()
            return (
                "FROM " + SQLQuoting.identifier(join.table) + " AS " + joinAlias + " JOIN "
                    + SQLQuoting.identifier(relationship.destination.tableName) + " AS " + alias + " ON " + alias
                    + #"."Z_PK" = "# + joinAlias + "." + SQLQuoting.identifier(join.destinationColumn) + condition,
                alias
            )
        case .foreignKey?, nil:
            return nil
        }
    }

    /// `a IS b` / `a IS NOT b` for two terms, or `nil`.
    func equality(_ lhs: SQLTerm, _ rhs: SQLTerm, negated: Bool) -> SQLTerm? {
        let op = isOperator(negated: negated)
        switch (lhs, rhs) {
        case (.optionalNarrowing(let fragment), .constant(let value)),
            (.constant(let value), .optionalNarrowing(let fragment)):
            guard !negated, unwrapped(value) as? Bool == true else { return nil }
            return .condition(fragment, exact: false)
        case (.object(let object), .constant(let value)), (.constant(let value), .object(let object)):
            guard let target = unwrapped(value) else {
                return .condition(
                    SQLFragment(object.primaryKey.sql + op + "NULL", object.primaryKey.arguments), exact: true)
            }
            let id: ObjectID
            if let objectID = target as? ObjectID {
                id = objectID
            } else if let other = target as? ManagedObject {
                id = other.objectID
            } else {
                return nil
            }
            guard let identified = object.isIdentified(by: id, self) else {
                return .condition(SQLFragment(literal(negated)), exact: true)
            }
            return .condition(
                negated ? SQLFragment("NOT " + identified.sql, identified.arguments) : identified, exact: true)
        case (.object(let left), .object(let right)):
            return .condition(
                SQLFragment(
                    left.primaryKey.sql + op + right.primaryKey.sql,
                    left.primaryKey.arguments + right.primaryKey.arguments),
                exact: true)
        case (.constant, .constant):
            return nil
        case (.constant(let value), _):
            return equality(rhs, .constant(value), negated: negated)
        case (_, .constant(let value)):
            guard let (fragment, type, _) = scalar(lhs), let encoded = encode(value, as: type) else { return nil }
            if encoded.isNull {
                return .condition(SQLFragment(fragment.sql + op + "NULL", fragment.arguments), exact: true)
            }
            return .condition(
                compare(fragment, op, SQLFragment("?", [encoded]), type, constants: [encoded]), exact: true)
        default:
            guard let (left, type, _) = scalar(lhs), let (right, _, _) = scalar(rhs) else { return nil }
            return .condition(compare(left, op, right, type, constants: nil), exact: true)
        }
    }

    /// ` COLLATE "DM_SWIFT"` when strings of `type` must compare as Swift compares them: always
    /// between columns, and for constants whose equals in Swift may have other bytes (see
    /// ``SwiftStringFunctions/comparesBytewise(_:)``; plain comparisons keep using indexes).
    func collation(_ type: SQLScalarType, _ constants: [PrimitiveValue]?) -> String {
        guard case .attribute(.string) = type else { return "" }
        if let constants,
            constants.allSatisfy({
                if case .text(let text) = $0 { SwiftStringFunctions.comparesBytewise(text) } else { true }
            })
        {
            return ""
        }
        return SwiftStringFunctions.collateClause
    }

    /// Two terms as values of one orderable type, for `<` and friends.
    func ordered(_ lhs: SQLTerm, _ rhs: SQLTerm) -> (SQLFragment, SQLFragment, SQLScalarType)? {
        switch (lhs, rhs) {
        case (.constant, .constant): return nil
        case (.constant(let value), _):
            guard let (fragment, type, nullable) = scalar(rhs), !nullable, type.isOrderable,
                let encoded = encode(value, as: type), !encoded.isNull
            else { return nil }
            return (SQLFragment("?", [encoded]), fragment, type)
        case (_, .constant(let value)):
            guard let (fragment, type, nullable) = scalar(lhs), !nullable, type.isOrderable,
                let encoded = encode(value, as: type), !encoded.isNull
            else { return nil }
            return (fragment, SQLFragment("?", [encoded]), type)
        default:
            guard let (left, leftType, leftNullable) = scalar(lhs), let (right, rightType, rightNullable) = scalar(rhs),
                !leftNullable, !rightNullable, leftType.isOrderable, rightType.isOrderable
            else { return nil }
            return (left, right, leftType)
        }
    }
}

/// `Optional` seen through `Any`.
protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? {
        switch self {
        case .some(let value): return unwrapped(value)
        case .none: return nil
        }
    }
}

/// `value` without any levels of `Optional`; `nil` for `nil` (of any optional type) and for `NSNull` (Core Data's
/// "no value" in dictionaries, batch requests and predicate arguments). The one unwrapping of values seen through
/// `Any`: predicate constants and arguments, key-value coding, batch inserts and updates.
func unwrapped(_ value: Any) -> Any? {
    // The common values first: a cast to a concrete type is cheaper than one to a protocol.
    if let text = value as? String { return text }
    if let integer = value as? Int { return integer }
    if value is NSNull { return nil }
    if let optional = value as? any OptionalValue { return optional.wrappedAny }
    return value
}

/// The key paths of a to-many collection type that SQL answers.
protocol ToManyCollection {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: ToManyCollection {
    static var countKeyPath: AnyKeyPath { \Set<Element>.count }
    static var isEmptyKeyPath: AnyKeyPath { \Set<Element>.isEmpty }
}

extension Array: ToManyCollection {
    static var countKeyPath: AnyKeyPath { \[Element].count }
    static var isEmptyKeyPath: AnyKeyPath { \[Element].isEmpty }
}

// MARK: - Expressions

extension PredicateExpressions.Variable: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        translator.variables[key]
    }
}

extension PredicateExpressions.Value: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        .constant(value)
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        .constant(Optional<Wrapped>.none as Any)
    }
}

extension PredicateExpressions.KeyPath: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let base = translator.term(root) else { return nil }
        let path = keyPath as AnyKeyPath
        switch base {
        case .object(let object):
            // `$0.objectID`, `$0.toOne?.objectID`: the object itself, compared by primary key and entity.
            if Output.self == ObjectID.self, let type = Root.Output.self as? any ObjectIDKeyPathRoot.Type,
                path == objectIDKeyPath(of: type)
            {
                return base
            }
            let entity = object.entity
            guard let name = entity.lineage.reversed().lazy.compactMap({ $0.propertyNameForKeyPath(path) }).first
            else { return nil }
            if let index = entity.attributeIndex(name) {
                let attribute = entity.attributes[index]
                // A non-optional property of an optional attribute (`--xcode-compatible`'s `Int16` for an optional
                // Integer 16) reads the type's empty value where the column is NULL, and so does the SQL.
                let empty: PrimitiveValue? =
                    attribute.isOptional && !(Output.self is any OptionalValue.Type)
                    ? (Output.self as? any StorableValue.Type)?.emptyValue.primitiveValue : nil
                // Binary values with external storage are stored marked (or in files): evaluated in memory.
                guard !attribute.usesExternalBinaryDataFormat,
                    let columnName = entity.attributeColumns[index],
                    let column = translator.column(columnName, of: object, orEmpty: empty)
                else { return nil }
                if object.alias == nil { translator.noteRelationship() }
                // A required attribute is never NULL in a saved row (save validates it).
                return .scalar(
                    column, .attribute(attribute.type),
                    nullable: (attribute.isOptional && empty == nil) || object.alias == nil)
            }
            guard let index = entity.relationshipIndex[name] else { return nil }
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                return .toMany(SQLToManyReference(relationship: relationship, owner: object.primaryKey))
            }
            return translator.toOne(relationship, of: object).map(SQLTerm.object)
        case .toMany(let reference):
            guard let collection = Root.Output.self as? any ToManyCollection.Type,
                let (source, _) = translator.toManySource(reference, needsDestination: false)
            else { return nil }
            if path == collection.countKeyPath {
                return .scalar(
                    SQLFragment("(SELECT COUNT(*) " + source + ")", reference.owner.arguments), .integer,
                    nullable: false)
            }
            if path == collection.isEmptyKeyPath {
                return .condition(
                    SQLFragment("NOT EXISTS (SELECT 1 " + source + ")", reference.owner.arguments), exact: true)
            }
            return nil
        case .scalar(let fragment, .attribute(let type), let nullable):
            guard type == .string || type == .uri, path == \String.isEmpty as AnyKeyPath else { return nil }
            // A NULL string (a required attribute across a missing to-one) is not empty.
            let test = nullable ? translator.orFalse(fragment.sql + " = ''") : "(" + fragment.sql + " = '')"
            return .condition(SQLFragment(test, fragment.arguments), exact: true)
        default:
            return nil
        }
    }
}

extension PredicateSQLTranslator {
    /// Records that the SQL reads rows other than the object's own.
    func noteRelationship() {
        usesRelationships = true
    }

    /// No translation, because of the dialect: `reason` says why (``FetchExplanation/reason``).
    func decline(_ reason: String) -> SQLTerm? {
        if declineReason == nil { declineReason = reason }
        return nil
    }
}

extension PredicateExpressions.Equal: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs), let right = translator.term(rhs) else { return nil }
        return translator.equality(left, right, negated: false)
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs), let right = translator.term(rhs) else { return nil }
        return translator.equality(left, right, negated: true)
    }
}

extension PredicateExpressions.Comparison: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs), let right = translator.term(rhs),
            let (a, b, type) = translator.ordered(left, right)
        else { return nil }
        let symbol: String
        switch op {
        case .lessThan: symbol = " < "
        case .lessThanOrEqual: symbol = " <= "
        case .greaterThan: symbol = " > "
        case .greaterThanOrEqual: symbol = " >= "
        @unknown default: return nil
        }
        // Strings order as Swift orders them (canonical equivalence), whatever their bytes.
        let test = translator.compare(a, symbol, b, type, constants: nil)
        return .condition(SQLFragment("(" + test.sql + ")", test.arguments), exact: true)
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs).flatMap(translator.condition),
            let right = translator.term(rhs).flatMap(translator.condition),
            case .condition(let a, let aExact) = left, case .condition(let b, let bExact) = right
        else { return nil }
        return .condition(
            SQLFragment("(" + a.sql + " AND " + b.sql + ")", a.arguments + b.arguments), exact: aExact && bExact)
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs).flatMap(translator.condition),
            let right = translator.term(rhs).flatMap(translator.condition),
            case .condition(let a, let aExact) = left, case .condition(let b, let bExact) = right
        else { return nil }
        return .condition(
            SQLFragment("(" + a.sql + " OR " + b.sql + ")", a.arguments + b.arguments), exact: aExact && bExact)
    }
}

extension PredicateExpressions.Negation: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        // A narrowing (superset) condition cannot be negated.
        guard case .condition(let inner, true)? = translator.term(wrapped).flatMap(translator.condition) else {
            return nil
        }
        return .condition(SQLFragment("NOT " + inner.sql, inner.arguments), exact: true)
    }
}

extension PredicateExpressions.NilCoalesce: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs), let right = translator.term(rhs) else { return nil }
        // `$0.name?.starts(with: "A") ?? false`: the condition itself (0 for a `NULL` name), not a `CASE` in a
        // `COALESCE` compared with 1 (which read the column once more per row).
        if case .scalar(let fragment, .boolean, true) = left, case .constant(let constant) = right,
            let fallback = unwrapped(constant) as? Bool, let optional = translator.optionalConditions[fragment.sql]
        {
            return .condition(optional.coalesced(fragment.arguments, fallback: fallback), exact: true)
        }
        if case .optionalNarrowing(let fragment) = left {
            guard case .constant(let constant) = right, unwrapped(constant) as? Bool == false else { return nil }
            return .condition(fragment, exact: false)
        }
        guard let (value, type, _) = translator.scalar(left) else { return nil }
        switch right {
        case .constant(let constant):
            guard let encoded = translator.encode(constant, as: type) else { return nil }
            if encoded.isNull { return .scalar(value, type, nullable: true) }
            return .scalar(
                SQLFragment("COALESCE(" + value.sql + ", ?)", value.arguments + [encoded]), type, nullable: false)
        default:
            guard let (other, _, nullable) = translator.scalar(right) else { return nil }
            return .scalar(
                SQLFragment("COALESCE(" + value.sql + ", " + other.sql + ")", value.arguments + other.arguments), type,
                nullable: nullable)
        }
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let base = translator.term(wrapped) else { return nil }
        let test: SQLFragment
        switch base {
        case .object(let object):
            translator.variables[variable.key] = .object(object)
            test = object.primaryKey
        case .scalar(let fragment, let type, _):
            translator.variables[variable.key] = .scalar(fragment, type, nullable: false)
            test = fragment
        default:
            return nil
        }
        guard let result = translator.term(transform) else { return nil }
        switch result {
        case .object:
            // The destination's key is `NULL` when the source is.
            guard case .object = base else { return nil }
            return result
        case .scalar(let fragment, let type, _):
            if case .object = base { return .scalar(fragment, type, nullable: true) }
            return .scalar(
                SQLFragment(
                    "CASE WHEN " + test.sql + " IS NULL THEN NULL ELSE " + fragment.sql + " END",
                    test.arguments + fragment.arguments), type, nullable: true)
        case .condition(let fragment, true):
            let sql = "CASE WHEN " + test.sql + " IS NULL THEN NULL ELSE " + fragment.sql + " END"
            translator.optionalConditions[sql] = OptionalCondition(
                testSQL: test.sql, testArgumentCount: test.arguments.count, conditionSQL: fragment.sql,
                isFalseWhenTestIsNull: test.arguments.isEmpty
                    && translator.falseWhenNull[fragment.sql]?.contains(test.sql) == true)
            return .scalar(SQLFragment(sql, test.arguments + fragment.arguments), .boolean, nullable: true)
        case .condition(let fragment, false):
            // `nil` and `false` both leave the row out: the condition alone narrows `== true`.
            return .optionalNarrowing(fragment)
        default:
            return nil
        }
    }
}

extension PredicateExpressions.SequenceContains: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let base = translator.term(sequence), let item = translator.term(element) else { return nil }
        switch (base, item) {
        case (.constant(let values), .object(let object)):
            // `ids.contains($0.objectID)`, `$0.toOne.flatMap { ids.contains($0.objectID) }` with captured
            // `ObjectID`s: `key IN (…)` per entity of the IDs (with its `Z_ENT` where the row can be of several).
            guard let collection = unwrapped(values) as? any Sequence else { return nil }
            var keysByEntity: [Int: [PrimitiveValue]] = [:]
            var includesNil = false
            for value in collection {
                guard let element = unwrapped(value) else {
                    includesNil = true
                    continue
                }
                guard let id = element as? ObjectID else { return nil }
                if object.isIdentified(by: id, translator) == nil { continue }
                keysByEntity[id.entityNumber, default: []].append(.integer(id.primaryKey))
            }
            var parts: [SQLFragment] = []
            for (entityNumber, keys) in keysByEntity.sorted(by: { $0.key < $1.key }) {
                let list =
                    object.primaryKey.sql + " IN (" + Array(repeating: "?", count: keys.count).joined(separator: ", ")
                    + ")"
                var part = SQLFragment(translator.orFalse(list), object.primaryKey.arguments + keys)
                if let entity = object.entityNumber {
                    part = SQLFragment(
                        "(" + part.sql + " AND " + entity.sql + translator.isOperator(negated: false) + "?)",
                        part.arguments + entity.arguments + [.integer(Int64(entityNumber))])
                }
                parts.append(part)
            }
            if includesNil {
                parts.append(SQLFragment(object.primaryKey.sql + " IS NULL", object.primaryKey.arguments))
            }
            if parts.isEmpty { return .condition(SQLFragment(translator.falseSQL), exact: true) }
            if parts.count == 1 { return .condition(parts[0], exact: true) }
            return .condition(
                SQLFragment("(" + parts.map(\.sql).joined(separator: " OR ") + ")", parts.flatMap(\.arguments)),
                exact: true)
        case (.constant(let values), _):
            guard let collection = unwrapped(values) as? any Sequence,
                let (fragment, type, nullable) = translator.scalar(item)
            else { return nil }
            var encoded: [PrimitiveValue] = []
            var includesNil = false
            for value in collection {
                guard let primitive = translator.encode(value, as: type) else { return nil }
                if primitive.isNull { includesNil = true } else { encoded.append(primitive) }
            }
            var parts: [SQLFragment] = []
            if !encoded.isEmpty {
                let list = translator.inList(fragment, type, encoded)
                parts.append(SQLFragment(nullable ? translator.orFalse(list) : list, fragment.arguments + encoded))
            }
            if includesNil { parts.append(SQLFragment(fragment.sql + " IS NULL", fragment.arguments)) }
            if parts.isEmpty { return .condition(SQLFragment(translator.falseSQL), exact: true) }
            if parts.count == 1 { return .condition(parts[0], exact: true) }
            return .condition(
                SQLFragment("(" + parts.map(\.sql).joined(separator: " OR ") + ")", parts.flatMap(\.arguments)),
                exact: true)
        case (.toMany(let reference), .constant(let value)):
            guard let object = unwrapped(value) as? ManagedObject,
                object.objectID.storeNumber == reference.relationship.destination.storeNumber,
                let (source, alias) = translator.toManySource(reference, needsDestination: true)
            else { return nil }
            return .condition(
                SQLFragment(
                    "EXISTS (SELECT 1 " + source + " AND " + alias + #"."Z_PK" = ?)"#,
                    reference.owner.arguments + [.integer(object.objectID.primaryKey)]), exact: true)
        default:
            return nil
        }
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard case .toMany(let reference)? = translator.term(sequence),
            let (source, alias) = translator.toManySource(reference, needsDestination: true)
        else { return nil }
        translator.variables[variable.key] = .object(
            SQLObjectReference(entity: reference.relationship.destination, alias: alias))
        guard case .condition(let inner, let exact)? = translator.term(test).flatMap(translator.condition) else {
            return nil
        }
        return .condition(
            SQLFragment(
                "EXISTS (SELECT 1 " + source + " AND " + inner.sql + ")", reference.owner.arguments + inner.arguments),
            exact: exact)
    }
}

extension PredicateExpressions.CollectionContainsCollection: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let text = translator.term(base).flatMap(translator.stringOperand),
            let needle = translator.term(other).flatMap(translator.stringOperand)
        else { return nil }
        if translator.isPostgres {
            guard case .constant(let value)? = translator.term(other), let needle = unwrapped(value) as? String else {
                return translator.decline("string matching against a column is evaluated in memory on PostgreSQL")
            }
            return translator.stringMatch(text, .contains, needle)
        }
        // Characters, as Swift compares them: a function with Swift's own `contains`.
        return translator.stringFunctionCondition("dm_contains", text, needle)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let text = translator.term(base).flatMap(translator.stringOperand),
            let prefix = translator.term(self.prefix).flatMap(translator.stringOperand)
        else { return nil }
        if translator.isPostgres {
            guard case .constant(let value)? = translator.term(self.prefix), let needle = unwrapped(value) as? String
            else {
                return translator.decline("string matching against a column is evaluated in memory on PostgreSQL")
            }
            return translator.stringMatch(text, .beginsWith, needle)
        }
        return translator.stringFunctionCondition("dm_starts_with", text, prefix)
    }
}

extension PredicateSQLTranslator {
    /// `COALESCE(function(text, other), 0)`: a SQLite string function (`NULL` when either side is `NULL`) as a
    /// condition, noted as false when either side is a `NULL` column.
    func stringFunctionCondition(_ function: String, _ text: SQLFragment, _ other: SQLFragment) -> SQLTerm {
        let sql = "COALESCE(" + function + "(" + text.sql + ", " + other.sql + "), 0)"
        for operand in [text, other] where operand.arguments.isEmpty {
            falseWhenNull[sql, default: []].insert(operand.sql)
        }
        return .condition(SQLFragment(sql, text.arguments + other.arguments), exact: true)
    }

    /// A string value or constant as SQL text.
    func stringOperand(_ term: SQLTerm) -> SQLFragment? {
        switch term {
        case .constant(let value):
            guard let text = unwrapped(value) as? String else { return nil }
            return SQLFragment("?", [.text(text)])
        case .scalar(let fragment, .attribute(let type), _):
            guard type == .string || type == .uri else { return nil }
            return fragment
        default:
            return nil
        }
    }
}

extension PredicateExpressions.Arithmetic: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard let left = translator.term(lhs), let right = translator.term(rhs) else { return nil }
        // Integers and Double only: SQLite computes in Int64 or Double (Float would round
        // differently). Swift traps on integer overflow where SQLite turns to REAL.
        func isNumeric(_ type: SQLScalarType) -> Bool {
            switch type {
            case .integer: return true
            case .attribute(let type): return [.integer16, .integer32, .integer64, .double].contains(type)
            case .boolean: return false
            }
        }
        let operands: (SQLFragment, SQLFragment, SQLScalarType)
        switch (left, right) {
        case (.constant, .constant): return nil
        case (.constant(let value), _):
            guard let (fragment, type, nullable) = translator.scalar(right), !nullable, isNumeric(type),
                let encoded = translator.encode(value, as: type), !encoded.isNull
            else { return nil }
            operands = (SQLFragment("?", [encoded]), fragment, type)
        case (_, .constant(let value)):
            guard let (fragment, type, nullable) = translator.scalar(left), !nullable, isNumeric(type),
                let encoded = translator.encode(value, as: type), !encoded.isNull
            else { return nil }
            operands = (fragment, SQLFragment("?", [encoded]), type)
        default:
            guard let (a, type, aNullable) = translator.scalar(left), let (b, _, bNullable) = translator.scalar(right),
                !aNullable, !bNullable, isNumeric(type)
            else { return nil }
            operands = (a, b, type)
        }
        let symbol: String
        switch op {
        case .add: symbol = " + "
        case .subtract: symbol = " - "
        case .multiply: symbol = " * "
        @unknown default: return nil
        }
        return .scalar(
            SQLFragment(
                "(" + operands.0.sql + symbol + operands.1.sql + ")", operands.0.arguments + operands.1.arguments),
            operands.2, nullable: false)
    }
}

extension PredicateExpressions.Conditional: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard case .condition(let condition, true)? = translator.term(test).flatMap(translator.condition),
            let whenTrue = translator.term(trueBranch), let whenFalse = translator.term(falseBranch)
        else { return nil }
        func branch(_ term: SQLTerm, like other: SQLTerm) -> (SQLFragment, SQLScalarType, Bool)? {
            if case .constant(let value) = term {
                guard let (_, type, _) = translator.scalar(other), let encoded = translator.encode(value, as: type)
                else {
                    return nil
                }
                return encoded.isNull ? (SQLFragment("NULL"), type, true) : (SQLFragment("?", [encoded]), type, false)
            }
            return translator.scalar(term).map { ($0.0, $0.1, $0.nullable) }
        }
        if case .constant = whenTrue, case .constant = whenFalse { return nil }
        guard let (a, type, aNullable) = branch(whenTrue, like: whenFalse),
            let (b, _, bNullable) = branch(whenFalse, like: whenTrue)
        else { return nil }
        let sql = SQLFragment(
            "CASE WHEN " + condition.sql + " THEN " + a.sql + " ELSE " + b.sql + " END",
            condition.arguments + a.arguments + b.arguments)
        if case .boolean = type, !aNullable, !bNullable { return .condition(sql, exact: true) }
        return .scalar(sql, type, nullable: aNullable || bNullable)
    }
}

/// Managed object classes, for finding their `objectID` key path (`\Employee.objectID` is not
/// `\ManagedObject.objectID`: a key path's root type is part of its identity).
protocol ObjectIDKeyPathRoot: ManagedObject {}

extension ManagedObject: ObjectIDKeyPathRoot {}

/// `\T.objectID` for the class `type` is (opened from the existential).
func objectIDKeyPath<T: ObjectIDKeyPathRoot>(of type: T.Type) -> AnyKeyPath {
    \T.objectID
}
