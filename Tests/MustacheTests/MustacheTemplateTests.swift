import Mustache
import Testing

/// Compiling and rendering: escaping, reuse, indentation and the code generator's use cases.
@Suite("Mustache templates")
struct MustacheTemplateTests {
    @Test func escapingIsAnOption() throws {
        let template = try MustacheTemplate("{{type}} {{{type}}} {{&type}}")
        let context: MustacheValue = ["type": "Array<\"A\" & B>"]
        #expect(
            try template.render(with: context)
                == "Array&lt;&quot;A&quot; &amp; B&gt; Array<\"A\" & B> Array<\"A\" & B>")
        let code = MustacheLibrary(options: MustacheRenderOptions(escapesHTML: false))
        #expect(
            try template.render(with: context, library: code) == "Array<\"A\" & B> Array<\"A\" & B> Array<\"A\" & B>")
    }

    @Test func escapingKeepsOtherCharacters() throws {
        let template = try MustacheTemplate("{{s}}")
        #expect(try template.render(with: ["s": "é<\u{301}>😀'"]) == "é&lt;\u{301}&gt;😀'")
    }

    @Test func compileOnceRenderMany() throws {
        let library = try MustacheLibrary(
            sources: ["property": "var {{name}}: {{type}}\n"], options: .codeGeneration)
        let template = try MustacheTemplate("{{#properties}}\n{{>property}}\n{{/properties}}", name: "entity")
        let outputs = try (1...3).map { count in
            let properties = (0..<count).map { index -> MustacheValue in ["name": "p\(index)", "type": "Int"] }
            return try library.render(template, with: ["properties": .array(properties)])
        }
        #expect(outputs[0] == "var p0: Int\n")
        #expect(outputs[2] == "var p0: Int\nvar p1: Int\nvar p2: Int\n")
    }

    @Test func templatesRenderConcurrently() async throws {
        let library = try MustacheLibrary(sources: ["row": "{{.}};"], options: .codeGeneration)
        let template = try MustacheTemplate("{{#rows}}{{>row}}{{/rows}}")
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask { try library.render(template, with: ["rows": [index, index]]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results) == Set((0..<8).map { "\($0);\($0);" }))
    }

    @Test func standalonePartialsIndentEveryLineButBlankOnes() throws {
        let library = try MustacheLibrary(
            sources: [
                "class": "final class {{name}} {\n    {{>members}}\n}\n",
                "members": "{{#properties}}\nvar {{.}}: Int\n\n{{/properties}}\n",
            ], options: .codeGeneration)
        let output = try library.render("class", with: ["name": "A", "properties": ["x", "y"]])
        #expect(output == "final class A {\n    var x: Int\n\n    var y: Int\n\n}\n")
    }

    @Test func onlyParentAndBlockTagsShareAStandaloneLine() throws {
        let library = try MustacheLibrary(sources: [
            "item": "[{{.}}]",
            "inline": "{{#items}}{{>item}}{{/items}}\nend\n",
            "parent": "<\n  {{$body}}{{/body}}\n>\n",
            "child": "{{<parent}}{{$body}}\nbody\n{{/body}}{{/parent}}\n",
        ])
        #expect(try library.render("inline", with: ["items": ["a", "b"]]) == "[a][b]\nend\n")
        #expect(try library.render("child", with: MustacheValue.null) == "<\n  body\n>\n")
    }

    @Test func setDelimitersLetTemplatesEmitBraces() throws {
        let template = try MustacheTemplate("{{=<% %>=}}let x = {{<% value %>}}")
        #expect(try template.render(with: ["value": 3]) == "let x = {{3}}")
    }

    @Test func dynamicPartialAndParentNames() throws {
        let library = try MustacheLibrary(sources: [
            "page": "<{{$body}}default{{/body}}>",
            "item": "[{{name}}]",
        ])
        let template = try MustacheTemplate(
            "{{#items}}{{>*kind}}{{/items}} {{<*layout}}{{$body}}B{{/body}}{{/*layout}}")
        let context: MustacheValue = ["layout": "page", "items": [["kind": "item", "name": "a"], ["kind": "none"]]]
        #expect(try library.render(template, with: context) == "[a] <B>")
    }

    @Test func mustacheLibraryReplacesTemplatesByName() throws {
        var library = MustacheLibrary()
        try library.add(source: "one", name: "t")
        try library.add(source: "two", name: "t", path: "/user/t.mustache")
        #expect(library.templateNames == ["t"])
        #expect(library["t"]?.path == "/user/t.mustache")
        #expect(try library.render("t", with: MustacheValue.null) == "two")
    }

    /// Renders a few thousand entities and checks that four times the work takes well under
    /// sixteen times as long, which it would if rendering were quadratic.
    /// A large context renders completely (speed is measured by the benchmarks, never by a timed test).
    @Test func rendersLargeContexts() throws {
        let library = try MustacheLibrary(
            sources: [
                "file": "{{#entities}}\n{{>entity}}\n{{/entities}}\n",
                "entity":
                    "final class {{name}} {\n    {{#attributes}}\n    var {{name}}: {{type}}\n    {{/attributes}}\n}\n",
            ], options: .codeGeneration)
        let attributes: MustacheValue = [["name": "id", "type": "Int"], ["name": "title", "type": "String"]]
        let entities = (0..<8_000).map { index -> MustacheValue in ["name": "E\(index)", "attributes": attributes] }
        let output = try library.render("file", with: ["entities": .array(entities)])
        #expect(output.split(separator: "\n").count == 8_000 * 4)
        #expect(output.hasSuffix("final class E7999 {\n    var id: Int\n    var title: String\n}\n"))
    }
}
