// The grammar of random `#Predicate` trees over `Gadget` (GadgetsModel.swift), without the macro: each tree is
// built from `PredicateExpressions` values chosen by a `SeededGenerator`. Shared by PredicatePropertyTests and the
// `fuzz-predicate-translator` target (Fuzz/), which compiles this file through a symlink with its own
// `SeededGenerator` (driven by the fuzzer's bytes): it must use nothing but `int`, `pick` and `chance`.
import DataModelRuntime
import Foundation

typealias BoolExpression = any StandardPredicateExpression<Bool>
typealias GadgetVariable = PredicateExpressions.Variable<Gadget>

/// Random predicates over ``Gadget`` from a grammar: comparisons on every attribute type, nil
/// checks, `??`, captured arrays, string matching, to-one key paths, to-many counts, `isEmpty`
/// and `contains(where:)`, combined with `&&`, `||`, `!`.
enum PredicateGrammar {
    /// `objects` in the order a fetch sorted by `sorts` returns them, worked out apart from the runtime (the oracle):
    /// the descriptors in turn, ties in primary key order.
    static func sorted<T: ManagedObject>(_ objects: some Sequence<T>, by sorts: [SortDescriptor<T>]) -> [T] {
        objects.sorted { lhs, rhs in
            for descriptor in sorts {
                switch descriptor.compare(lhs, rhs) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return lhs.objectID.primaryKey < rhs.objectID.primaryKey
        }
    }

    static let texts = [
        "", "a", "ab", "Abc", "bca", "naïve", "x%_y", "é", "A", "A\u{301}b", "Ke", "\u{212A}e", "a\r\nb", "a\r",
    ]
    static let int16s: [Int16] = [-2, 0, 1, 5, 300]
    static let int32s: [Int32] = [-70000, 0, 3, 9]
    static let int64s: [Int64] = [-1, 0, 2, 1 << 40]
    static let doubles: [Double] = [-1.5, 0, 2.25, 1e10]
    static let floats: [Float] = [-3, 0.5, 7]
    static let dates: [Date] = [0, 1e6, -1e5].map { Date(timeIntervalSinceReferenceDate: $0) }
    static let decimals: [Decimal] = ["1.5", "0", "-2", "123456789.123456789"].compactMap {
        Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))
    }
    static let datas: [Data] = [Data(), Data([1]), Data([1, 2])]
    static let uuids: [UUID] = [
        "00000000-0000-0000-0000-000000000001", "10000000-0000-0000-0000-000000000000",
        "FFFFFFFF-0000-0000-0000-000000000000",
    ].compactMap(UUID.init(uuidString:))
    static let labels = ["red", "blue", "Red", "green"]

    static func predicate(_ rng: inout SeededGenerator) -> Predicate<Gadget> {
        var generator = rng
        let predicate = Predicate<Gadget> { variable in expression(variable, depth: 3, &generator) }
        rng = generator
        return predicate
    }

    static func expression(_ v: GadgetVariable, depth: Int, _ rng: inout SeededGenerator) -> BoolExpression {
        guard depth > 0, rng.chance(55) else { return atom(v, &rng) }
        switch rng.int(3) {
        case 0: return and(expression(v, depth: depth - 1, &rng), expression(v, depth: depth - 1, &rng))
        case 1: return or(expression(v, depth: depth - 1, &rng), expression(v, depth: depth - 1, &rng))
        default: return not(expression(v, depth: depth - 1, &rng))
        }
    }

    static func and(_ a: BoolExpression, _ b: BoolExpression) -> BoolExpression {
        func open<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B)
            -> BoolExpression
        {
            PredicateExpressions.Conjunction(lhs: a, rhs: b)
        }
        return open(a, b)
    }

    static func or(_ a: BoolExpression, _ b: BoolExpression) -> BoolExpression {
        func open<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B)
            -> BoolExpression
        {
            PredicateExpressions.Disjunction(lhs: a, rhs: b)
        }
        return open(a, b)
    }

    static func not(_ a: BoolExpression) -> BoolExpression {
        func open<A: StandardPredicateExpression<Bool>>(_ a: A) -> BoolExpression { PredicateExpressions.Negation(a) }
        return open(a)
    }

    static func path<T>(_ v: GadgetVariable, _ keyPath: KeyPath<Gadget, T> & Sendable)
        -> PredicateExpressions.KeyPath<GadgetVariable, T>
    {
        PredicateExpressions.KeyPath(root: v, keyPath: keyPath)
    }

    static func comparison(_ rng: inout SeededGenerator) -> PredicateExpressions.ComparisonOperator {
        rng.pick([.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual])
    }

    /// `==`, `!=`, nil checks and `IN` on an optional attribute.
    static func equatableAtom<T: Equatable & Codable & Sendable>(
        _ v: GadgetVariable, _ keyPath: KeyPath<Gadget, T?> & Sendable, _ pool: [T], _ rng: inout SeededGenerator
    ) -> BoolExpression {
        let value: T? = rng.chance(85) ? rng.pick(pool) : nil
        switch rng.int(5) {
        case 0: return PredicateExpressions.Equal(lhs: path(v, keyPath), rhs: PredicateExpressions.Value(value))
        case 1: return PredicateExpressions.NotEqual(lhs: path(v, keyPath), rhs: PredicateExpressions.Value(value))
        case 2: return PredicateExpressions.Equal(lhs: path(v, keyPath), rhs: PredicateExpressions.NilLiteral<T>())
        case 3: return PredicateExpressions.NotEqual(lhs: path(v, keyPath), rhs: PredicateExpressions.NilLiteral<T>())
        default:
            let list: [T?] = (0..<rng.int(4)).map { _ in rng.chance(85) ? rng.pick(pool) : nil }
            return PredicateExpressions.SequenceContains(
                sequence: PredicateExpressions.Value(list), element: path(v, keyPath))
        }
    }

    /// The above, plus `(x ?? d) < value` and friends.
    static func comparableAtom<T: Comparable & Codable & Sendable>(
        _ v: GadgetVariable, _ keyPath: KeyPath<Gadget, T?> & Sendable, _ pool: [T], _ rng: inout SeededGenerator
    ) -> BoolExpression {
        guard rng.chance(50) else { return equatableAtom(v, keyPath, pool, &rng) }
        return PredicateExpressions.Comparison(
            lhs: PredicateExpressions.NilCoalesce(
                lhs: path(v, keyPath), rhs: PredicateExpressions.Value(rng.pick(pool))),
            rhs: PredicateExpressions.Value(rng.pick(pool)), op: comparison(&rng))
    }

    static func atom(_ v: GadgetVariable, _ rng: inout SeededGenerator) -> BoolExpression {
        switch rng.int(22) {
        case 20:  // arithmetic: ((i64 ?? 0) op k) compared, (dbl ?? 0) + (dbl ?? 1)
            if rng.chance(50) {
                let value = PredicateExpressions.Arithmetic(
                    lhs: PredicateExpressions.NilCoalesce(
                        lhs: path(v, \Gadget.i64), rhs: PredicateExpressions.Value(Int64(0))),
                    rhs: PredicateExpressions.Value(Int64(rng.int(5)) - 2), op: rng.pick([.add, .subtract, .multiply]))
                return PredicateExpressions.Comparison(
                    lhs: value, rhs: PredicateExpressions.Value(rng.pick(int64s)), op: comparison(&rng))
            }
            let sum = PredicateExpressions.Arithmetic(
                lhs: PredicateExpressions.NilCoalesce(lhs: path(v, \Gadget.dbl), rhs: PredicateExpressions.Value(0.0)),
                rhs: PredicateExpressions.NilCoalesce(lhs: path(v, \Gadget.dbl), rhs: PredicateExpressions.Value(1.0)),
                op: .add)
            return PredicateExpressions.Comparison(
                lhs: sum, rhs: PredicateExpressions.Value(rng.pick(doubles)), op: comparison(&rng))
        case 21:  // conditional: ((flag ?? false) ? (i16 ?? 0) : k) compared
            let chosen = PredicateExpressions.Conditional(
                test: PredicateExpressions.NilCoalesce(
                    lhs: path(v, \Gadget.flag), rhs: PredicateExpressions.Value(false)),
                trueBranch: PredicateExpressions.NilCoalesce(
                    lhs: path(v, \Gadget.i16), rhs: PredicateExpressions.Value(Int16(0))),
                falseBranch: PredicateExpressions.Value(rng.pick(int16s)))
            return PredicateExpressions.Comparison(
                lhs: chosen, rhs: PredicateExpressions.Value(rng.pick(int16s)), op: comparison(&rng))
        case 0: return comparableAtom(v, \Gadget.i16, int16s, &rng)
        case 1: return comparableAtom(v, \Gadget.i32, int32s, &rng)
        case 2: return comparableAtom(v, \Gadget.i64, int64s, &rng)
        case 3: return comparableAtom(v, \Gadget.dbl, doubles, &rng)
        case 4: return comparableAtom(v, \Gadget.flt, floats, &rng)
        case 5: return comparableAtom(v, \Gadget.date, dates, &rng)
        case 6: return comparableAtom(v, \Gadget.text, texts, &rng)
        case 7: return equatableAtom(v, \Gadget.flag, [true, false], &rng)
        case 8: return equatableAtom(v, \Gadget.dec, decimals, &rng)
        case 9: return equatableAtom(v, \Gadget.data, datas, &rng)
        case 10: return equatableAtom(v, \Gadget.uuid, uuids, &rng)
        case 11:  // required string: comparisons, IN, isEmpty
            let title = path(v, \Gadget.title)
            switch rng.int(4) {
            case 0:
                return PredicateExpressions.Comparison(
                    lhs: title, rhs: PredicateExpressions.Value(rng.pick(texts)), op: comparison(&rng))
            case 1: return PredicateExpressions.Equal(lhs: title, rhs: PredicateExpressions.Value(rng.pick(texts)))
            case 2: return PredicateExpressions.KeyPath(root: title, keyPath: \String.isEmpty)
            default:
                return PredicateExpressions.SequenceContains(
                    sequence: PredicateExpressions.Value((0..<rng.int(4)).map { _ in rng.pick(texts) }), element: title)
            }
        case 12:  // string matching, required and optional
            let needle = rng.pick(texts)
            if rng.chance(50) {
                let title = path(v, \Gadget.title)
                return rng.chance(50)
                    ? PredicateExpressions.CollectionContainsCollection(
                        base: title, other: PredicateExpressions.Value(needle))
                    : PredicateExpressions.SequenceStartsWith(base: title, prefix: PredicateExpressions.Value(needle))
            }
            let matched = PredicateExpressions.OptionalFlatMap(path(v, \Gadget.text)) { text in
                PredicateExpressions.CollectionContainsCollection(base: text, other: PredicateExpressions.Value(needle))
            }
            if rng.chance(30) {
                return PredicateExpressions.NilCoalesce(lhs: matched, rhs: PredicateExpressions.Value(rng.chance(30)))
            }
            return PredicateExpressions.Equal(lhs: matched, rhs: PredicateExpressions.Value(Bool?(rng.chance(70))))
        case 13:  // optional string isEmpty through flatMap
            let empty = PredicateExpressions.OptionalFlatMap(path(v, \Gadget.text)) { text in
                PredicateExpressions.KeyPath(root: text, keyPath: \String.isEmpty)
            }
            return PredicateExpressions.NotEqual(lhs: empty, rhs: PredicateExpressions.Value(Bool?(rng.chance(50))))
        case 14:  // to-one: nil checks
            return rng.chance(50)
                ? PredicateExpressions.Equal(lhs: path(v, \Gadget.maker), rhs: PredicateExpressions.NilLiteral<Maker>())
                : PredicateExpressions.NotEqual(
                    lhs: path(v, \Gadget.maker), rhs: PredicateExpressions.NilLiteral<Maker>())
        case 15:  // to-one key path: maker?.name == / != value
            let name = PredicateExpressions.OptionalFlatMap(path(v, \Gadget.maker)) { maker in
                PredicateExpressions.KeyPath(root: maker, keyPath: \Maker.name)
            }
            let value: String? = rng.chance(80) ? rng.pick(texts) : nil
            return rng.chance(50)
                ? PredicateExpressions.Equal(lhs: name, rhs: PredicateExpressions.Value(value))
                : PredicateExpressions.NotEqual(lhs: name, rhs: PredicateExpressions.Value(value))
        case 16:  // (maker?.rank ?? -1) compared, (maker?.gadgets.count ?? 0) compared
            if rng.chance(50) {
                let rank = PredicateExpressions.OptionalFlatMap(path(v, \Gadget.maker)) { maker in
                    PredicateExpressions.KeyPath(root: maker, keyPath: \Maker.rank)
                }
                return PredicateExpressions.Comparison(
                    lhs: PredicateExpressions.NilCoalesce(lhs: rank, rhs: PredicateExpressions.Value(Int32(-1))),
                    rhs: PredicateExpressions.Value(Int32(rng.int(4))), op: comparison(&rng))
            }
            let count = PredicateExpressions.OptionalFlatMap(path(v, \Gadget.maker)) { maker in
                PredicateExpressions.KeyPath(
                    root: PredicateExpressions.KeyPath(root: maker, keyPath: \Maker.gadgets),
                    keyPath: \Set<Gadget>.count)
            }
            return PredicateExpressions.Comparison(
                lhs: PredicateExpressions.NilCoalesce(lhs: count, rhs: PredicateExpressions.Value(0)),
                rhs: PredicateExpressions.Value(rng.int(6)), op: comparison(&rng))
        case 17:  // to-many count
            return PredicateExpressions.Comparison(
                lhs: PredicateExpressions.KeyPath(root: path(v, \Gadget.tags), keyPath: \Set<Tag>.count),
                rhs: PredicateExpressions.Value(rng.int(4)), op: comparison(&rng))
        case 18:  // to-many isEmpty
            return PredicateExpressions.KeyPath(root: path(v, \Gadget.tags), keyPath: \Set<Tag>.isEmpty)
        default:  // contains(where:)
            let label: String? = rng.chance(85) ? rng.pick(labels) : nil
            return PredicateExpressions.SequenceContainsWhere(path(v, \Gadget.tags)) { tag in
                PredicateExpressions.Equal(
                    lhs: PredicateExpressions.KeyPath(root: tag, keyPath: \Tag.label),
                    rhs: PredicateExpressions.Value(label))
            }
        }
    }

    /// Random objects of every attribute type (nil values included) and relationships.
    static func populate(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) -> (
        makers: [Maker], tags: [Tag]
    ) {
        typealias G = PredicateGrammar
        func maybe<T>(_ pool: [T]) -> T? { rng.chance(75) ? rng.pick(pool) : nil }
        let makers = (0..<4).map { _ in
            let maker = Maker(context: context)
            maker.name = maybe(G.texts)
            maker.rank = Int32(rng.int(4))
            return maker
        }
        let tags = G.labels.map { label in
            let tag = Tag(context: context)
            tag.label = label
            return tag
        }
        for _ in 0..<(20 + rng.int(20)) {
            let gadget = Gadget(context: context)
            gadget.i16 = maybe(G.int16s)
            gadget.i32 = maybe(G.int32s)
            gadget.i64 = maybe(G.int64s)
            gadget.flag = maybe([true, false])
            gadget.dbl = maybe(G.doubles)
            gadget.flt = maybe(G.floats)
            gadget.date = maybe(G.dates)
            gadget.dec = maybe(G.decimals)
            gadget.text = maybe(G.texts)
            gadget.title = rng.pick(G.texts)
            gadget.data = maybe(G.datas)
            gadget.uuid = maybe(G.uuids)
            gadget.maker = maybe(makers)
            gadget.tags = Set(tags.filter { _ in rng.chance(35) })
        }
        return (makers, tags)
    }
}
