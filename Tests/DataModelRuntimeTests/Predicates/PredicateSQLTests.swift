import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import Testing

/// The SQL generated for representative predicates, as text: a change that silently falls back to
/// memory (or changes the SQL) fails here.
@Suite("Predicate translation: generated SQL")
struct PredicateSQLTests {
    private func explain(_ predicate: Predicate<Gadget>) throws -> FetchExplanation {
        let store = try TestStore(.inMemory, model: GadgetsModel.model)
        return try store.context.explain(FetchRequest<Gadget>().filtered(by: predicate))
    }

    private func explainEmployees(_ predicate: Predicate<EmployeeEntity>) throws -> FetchExplanation {
        let store = try TestStore(.inMemory, model: CompanyModel.model)
        return try store.context.explain(EmployeeEntity.fetchRequest().filtered(by: predicate))
    }

    @Test func equalityOnOptionalIsNullSafe() throws {
        let plan = try explain(#Predicate { $0.text != "x" })
        #expect(plan.path == .sql)
        #expect(plan.predicateSQL == #"t0."ZTEXT" IS NOT ?"#)
        #expect(plan.arguments == [.text("x")])
    }

    @Test func nilChecks() throws {
        let plan = try explain(#Predicate { $0.text == nil || $0.uuid != nil })
        #expect(plan.predicateSQL == #"(t0."ZTEXT" IS NULL OR t0."ZUUID" IS NOT NULL)"#)
        #expect(plan.arguments.isEmpty)
    }

    @Test func comparisonsAndCoalescing() throws {
        let limit: Int16 = 30
        let start = Date(timeIntervalSinceReferenceDate: 100)
        let plan = try explain(#Predicate { ($0.i16 ?? 0) > limit && !(($0.date ?? start) < start) })
        #expect(plan.path == .sql)
        #expect(
            plan.predicateSQL
                == #"((COALESCE(t0."ZI16", ?) > ?) AND NOT (COALESCE(t0."ZDATE", ?) < ?))"#)
        #expect(plan.arguments == [.integer(0), .integer(30), .real(100), .real(100)])
    }

    @Test func capturedArrayIsIn() throws {
        let titles = ["a", "b", "c"]
        let plan = try explain(#Predicate { titles.contains($0.title) })
        #expect(plan.predicateSQL == #"t0."ZTITLE" IN (?, ?, ?)"#)
        #expect(plan.arguments == [.text("a"), .text("b"), .text("c")])
    }

    @Test func uuidDataAndBoolAreEncodedAsStored() throws {
        let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF") ?? UUID()
        let bytes = Data([1, 2])
        let plan = try explain(#Predicate { $0.uuid == id && $0.data == bytes && $0.flag == true })
        #expect(plan.path == .sql)
        #expect(plan.predicateSQL == #"((t0."ZUUID" IS ? AND t0."ZDATA" IS ?) AND t0."ZFLAG" IS ?)"#)
        #expect(plan.arguments == [id.primitiveValue, .blob(bytes), .integer(1)])
    }

    @Test func toOneKeyPathIsASubquery() throws {
        let plan = try explainEmployees(#Predicate { $0.department?.name == "R&D" })
        #expect(plan.path == .sql)
        #expect(
            plan.predicateSQL
                == #"(SELECT s1."ZNAME" FROM "ZDEPARTMENTENTITY" AS s1 WHERE s1."Z_PK" = t0."ZDEPARTMENT") IS ?"#)
        #expect(plan.arguments == [.text("R&D")])
    }

    @Test func toManyCountAndIsEmpty() throws {
        let plan = try explain(#Predicate { $0.tags.count >= 2 || !$0.tags.isEmpty })
        #expect(plan.path == .sql)
        #expect(plan.predicateSQL?.contains("(SELECT COUNT(*) FROM") == true)
        #expect(plan.predicateSQL?.contains("NOT NOT EXISTS (SELECT 1 FROM") == true)
    }

    @Test func containsWhereIsExists() throws {
        let plan = try explainEmployees(
            #Predicate { employee in
                employee.business.flatMap { business in business.employees.contains(where: { $0.name == "Ada" }) }
                    == true
            })
        #expect(plan.path == .sql)
        let makers = try explain(#Predicate { gadget in gadget.tags.contains(where: { $0.label == "red" }) })
        #expect(makers.path == .sql)
        #expect(makers.predicateSQL?.hasPrefix("EXISTS (SELECT 1 FROM") == true)
    }

    @Test func stringMatchingUsesSwiftSemanticsInSQL() throws {
        // Characters under canonical equivalence, as Swift compares them: functions in SQL, no memory pass.
        let plan = try explain(#Predicate { $0.title.contains("a%_") && $0.title.starts(with: "x") })
        #expect(plan.path == .sql)
        #expect(
            plan.predicateSQL
                == #"(COALESCE(dm_contains(t0."ZTITLE", ?), 0) AND COALESCE(dm_starts_with(t0."ZTITLE", ?), 0))"#)
        #expect(plan.arguments == [.text("a%_"), .text("x")])
        let optional = try explain(
            #Predicate { $0.text?.contains("b") == true || ($0.text?.starts(with: "ç") ?? false) })
        #expect(optional.path == .sql)
        #expect(try explain(#Predicate { $0.text?.contains("b") == false }).path == .sql)
        #expect(try explain(#Predicate { !$0.title.contains("a") }).path == .sql)
    }

    @Test func stringComparisonsCollateOnlyWhenBytesCanDiffer() throws {
        // ASCII without K, ; or `: equal in Swift means equal bytes, so the index stays usable.
        #expect(try explain(#Predicate { $0.title == "abc" }).predicateSQL == #"t0."ZTITLE" IS ?"#)
        #expect(
            try explain(#Predicate { $0.title == "Ke" }).predicateSQL == #"t0."ZTITLE" IS ? COLLATE "DM_SWIFT""#)
        #expect(
            try explain(#Predicate { $0.title == "é" }).predicateSQL == #"t0."ZTITLE" IS ? COLLATE "DM_SWIFT""#)
        #expect(
            try explain(#Predicate { $0.title < "m" }).predicateSQL == #"(t0."ZTITLE" < ? COLLATE "DM_SWIFT")"#)
        let names = ["a", "é"]
        #expect(
            try explain(#Predicate { names.contains($0.title) }).predicateSQL
                == #"t0."ZTITLE" COLLATE "DM_SWIFT" IN (?, ?)"#)
    }

    @Test func stringSortsCollate() throws {
        let store = try TestStore(.inMemory, model: GadgetsModel.model)
        let context = store.context
        let titles = [
            "Ke", "\u{212A}e", "Kd", "e\u{301}", "é", "f", "", "a\u{30A}", "å", "\u{212B}", "Å", "Az",
            "\u{1E9B}\u{323}", "\u{17F}\u{323}\u{307}", "\r\n", "\r", "漢字", "🙂", "e\u{301}\u{327}", "e\u{327}\u{301}",
            "A\u{0}",
        ]
        for title in titles {
            let gadget = Gadget(context: context)
            gadget.title = title
        }
        try context.save()
        let sorted = try context.fetch(FetchRequest<Gadget>().sorted(by: [SortDescriptor(\Gadget.title)]))
        let expected = sorted.sorted { ($0.title, $0.objectID.primaryKey) < ($1.title, $1.objectID.primaryKey) }
        #expect(sorted.map(\.objectID) == expected.map(\.objectID))
        let descending = try context.fetch(
            FetchRequest<Gadget>().sorted(by: [SortDescriptor(\Gadget.title, order: .reverse)]))
        let expectedDescending = descending.sorted {
            $0.title != $1.title ? $0.title > $1.title : $0.objectID.primaryKey < $1.objectID.primaryKey
        }
        #expect(descending.map(\.objectID) == expectedDescending.map(\.objectID))
        #expect(try context.count(for: FetchRequest<Gadget>().filtered(by: #Predicate { $0.title == "Ke" })) == 2)
        #expect(try context.count(for: FetchRequest<Gadget>().filtered(by: #Predicate { $0.title == "é" })) == 2)
        #expect(
            try context.count(for: FetchRequest<Gadget>().filtered(by: #Predicate { $0.title.starts(with: "K") })) == 3)
    }

    /// `optional?.starts(with:) ?? false` is the string function's condition alone (it is 0 for a `NULL` text),
    /// `?? true` adds `IS NULL OR`, and a chain whose condition is not a string function on the chained value keeps
    /// `IS NOT NULL AND`; each selects what `Predicate.evaluate` selects.
    @Test func optionalChainsOfStringMatchesCoalesce() throws {
        let store = try TestStore(.inMemory, model: GadgetsModel.model)
        let context = store.context
        for text in [nil, "", "abc", "xabc", "Ab", "\u{212A}e", "ab\u{301}", "b"] as [String?] {
            let gadget = Gadget(context: context)
            gadget.title = "t"
            gadget.text = text
        }
        try context.save()
        let cases: [(Predicate<Gadget>, String)] = [
            (#Predicate { $0.text?.starts(with: "a") ?? false }, #"COALESCE(dm_starts_with(t0."ZTEXT", ?), 0)"#),
            (
                #Predicate { $0.text?.contains("b") ?? true },
                #"(t0."ZTEXT" IS NULL OR COALESCE(dm_contains(t0."ZTEXT", ?), 0))"#
            ),
            (
                #Predicate { $0.text.flatMap { $0.starts(with: "a") || $0.contains("K") } ?? false },
                #"(t0."ZTEXT" IS NOT NULL AND (COALESCE(dm_starts_with(t0."ZTEXT", ?), 0) OR "#
                    + #"COALESCE(dm_contains(t0."ZTEXT", ?), 0)))"#
            ),
            (#Predicate { !($0.text?.contains("b") ?? false) }, #"NOT COALESCE(dm_contains(t0."ZTEXT", ?), 0)"#),
            (
                #Predicate { $0.text.flatMap { $0.starts(with: "a") } ?? $0.title.starts(with: "t") },
                #"COALESCE(CASE WHEN t0."ZTEXT" IS NULL THEN NULL ELSE COALESCE(dm_starts_with(t0."ZTEXT", ?), 0) END, "#
                    + #"COALESCE(dm_starts_with(t0."ZTITLE", ?), 0))"#
            ),
        ]
        let all = try context.fetch(FetchRequest<Gadget>())
        for (predicate, sql) in cases {
            let request = FetchRequest<Gadget>().filtered(by: predicate)
            let plan = try context.explain(request)
            #expect(plan.path == .sql)
            #expect(plan.predicateSQL?.contains(sql) == true, "\(plan.predicateSQL ?? "-")")
            let expected = try all.filter { try predicate.evaluate($0) }.map(\.objectID.primaryKey).sorted()
            #expect(try context.fetch(request).map(\.objectID.primaryKey).sorted() == expected, "\(sql)")
        }
    }

    /// Stored text that is not valid UTF-8 sorts as the `String` it reads as (each invalid sequence repaired to
    /// U+FFFD), in SQL as in memory, with and without a limit: a lone lead byte before ASCII (`C3 41`, which SQLite's
    /// `length` counts as two characters, as if it were ASCII) sorts as "\u{FFFD}A", after "é" (`C3 A9`), not
    /// before it as its bytes would.
    @Test func invalidUTF8SortsAsRepaired() throws {
        let store = try TestStore(.inMemory, model: GadgetsModel.model)
        let stored: [[UInt8]] = [
            [0xC3, 0x41], Array("\u{FFFD}A".utf8), Array("é".utf8), [0x41, 0xC3], Array("A".utf8), [0x80],
            Array("\u{FFFD}".utf8), Array("漢".utf8), [0xE2, 0x82], [0xC0, 0xAF], [0xFF, 0x42],
            [0xF4, 0x90, 0x80, 0x80],
            Array("Z".utf8), Array("e\u{301}".utf8), [0x65, 0xCC], Array("Ke".utf8), Array("\u{212A}e".utf8), [],
        ]
        for _ in stored { Gadget(context: store.context).title = "" }
        try store.context.save()
        for (offset, bytes) in stored.enumerated() {
            let hex = bytes.map { String(format: "%02X", $0) }.joined()
            try StoreInspection.execute(
                #"UPDATE "ZGADGET" SET "ZTITLE" = CAST(X'"# + hex + #"' AS TEXT) WHERE "Z_PK" = "# + String(offset + 1),
                on: store.container)
        }
        let titles = stored.map { String(decoding: $0, as: UTF8.self) }
        let keys = Array(1...Int64(stored.count))
        let ascending = keys.sorted { (titles[Int($0) - 1], $0) < (titles[Int($1) - 1], $1) }
        let descending = keys.sorted {
            titles[Int($0) - 1] != titles[Int($1) - 1] ? titles[Int($0) - 1] > titles[Int($1) - 1] : $0 < $1
        }
        for limit in [nil, 5] as [Int?] {
            let context = store.container.newBackgroundContext()
            var up = FetchRequest<Gadget>().sorted(by: [SortDescriptor(\Gadget.title)])
            var down = FetchRequest<Gadget>().sorted(by: [SortDescriptor(\Gadget.title, order: .reverse)])
            if let limit {
                up = up.limited(to: limit)
                down = down.limited(to: limit)
            }
            let expectedUp = limit.map { Array(ascending.prefix($0)) } ?? ascending
            let expectedDown = limit.map { Array(descending.prefix($0)) } ?? descending
            #expect(
                try context.fetch(up).map(\.objectID.primaryKey) == expectedUp, "limit \(String(describing: limit))")
            #expect(
                try context.fetch(down).map(\.objectID.primaryKey) == expectedDown, "limit \(String(describing: limit))"
            )
        }
    }

    @Test func arithmeticAndConditionals() throws {
        let plan = try explain(
            #Predicate { (($0.i64 ?? 0) * 2) > 10 && (($0.flag ?? false) ? $0.title : "none") == "x" })
        #expect(plan.path == .sql)
        #expect(
            plan.predicateSQL
                == #"(((COALESCE(t0."ZI64", ?) * ?) > ?) AND CASE WHEN (COALESCE(t0."ZFLAG", ?) IS 1) THEN t0."ZTITLE" ELSE ? END IS ?)"#
        )
        #expect(plan.arguments == [.integer(0), .integer(2), .integer(10), .integer(0), .text("none"), .text("x")])
        // Float arithmetic rounds differently in SQLite (Double): memory.
        #expect(try explain(#Predicate { (($0.flt ?? 0) + 1) > 2 }).path == .memory)
    }

    @Test func untranslatableFallsBackToMemory() throws {
        let plan = try explain(#Predicate { $0.title.count > 3 })
        #expect(plan.path == .memory)
        #expect(plan.predicateSQL == nil)
        #expect(plan.whereClause == "1")
    }

    @Test func decimalOrderingFallsBack() throws {
        let limit = Decimal(2)
        #expect(try explain(#Predicate { ($0.dec ?? 0) < limit }).path == .memory)
        #expect(try explain(#Predicate { $0.dec == limit }).path == .sql)
    }
}

@Suite("Predicate translation: the Person scenario")
struct PersonPredicateTests {
    @Test("remove by id or name runs in SQL", arguments: StoreKind.allCases)
    func removeByIdOrName(kind: StoreKind) throws {
        let store = try TestStore(kind, model: PersonModel.model)
        defer { store.cleanUp() }
        let context = store.context
        for (id, name) in [("a", "Ada"), ("", "Bob"), ("c", "Cy"), (nil, "Ada")] as [(String?, String)] {
            let person = Person(context: context)
            person.id = id
            person.name = name
        }
        try context.save()
        let id = "c"
        let name = "Bob"
        let request = Person.fetchRequest().filtered(
            by: #Predicate {
                !($0.id ?? "").isEmpty && $0.id == id || $0.name == name
            })
        let plan = try context.explain(request)
        #expect(plan.path == .sql)
        if kind == .postgres {
            // PostgreSQL's spelling of the same condition.
            #expect(
                plan.predicateSQL
                    == #"((NOT (COALESCE(t0."ZID", ?) = '') AND t0."ZID" IS NOT DISTINCT FROM ?) OR t0."ZNAME" IS NOT DISTINCT FROM ?)"#
            )
        } else {
            #expect(plan.path == .sql)
            #expect(
                plan.predicateSQL == #"((NOT (COALESCE(t0."ZID", ?) = '') AND t0."ZID" IS ?) OR t0."ZNAME" IS ?)"#)
            #expect(plan.arguments == [.text(""), .text("c"), .text("Bob")])
        }
        #expect(try context.count(for: request) == 2)
        for person in try context.fetch(request) { context.delete(person) }
        try context.save()
        #expect(try context.fetch(Person.fetchRequest()).compactMap(\.name).sorted() == ["Ada", "Ada"])
    }
}
