import DataModelGenCLI
import Foundation
import Testing

@testable import DataModelCodegen

/// The lambdas every generator template can call (`Templates/README.md`, "Lambdas").
@Suite struct TemplateLambdaTests {
    static let company = TestPaths.models.appendingPathComponent("Company.xcdatamodeld").path

    /// A custom template calls each lambda through `datamodelgen generate --templates`.
    @Test func customTemplateCallsTheBuiltInLambdas() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let templates = directory.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try """
        // {{#uppercase}}{{className}}{{/uppercase}} {{#lowercase}}{{className}}{{/lowercase}} \
        {{#snakeCase}}{{className}}{{/snakeCase}} {{#camelCase}}{{className}}{{/camelCase}}
        {{#relationships}}
        let {{#snakeCase}}{{name}}{{/snakeCase}} = "{{#capitalized}}{{name}} of {{modelName}}{{/capitalized}}"
        {{/relationships}}
        {{^uppercase}}lambdas are truthy{{/uppercase}}
        """.write(to: templates.appendingPathComponent("coredata-class.mustache"), atomically: true, encoding: .utf8)
        let output = directory.url.appendingPathComponent("out").path
        let run = ToolRun.run([
            "generate", Self.company, "--output", output, "--flavor", "coredata", "--templates", templates.path,
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        let classFile = try String(contentsOfFile: output + "/BusinessEntity+CoreDataClass.swift", encoding: .utf8)
        #expect(
            classFile == """
                // BUSINESSENTITY businessentity business_entity businessEntity
                let departments = "Departments of Company"
                let employees = "Employees of Company"

                """)
    }

    @Test func transforms() {
        let cases: [(String, TemplateLambdas.Key, String)] = [
            ("firstName", .uppercase, "FIRSTNAME"), ("FirstName", .lowercase, "firstname"),
            ("éclair au café", .capitalized, "Éclair au café"), ("first_name", .camelCase, "firstName"),
            ("FirstName", .camelCase, "firstName"), ("URLSession task", .camelCase, "urlSessionTask"),
            ("user ID", .camelCase, "userID"), ("firstName", .snakeCase, "first_name"),
            ("URLSession", .snakeCase, "url_session"), ("version2Name", .snakeCase, "version2_name"),
            ("  ", .camelCase, ""), ("", .snakeCase, ""),
        ]
        // The examples of Templates/README.md.
        let examples: [(TemplateLambdas.Key, [String])] = [
            (.uppercase, ["FIRST_NAME", "URLSESSION", "USERID"]), (.lowercase, ["first_name", "urlsession", "userid"]),
            (.capitalized, ["First_name", "URLSession", "UserID"]),
            (.camelCase, ["firstName", "urlSession", "userID"]),
            (.snakeCase, ["first_name", "url_session", "user_id"]),
        ]
        for (key, results) in examples {
            #expect(["first_name", "URLSession", "userID"].map { TemplateLambdas.transform($0, by: key) } == results)
        }
        for (text, key, expected) in cases {
            #expect(TemplateLambdas.transform(text, by: key) == expected, "\(key.rawValue)(\(text))")
        }
    }

    /// The lambdas' names are no keys of the generator's contexts: none hides one of them.
    @Test func lambdaNamesAreNotTemplateKeys() {
        let names = TemplateLambdas.Key.allCases.map(\.rawValue)
        let keys =
            EntityContext.Key.allCases.map(\.rawValue) + AttributeContext.Key.allCases.map(\.rawValue)
            + RelationshipContext.Key.allCases.map(\.rawValue) + FetchedPropertyContext.Key.allCases.map(\.rawValue)
            + ModelObject.Key.allCases.map(\.rawValue)
        #expect(Set(names).isDisjoint(with: keys))
    }
}
