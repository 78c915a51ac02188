import Mustache
import Synchronization
import Testing

/// Lambdas beyond the specification's cases: nesting, loops, delimiters, indentation, transforms, errors.
@Suite struct MustacheLambdaTests {
    /// Counts its calls and records the section texts it was given.
    final class Recorder: Sendable {
        let texts = Mutex<[String?]>([])
        var calls: [String?] { texts.withLock { $0 } }

        func lambda(returning result: @escaping @Sendable (String?) -> String) -> MustacheLambda {
            MustacheLambda { text in
                self.texts.withLock { $0.append(text) }
                return result(text)
            }
        }
    }

    static func render(
        _ source: String, _ context: MustacheValue, partials: [String: String] = [:],
        options: MustacheRenderOptions = .specification
    ) throws -> String {
        let library = try MustacheLibrary(sources: partials, options: options)
        return try library.render(try MustacheTemplate(source), with: context)
    }

    static let upper = MustacheValue.lambda(MustacheLambda.transform { $0.uppercased() })

    /// The example of `MustacheLambda`'s documentation.
    @Test func documentedExample() throws {
        let context: MustacheValue = [
            "name": "world",
            "bold": .lambda(MustacheLambda { text in "<b>\(text ?? "")</b>" }),
            "shout": .lambda(.transform { $0.uppercased() }),
        ]
        let text = try MustacheTemplate("{{#bold}}{{name}}{{/bold}} {{#shout}}{{name}}{{/shout}}").render(with: context)
        #expect(text == "<b>world</b> WORLD")
        #expect(MustacheLambda { _ in "" }.mustacheValue != .null)
    }

    @Test func nestedLambdasSeeTheirOwnRawText() throws {
        let outer = Recorder()
        let inner = Recorder()
        let context: MustacheValue = [
            "name": "ada",
            "outer": .lambda(outer.lambda { "<" + ($0 ?? "") + ">" }),
            "inner": .lambda(inner.lambda { "[" + ($0 ?? "") + "]" }),
        ]
        let text = try Self.render("{{#outer}}a{{#inner}}{{name}}{{/inner}}b{{/outer}}", context)
        #expect(text == "<a[ada]b>")
        #expect(outer.calls == ["a{{#inner}}{{name}}{{/inner}}b"])
        #expect(inner.calls == ["{{name}}"])
    }

    @Test func transformInsideTemplateLambdaAndTheReverse() throws {
        let context: MustacheValue = [
            "name": "ada", "upper": Self.upper, "wrap": .lambda(MustacheLambda { "(" + ($0 ?? "") + ")" }),
        ]
        #expect(try Self.render("{{#wrap}}{{#upper}}{{name}}{{/upper}}{{/wrap}}", context) == "(ADA)")
        #expect(try Self.render("{{#upper}}x{{#wrap}}{{name}}{{/wrap}}y{{/upper}}", context) == "X(ADA)Y")
    }

    @Test func lambdaInALoopIsCalledOncePerElementWithTheElementInContext() throws {
        let wrap = Recorder()
        let context: MustacheValue = [
            "items": [["name": "a"], ["name": "b"], ["name": "c"]],
            "wrap": .lambda(wrap.lambda { "[" + ($0 ?? "") + "]" }),
        ]
        #expect(try Self.render("{{#items}}{{#wrap}}{{name}}{{/wrap}},{{/items}}", context) == "[a],[b],[c],")
        #expect(wrap.calls == ["{{name}}", "{{name}}", "{{name}}"])
    }

    @Test func interpolatedLambdaReturningTagsRendersThemAgainstTheLoopItem() throws {
        let context: MustacheValue = [
            "items": [["name": "a"], ["name": "b<"]],
            "lambda": .lambda(MustacheLambda { _ in "{{name}}!" }),
        ]
        // As the spec says, the result is rendered (its `{{name}}` escapes), then interpolated (and escaped
        // again by `{{lambda}}`); a lambda meant for `{{lambda}}` returns `{{{name}}}` to escape once.
        #expect(try Self.render("{{#items}}{{lambda}};{{/items}}", context) == "a!;b&amp;lt;!;")
        #expect(try Self.render("{{#items}}{{{lambda}}};{{/items}}", context) == "a!;b&lt;!;")
        let once: MustacheValue = [
            "items": context["items"] ?? nil, "lambda": .lambda(MustacheLambda { _ in "{{{name}}}!" }),
        ]
        #expect(try Self.render("{{#items}}{{lambda}};{{/items}}", once) == "a!;b&lt;!;")
    }

    @Test func transformSeesTheRenderedSectionInItsLoopItem() throws {
        let context: MustacheValue = ["items": [["name": "a"], ["name": "b"]], "upper": Self.upper]
        #expect(try Self.render("{{#items}}{{#upper}}{{name}}-{{/upper}}{{/items}}", context) == "A-B-")
        // As an interpolation a transform gets the empty string.
        let exclaim = MustacheValue.lambda(MustacheLambda.transform { $0 + "!" })
        #expect(try Self.render("<{{exclaim}}>", ["exclaim": exclaim]) == "<!>")
    }

    @Test func sectionResultUsesTheDelimitersOfTheOpeningTag() throws {
        let seen = Recorder()
        let context: MustacheValue = [
            "name": "ada", "lambda": .lambda(seen.lambda { ($0 ?? "") + "<%name%>{{name}}" }),
        ]
        #expect(try Self.render("{{=<% %>=}}<%#lambda%>x<%/lambda%>", context) == "xada{{name}}")
        #expect(seen.calls == ["x"])
        // Delimiters set inside the section are part of its raw text; the result starts with the outer ones.
        #expect(
            try Self.render("{{#lambda}}{{=| |=}}|name||/lambda|", ["name": "ada", "lambda": context["lambda"] ?? nil])
                == "ada<%name%>{{name}}")
    }

    @Test func interpolationResultUsesTheDefaultDelimiters() throws {
        let context: MustacheValue = ["name": "ada", "lambda": .lambda(MustacheLambda { _ in "{{name}} <%name%>" })]
        #expect(try Self.render("{{=<% %>=}}<%&lambda%>", context) == "ada <%name%>")
    }

    @Test func standaloneSectionTagsAreNotPartOfTheRawText() throws {
        let seen = Recorder()
        let context: MustacheValue = ["name": "ada", "lambda": .lambda(seen.lambda { $0 ?? "" })]
        let source = "begin\n  {{#lambda}}\n  line {{name}}\n  {{/lambda}}\nend\n"
        #expect(try Self.render(source, context) == "begin\n  line ada\nend\n")
        #expect(seen.calls == ["  line {{name}}\n"])
    }

    @Test func lambdaInAnIndentedPartialIsIndentedLikeItsLine() throws {
        let context: MustacheValue = [
            "name": "ada", "lambda": .lambda(MustacheLambda { _ in "<{{name}}>" }),
            "section": .lambda(MustacheLambda { $0 ?? "" }),
        ]
        let partials = ["p": "a{{&lambda}}b\n{{#section}}c{{name}}{{/section}}\n{{#section}}\nd\n{{/section}}\n"]
        #expect(try Self.render("  {{>p}}\n", context, partials: partials) == "  a<ada>b\n  cada\n  d\n")
    }

    @Test func lambdaFromAKeyedObjectOnTheUnescapedFastPath() throws {
        final class Helpers: KeyedMustacheObject {
            enum Key: String, CaseIterable, Sendable { case greet }
            static let keys = makeKeys()
            func value(for known: Key) -> MustacheValue? { .lambda(MustacheLambda { _ in "hi {{name}}" }) }
        }
        let contexts: [MustacheValue] = [.object(Helpers()), ["name": "ada"]]
        var library = MustacheLibrary(options: .codeGeneration)
        try library.add(source: "{{greet}}|{{#greet}}x{{/greet}}|{{^greet}}no{{/greet}}", name: "t")
        #expect(try library.render("t", withContexts: contexts) == "hi ada|hi ada|")
    }

    @Test func invertedSectionOverALambdaRendersNothingAndTheLambdaIsNotCalled() throws {
        let seen = Recorder()
        let context: MustacheValue = ["lambda": .lambda(seen.lambda { _ in "x" })]
        #expect(try Self.render("<{{^lambda}}no{{/lambda}}>", context) == "<>")
        #expect(seen.calls.isEmpty)
        #expect(MustacheValue.lambda(MustacheLambda { _ in "" }).isTruthy)
    }

    @Test func aLambdaEqualsOnlyItself() {
        let lambda = MustacheLambda { _ in "x" }
        let twin = MustacheLambda { _ in "x" }
        #expect(MustacheValue.lambda(lambda) == .lambda(lambda))
        #expect(MustacheValue.lambda(lambda) != .lambda(twin))
        #expect(Set<MustacheValue>([.lambda(lambda), .lambda(lambda), .lambda(twin)]).count == 2)
        #expect(MustacheValue.lambda(lambda).interpolatedText == "")
    }

    @Test func aLambdaThatExpandsToItselfHitsTheDepthLimit() throws {
        let context: MustacheValue = [
            "loop": .lambda(MustacheLambda { _ in "{{loop}}" }),
            "sectionLoop": .lambda(MustacheLambda { _ in "{{#sectionLoop}}x{{/sectionLoop}}" }),
        ]
        for source in ["{{loop}}", "{{#sectionLoop}}x{{/sectionLoop}}"] {
            let error = #expect(throws: MustacheError.self) { try Self.render(source, context) }
            #expect(error?.kind == .depthLimitExceeded, "\(source)")
        }
    }

    /// Lambda results render from the renderer's own work stack, like partials: however deep the limit,
    /// expanding never recurses on the thread's stack.
    @Test func deepLambdaExpansionDoesNotRecurse() throws {
        let context: MustacheValue = [
            "loop": .lambda(MustacheLambda { _ in "a{{loop}}" }),
            "sectionLoop": .lambda(MustacheLambda { _ in "{{#sectionLoop}}x{{/sectionLoop}}" }),
        ]
        let options = MustacheRenderOptions(maximumDepth: 50_000)
        for source in ["{{loop}}", "{{#sectionLoop}}x{{/sectionLoop}}"] {
            let error = #expect(throws: MustacheError.self) { try Self.render(source, context, options: options) }
            #expect(error?.kind == .depthLimitExceeded, "\(source)")
        }
        let finite: MustacheValue = [
            "n": 3, "items": [["v": 1], ["v": 2]],
            "lambda": .lambda(MustacheLambda { _ in "{{#items}}<{{v}}{{/items}}" }),
        ]
        #expect(try Self.render("[{{lambda}}]{{n}}[{{&lambda}}]", finite) == "[&lt;1&lt;2]3[<1<2]")
    }

    @Test func aLambdaResultThatDoesNotParseIsASyntaxError() throws {
        let context: MustacheValue = ["lambda": .lambda(MustacheLambda { _ in "{{#open}}" })]
        for source in ["{{lambda}}", "{{#lambda}}x{{/lambda}}"] {
            let error = #expect(throws: MustacheError.self) { try Self.render(source, context) }
            #expect(error?.kind == .syntax, "\(source)")
            #expect(error?.description.contains("lambda") == true, "\(error?.description ?? "")")
        }
    }

    @Test func lambdaResultCanIncludePartialsAndTheSameResultIsCompiledOnce() throws {
        let context: MustacheValue = [
            "items": [["name": "a"], ["name": "b"]], "lambda": .lambda(MustacheLambda { _ in "{{>item}}" }),
        ]
        let text = try Self.render("{{#items}}{{lambda}}{{/items}}", context, partials: ["item": "({{name}})"])
        #expect(text == "(a)(b)")
    }
}
