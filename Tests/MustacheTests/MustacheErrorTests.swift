import Mustache
import Testing

/// Syntax and render errors: their kind, position and formatting, and that no input crashes.
@Suite("Mustache errors")
struct MustacheErrorTests {
    /// Compiles `source` and returns the error it throws, or nil.
    func compileError(_ source: String, path: String = "/templates/x.mustache") -> MustacheError? {
        do {
            _ = try MustacheTemplate(source, name: "x", path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func unclosedSectionReportsItsOpeningTag() throws {
        let error = try #require(compileError("line one\n  {{#items}}\n{{name}}\n"))
        #expect(error.kind == .syntax)
        #expect(error.path == "/templates/x.mustache")
        #expect(error.line == 2)
        #expect(error.column == 3)
        #expect(
            error.description
                == "/templates/x.mustache:2:3: error: unclosed section '{{#items}}': "
                + "expected '{{/items}}' before the end of the template")
    }

    @Test func mismatchedClosingTagReportsTheClosingTag() throws {
        let error = try #require(compileError("{{#a}}\n {{#b}}\n  x {{/a}}\n"))
        #expect(error.kind == .syntax)
        #expect((error.line, error.column) == (3, 5))
        #expect(error.message.contains("mismatched closing tag '{{/a}}'"))
        #expect(error.message.contains("expected '{{/b}}'"))
        #expect(error.message.contains("line 2, column 2"))
    }

    @Test func unclosedTag() throws {
        let error = try #require(compileError("Hello\nworld {{name"))
        #expect((error.line, error.column) == (2, 7))
        #expect(error.message == "unclosed tag: expected '}}'")

        let triple = try #require(compileError("{{{name}}"))
        #expect(triple.message == "unclosed tag: expected '}}}'")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try #require(compileError("é😀 {{/x}}"))
        #expect((error.line, error.column) == (1, 4))
        #expect(error.message.contains("unexpected closing tag"))
    }

    @Test func linesCountBreaksInsideTags() throws {
        let error = try #require(compileError("{{!\ncomment\n}} {{#open}}"))
        #expect((error.line, error.column) == (3, 4))
    }

    @Test(arguments: ["{{=<% =}}", "{{= a b c =}}", "{{==}}"])
    func badDelimiters(_ source: String) throws {
        let error = try #require(compileError(source))
        #expect(error.kind == .syntax)
        #expect((error.line, error.column) == (1, 1))
        #expect(error.message.hasPrefix("invalid set-delimiters tag"))
    }

    @Test(arguments: ["{{}}", "{{#}}x{{/}}", "{{a b}}", "{{> two words}}", "{{>*}}", "{{$ }}"])
    func invalidNames(_ source: String) throws {
        let error = try #require(compileError(source))
        #expect(error.kind == .syntax)
    }

    @Test func unclosedParentAndBlock() throws {
        #expect(compileError("{{<layout}}{{$body}}x{{/body}}")?.message.hasPrefix("unclosed parent") == true)
        #expect(compileError("{{<layout}}{{$body}}x{{/layout}}")?.message.hasPrefix("mismatched") == true)
        #expect(compileError("{{$body}}x")?.message.hasPrefix("unclosed block") == true)
    }

    @Test func deeplyNestedSectionsAreRejected() throws {
        let source = String(repeating: "{{#a}}", count: 500) + String(repeating: "{{/a}}", count: 500)
        let error = try #require(compileError(source))
        #expect(error.message.contains("nested too deeply"))
    }

    @Test func unknownPartialIsAnErrorOnlyInStrictMode() throws {
        let template = try MustacheTemplate("a\n  {{>missing}}\n", name: "page", path: "Templates/page.mustache")
        let lenient = MustacheLibrary(options: .specification)
        #expect(try lenient.render(template, with: MustacheValue.null) == "a\n")

        let strict = MustacheLibrary(options: .codeGeneration)
        let error = try #require(throws: MustacheError.self) { try strict.render(template, with: MustacheValue.null) }
        #expect(error.kind == .unknownTemplate)
        #expect(error.description == "Templates/page.mustache:2:3: error: unknown partial 'missing'")
    }

    @Test func unknownParentIsAnErrorInStrictMode() throws {
        let strict = try MustacheLibrary(sources: ["child": "x\n{{<base}}{{/base}}"], options: .codeGeneration)
        let error = try #require(throws: MustacheError.self) { try strict.render("child", with: MustacheValue.null) }
        #expect(error.description == "child:2:1: error: unknown parent template 'base'")
        #expect(throws: MustacheError.self) { try strict.render("nonexistent", with: MustacheValue.null) }
    }

    @Test func unresolvedReferencesAreListedInOrder() throws {
        let library = try MustacheLibrary(sources: [
            "b": "{{>missing2}}{{>a}}",
            "a": "{{>missing1}}\n{{<missing3}}{{/missing3}}{{>*dynamic}}",
        ])
        let errors = library.unresolvedReferences()
        #expect(
            errors.map(\.description) == [
                "a:1:1: error: unknown partial 'missing1'",
                "a:2:1: error: unknown partial 'missing3'",
                "b:1:1: error: unknown partial 'missing2'",
            ])
        #expect(library["a"]?.referencedTemplateNames == ["missing1", "missing3"])
    }

    @Test func partialIncludingItselfHitsTheDepthLimit() throws {
        let library = try MustacheLibrary(sources: ["self": "x{{>self}}"])
        let error = try #require(throws: MustacheError.self) { try library.render("self", with: MustacheValue.null) }
        #expect(error.kind == .depthLimitExceeded)
        #expect(error.description.hasPrefix("self:1:2: error: rendering 'self' exceeds the nesting limit of 100"))
    }

    @Test func parentIncludingItselfHitsTheDepthLimit() throws {
        let library = try MustacheLibrary(sources: ["loop": "{{<loop}}{{$a}}x{{/a}}{{/loop}}"])
        let error = try #require(throws: MustacheError.self) { try library.render("loop", with: MustacheValue.null) }
        #expect(error.kind == .depthLimitExceeded)
    }

    @Test func blockOverrideIncludingItselfHitsTheDepthLimit() throws {
        let library = try MustacheLibrary(sources: [
            "parent": "{{$x}}{{/x}}",
            "child": "{{<parent}}{{$x}}[{{$x}}{{/x}}]{{/x}}{{/parent}}",
        ])
        let error = try #require(throws: MustacheError.self) { try library.render("child", with: MustacheValue.null) }
        #expect(error.kind == .depthLimitExceeded)
    }

    /// Rendering keeps its own work stack, so even a very generous limit cannot overflow the
    /// thread's stack.
    @Test func deepRecursionDoesNotOverflowTheStack() throws {
        var options = MustacheRenderOptions.specification
        options.maximumDepth = 3_000
        let library = try MustacheLibrary(sources: ["self": "{{#a}}{{^b}}x{{>self}}{{/b}}{{/a}}"], options: options)
        let error = try #require(throws: MustacheError.self) { try library.render("self", with: ["a": true]) }
        #expect(error.kind == .depthLimitExceeded)
    }

    @Test func recursionWithinTheLimitRenders() throws {
        var options = MustacheRenderOptions.specification
        options.maximumDepth = 4
        let library = try MustacheLibrary(sources: ["node": "{{n}}{{#child}}({{>node}}){{/child}}"], options: options)
        func tree(_ depth: Int) -> MustacheValue {
            depth == 0 ? ["n": 0, "child": false] : ["n": .int(depth), "child": tree(depth - 1)]
        }
        #expect(try library.render("node", with: tree(4)) == "4(3(2(1(0))))")
        #expect(throws: MustacheError.self) { try library.render("node", with: tree(5)) }
    }

    /// Compiles and renders thousands of random tag soups: each must either render or throw.
    @Test func randomInputNeverCrashes() {
        let alphabet = Array("{{}}{}#/^&!><$=*. \n\r\tab")
        var generator = SplitMix64(seed: 42)
        let context: MustacheValue = ["a": [["b": "x"], ["a": true]], "b": "a"]
        var rendered = 0
        for _ in 0..<3000 {
            let length = Int(generator.next() % 40)
            let source = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            do {
                let library = try MustacheLibrary(sources: ["a": source, "b": "{{>a}}"])
                _ = try library.render("a", with: context)
                rendered += 1
            } catch {
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(rendered > 0)
    }
}

/// A small deterministic random number generator, so the fuzz test is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
