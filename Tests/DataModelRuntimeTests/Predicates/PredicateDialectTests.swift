import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// The translation on each store's SQL: every form the SQLite translator answers in SQL is answered in SQL on
/// PostgreSQL too (`explain()` reports `.sql`), with the same objects as evaluating the predicate; what PostgreSQL's
/// SQL cannot decide exactly is narrowed there and finished in memory, or evaluated in memory, and `explain()` says so.
@Suite("Predicate translation on every store's SQL")
struct PredicateDialectTests {
    /// Gadgets whose titles put grapheme boundaries to the test: combining marks, a CR LF pair, a joiner, an
    /// Indic conjunct, an astral character, and their plain neighbours.
    static let titles = [
        "ab", "ab\u{301}", "abc", "a\u{301}b", "ab\u{200D}", "ab\u{915}", "ab\u{94D}\u{915}", "x ab", "\u{301}ab",
        "\u{600}ab", "a\r\nb", "a\r", "K", "\u{212A}", "é", "e\u{301}", "😀ab", "", "Abc", "x%_y",
    ]

    static func store(_ kind: StoreKind) throws -> TestStore {
        let store = try TestStore(kind, model: GadgetsModel.model)
        let maker = Maker(context: store.context)
        maker.name = "Acme"
        maker.rank = 2
        let tag = Tag(context: store.context)
        tag.label = "red"
        for (index, title) in titles.enumerated() {
            let gadget = Gadget(context: store.context)
            gadget.title = title
            gadget.text = index % 3 == 0 ? nil : title
            gadget.i16 = index % 4 == 0 ? nil : Int16(index)
            gadget.i64 = Int64(index * 1000)
            gadget.flag = index % 5 == 0 ? nil : index % 2 == 0
            gadget.dbl = Double(index) / 4
            gadget.flt = Float(index) / 2
            gadget.date = Date(timeIntervalSinceReferenceDate: Double(index) * 100)
            gadget.dec = Decimal(index) / 4
            gadget.data = Data([UInt8(index % 3)])
            gadget.uuid = index % 2 == 0 ? PredicateGrammar.uuids[index % 3] : nil
            gadget.maker = index % 2 == 0 ? maker : nil
            if index % 3 == 0 { gadget.tags = [tag] }
        }
        try store.context.save()
        return store
    }

    /// Checks `predicate`'s fetch and count against `evaluate` on every gadget, and its path.
    static func check(
        _ predicate: Predicate<Gadget>, _ context: ManagedObjectContext, path: FetchExplanation.Path,
        _ label: String
    ) throws {
        let request = FetchRequest<Gadget>().filtered(by: predicate)
        let plan = try context.explain(request)
        let all = try context.fetch(FetchRequest<Gadget>())
        let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.objectID))
        #expect(Set(try context.fetch(request).map(\.objectID)) == expected, "\(label) — \(plan)")
        #expect(try context.count(for: request) == expected.count, "\(label) (count) — \(plan)")
        #expect(plan.path == path, "\(label) — \(plan)")
    }

    static let cutoff = Date(timeIntervalSinceReferenceDate: 700)
    static let uuid = PredicateGrammar.uuids[0]
    static let decimal = Decimal(3) / 4
    static let one = Data([1])
    static let titleList = ["ab", "\u{212A}", "e\u{301}"]

    /// Forms both translators answer in SQL, with their labels.
    static let sqlForms: [(String, Predicate<Gadget>)] = [
        ("Int16 ==", #Predicate { $0.i16 == 3 }),
        ("Int16 != nil", #Predicate { $0.i16 != nil }),
        ("Int16 ?? <", #Predicate { ($0.i16 ?? 0) < 5 }),
        ("Int64 arithmetic", #Predicate { ($0.i64 ?? 0) * 2 - 1000 > 9000 }),
        ("Bool ==", #Predicate { $0.flag == true }),
        ("Bool ?? as a condition", #Predicate { $0.flag ?? false }),
        ("Bool !=", #Predicate { $0.flag != false }),
        ("Double <=", #Predicate { ($0.dbl ?? 0) <= 2.5 }),
        ("Float >", #Predicate { ($0.flt ?? 0) > 3.5 }),
        ("Date <", #Predicate { ($0.date ?? cutoff) < cutoff }),
        ("Decimal ==", #Predicate { $0.dec == decimal }),
        ("Data ==", #Predicate { $0.data == one }),
        ("UUID ==", #Predicate { $0.uuid == uuid }),
        ("UUID == nil", #Predicate { $0.uuid == nil }),
        ("String == (canonical equivalents)", #Predicate { $0.title == "é" }),
        ("String == K (KELVIN SIGN)", #Predicate { $0.title == "K" }),
        ("String <", #Predicate { $0.title < "b" }),
        ("String >= (canonical equivalents)", #Predicate { $0.title >= "é" }),
        ("String IN", #Predicate { titleList.contains($0.title) }),
        ("String isEmpty", #Predicate { $0.title.isEmpty }),
        ("optional String isEmpty", #Predicate { $0.text?.isEmpty == true }),
        ("starts(with:) plain", #Predicate { $0.title.starts(with: "ab") }),
        ("starts(with:) empty", #Predicate { $0.title.starts(with: "") }),
        ("contains plain", #Predicate { $0.title.contains("b") }),
        ("contains a wildcard character", #Predicate { $0.title.contains("%_") }),
        ("optional contains", #Predicate { $0.text?.contains("ab") ?? false }),
        ("negated contains", #Predicate { !$0.title.contains("a") }),
        ("conditional", #Predicate { (($0.flag ?? false) ? ($0.i16 ?? 0) : 7) > 5 }),
        ("to-one == nil", #Predicate { $0.maker == nil }),
        ("to-one key path", #Predicate { $0.maker?.name == "Acme" }),
        ("to-many count", #Predicate { $0.tags.count > 0 }),
        ("to-many isEmpty", #Predicate { $0.tags.isEmpty }),
        ("contains(where:)", #Predicate { $0.tags.contains(where: { $0.label == "red" }) }),
        ("compound", #Predicate { ($0.i16 ?? 0) > 2 && ($0.title.contains("b") || $0.flag == nil) }),
    ]

    @Test("every form answered in SQL on SQLite is answered in SQL on each store, with the same objects")
    func sqlOnEveryStore() throws {
        for kind in StoreKind.allCases {
            let store = try Self.store(kind)
            defer { store.cleanUp() }
            for (label, predicate) in Self.sqlForms {
                try Self.check(predicate, store.context, path: .sql, "\(kind): \(label)")
            }
        }
    }

    @Test(
        "string matching whose ends one code point cannot decide: exact on SQLite, narrowed then checked in memory on PostgreSQL"
    )
    func narrowedOnPostgres() throws {
        let forms: [(String, Predicate<Gadget>)] = [
            // "a\u{301}" is "á" in NFC, a plain character; "b\u{301}" has no precomposed form.
            ("prefix ending in a combining mark", #Predicate { $0.title.starts(with: "ab\u{301}") }),
            ("prefix ending in CR", #Predicate { $0.title.starts(with: "a\r") }),
            ("needle starting with a combining mark", #Predicate { $0.title.contains("\u{301}") }),
            ("needle of an astral character", #Predicate { $0.title.contains("😀") }),
        ]
        for kind in StoreKind.allCases {
            let store = try Self.store(kind)
            defer { store.cleanUp() }
            for (label, predicate) in forms {
                try Self.check(
                    predicate, store.context, path: kind == .postgres ? .sqlThenMemory : .sql, "\(kind): \(label)")
            }
        }
    }

    @Test(
        "PostgreSQL's SQL: IS NOT DISTINCT FROM, Booleans, NFC in code-point order, grapheme-checked matching",
        .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
    func postgresSQL() throws {
        let store = try Self.store(.postgres)
        defer { store.cleanUp() }
        func sql(_ predicate: Predicate<Gadget>) throws -> String {
            try store.context.explain(FetchRequest<Gadget>().filtered(by: predicate)).predicateSQL ?? ""
        }
        #expect(try sql(#Predicate { $0.i16 == nil }).contains("IS NOT DISTINCT FROM NULL"))
        #expect(try sql(#Predicate { $0.flag ?? false }).contains("IS TRUE"))
        // A column is normalized only when it is not ASCII (a parameter always, once).
        #expect(
            try sql(#Predicate { $0.title < "b" }).contains(
                #"CASE WHEN octet_length(t0."ZTITLE") = char_length(t0."ZTITLE") THEN t0."ZTITLE" "#
                    + #"ELSE normalize(t0."ZTITLE", NFC) END COLLATE "C" < normalize(CAST(? AS TEXT), NFC)"#))
        // ASCII without K, ; and `: a plain comparison (its index stays usable).
        #expect(try sql(#Predicate { $0.title == "ab" }) == #"t0."ZTITLE" IS NOT DISTINCT FROM ?"#)
        let prefix = try store.context.explain(
            FetchRequest<Gadget>().filtered(by: #Predicate { $0.title.starts(with: "ab") }))
        // ASCII values match by a LIKE, the others by the regular expression on their NFC.
        #expect(prefix.predicateSQL?.contains(#"THEN t0."ZTITLE" COLLATE "C" LIKE ? ELSE normalize("#) == true)
        #expect(prefix.predicateSQL?.contains("~ ?") == true)
        #expect(prefix.arguments.first.map { "\($0)".contains("ab%") } == true, "\(prefix.arguments)")
        #expect(prefix.arguments.last.map { "\($0)".contains("^ab(?![") } == true, "\(prefix.arguments)")
        // A needle whose NFC is not ASCII: no ASCII value contains it.
        let accented = try store.context.explain(
            FetchRequest<Gadget>().filtered(by: #Predicate { $0.title.contains("é") }))
        #expect(accented.predicateSQL?.contains("THEN FALSE ELSE") == true, "\(accented)")
        #expect(accented.arguments.count == 1, "\(accented.arguments)")
        // LIKE's wildcards in a needle are escaped.
        let wild = try store.context.explain(
            FetchRequest<Gadget>().filtered(by: #Predicate { $0.title.contains("a%_") }))
        #expect(wild.arguments.first == .text(#"%a\%\_%"#), "\(wild.arguments)")
        // A date constant between two microseconds would compare rounded: in memory, and explain() says why.
        let instant = Date(timeIntervalSinceReferenceDate: 100.000_000_1)
        let rounded = try store.context.explain(
            FetchRequest<Gadget>().filtered(by: #Predicate { ($0.date ?? instant) < instant }))
        #expect(rounded.path == .memory && rounded.reason?.contains("microseconds") == true, "\(rounded)")
    }

    @Test(
        "format predicates on each store: folding ([c], [d]) in memory on PostgreSQL, the rest in SQL; length in UTF-16"
    )
    func formatPredicates() throws {
        for kind in StoreKind.allCases {
            let store = try TestStore(kind, model: CompanyModel.model)
            defer { store.cleanUp() }
            for (index, name) in ["Ann", "ann", "Émile", "E\u{301}mile", "😀ab", "a\u{301}", "Zoë", "ab"].enumerated() {
                let employee = EmployeeEntity(context: store.context)
                employee.name = name
                employee.age = Int16(20 + index)
                employee.dateJoined = Date(timeIntervalSinceReferenceDate: Double(index) * 50)
            }
            try store.context.save()
            let cases: [(String, FetchExplanation.Path, FetchExplanation.Path)] = [
                ("name BEGINSWITH 'A'", .sql, .sql),
                ("name ENDSWITH 'b'", .sql, .sql),
                ("name CONTAINS 'mil'", .sql, .sql),
                ("name ENDSWITH 'ë'", .sql, .sql),
                ("name LIKE 'A?n'", .sql, .sqlThenMemory),
                ("name LIKE '*b'", .sql, .sqlThenMemory),
                ("name BEGINSWITH[c] 'a'", .sql, .memory),
                ("name ==[cd] 'emile'", .sql, .memory),
                ("name.length == 4", .sql, .sql),
                ("name.length == 2", .sql, .sql),
                ("age < 22.5", .sql, .sql),
                ("age BETWEEN {21, 23}", .sql, .sql),
                ("dateJoined >= %@", .sql, .sql),
            ]
            for (format, sqlitePath, postgresPath) in cases {
                let predicate = try Predicate<EmployeeEntity>(
                    validatingFormat: format,
                    argumentArray: format.contains("%@") ? [Date(timeIntervalSinceReferenceDate: 100)] : [])
                let request = EmployeeEntity.fetchRequest().filtered(by: predicate)
                let plan = try store.context.explain(request)
                let all = try store.context.fetch(EmployeeEntity.fetchRequest())
                let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.objectID))
                #expect(
                    Set(try store.context.fetch(request).map(\.objectID)) == expected, "\(kind): \(format) — \(plan)")
                #expect(plan.path == (kind == .postgres ? postgresPath : sqlitePath), "\(kind): \(format) — \(plan)")
                if kind == .postgres && format.contains("[") {
                    // explain() says why.
                    #expect(plan.reason?.contains("fold as Foundation does") == true, "\(format) — \(plan)")
                }
            }
        }
    }
}

/// Random texts and needles from code points that test grapheme boundaries: the SQL of `starts(with:)`, `contains`
/// and format `ENDSWITH` selects exactly what evaluating them selects, on every store.
@Suite("String matching by characters: random texts of combining marks, joiners, CR LF, emoji, Indic")
struct StringMatchingPropertyTests {
    static let alphabet = [
        "a", "b", "e", "K", "\u{212A}", "é", "\u{301}", "\u{308}", "\r", "\n", "\u{200D}", "\u{600}", "😀", "\u{1F3FB}",
        "\u{915}", "\u{94D}", "🇺", "🇸", "\u{1100}", "\u{1161}", "©", " ",
    ]

    static func text(_ rng: inout SeededGenerator, length: Int) -> String {
        (0..<length).map { _ in rng.pick(alphabet) }.joined()
    }

    @Test(arguments: StoreKind.allCases)
    func randomNeedles(kind: StoreKind) throws {
        var rng = SeededGenerator(seed: 2026)
        let store = try TestStore(kind, model: GadgetsModel.model)
        defer { store.cleanUp() }
        for _ in 0..<60 {
            let gadget = Gadget(context: store.context)
            gadget.title = Self.text(&rng, length: rng.int(6))
            gadget.text = rng.chance(80) ? Self.text(&rng, length: rng.int(5)) : nil
        }
        try store.context.save()
        let all = try store.context.fetch(FetchRequest<Gadget>())
        var paths: [FetchExplanation.Path: Int] = [:]
        for index in 0..<40 {
            let needle = Self.text(&rng, length: 1 + rng.int(3))
            let predicates: [(String, Predicate<Gadget>)] = [
                ("starts(with:)", #Predicate { $0.title.starts(with: needle) }),
                ("contains", #Predicate { $0.title.contains(needle) }),
                ("optional contains", #Predicate { $0.text?.contains(needle) ?? false }),
                ("ENDSWITH", try Predicate<Gadget>(validatingFormat: "title ENDSWITH %@", argumentArray: [needle])),
                ("CONTAINS", try Predicate<Gadget>(validatingFormat: "text CONTAINS %@", argumentArray: [needle])),
            ]
            for (label, predicate) in predicates {
                let request = FetchRequest<Gadget>().filtered(by: predicate)
                let plan = try store.context.explain(request)
                paths[plan.path, default: 0] += 1
                let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.objectID))
                let escaped = needle.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
                #expect(
                    Set(try store.context.fetch(request).map(\.objectID)) == expected,
                    "\(kind) #\(index) \(label) [\(escaped)] — \(plan)")
            }
        }
        // Plain-ended needles are exact in SQL on every store; the rest is narrowed on PostgreSQL.
        #expect((paths[.sql] ?? 0) > 0 && paths[.memory] == nil, "\(kind): \(paths)")
        print("\(kind): string matching paths \(paths.map { "\($0.key.rawValue)=\($0.value)" }.sorted())")
    }

    /// Mostly ASCII: LIKE's wildcards and escape, CR LF, and a few NFC / NFD accents, so both of PostgreSQL's
    /// branches (a `LIKE` on ASCII values, the regular expression on the NFC of the others) and both forms of the sort
    /// key are taken; matching and the SQL sort must be Swift's.
    static let asciiAlphabet = ["a", "b", "A", "%", "_", "\\", "\r", "\n", " ", "é", "e\u{301}", "\u{301}"]

    @Test(arguments: StoreKind.allCases)
    func asciiTextsAndWildcards(kind: StoreKind) throws {
        var rng = SeededGenerator(seed: 1612)
        let store = try TestStore(kind, model: GadgetsModel.model)
        defer { store.cleanUp() }
        func word(length: Int) -> String {
            (0..<length).map { _ in
                rng.chance(85) ? rng.pick(Array(Self.asciiAlphabet.prefix(9))) : rng.pick(Self.asciiAlphabet)
            }
            .joined()
        }
        for _ in 0..<80 {
            let gadget = Gadget(context: store.context)
            gadget.title = word(length: rng.int(7))
        }
        try store.context.save()
        let context = try store.reopened()
        let all = try context.fetch(FetchRequest<Gadget>())
        let sorted = try context.fetch(FetchRequest<Gadget>().sorted(by: [SortDescriptor(\.title)]))
        #expect(sorted.map(\.title) == all.map(\.title).sorted(), "\(kind): SQL sort")
        for index in 0..<60 {
            let needle = word(length: 1 + rng.int(3))
            let predicates: [(String, Predicate<Gadget>)] = [
                ("starts(with:)", #Predicate { $0.title.starts(with: needle) }),
                ("contains", #Predicate { $0.title.contains(needle) }),
                ("ENDSWITH", try Predicate<Gadget>(validatingFormat: "title ENDSWITH %@", argumentArray: [needle])),
                ("<", #Predicate { $0.title < needle }),
            ]
            for (label, predicate) in predicates {
                let request = FetchRequest<Gadget>().filtered(by: predicate)
                let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.objectID))
                let escaped = needle.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
                let plan = try context.explain(request)
                #expect(
                    Set(try context.fetch(request).map(\.objectID)) == expected,
                    "\(kind) #\(index) \(label) [\(escaped)] — \(plan)")
            }
        }
    }
}
