import Foundation
import Testing

@testable import DataModel

@Suite("Model diff")
struct ModelDiffTests {
    static let version1 = modelXML(
        """
            <entity name="Person" representedClassName="Person" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="nickname" optional="YES" attributeType="String"/>
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
                <fetchIndex name="byName">
                    <fetchIndexElement property="name" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <entity name="Pet" representedClassName="Pet" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
            </entity>
            <entity name="Toy" representedClassName="Toy" syncable="YES"/>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="Person"/>
            </configuration>
        """)

    static let version2 = modelXML(
        """
            <entity name="Person" representedClassName="Person" syncable="YES" codeGenerationType="class">
                <attribute name="fullName" optional="YES" attributeType="String" elementID="name"/>
                <attribute name="age" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="email" optional="YES" attributeType="String"/>
                <relationship name="animals" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal" elementID="pets"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="email"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Animal" representedClassName="Animal" syncable="YES" codeGenerationType="class" elementID="Pet">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="animals" inverseEntity="Person"/>
            </entity>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="Person"/>
                <memberEntity name="Animal"/>
            </configuration>
        """)

    @Test func renamesAreMatchedByElementIDAndEveryFieldIsReported() throws {
        let old = try parse(Self.version1, file: "v1/contents").model
        let new = try parse(Self.version2, file: "v2/contents").model
        // Lines are the new model's (v2), but the old model's for removals.
        let lines = ModelDiff.changes(from: old, to: new).map { "\($0.location.line): \($0.summary)" }
        #expect(
            lines == [
                "4: renamed attribute Person.fullName (was name)",
                "5: changed attribute Person.age: type \"Integer 16\" → \"Integer 32\"",
                "5: changed attribute Person.age: optional \"YES\" → \"NO\"",
                "5: changed attribute Person.age: default none → \"0\"",
                "6: added attribute Person.email",
                "6: removed attribute Person.nickname",
                "7: renamed relationship Person.animals (was pets)",
                "7: changed relationship Person.animals: destination \"Pet\" → \"Animal\"",
                "7: changed relationship Person.animals: ordered \"NO\" → \"YES\"",
                "7: changed relationship Person.animals: delete rule \"Nullify\" → \"Cascade\"",
                "8: removed fetch index Person.byName",
                "9: added uniqueness constraint Person.email",
                "14: renamed entity Animal (was Pet)",
                "14: changed entity Animal: class name \"Pet\" → \"Animal\"",
                "16: changed relationship Animal.owner: inverse \"pets\" → \"animals\"",
                "16: removed entity Toy",
                "18: changed configuration Cloud: entities \"Person\" → \"Person, Animal\"",
            ], "\(lines.joined(separator: "\n"))")
    }

    @Test func identicalModelsHaveNoChanges() throws {
        let model = try parse(Self.version1).model
        #expect(ModelDiff.changes(from: model, to: model).isEmpty)
    }

    @Test func anElementIsNeverMatchedTwice() throws {
        // Two new entities claim the old one: by elementID and by name. Only the first is a rename.
        let old = try parse(modelXML(#"    <entity name="A" syncable="YES"/>"#)).model
        let new = try parse(
            modelXML(
                """
                    <entity name="B" syncable="YES" elementID="A"/>
                    <entity name="A" syncable="YES"/>
                """)
        ).model
        #expect(
            ModelDiff.changes(from: old, to: new).map(\.summary) == ["renamed entity B (was A)", "added entity A"])
    }

    /// Every pair of consecutive versions of every bundle in the corpus compares without trouble, and a version
    /// compared with itself has no changes.
    @Test(.enabled(if: CorpusTests.corpusIsPresent, "../shared/corpus/models is absent"))
    func consecutiveCorpusVersionsDiff() throws {
        var pairs = 0
        var changes = 0
        for path in CorpusTests.models(under: CorpusTests.corpus) where path.hasSuffix(".xcdatamodeld") {
            let versions = try ModelLoader.loadAllVersions(path: path)
            for (old, new) in zip(versions, versions.dropFirst()) {
                let found = ModelDiff.changes(from: old.model, to: new.model)
                for change in found {
                    #expect(!change.location.file.isEmpty, "\(path): \(change.summary)")
                }
                #expect(ModelDiff.changes(from: new.model, to: new.model).isEmpty, "\(new.contentsPath)")
                pairs += 1
                changes += found.count
            }
        }
        #expect(pairs > 0)
        print("model diff: \(pairs) consecutive version pairs, \(changes) changes")
    }
}
