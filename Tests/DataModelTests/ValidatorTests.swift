import Foundation
import ProcessSupport
import Testing

@testable import DataModel

/// One validator rule: a model body that breaks it and nothing else.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var severity: Severity
    var body: String
    /// The text of the culprit element's start, to check the diagnostic's line and column.
    var culprit: String

    var testDescription: String { "\(rule) (\(severity.rawValue))" }
}

private let author = """
        <entity name="Author" representedClassName="Author" codeGenerationType="class">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
    """

/// `Book` with `extra` inserted before `</entity>`.
private func book(_ extra: String = "", header: String = "") -> String {
    """
        <entity name="Book" representedClassName="Book" codeGenerationType="class"\(header)>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
    \(extra)
        </entity>
    """
}

private func attribute(_ text: String) -> String { book("        " + text) }

private let ruleCases: [RuleCase] = [
    RuleCase(
        rule: "duplicate-entity", severity: .error,
        body: author + "\n" + book() + "\n"
            + book().replacingOccurrences(
                of: "<entity name=\"Book\"", with: "<entity name=\"Book\" versionHashModifier=\"2\""),
        culprit: "<entity name=\"Book\" versionHashModifier"),
    RuleCase(
        rule: "invalid-identifier", severity: .error,
        body: author + "\n" + book() + "\n    <entity name=\"book club\"/>", culprit: "<entity name=\"book club\""),
    RuleCase(
        rule: "duplicate-class-name", severity: .error,
        body: author + "\n" + book()
            + "\n    <entity name=\"Tome\" representedClassName=\"MyApp.Book\" codeGenerationType=\"category\"/>",
        culprit: "<entity name=\"Tome\""),
    RuleCase(
        rule: "missing-parent", severity: .error,
        body: author + "\n" + book() + "\n    <entity name=\"Novel\" parentEntity=\"Publication\"/>",
        culprit: "<entity name=\"Novel\""),
    RuleCase(
        rule: "cyclic-inheritance", severity: .error,
        body: author + "\n" + book() + "\n    <entity name=\"Novel\" parentEntity=\"Novel\"/>",
        culprit: "<entity name=\"Novel\""),
    RuleCase(
        rule: "duplicate-property", severity: .error,
        body: author + "\n" + attribute("<attribute name=\"title\" attributeType=\"String\"/>"),
        culprit: "<attribute name=\"title\" attributeType"),
    RuleCase(
        rule: "shadowed-property", severity: .error,
        body: author + "\n" + book()
            + "\n    <entity name=\"Novel\" parentEntity=\"Book\">\n        <attribute name=\"title\" attributeType=\"String\"/>\n    </entity>",
        culprit: "<attribute name=\"title\" attributeType"),
    RuleCase(
        rule: "renamed-property", severity: .warning,
        body: author + "\n" + attribute("<attribute name=\"context\" optional=\"YES\" attributeType=\"String\"/>"),
        culprit: "<attribute name=\"context\""),
    RuleCase(
        rule: "reserved-name", severity: .error,
        body: author + "\n" + attribute("<attribute name=\"isDeleted\" optional=\"YES\" attributeType=\"Boolean\"/>"),
        culprit: "<attribute name=\"isDeleted\""),
    RuleCase(
        rule: "unknown-fetch-entity", severity: .error,
        body: author + "\n" + book() + "\n    <fetchRequest name=\"Old\" entity=\"Magazine\"/>",
        culprit: "<fetchRequest"),
    RuleCase(
        rule: "invalid-predicate", severity: .error,
        body: author + "\n" + book()
            + "\n    <fetchRequest name=\"ByTitle\" entity=\"Book\" predicateString=\"title == \"/>",
        culprit: "<fetchRequest name=\"ByTitle\""),
    RuleCase(
        rule: "invalid-predicate", severity: .error,
        body: author + "\n"
            + attribute(
                "<attribute name=\"titleCount\" optional=\"YES\" attributeType=\"Integer 64\" derived=\"YES\" derivationExpression=\"title.@nope\"/>"
            ),
        culprit: "<attribute name=\"titleCount\""),
    RuleCase(
        rule: "unknown-constraint-property", severity: .error,
        body: author + "\n"
            + book(
                "        <uniquenessConstraints>\n            <uniquenessConstraint>\n                <constraint value=\"isbn\"/>\n            </uniquenessConstraint>\n        </uniquenessConstraints>"
            ),
        culprit: "<uniquenessConstraint>"),
    RuleCase(
        rule: "unknown-index-property", severity: .error,
        body: author + "\n"
            + book(
                "        <fetchIndex name=\"byYear\">\n            <fetchIndexElement property=\"year\" type=\"Binary\" order=\"ascending\"/>\n        </fetchIndex>"
            ),
        culprit: "<fetchIndexElement"),
    RuleCase(
        rule: "undefined-not-transient", severity: .error,
        body: author + "\n" + attribute("<attribute name=\"blob\" optional=\"YES\"/>"),
        culprit: "<attribute name=\"blob\""),
    RuleCase(
        rule: "transformable-without-class", severity: .warning,
        body: author + "\n" + attribute("<attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\"/>"),
        culprit: "<attribute name=\"tags\""),
    RuleCase(
        rule: "unknown-composite", severity: .error,
        body: author + "\n"
            + attribute("<attribute name=\"place\" optional=\"YES\" attributeType=\"Composite\" composite=\"Place\"/>"),
        culprit: "<attribute name=\"place\""),
    RuleCase(
        rule: "invalid-default-value", severity: .warning,
        body: author + "\n"
            + attribute(
                "<attribute name=\"pages\" optional=\"YES\" attributeType=\"Integer 16\" defaultValueString=\"70000\" usesScalarValueType=\"YES\"/>"
            ),
        culprit: "<attribute name=\"pages\""),
    RuleCase(
        rule: "invalid-min-value", severity: .warning,
        body: author + "\n"
            + attribute(
                "<attribute name=\"price\" optional=\"YES\" attributeType=\"Double\" minValueString=\"cheap\" usesScalarValueType=\"YES\"/>"
            ),
        culprit: "<attribute name=\"price\""),
    RuleCase(
        rule: "invalid-max-value", severity: .warning,
        body: author + "\n"
            + attribute("<attribute name=\"blurb\" optional=\"YES\" attributeType=\"String\" maxValueString=\"-1\"/>"),
        culprit: "<attribute name=\"blurb\""),
    RuleCase(
        rule: "min-exceeds-max", severity: .error,
        body: author + "\n"
            + attribute(
                "<attribute name=\"published\" optional=\"YES\" attributeType=\"Date\" minDateTimeInterval=\"1000\" maxDateTimeInterval=\"10\"/>"
            ),
        culprit: "<attribute name=\"published\""),
    RuleCase(
        rule: "default-out-of-range", severity: .warning,
        body: author + "\n"
            + attribute(
                "<attribute name=\"rating\" optional=\"YES\" attributeType=\"Float\" minValueString=\"1\" maxValueString=\"5\" defaultValueString=\"0.5\" usesScalarValueType=\"YES\"/>"
            ),
        culprit: "<attribute name=\"rating\""),
    RuleCase(
        rule: "invalid-regular-expression", severity: .error,
        body: author + "\n"
            + attribute(
                "<attribute name=\"isbn\" optional=\"YES\" attributeType=\"String\" regularExpressionString=\"(unclosed\"/>"
            ),
        culprit: "<attribute name=\"isbn\""),
    RuleCase(
        rule: "min-count-exceeds-max", severity: .error,
        body: author.replacingOccurrences(of: "toMany=\"YES\"", with: "toMany=\"YES\" minCount=\"3\" maxCount=\"1\"")
            + "\n" + book(),
        culprit: "<relationship name=\"books\""),
    RuleCase(
        rule: "max-count-on-to-one", severity: .warning,
        body: author + "\n" + book().replacingOccurrences(of: "maxCount=\"1\"", with: "maxCount=\"3\""),
        culprit: "<relationship name=\"author\""),
    RuleCase(
        rule: "ordered-to-one", severity: .warning,
        body: author + "\n" + book().replacingOccurrences(of: "maxCount=\"1\"", with: "maxCount=\"1\" ordered=\"YES\""),
        culprit: "<relationship name=\"author\""),
    RuleCase(
        rule: "missing-destination", severity: .error,
        body: author + "\n"
            + book(
                "        <relationship name=\"publisher\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Publisher\"/>"
            ),
        culprit: "<relationship name=\"publisher\""),
    RuleCase(
        rule: "missing-inverse", severity: .warning,
        body: author + "\n"
            + book(
                "        <relationship name=\"sequel\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Book\"/>"
            ),
        culprit: "<relationship name=\"sequel\""),
    RuleCase(
        rule: "inverse-not-found", severity: .error,
        body: author + "\n"
            + book(
                "        <relationship name=\"publisher\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Author\" inverseName=\"publications\" inverseEntity=\"Author\"/>"
            ),
        culprit: "<relationship name=\"publisher\""),
    RuleCase(
        rule: "inverse-mismatch", severity: .error,
        body: author.replacingOccurrences(of: "inverseEntity=\"Book\"", with: "inverseEntity=\"Author\"") + "\n"
            + book(),
        culprit: "<relationship name=\"books\""),
    RuleCase(
        rule: "inverse-mismatch", severity: .warning,
        body: author.replacingOccurrences(
            of: "    </entity>",
            with:
                "        <relationship name=\"favorite\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Book\" inverseName=\"author\" inverseEntity=\"Book\"/>\n    </entity>"
        ) + "\n" + book(),
        culprit: "<relationship name=\"favorite\""),
    RuleCase(
        rule: "inheritance-too-deep", severity: .error,
        body: (0...Validator.maximumInheritanceDepth + 3).map { level in
            "    <entity name=\"E\(level)\"" + (level == 0 ? "" : " parentEntity=\"E\(level - 1)\"")
                + " codeGenerationType=\"class\">\n        <attribute name=\"a\(level)\" optional=\"YES\" attributeType=\"String\"/>\n    </entity>"
        }.joined(separator: "\n"),
        culprit: "<entity name=\"E\(Validator.maximumInheritanceDepth + 1)\""),
    RuleCase(
        rule: "invalid-class-name", severity: .error,
        body: author + "\n"
            + book().replacingOccurrences(
                of: "representedClassName=\"Book\"", with: "representedClassName=\"MyApp.Foo/*\""),
        culprit: "<entity name=\"Book\""),
    RuleCase(
        rule: "invalid-custom-class-name", severity: .error,
        body: author + "\n"
            + attribute(
                "<attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\" customClassName=\"Foo\\nBar\"/>"
            ),
        culprit: "<attribute name=\"tags\""),
    RuleCase(
        rule: "unknown-configuration-entity", severity: .error,
        body: author + "\n" + book()
            + "\n    <configuration name=\"Cloud\">\n        <memberEntity name=\"Author\"/>\n        <memberEntity name=\"Journal\"/>\n    </configuration>",
        culprit: "<configuration"),
]

@Suite("Validator")
struct ValidatorTests {
    @Test func cleanModelHasNoDiagnostics() throws {
        let (model, parserDiagnostics) = try parse(everythingXML)
        #expect(parserDiagnostics.isEmpty)
        // Its `Plain.value` is declared `value_` by the runtime flavor (`value` is a member of ManagedObject): the one
        // warning the validator owes it.
        let diagnostics = Validator().validate(model)
        #expect(diagnostics.map(\.ruleID) == ["renamed-property"], "\(diagnostics)")
        #expect(diagnostics.first?.message.contains("'Plain.value' as 'value_'") == true)
        #expect(try diagnose(modelXML(author + "\n" + book())).isEmpty)
    }

    @Test(arguments: ruleCases)
    func rule(_ rule: RuleCase) throws {
        let xml = modelXML(rule.body)
        let (model, parserDiagnostics) = try parse(xml)
        #expect(parserDiagnostics.isEmpty, "\(parserDiagnostics)")
        let diagnostics = Validator().validate(model)
        #expect(!diagnostics.isEmpty)
        #expect(diagnostics.allSatisfy { $0.ruleID == rule.rule }, "only the rule under test fires: \(diagnostics)")
        let expected = position(of: rule.culprit, in: xml)
        let match = diagnostics.first {
            $0.location.line == expected.line && $0.location.column == expected.column && $0.severity == rule.severity
        }
        #expect(
            match != nil, "\(rule.rule) \(rule.severity) at \(expected.line):\(expected.column); got \(diagnostics)")
        #expect(match?.location.file == "test/contents")
        #expect(match.map { !$0.message.isEmpty && !$0.message.contains("\n") } == true)
    }

    @Test(arguments: [
        "Foo", ".Foo", "MyKit.Tag", "[String: Any]", "[String]", "Array<Int>", "Module.Foo<Bar>", "Foo?",
        "Dictionary<String, [Int]>", "NSArray", "Ünïcødé", "[Int : [String:Int]]", "Foo<Bar<Baz>>", "Optional<Int>?",
        "Self", "Any", "Type", "A.B.C",
    ])
    func customClassNamesThatAreTypes(_ name: String) {
        #expect(Validator.isTypeReference(name))
    }

    @Test(arguments: [
        ".", "MyApp.", "Foo Bar.", "1Foo", "Foo/*", "Foo\nBar", "{{x}}", "Foo<", "Foo>", "[String: Any", "(Int)",
        "() -> Void", "\"Foo\"", "Foo\\", "a..b", "<T>", ": X", "Foo Bar", "[String:]", "", " ", "Foo.[Int]",
        "Foo<Int>Bar", "Foo. Bar", "class", "each", "Foo.init",
        "[some P]",
    ])
    func customClassNamesThatAreNotTypes(_ name: String) {
        #expect(!Validator.isTypeReference(name))
    }

    @Test func asciiTypeReferencesAreJudgedAsCharacterByCharacter() {
        // The byte-by-byte check of ASCII text must agree with the character-by-character one.
        let alphabet: [Character] = Array("AbZ_09 .<>[]?,:\tclass") + ["\r", "\n", "\r\n"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(state >> 60) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            let trimmed = Validator.trimmingWhitespace(text)
            #expect(
                Validator.isTypeReference(text) == Validator.isTypeReference(characters: trimmed),
                "\(text.debugDescription)")
        }
    }

    @Test func regularExpressionsAsICUReadsThem() {
        for valid in [
            #"\p{L}+"#, "(?i)abc", "[[:alpha:]]+", #"\A[^@]+@([^@\.]+\.)+[^@\.]+\z"#, "[a-z&&[^aeiou]]", #"\Qa.b\E"#,
            "(?<=a)b", "(?<!a)b", "(?u)a", "(?w)a", #"(?<year>\d{4})"#, "a++",
        ] {
            #expect(Validator.isRegularExpression(valid), "\(valid)")
        }
        for invalid in ["(unclosed", "[0-9", "a**", "x{2,1}", "\\", #"\p{Foo}"#, "(?", "[z-a]"] {
            #expect(!Validator.isRegularExpression(invalid), "\(invalid)")
        }
        // Nested 99 deep is fine; 100 deep ICU refuses, and a set nested thousands deep once crashed the
        // validator (the regex parser recursed out of stack).
        let deep = { (open: String, close: String, count: Int) in
            String(repeating: open, count: count) + "a" + String(repeating: close, count: count)
        }
        #expect(Validator.isRegularExpression(deep("(", ")", 99)))
        #expect(Validator.isRegularExpression(deep("[", "]", 99)))
        #expect(!Validator.isRegularExpression(deep("(", ")", 100)))
        #expect(!Validator.isRegularExpression(deep("[", "]", 100)))
        #expect(!Validator.isRegularExpression(String(repeating: "[", count: 200_000)))
        // Escaped and quoted brackets and parentheses inside a set are text, not nesting.
        #expect(
            Validator.isRegularExpression(
                String(repeating: #"\["#, count: 500) + "[" + String(repeating: "(", count: 500) + "]"))
        #expect(Validator.isRegularExpression(#"\Q"# + String(repeating: "[", count: 500) + #"\E"#))
    }

    @Test func trimmingAsFoundationTrims() {
        // Spaces are general category Zs and the tab; line breaks are U+000A to U+000D, U+0085, Zl and Zp.
        let cases: [(String, String, String)] = [
            ("", "", ""), ("abc", "abc", "abc"), ("  a b  ", "a b", "a b"), ("\t\u{00A0}a\u{3000}", "a", "a"),
            ("\n a \r\n", "\n a \r\n", "a"), ("\u{2028}a\u{2029}\u{85}", "\u{2028}a\u{2029}\u{85}", "a"),
            ("\u{200B}a", "\u{200B}a", "\u{200B}a"), (" \t ", "", ""), ("é ", "é", "é"), (" 🙂", "🙂", "🙂"),
        ]
        for (text, withoutSpaces, withoutSpacesAndNewlines) in cases {
            #expect(Validator.trimmingWhitespace(text) == withoutSpaces, "\(text.debugDescription)")
            #expect(
                Validator.trimmingWhitespaceAndNewlines(text) == withoutSpacesAndNewlines, "\(text.debugDescription)")
        }
    }

    @Test func everyValidatorRuleIsCovered() throws {
        // Rule ids are `RuleID` cases (`.missingDestination`); the validator's are those its files name.
        let directory = Fixtures.repositoryRoot.appendingPathComponent("Sources/DataModel")
        var source = ""
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix("Validator") && file.hasSuffix(".swift") {
            source += try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        }
        let rules = Set(
            RuleID.allCases.filter { rule in
                let name = "." + String(describing: rule)
                return source.contains(name + ",") || source.contains(name + ")")
            }.map(\.rawValue))
        #expect(rules.count >= 20)
        let covered = Set(ruleCases.map(\.rule))
        #expect(rules.subtracting(covered).isEmpty, "rules without a test: \(rules.subtracting(covered).sorted())")
    }

    @Test func diagnosticsAreSortedByLocation() throws {
        let xml = modelXML(
            """
                <entity name="Z" codeGenerationType="class">
                    <attribute name="objectID" attributeType="String"/>
                    <attribute name="9lives" attributeType="Undefined"/>
                </entity>
                <entity name="A" parentEntity="Missing">
                    <relationship name="r" destinationEntity="Nowhere"/>
                </entity>
                <fetchRequest name="F" entity="Nothing"/>
            """)
        let diagnostics = try diagnose(xml)
        #expect(diagnostics.count >= 5)
        let validated = Validator().validate(try parse(xml).model)
        #expect(validated == validated.sortedByLocation())
        let locations = validated.map(\.location)
        #expect(locations == locations.sorted())
        #expect(validated.containsErrors)
    }

    @Test func duplicateEntityMessageNamesTheFirst() throws {
        let xml = modelXML(author + "\n" + book() + "\n" + book())
        let diagnostics = try diagnose(xml)
        #expect(diagnostics.map(\.ruleID) == ["duplicate-entity"])
        #expect(diagnostics.first?.message.contains("first declared at line 7") == true)
    }

    @Test func cyclicInheritanceReportsEveryMember() throws {
        let xml = modelXML(
            "    <entity name=\"A\" parentEntity=\"B\"/>\n    <entity name=\"B\" parentEntity=\"C\"/>\n    <entity name=\"C\" parentEntity=\"A\"/>"
        )
        let diagnostics = Validator().validate(try parse(xml).model)
        #expect(diagnostics.map(\.ruleID) == ["cyclic-inheritance", "cyclic-inheritance", "cyclic-inheritance"])
        #expect(diagnostics.map(\.location.line) == [3, 4, 5])
    }

    @Test func inheritedPropertiesSatisfyConstraintsAndInverses() throws {
        let xml = modelXML(
            """
                <entity name="Item" isAbstract="YES">
                    <attribute name="code" attributeType="String"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
                </entity>
                <entity name="Tool" parentEntity="Item">
                    <attribute name="weight" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="code"/>
                            <constraint value="weight"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                    <fetchIndex name="byCode">
                        <fetchIndexElement property="code" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
                <entity name="Owner">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                    <relationship name="tools" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tool" inverseName="owner" inverseEntity="Tool"/>
                </entity>
            """)
        let diagnostics = try diagnose(xml)
        // Owner.tools → Tool.owner (inherited from Item) whose inverse is Owner.items: only a warning.
        #expect(diagnostics.map(\.ruleID) == ["inverse-mismatch"])
        #expect(diagnostics.first?.severity == .warning)
    }

    @Test func manualCodegenMayShareClassNames() throws {
        let xml = modelXML(
            "    <entity name=\"A\" representedClassName=\"Shared\"/>\n    <entity name=\"B\" representedClassName=\"Shared\"/>"
        )
        #expect(try diagnose(xml).isEmpty)
    }

    @Test func reservedNames() throws {
        for name in Validator.reservedPropertyNames.sorted() {
            let xml = modelXML(attribute("<attribute name=\"\(name)\" optional=\"YES\" attributeType=\"String\"/>"))
            let diagnostics = try diagnose(xml).filter { $0.ruleID != "missing-destination" }
            #expect(diagnostics.map(\.ruleID) == ["reserved-name"], "\(name)")
        }
        #expect(Validator.reservedPropertyNames.isSuperset(of: ["objectID", "description", "entity"]))
    }

    @Test(arguments: [
        "first name", "1st", "a-b", "naïve", "_private", "camelCase", "x9", "\u{301}abc", "\u{345}x", "\u{20E1}x",
        "a\u{301}", "日本", "🙂",
    ])
    func identifiers(name: String) throws {
        let xml = modelXML(attribute("<attribute name=\"\(name)\" optional=\"YES\" attributeType=\"String\"/>"))
        let rules = try diagnose(xml).map(\.ruleID).filter { $0 != "missing-destination" }
        let valid = ["_private", "camelCase", "x9", "naïve", "a\u{301}", "日本"].contains(name)
        #expect(rules == (valid ? [] : ["invalid-identifier"]), "\(name)")
    }

    @Test func largeModelValidatesQuickly() throws {
        var body = ""
        for index in 0..<2_000 {
            body += "    <entity name=\"E\(index)\" representedClassName=\"E\(index)\" codeGenerationType=\"class\">\n"
            body += "        <attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>\n"
            body +=
                "        <relationship name=\"next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E\((index + 1) % 2_000)\" inverseName=\"previous\" inverseEntity=\"E\((index + 1) % 2_000)\"/>\n"
            body +=
                "        <relationship name=\"previous\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E\((index + 1_999) % 2_000)\" inverseName=\"next\" inverseEntity=\"E\((index + 1_999) % 2_000)\"/>\n"
            body += "    </entity>\n"
        }
        let clock = ContinuousClock()
        var diagnostics: [Diagnostic] = []
        let elapsed = try clock.measure { diagnostics = try diagnose(modelXML(body)) }
        #expect(diagnostics.isEmpty)
        #expect(elapsed < .seconds(60), "a guard against quadratic blow-ups, not a speed target")
    }
}

/// A large model's entities are checked on several threads; the findings are those of one thread.
@Suite struct ParallelValidationTests {
    @Test func findingsDoNotDependOnTheNumberOfThreads() throws {
        var body = ""
        for index in 0..<700 {
            var properties = "<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/>"
            switch index % 4 {
            case 0:
                properties +=
                    "<relationship name=\"gone\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Missing\"/>"
            case 1:
                properties +=
                    "<relationship name=\"next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E\((index + 1) % 700)\"/>"
            case 2: properties += "<attribute name=\"description\" optional=\"YES\" attributeType=\"String\"/>"
            default: properties += "<attribute name=\"name\" optional=\"YES\" attributeType=\"Integer 16\"/>"
            }
            body +=
                "<entity name=\"E\(index)\" representedClassName=\"E\(index)\" codeGenerationType=\"class\">\(properties)</entity>\n"
        }
        let model = try parse(modelXML(body)).model
        let serial = Validator(scheduler: ThreadedWork()).validate(model, entityThreads: 1)
        #expect(serial.count >= 700)
        #expect(Set(serial.map(\.ruleID)).count >= 3)
        for threads in [2, 3, 4, 7] {
            #expect(
                Validator(scheduler: ThreadedWork()).validate(model, entityThreads: threads) == serial,
                "\(threads) threads")
        }
        #expect(Validator(scheduler: ThreadedWork()).validate(model) == serial)
        #expect(Validator().validate(model, entityThreads: 4) == serial)
    }
}
