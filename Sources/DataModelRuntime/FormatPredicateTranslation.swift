import DataModelStoreLayout
import Foundation
import PredicateFormat

// Format predicates to SQL, through the same terms, helpers and fallbacks as `#Predicate`
// (`PredicateTranslation.swift`). A node without an exact translation makes the whole predicate
// decline (`nil`): the fetch then evaluates it in memory with `FormatEvaluator`.

extension FormatPredicateExpression: SQLTranslatable {
    func sqlTerm(_ translator: PredicateSQLTranslator) -> SQLTerm? {
        guard case .object(let root)? = translator.variables[input.key], root.alias == "t0" else { return nil }
        let (term, usesRelationships, reason) = cache.translation(for: root.entity, dialect: translator.dialect) {
            let walker = FormatSQLWalker(translator: translator, root: root, objects: objects)
            let term = walker.condition(predicate)
            return (term, translator.usesRelationships, term == nil ? translator.declineReason : nil)
        }
        if usesRelationships { translator.noteRelationship() }
        if term == nil, let reason { return translator.decline(reason) }
        return term
    }
}

/// Translates one format predicate (the fetched row is `root`).
struct FormatSQLWalker {
    let translator: PredicateSQLTranslator
    let root: SQLObjectReference
    let objects: [String: ObjectID]
    /// `SUBQUERY` variables in scope.
    var scopes: [String: SQLObjectReference] = [:]

    init(translator: PredicateSQLTranslator, root: SQLObjectReference, objects: [String: ObjectID]) {
        self.translator = translator
        self.root = root
        self.objects = objects
    }

    func condition(_ predicate: FormatPredicate) -> SQLTerm? {
        switch predicate {
        case .truePredicate: return .condition(SQLFragment(translator.trueSQL), exact: true)
        case .falsePredicate: return .condition(SQLFragment(translator.falseSQL), exact: true)
        case .not(let inner):
            guard case .condition(let fragment, true)? = condition(inner) else { return nil }
            return .condition(SQLFragment("NOT " + fragment.sql, fragment.arguments), exact: true)
        case .and(let parts), .or(let parts):
            let joiner: String
            if case .and = predicate { joiner = " AND " } else { joiner = " OR " }
            var fragments: [SQLFragment] = []
            var exact = true
            for part in parts {
                guard case .condition(let fragment, let partExact)? = condition(part) else { return nil }
                fragments.append(fragment)
                exact = exact && partExact
            }
            return .condition(
                SQLFragment(
                    "(" + fragments.map(\.sql).joined(separator: joiner) + ")", fragments.flatMap(\.arguments)),
                exact: exact)
        case .comparison(let comparison):
            return self.comparison(comparison)
        }
    }

    // MARK: Comparisons

    private func comparison(_ comparison: FormatComparison) -> SQLTerm? {
        if comparison.modifier != .direct { return quantified(comparison) }
        // Two constants: decided now, exactly as in memory.
        if case .constant(let a) = comparison.left, case .constant(let b) = comparison.right {
            let holds = FormatEvaluator(objects: objects).compare(
                FormatValue(a), comparison.operator, FormatValue(b), comparison.options)
            return .condition(SQLFragment(translator.literal(holds)), exact: true)
        }
        guard let left = term(comparison.left), let right = term(comparison.right) else { return nil }
        return self.comparison(left, comparison.operator, right, comparison.options)
    }

    private func comparison(
        _ left: SQLTerm, _ op: FormatComparison.Operator, _ right: SQLTerm, _ options: FormatComparison.Options
    ) -> SQLTerm? {
        let folding = !options.subtracting(.normalized).isEmpty
        switch op {
        case .equalTo, .notEqualTo:
            if folding {
                if translator.isPostgres {
                    return translator.decline(
                        "[c] / [d] fold as Foundation does, which PostgreSQL's SQL cannot: evaluated in memory")
                }
                guard let test = stringFunction(.equal, options, left, right) else { return nil }
                return op == .equalTo ? test : negate(test)
            }
            return equality(left, right, negated: op == .notEqualTo)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard !folding else { return nil }
            return ordered(left, op.rawValue, right)
        case .between:
            guard case .array(let bounds)? = right.formatConstant, bounds.count == 2, !folding,
                case .condition(let low, true)? = ordered(left, ">=", .constant(bounds[0])),
                case .condition(let high, true)? = ordered(left, "<=", .constant(bounds[1]))
            else { return nil }
            return .condition(
                SQLFragment("(" + low.sql + " AND " + high.sql + ")", low.arguments + high.arguments), exact: true)
        case .in:
            if case .array(let elements)? = right.formatConstant {
                return anyOf(elements.map { self.comparison(left, .equalTo, .constant($0), options) })
            }
            if case .string? = right.formatConstant { return stringFunction(.contains, options, right, left) }
            if case .toMany(let reference) = right { return membership(reference, left) }
            return nil
        case .contains:
            if case .array(let elements)? = left.formatConstant {
                return anyOf(elements.map { self.comparison(.constant($0), .equalTo, right, options) })
            }
            if case .toMany(let reference) = left { return membership(reference, right) }
            return stringFunction(.contains, options, left, right)
        case .beginsWith: return stringFunction(.beginsWith, options, left, right)
        case .endsWith: return stringFunction(.endsWith, options, left, right)
        case .like: return stringFunction(.like, options, left, right)
        case .matches: return nil
        }
    }

    /// `ANY` / `ALL` over the to-many the left key path crosses.
    private func quantified(_ comparison: FormatComparison) -> SQLTerm? {
        let base: SQLTerm
        let components: [FormatExpression.KeyPathComponent]
        switch comparison.left {
        case .keyPath(let path):
            base = .object(root)
            components = path
        case .member(.variable(let name), let path):
            guard let scope = scopes[name] else { return nil }
            base = .object(scope)
            components = path
        default:
            return nil
        }
        // Walk to the first to-many.
        var current = base
        var index = 0
        while index < components.count {
            if case .toMany = current { break }
            guard let next = step(current, components[index]) else { return nil }
            current = next
            index += 1
        }
        guard case .toMany(let reference) = current,
            let (source, alias) = translator.toManySource(reference, needsDestination: true)
        else { return nil }
        let element = SQLObjectReference(entity: reference.relationship.destination, alias: alias)
        guard let left = path(.object(element), components[index...]), let right = term(comparison.right),
            case .condition(let inner, true)? = self.comparison(left, comparison.operator, right, comparison.options)
        else { return nil }
        // `source` ends in `WHERE <link> = <owner>`: the owner's arguments come before the inner ones.
        if comparison.modifier == .all {
            return .condition(
                SQLFragment(
                    "NOT EXISTS (SELECT 1 " + source + " AND NOT " + inner.sql + ")",
                    reference.owner.arguments + inner.arguments), exact: true)
        }
        return .condition(
            SQLFragment(
                "EXISTS (SELECT 1 " + source + " AND " + inner.sql + ")", reference.owner.arguments + inner.arguments),
            exact: true)
    }

    /// Whether the to-many holds the object `item` (a constant object or ID).
    private func membership(_ reference: SQLToManyReference, _ item: SQLTerm) -> SQLTerm? {
        guard let value = item.formatConstant else { return nil }
        let id: ObjectID?
        switch value {
        case .null: return .condition(SQLFragment(translator.falseSQL), exact: true)
        case .object(let reference): id = resolve(reference.identity)
        default: return nil
        }
        let destination = reference.relationship.destination
        guard let id, id.storeNumber == destination.storeNumber,
            destination.layout.hierarchyNumbers.contains(id.entityNumber)
        else { return .condition(SQLFragment(translator.falseSQL), exact: true) }
        guard let (source, alias) = translator.toManySource(reference, needsDestination: true) else { return nil }
        return .condition(
            SQLFragment(
                "EXISTS (SELECT 1 " + source + " AND " + alias + #"."Z_PK" = ?)"#,
                reference.owner.arguments + [.integer(id.primaryKey)]), exact: true)
    }

    private func negate(_ term: SQLTerm) -> SQLTerm? {
        guard case .condition(let fragment, true) = term else { return nil }
        return .condition(SQLFragment("NOT " + fragment.sql, fragment.arguments), exact: true)
    }

    private func anyOf(_ terms: [SQLTerm?]) -> SQLTerm? {
        var fragments: [SQLFragment] = []
        for term in terms {
            guard case .condition(let fragment, true)? = term else { return nil }
            fragments.append(fragment)
        }
        if fragments.isEmpty { return .condition(SQLFragment(translator.falseSQL), exact: true) }
        return .condition(
            SQLFragment("(" + fragments.map(\.sql).joined(separator: " OR ") + ")", fragments.flatMap(\.arguments)),
            exact: true)
    }

    /// `==` / `!=`, as the `#Predicate` translator writes them (`IS` / `IS NOT`, never `NULL`).
    private func equality(_ left: SQLTerm, _ right: SQLTerm, negated: Bool) -> SQLTerm? {
        switch (left, right) {
        case (.constant, _):
            return equality(right, left, negated: negated)
        case (.object, .constant(let constant)):
            guard let value = constant as? PredicateValue else { return nil }
            switch value {
            case .null: return translator.equality(left, .constant(Optional<ObjectID>.none as Any), negated: negated)
            case .object(let reference):
                // An identity naming no object of this model names no row.
                guard let id = resolve(reference.identity) else {
                    return .condition(SQLFragment(translator.literal(negated)), exact: true)
                }
                return translator.equality(left, .constant(id), negated: negated)
            default: return nil
            }
        case (_, .constant(let constant)):
            guard let value = constant as? PredicateValue, let (fragment, type, _) = translator.scalar(left),
                let encoded = encode(value, like: type)
            else {
                return nil
            }
            let op = translator.isOperator(negated: negated)
            if encoded.isNull {
                return .condition(SQLFragment(fragment.sql + op + "NULL", fragment.arguments), exact: true)
            }
            guard let mark = placeholder(encoded, type) else { return nil }
            return .condition(
                translator.compare(fragment, op, SQLFragment(mark, [encoded]), type, constants: [encoded]), exact: true)
        case (.object, .object):
            return translator.equality(left, right, negated: negated)
        default:
            guard let (_, a, _) = translator.scalar(left), let (_, b, _) = translator.scalar(right),
                kind(a) != nil, kind(a) == kind(b), comparableInSQL(a, b)
            else { return nil }
            return translator.equality(left, right, negated: negated)
        }
    }

    /// `<` and friends; a `NULL` side makes the condition false, as in memory.
    private func ordered(_ left: SQLTerm, _ op: String, _ right: SQLTerm) -> SQLTerm? {
        func side(_ term: SQLTerm, other: SQLTerm) -> (SQLFragment, SQLScalarType?, Bool)? {
            if let value = term.formatConstant {
                guard let (_, type, _) = translator.scalar(other), let encoded = encode(value, like: type),
                    !encoded.isNull, let mark = placeholder(encoded, type)
                else { return nil }
                return (SQLFragment(mark, [encoded]), nil, false)
            }
            guard let (fragment, type, nullable) = translator.scalar(term) else { return nil }
            return (fragment, type, nullable)
        }
        guard let (a, aType, aNullable) = side(left, other: right),
            let (b, bType, bNullable) = side(right, other: left),
            let type = aType ?? bType, type.isOrderable, let typeKind = kind(type)
        else { return nil }
        if let aType, let bType, kind(aType) != kind(bType) || !comparableInSQL(aType, bType) { return nil }
        _ = typeKind
        // Strings order as Swift orders them whatever the constant (`"\u{212A}"` sorts as `"K"`).
        let compared = translator.compare(a, " " + op + " ", b, type, constants: nil)
        let test = "(" + compared.sql + ")"
        let sql = aNullable || bNullable ? translator.orFalse(test) : test
        return .condition(SQLFragment(sql, compared.arguments), exact: true)
    }

    /// A string operator through the `dm_fp_…` function shared with the in-memory evaluator.
    private func stringFunction(
        _ operation: FormatStringMatching.Operation, _ options: FormatComparison.Options, _ text: SQLTerm,
        _ pattern: SQLTerm
    ) -> SQLTerm? {
        if translator.isPostgres {
            // Without `[c]` / `[d]` (Foundation's folding has no PostgreSQL equal): the text's NFC matched by a
            // regular expression (`PostgresStringMatching`); a `NULL` pattern matches nothing.
            guard options.subtracting(.normalized).isEmpty else {
                return translator.decline(
                    "[c] / [d] fold as Foundation does, which PostgreSQL's SQL cannot: evaluated in memory")
            }
            guard case .constant = pattern, let a = stringOperand(text) else {
                return translator.decline("string matching against a column is evaluated in memory on PostgreSQL")
            }
            if case .constant = text { return nil }
            switch pattern.formatConstant {
            case .null?: return .condition(SQLFragment(translator.falseSQL), exact: true)
            case .string(let needle)?: return translator.stringMatch(a, operation, needle)
            default: return nil
            }
        }
        guard let name = FormatStringMatching.sqlFunction(operation, options), let a = stringOperand(text),
            let b = stringOperand(pattern)
        else { return nil }
        if case .constant = text, case .constant = pattern { return nil }
        return .condition(
            SQLFragment("COALESCE(" + name + "(" + a.sql + ", " + b.sql + "), 0)", a.arguments + b.arguments),
            exact: true)
    }

    private func stringOperand(_ term: SQLTerm) -> SQLFragment? {
        switch (term, term.formatConstant) {
        case (_, .string(let text)?): return SQLFragment("?", [.text(text)])
        case (_, .null?): return SQLFragment("NULL")
        case (.scalar(let fragment, .attribute(.string), _), _): return fragment
        default: return nil
        }
    }

    // MARK: Values

    /// Kinds of values that compare with each other the same way in SQL and in memory.
    private enum Kind { case number, string, date }

    private func kind(_ type: SQLScalarType) -> Kind? {
        switch type {
        case .boolean, .integer: return .number
        case .attribute(let type):
            switch type {
            case .integer16, .integer32, .integer64, .double, .float, .boolean: return .number
            case .string: return .string
            case .date: return .date
            default: return nil
            }
        }
    }

    /// `value` as stored next to a value of `type`; `nil` when the kinds differ (the comparison
    /// is then evaluated in memory).
    private func encode(_ value: PredicateValue, like type: SQLScalarType) -> PrimitiveValue? {
        if case .null = value { return .null }
        guard let kind = kind(type) else { return nil }
        switch (kind, value) {
        case (.number, .bool(let bool)): return .integer(bool ? 1 : 0)
        case (.number, .integer(let integer)): return .integer(integer)
        case (.number, .double(let double)): return double.isNaN ? nil : .real(double)
        case (.string, .string(let text)): return .text(text)
        case (.date, .date(let date)):
            return translator.isExactlyStored(date.primitiveValue, type) ? date.primitiveValue : nil
        default: return nil
        }
    }

    /// Whether `type` holds PostgreSQL `BOOLEAN`s (numbers compare with them only as `0` and `1`).
    private func isBoolean(_ type: SQLScalarType) -> Bool {
        switch type {
        case .boolean, .attribute(.boolean): return true
        default: return false
        }
    }

    /// Two expressions' types compare in SQL: on PostgreSQL a `BOOLEAN` compares with a `BOOLEAN` only.
    private func comparableInSQL(_ a: SQLScalarType, _ b: SQLScalarType) -> Bool {
        !translator.isPostgres || isBoolean(a) == isBoolean(b)
    }

    /// The parameter for a number constant `encoded` compared with a value of `type`: `?`, or on PostgreSQL a
    /// typed one where the column's type would round it (a `2.5` next to an integer or a `REAL`), `nil` where
    /// PostgreSQL cannot compare it exactly (a number other than 0 and 1 next to a `BOOLEAN`).
    private func placeholder(_ encoded: PrimitiveValue, _ type: SQLScalarType) -> String? {
        guard translator.isPostgres, kind(type) == .number else { return "?" }
        if isBoolean(type) {
            switch encoded {
            case .integer(let value): return value == 0 || value == 1 ? "?" : nil
            case .real(let value): return value == 0 || value == 1 ? "?" : nil
            default: return nil
            }
        }
        switch type {
        case .attribute(.double), .attribute(.float): return "CAST(? AS DOUBLE PRECISION)"
        default:
            if case .real = encoded { return "CAST(? AS NUMERIC)" }
            return "?"
        }
    }

    /// The object an argument's identity names.
    private func resolve(_ identity: String) -> ObjectID? {
        if let id = objects[identity] { return id }
        // `x-datamodel://<store>/<Entity>/p<key>` (`CAST('…', 'NSManagedObjectID')`).
        let prefix = "x-datamodel://"
        guard identity.hasPrefix(prefix) else { return nil }
        let parts = identity.dropFirst(prefix.count).split(separator: "/")
        guard parts.count == 3, let store = Int(parts[0]), parts[2].first == "p",
            let key = Int64(parts[2].dropFirst()), store == root.entity.storeNumber,
            let entity = translator.runtime.entity(named: String(parts[1]))
        else { return nil }
        return ObjectID(storeNumber: store, entityNumber: entity.number, primaryKey: key)
    }

    func term(_ expression: FormatExpression) -> SQLTerm? {
        switch expression {
        case .constant(let value): return .constant(value)
        case .evaluatedObject: return .object(root)
        case .keyPath(let components): return path(.object(root), components[...])
        case .variable(let name): return scopes[name].map(SQLTerm.object)
        case .member(.variable(let name), let components):
            guard let scope = scopes[name] else { return nil }
            return path(.object(scope), components[...])
        case .member(.subquery(let collection, let variable, let predicate), let components):
            guard components == [.collection(.count)], case .toMany(let reference)? = term(collection),
                let (source, alias) = translator.toManySource(reference, needsDestination: true)
            else { return nil }
            var inner = self
            inner.scopes[variable] = SQLObjectReference(entity: reference.relationship.destination, alias: alias)
            guard case .condition(let test, true)? = inner.condition(predicate) else { return nil }
            return .scalar(
                SQLFragment(
                    "(SELECT COUNT(*) " + source + " AND " + test.sql + ")", reference.owner.arguments + test.arguments),
                .integer, nullable: false)
        default:
            return nil
        }
    }

    /// The value at `components` from `base`.
    private func path(_ base: SQLTerm, _ components: ArraySlice<FormatExpression.KeyPathComponent>) -> SQLTerm? {
        var current = base
        var index = components.startIndex
        while index < components.endIndex {
            let component = components[index]
            if case .toMany(let reference) = current, case .collection(let op) = component {
                return aggregate(reference, op, components[(index + 1)...])
            }
            guard let next = step(current, component) else { return nil }
            current = next
            index += 1
        }
        return current
    }

    /// One key from an object (attribute, to-one, to-many) or a to-many's `count`.
    private func step(_ current: SQLTerm, _ component: FormatExpression.KeyPathComponent) -> SQLTerm? {
        switch (current, component) {
        case (.object(let object), .key(let key)):
            let entity = object.entity
            if let index = entity.attributeIndex(key) {
                guard let columnName = entity.attributeColumns[index],
                    let column = translator.column(columnName, of: object)
                else { return nil }
                if object.alias == nil { translator.noteRelationship() }
                let attribute = entity.attributes[index]
                return .scalar(
                    column, .attribute(attribute.type), nullable: attribute.isOptional || object.alias == nil)
            }
            guard let index = entity.relationshipIndex[key] else { return nil }
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                return .toMany(SQLToManyReference(relationship: relationship, owner: object.primaryKey))
            }
            return translator.toOne(relationship, of: object).map(SQLTerm.object)
        case (.toMany(let reference), .key("count")):
            return aggregate(reference, .count, [])
        case (.scalar(let text, .attribute(.string), let nullable), .key("length")):
            // `NSString`'s length: UTF-16 code units, as the in-memory evaluator counts them.
            return .scalar(translator.utf16Length(text), .integer, nullable: nullable)
        default:
            return nil
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` of a to-many (of `rest` on each destination).
    private func aggregate(
        _ reference: SQLToManyReference, _ op: FormatExpression.CollectionOperator,
        _ rest: ArraySlice<FormatExpression.KeyPathComponent>
    ) -> SQLTerm? {
        if op == .count {
            guard rest.isEmpty, let (source, _) = translator.toManySource(reference, needsDestination: false) else {
                return nil
            }
            return ownerChecked(
                reference, SQLFragment("(SELECT COUNT(*) " + source + ")", reference.owner.arguments), .integer,
                nullable: false)
        }
        guard let (source, alias) = translator.toManySource(reference, needsDestination: true) else { return nil }
        let element = SQLObjectReference(entity: reference.relationship.destination, alias: alias)
        guard case .scalar(var value, .attribute(var type), _)? = path(.object(element), rest) else { return nil }
        if translator.isPostgres {
            // PostgreSQL sums no `BOOLEAN`s and sums `REAL`s in single precision: as SQLite, integers and doubles.
            if type == .boolean {
                value = SQLFragment("CAST(" + value.sql + " AS INTEGER)", value.arguments)
                type = .integer64
            } else if type == .float {
                value = SQLFragment("CAST(" + value.sql + " AS DOUBLE PRECISION)", value.arguments)
                type = .double
            }
        }
        let isInteger = [.integer16, .integer32, .integer64, .boolean].contains(type)
        let isNumber = isInteger || type == .double || type == .float
        let sql: String
        let resultType: SQLScalarType
        let nullable: Bool
        switch op {
        case .sum:
            guard isNumber else { return nil }
            sql = "COALESCE(SUM(" + value.sql + "), 0)"
            resultType = isInteger ? .integer : .attribute(.double)
            nullable = false
        case .avg:
            guard isNumber else { return nil }
            // PostgreSQL's average of integers is a NUMERIC: the double nearest it, as the sum divided in memory.
            sql = translator.isPostgres ? "CAST(AVG(" + value.sql + ") AS DOUBLE PRECISION)" : "AVG(" + value.sql + ")"
            resultType = .attribute(.double)
            nullable = true
        case .min, .max:
            guard isNumber || type == .date else { return nil }
            sql = (op == .min ? "MIN(" : "MAX(") + value.sql + ")"
            resultType = .attribute(type)
            nullable = true
        case .count:
            return nil
        }
        return ownerChecked(
            reference,
            SQLFragment("(SELECT " + sql + " " + source + ")", value.arguments + reference.owner.arguments), resultType,
            nullable: nullable)
    }

    /// An aggregate of a to-many reached through a to-one: `nil` when the to-one is (as in memory,
    /// where the key path stops at `nil`). The fetched row's own to-manys always have an owner.
    private func ownerChecked(
        _ reference: SQLToManyReference, _ value: SQLFragment, _ type: SQLScalarType, nullable: Bool
    ) -> SQLTerm {
        guard !reference.owner.sql.hasSuffix(#"."Z_PK""#) else { return .scalar(value, type, nullable: nullable) }
        return .scalar(
            SQLFragment(
                "CASE WHEN " + reference.owner.sql + " IS NULL THEN NULL ELSE " + value.sql + " END",
                reference.owner.arguments + value.arguments), type, nullable: true)
    }
}

extension SQLTerm {
    /// A format predicate's constant.
    var formatConstant: PredicateValue? {
        if case .constant(let value) = self { return value as? PredicateValue }
        return nil
    }
}

// MARK: - Key checks

extension FormatPredicateExpression {
    /// Throws ``StoreError/unknownProperty(entity:property:)`` for the first key the entity (or the
    /// destination a key path has reached) does not have.
    func checkKeys(entity: EntityRuntime) throws(StoreError) {
        try FormatKeyChecker(scopes: [:]).check(predicate, entity)
    }
}

private struct FormatKeyChecker {
    var scopes: [String: EntityRuntime]

    func check(_ predicate: FormatPredicate, _ entity: EntityRuntime) throws(StoreError) {
        switch predicate {
        case .truePredicate, .falsePredicate: return
        case .not(let inner): try check(inner, entity)
        case .and(let parts), .or(let parts):
            for part in parts { try check(part, entity) }
        case .comparison(let comparison):
            _ = try check(comparison.left, entity)
            _ = try check(comparison.right, entity)
        }
    }

    /// The entity whose objects `expression` reaches, when it reaches objects.
    @discardableResult
    func check(_ expression: FormatExpression, _ entity: EntityRuntime) throws(StoreError) -> EntityRuntime? {
        switch expression {
        case .evaluatedObject: return entity
        case .keyPath(let components): return try check(components, from: entity)
        case .variable(let name): return scopes[name]
        case .member(let base, let components):
            guard let start = try check(base, entity) else { return nil }
            return try check(components, from: start)
        case .aggregate(let elements):
            for element in elements { try check(element, entity) }
            return nil
        case .arithmetic(_, let lhs, let rhs):
            try check(lhs, entity)
            try check(rhs, entity)
            return nil
        case .function(_, let arguments):
            for argument in arguments { try check(argument, entity) }
            return nil
        case .subquery(let collection, let variable, let predicate):
            guard let element = try check(collection, entity) else { return nil }
            var inner = self
            inner.scopes[variable] = element
            try inner.check(predicate, entity)
            return element
        case .constant, .method, .cast: return nil
        }
    }

    private func check(_ components: [FormatExpression.KeyPathComponent], from start: EntityRuntime)
        throws(StoreError) -> EntityRuntime?
    {
        var entity: EntityRuntime? = start
        var isCollection = false
        for component in components {
            guard case .key(let key) = component else { continue }  // `@sum` and friends: same objects
            guard let current = entity else { return nil }
            if current.attributeIndex(key) != nil {
                entity = nil
                continue
            }
            if let index = current.relationshipIndex[key] {
                let relationship = current.relationships[index]
                entity = relationship.destination
                isCollection = isCollection || relationship.isToMany
                continue
            }
            if key == "count" && isCollection { return nil }
            throw .unknownProperty(entity: current.name, property: key)
        }
        return entity
    }
}
