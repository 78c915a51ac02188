import DataModelGenCLI
import Foundation
import Testing

/// Which generated runtime classes keep fetched rows in fields (`FieldPlanner`), and what they declare.
@Suite("Fields of generated classes")
struct FieldGenerationTests {
    private static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Plain" representedClassName="Plain" syncable="YES" codeGenerationType="class">
                <attribute name="count" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="note" optional="YES" transient="YES" attributeType="String"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Holder" inverseName="plains" inverseEntity="Holder"/>
            </entity>
            <entity name="Holder" representedClassName="Holder" syncable="YES" codeGenerationType="class">
                <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <relationship name="plains" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Plain" inverseName="holder" inverseEntity="Plain"/>
            </entity>
            <entity name="Parent" representedClassName="Parent" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Child" representedClassName="Child" parentEntity="Parent" syncable="YES" codeGenerationType="class">
                <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            </entity>
            <entity name="Pointer" representedClassName="Pointer" syncable="YES" codeGenerationType="class">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="target" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Parent"/>
            </entity>
            <entity name="Owned" representedClassName="Owned" syncable="YES" codeGenerationType="category">
                <attribute name="size" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </entity>
            <entity name="OwnedChild" representedClassName="OwnedChild" parentEntity="Owned" syncable="YES" codeGenerationType="class">
                <attribute name="extra" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    private static func generate() throws -> (directory: TemporaryDirectory, files: [String: String]) {
        let directory = try TemporaryDirectory()
        let bundle = directory.url.appendingPathComponent("Fields.xcdatamodeld/Fields.xcdatamodel")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(model.utf8).write(to: bundle.appendingPathComponent("contents"))
        let output = directory.url.appendingPathComponent("out")
        let run = ToolRun.run([
            "generate", directory.url.appendingPathComponent("Fields.xcdatamodeld").path, "--output", output.path,
            "--flavor", "runtime", "--no-schema", "--no-cache",
        ])
        #expect(run.exitCode == .success, "\(run.err)")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: output.path) {
            files[name] = try String(contentsOfFile: output.appendingPathComponent(name).path, encoding: .utf8)
        }
        return (directory, files)
    }

    @Test("a class-codegen entity whose properties each come from one column gets fields; the getters read them")
    func plainEntity() throws {
        let (directory, files) = try Self.generate()
        defer { directory.cleanUp() }
        let plainClass = try #require(files["Plain+DataModelClass.swift"])
        #expect(plainClass.contains("@exclusivity(unchecked) var _countField: Swift.Int64?"))
        #expect(plainClass.contains("@exclusivity(unchecked) var _titleField: Swift.String?"))
        #expect(plainClass.contains("@exclusivity(unchecked) var _holderField: Swift.Int64?"))
        #expect(!plainClass.contains("_noteField"), "a transient attribute has no field")
        #expect(
            plainClass.contains(
                """
                        FieldLayout(
                            attributes: [
                                .integer("count"),
                                .transient("note"),
                                .text("title"),
                            ],
                            relationships: [
                                .toOne("holder"),
                            ])
                """))
        #expect(plainClass.contains("_titleField = row.text(2)"))
        #expect(plainClass.contains("writer.toOne(0, _holderField)"))
        let properties = try #require(files["Plain+DataModelProperties.swift"])
        // A non-optional scalar falls back to its empty value, as `value(for:)` does.
        #expect(
            properties.contains(
                #"get { readsFields(attribute: 0) ? fieldValue(_countField) ?? .emptyValue : value(for: "count") }"#))
        #expect(properties.contains(#"get { value(for: "note") }"#))
        #expect(properties.contains("fieldObject(relationship: 0, _holderField) : toOne(for: \"holder\")"))
    }

    @Test("sub-entities read their ancestors' fields too; entities that cannot be read from one column each get none")
    func hierarchiesAndRefusals() throws {
        let (directory, files) = try Self.generate()
        defer { directory.cleanUp() }
        let child = try #require(files["Child+DataModelClass.swift"])
        #expect(child.contains("@exclusivity(unchecked) var _bornField: Swift.Double?"))
        #expect(!child.contains("var _nameField"), "the parent's class declares its own fields")
        #expect(child.contains("_nameField = row.text(0)"))
        #expect(child.contains("_bornField = row.real(1)"))
        #expect(try #require(files["Parent+DataModelClass.swift"]).contains("var _nameField: Swift.String?"))
        // External storage: the row holds a reference to a file.
        let holder = try #require(files["Holder+DataModelClass.swift"])
        #expect(!holder.contains("readFields"))
        #expect(try #require(files["Holder+DataModelProperties.swift"]).contains(#"get { value(for: "photo") }"#))
        // A to-one into an entity with sub-entities: its row also names the destination's entity.
        #expect(!(try #require(files["Pointer+DataModelClass.swift"])).contains("readFields"))
        // A parent whose class is the user's (category): no fields for it, nor for its sub-entity.
        #expect(files["Owned+DataModelClass.swift"] == nil)
        #expect(!(try #require(files["Owned+DataModelProperties.swift"])).contains("readsFields"))
        #expect(!(try #require(files["OwnedChild+DataModelClass.swift"])).contains("readFields"))
    }
}
