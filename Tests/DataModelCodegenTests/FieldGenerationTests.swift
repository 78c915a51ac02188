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
                <attribute name="rank" optional="YES" attributeType="Integer 16" usesScalarValueType="NO"/>
                <relationship name="keeper" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Holder"/>
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
            <entity name="Wide" representedClassName="Wide" syncable="YES" codeGenerationType="class">
        \((0..<33).map { #"        <attribute name="n\#($0 < 10 ? "0" : "")\#($0)" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>"# }.joined(separator: "\n"))
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
        // Integer, real and to-one fields are plain values with a null bit each (`fieldNulls`); strings and data stay
        // optionals (no larger than the value).
        #expect(plainClass.contains("@exclusivity(unchecked) var _countField: Swift.Int64 = 0"))
        #expect(plainClass.contains("@exclusivity(unchecked) var _titleField: Swift.String?"))
        #expect(plainClass.contains("@exclusivity(unchecked) var _holderField: Swift.Int64 = 0"))
        #expect(plainClass.contains("var nulls: UInt32 = 0"))
        #expect(plainClass.contains("_countField = row.integer(0, nullBit: 0, in: &nulls)"))
        #expect(plainClass.contains("_holderField = row.toOne(0, nullBit: 1, in: &nulls)"))
        #expect(plainClass.contains("setFieldNulls(nulls)"))
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
        #expect(plainClass.contains("writer.toOne(0, _holderField, nullBit: 1)"))
        #expect(plainClass.contains("writer.text(2, _titleField)"))
        let properties = try #require(files["Plain+DataModelProperties.swift"])
        // A non-optional scalar falls back to its empty value, as `value(for:)` does.
        #expect(
            properties.contains(
                #"get { readsFields(attribute: 0) ? fieldValue(_countField, nullBit: 0) ?? .emptyValue : value(for: "count") }"#
            ))
        #expect(properties.contains(#"get { value(for: "note") }"#))
        #expect(properties.contains("fieldObject(relationship: 0, _holderField, nullBit: 1) : toOne(for: \"holder\")"))
    }

    @Test("sub-entities read their ancestors' fields too; entities that cannot be read from one column each get none")
    func hierarchiesAndRefusals() throws {
        let (directory, files) = try Self.generate()
        defer { directory.cleanUp() }
        let child = try #require(files["Child+DataModelClass.swift"])
        #expect(child.contains("@exclusivity(unchecked) var _bornField: Swift.Double = 0"))
        #expect(!child.contains("var _nameField"), "the parent's class declares its own fields")
        #expect(child.contains("_nameField = row.text(0)"))
        // Null bits are numbered by class, root first: the parent's to-one keeps its bit in the child's `readFields`,
        // though the child's own attribute comes before it in the runtime's order.
        #expect(child.contains("_rankField = row.integer(1, nullBit: 0, in: &nulls)"))
        #expect(child.contains("_bornField = row.real(2, nullBit: 2, in: &nulls)"))
        #expect(child.contains("_keeperField = row.toOne(0, nullBit: 1, in: &nulls)"))
        let parent = try #require(files["Parent+DataModelClass.swift"])
        #expect(parent.contains("var _nameField: Swift.String?"))
        #expect(parent.contains("_rankField = row.integer(1, nullBit: 0, in: &nulls)"))
        #expect(parent.contains("_keeperField = row.toOne(0, nullBit: 1, in: &nulls)"))
        // Past the 32 bits of `fieldNulls`, a field keeps its optional.
        let wide = try #require(files["Wide+DataModelClass.swift"])
        #expect(wide.contains("var _n31Field: Swift.Int64 = 0"))
        #expect(wide.contains("_n31Field = row.integer(31, nullBit: 31, in: &nulls)"))
        #expect(wide.contains("var _n32Field: Swift.Int64?\n"))
        #expect(wide.contains("_n32Field = row.integer(32)\n"))
        #expect(wide.contains("writer.integer(32, _n32Field)\n"))
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
