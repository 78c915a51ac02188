import DataModel
import Foundation
import Testing

@testable import DataModelCodegen

/// The typed functions of fetch request templates: names, parameter labels and the types inferred from what each
/// `$VARIABLE` is compared with.
@Suite struct FetchRequestTemplateContextTests {
    private static let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Person" representedClassName="Person" codeGenerationType="class">
                <attribute name="age" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="photo" optional="YES" attributeType="Transformable"/>
                <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="people" inverseEntity="Team"/>
            </entity>
            <entity name="Team" representedClassName="Team" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="people" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="team" inverseEntity="Person"/>
            </entity>
            <fetchRequest name="byName" entity="Person" predicateString="name == $NAME AND age &gt;= $MIN_AGE"/>
            <fetchRequest name="inTeams" entity="Person" predicateString="team IN $TEAMS OR name IN $NAMES"/>
            <fetchRequest name="prefixed" entity="Person" predicateString="team.name BEGINSWITH[c] $prefix"/>
            <fetchRequest name="withMember" entity="Team" predicateString="$PERSON IN people OR ANY people.age &gt; $AGE OR people.@count &gt; $COUNT"/>
            <fetchRequest name="loose" entity="Person" predicateString="photo == $PHOTO OR $X == $Y OR name == $MIXED OR age == $MIXED"/>
            <fetchRequest name="ByName" entity="Person"/>
            <fetchRequest name="orphan" entity="Nobody"/>
        </model>
        """

    private func templates(_ flavor: Flavor) throws -> [String: FetchRequestTemplateContext] {
        let (model, _) = try ModelParser.parse(
            Data(Self.xml.utf8), file: "test/contents", modelName: "People", versionName: "People")
        let context = TemplateContextBuilder(options: GenerationOptions(flavor: flavor, access: .public))
            .context(for: model, sourceFileName: "People.xcdatamodeld")
        var byName: [String: FetchRequestTemplateContext] = [:]
        for template in context.fetchRequestTemplates { byName[template.name] = template }
        let person = try #require(context.entities.first { $0.entityName == "Person" })
        #expect(person.fetchRequestTemplates.map(\.name) == ["ByName", "byName", "inTeams", "loose", "prefixed"])
        return byName
    }

    @Test func runtimeParameters() throws {
        let templates = try templates(.runtime)
        #expect(templates["orphan"] == nil)  // its entity does not exist (a validation error)
        // Sorted by name in Unicode order, "ByName" first: the later clash gets a number.
        #expect(templates["ByName"]?.functionName == "fetchRequestByName")
        #expect(templates["byName"]?.functionName == "fetchRequestByName2")
        #expect(templates["byName"]?.parameterList == "minAge: Int16, name: String?")
        #expect(templates["byName"]?.substitutionVariables == #"["MIN_AGE": minAge, "NAME": name]"#)
        #expect(templates["inTeams"]?.parameterList == "names: [String], teams: [Team]")
        #expect(templates["prefixed"]?.parameterList == "prefix: String")
        #expect(templates["withMember"]?.parameterList == "age: Int16, count: Int, person: Person")
        #expect(templates["loose"]?.parameterList == "mixed: Any?, photo: Any?, x: Any?, y: Any?")
        #expect(templates["ByName"]?.parameterList == "")
        #expect(templates["ByName"]?.substitutionVariables == "[:]")
        #expect(
            templates["byName"]?.descriptionArguments
                == #"name: "byName", entityName: "Person", predicateFormat: "name == $NAME AND age >= $MIN_AGE""#)
    }

    @Test func coreDataParameters() throws {
        let templates = try templates(.coredata)
        #expect(templates["byName"]?.parameterList == "minAge: Int16, name: String?")
        #expect(templates["loose"]?.parameterList == "mixed: Any, photo: Any, x: Any, y: Any")
        #expect(
            templates["byName"]?.coreDataSubstitutionVariables == #"["MIN_AGE": minAge as Any, "NAME": name as Any]"#)
    }
}
