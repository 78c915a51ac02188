import Foundation
import Testing

@testable import DataModel

/// A model using every element, attribute and flag of DESIGN.md section 3. It is also valid: no diagnostics.
let everythingXML = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v7" usedWithCloudKit="YES" usedWithSwiftData="YES" iOSVersion="Automatic" macOSVersion="Automatic" name="Everything">
        <entity name="Person" representedClassName="MyApp.Person" isAbstract="YES" codeGenerationType="class" syncable="YES" elementID="OldPerson" versionHashModifier="p1">
            <attribute name="i16" attributeType="Integer 16" defaultValueString="1" minValueString="0" maxValueString="10" usesScalarValueType="YES"/>
            <attribute name="i32" optional="YES" attributeType="Integer 32" usesScalarValueType="NO" syncable="YES"/>
            <attribute name="i64" attributeType="Integer 64" indexed="YES" versionHashModifier="h64" elementID="old64"/>
            <attribute name="dec" attributeType="Decimal" defaultValueString="1.5"/>
            <attribute name="dbl" attributeType="Double" defaultValue="2.5"/>
            <attribute name="flt" attributeType="Float" spotlightIndexingEnabled="YES"/>
            <attribute name="str" attributeType="String" regularExpressionString="[a-z]+" minValueString="1" maxValueString="20" allowsCloudEncryption="YES" preserveAfterDeletion="YES"/>
            <attribute name="flag" attributeType="Boolean" defaultValueString="YES" storedInTruthFile="YES"/>
            <attribute name="born" attributeType="Date" defaultDateTimeInterval="0" minDateTimeInterval="-100" maxDateTimeInterval="1000"/>
            <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="uid" attributeType="UUID" renamingIdentifier="oldUID"/>
            <attribute name="link" optional="YES" attributeType="URI" indexedBySpotlight="YES"/>
            <attribute name="colors" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
            <attribute name="oid" optional="YES" transient="YES" attributeType="Object ID"/>
            <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
            <attribute name="untyped" optional="YES" transient="YES"/>
            <attribute name="shout" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(str)">
                <userInfo>
                    <entry key="kind" value="derived"/>
                </userInfo>
            </attribute>
            <relationship name="mentor" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Person" inverseName="mentees" inverseEntity="Person" indexed="YES" elementID="oldMentor" versionHashModifier="m1" syncable="YES">
                <userInfo>
                    <entry key="note" value="one"/>
                </userInfo>
            </relationship>
            <relationship name="mentees" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="No Action" ordered="YES" destinationEntity="Person" inverseName="mentor" inverseEntity="Person"/>
            <relationship name="manager" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Employee" inverseName="reports" inverseEntity="Employee"/>
            <relationship name="cache" optional="YES" maxCount="1" deletionRule="Cascade" transient="YES" destinationEntity="Employee" inverseName="cachedBy" inverseEntity="Employee"/>
            <fetchedProperty name="namesakes" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Person" predicateString="str == $FETCH_SOURCE.str"/>
                <userInfo>
                    <entry key="fp" value="yes"/>
                </userInfo>
            </fetchedProperty>
            <userInfo>
                <entry key="table" value="people"/>
                <entry key="owner" value="me"/>
            </userInfo>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="uid"/>
                </uniquenessConstraint>
                <uniquenessConstraint>
                    <constraint value="str"/>
                    <constraint value="i64"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
            <fetchIndex name="byStr">
                <fetchIndexElement property="str" type="Binary" order="ascending"/>
                <fetchIndexElement property="i64" type="Binary" order="descending"/>
            </fetchIndex>
            <fetchIndex name="byExpression">
                <fetchIndexElement expression="lowercase:(str)" expressionType="String" type="Binary" order="ascending"/>
            </fetchIndex>
            <compoundIndexes>
                <compoundIndex>
                    <index value="str"/>
                    <index value="flag"/>
                </compoundIndex>
            </compoundIndexes>
        </entity>
        <entity name="Employee" representedClassName=".Employee" parentEntity="Person" codeGenerationType="category" renamingIdentifier="Worker">
            <attribute name="salary" optional="YES" attributeType="Decimal"/>
            <relationship name="reports" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="manager" inverseEntity="Person"/>
            <relationship name="cachedBy" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cache" inverseEntity="Person"/>
        </entity>
        <entity name="Plain" syncable="NO">
            <attribute name="value" optional="YES" attributeType="String"/>
        </entity>
        <fetchRequest name="Adults" entity="Person" predicateString="i16 &gt;= 18" resultType="1" returnDistinctResults="YES" fetchLimit="10"/>
        <configuration name="Cloud" usedWithCloudKit="YES">
            <memberEntity name="Person"/>
            <memberEntity name="Employee"/>
        </configuration>
        <configuration name="Local">
            <memberEntity name="Plain"/>
        </configuration>
        <composite name="Address">
            <attribute name="street" optional="YES" attributeType="String"/>
            <attribute name="zip" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
        </composite>
        <elements>
            <element name="Person" positionX="0" positionY="0" width="128" height="300"/>
        </elements>
    </model>

    """

@Suite("Parser")
struct ParserTests {
    @Test func everythingParsesWithoutDiagnostics() throws {
        let (model, diagnostics) = try parse(everythingXML)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(model.name == "Test")
        #expect(model.versionName == "Test")
        #expect(model.entities.map(\.name) == ["Person", "Employee", "Plain"])
    }

    @Test func modelMetadata() throws {
        let (model, _) = try parse(everythingXML)
        #expect(
            model.metadata == [
                "type": "com.apple.IDECoreDataModeler.DataModel", "documentVersion": "1.0",
                "lastSavedToolsVersion": "22522", "systemVersion": "23C71", "minimumToolsVersion": "Automatic",
                "sourceLanguage": "Swift", "userDefinedModelVersionIdentifier": "v7", "usedWithCloudKit": "YES",
                "usedWithSwiftData": "YES", "iOSVersion": "Automatic", "macOSVersion": "Automatic",
                "name": "Everything",
            ])
        #expect(model.location.line == 2 && model.location.column == 1)
    }

    @Test func entityAttributes() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        #expect(person.representedClassName == "MyApp.Person")
        #expect(person.className == "Person")
        #expect(person.parentEntity == nil)
        #expect(person.isAbstract)
        #expect(person.codeGenerationType == .class)
        #expect(person.syncable == true)
        #expect(person.renamingIdentifier == "OldPerson")
        #expect(person.versionHashModifier == "p1")
        #expect(person.userInfo.map(\.key) == ["table", "owner"])
        #expect(person.userInfo.map(\.value) == ["people", "me"])

        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.representedClassName == ".Employee")
        #expect(employee.className == "Employee")
        #expect(employee.parentEntity == "Person")
        #expect(!employee.isAbstract)
        #expect(employee.codeGenerationType == .category)
        #expect(employee.renamingIdentifier == "Worker")
        #expect(employee.syncable == nil)

        let plain = try #require(model.entity(named: "Plain"))
        #expect(plain.codeGenerationType == .manual)
        #expect(plain.representedClassName == nil)
        #expect(plain.className == "Plain")
        #expect(plain.syncable == false)
        #expect(model.ancestry(of: employee).map(\.name) == ["Employee", "Person"])
        #expect(model.subentityNames() == ["Person": ["Employee"]])
    }

    @Test func everyAttributeType() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        let types = Dictionary(uniqueKeysWithValues: person.attributes.map { ($0.name, $0.type) })
        #expect(types["i16"] == .integer16)
        #expect(types["i32"] == .integer32)
        #expect(types["i64"] == .integer64)
        #expect(types["dec"] == .decimal)
        #expect(types["dbl"] == .double)
        #expect(types["flt"] == .float)
        #expect(types["str"] == .string)
        #expect(types["flag"] == .boolean)
        #expect(types["born"] == .date)
        #expect(types["blob"] == .binary)
        #expect(types["uid"] == .uuid)
        #expect(types["link"] == .uri)
        #expect(types["colors"] == .transformable)
        #expect(types["oid"] == .objectID)
        #expect(types["address"] == .composite)
        #expect(types["scratch"] == .undefined)
        #expect(types["untyped"] == .undefined, "no attributeType means Undefined")
        #expect(Set(types.values) == Set(AttributeType.allCases))
    }

    @Test func everyAttributeFlag() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        func attribute(_ name: String) throws -> Attribute {
            try #require(person.attributes.first { $0.name == name })
        }
        let i16 = try attribute("i16")
        #expect(!i16.isOptional)
        #expect(i16.defaultValueString == "1")
        #expect(i16.minValueString == "0")
        #expect(i16.maxValueString == "10")
        #expect(i16.usesScalarValueType == true && i16.isScalar)
        let i32 = try attribute("i32")
        #expect(i32.isOptional)
        #expect(i32.usesScalarValueType == false && !i32.isScalar)
        #expect(i32.syncable == true)
        let i64 = try attribute("i64")
        #expect(i64.isIndexed)
        #expect(i64.versionHashModifier == "h64")
        #expect(i64.renamingIdentifier == "old64")
        #expect(i64.usesScalarValueType == nil)
        #expect(try attribute("dec").defaultValueString == "1.5")
        #expect(try attribute("dbl").defaultValueString == "2.5", "older files write defaultValue")
        #expect(try attribute("flt").spotlightIndexingEnabled)
        #expect(try attribute("link").spotlightIndexingEnabled, "indexedBySpotlight is the older spelling")
        let str = try attribute("str")
        #expect(str.regularExpressionString == "[a-z]+")
        #expect(str.allowsCloudEncryption)
        #expect(str.preserveAfterDeletion)
        #expect(!str.spotlightIndexingEnabled && !str.isIndexed && !str.storedInTruthFile)
        let flag = try attribute("flag")
        #expect(flag.defaultValueString == "YES")
        #expect(flag.storedInTruthFile)
        let born = try attribute("born")
        #expect(born.defaultDateTimeInterval == "0")
        #expect(born.minDateTimeInterval == "-100")
        #expect(born.maxDateTimeInterval == "1000")
        #expect(try attribute("blob").allowsExternalBinaryDataStorage)
        #expect(try attribute("uid").renamingIdentifier == "oldUID")
        let colors = try attribute("colors")
        #expect(colors.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(colors.customClassName == "[String]")
        let oid = try attribute("oid")
        #expect(oid.isTransient && !oid.isStored)
        #expect(try attribute("address").composite == "Address")
        let shout = try attribute("shout")
        #expect(shout.isDerived)
        #expect(shout.derivationExpression == "uppercase:(str)")
        #expect(shout.userInfo.map(\.key) == ["kind"])
        #expect(shout.userInfo.first?.value == "derived")
        #expect(try !attribute("dec").isDerived)
    }

    @Test func everyRelationshipFlag() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        let byName = Dictionary(uniqueKeysWithValues: person.relationships.map { ($0.name, $0) })
        let mentor = try #require(byName["mentor"])
        #expect(mentor.destinationEntity == "Person")
        #expect(mentor.inverseName == "mentees")
        #expect(mentor.inverseEntity == "Person")
        #expect(!mentor.isToMany && !mentor.isOrdered)
        #expect(mentor.deletionRule == .deny)
        #expect(mentor.maxCount == 1 && mentor.minCount == nil)
        #expect(mentor.isOptional)
        #expect(mentor.isIndexed)
        #expect(mentor.renamingIdentifier == "oldMentor")
        #expect(mentor.versionHashModifier == "m1")
        #expect(mentor.syncable == true)
        #expect(mentor.userInfo.map(\.value) == ["one"])
        let mentees = try #require(byName["mentees"])
        #expect(mentees.isToMany && mentees.isOrdered)
        #expect(mentees.deletionRule == .noAction)
        #expect(mentees.minCount == 1 && mentees.maxCount == 5)
        #expect(!mentees.isIndexed && !mentees.isTransient)
        #expect(byName["manager"]?.deletionRule == .nullify)
        let cache = try #require(byName["cache"])
        #expect(cache.deletionRule == .cascade)
        #expect(cache.isTransient)
        let reports = try #require(model.entity(named: "Employee")?.relationships.first)
        #expect(reports.name == "reports" && reports.destinationEntity == "Person" && reports.isToMany)
    }

    @Test func fetchedPropertiesAndFetchRequests() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        let fetched = try #require(person.fetchedProperties.first)
        #expect(person.fetchedProperties.count == 1)
        #expect(fetched.name == "namesakes")
        #expect(fetched.isOptional)
        #expect(fetched.fetchRequest?.name == "fetchedPropertyFetchRequest")
        #expect(fetched.fetchRequest?.entity == "Person")
        #expect(fetched.fetchRequest?.predicateString == "str == $FETCH_SOURCE.str")
        #expect(fetched.userInfo.map(\.key) == ["fp"])
        #expect(person.propertyNames.last == "namesakes")

        let request = try #require(model.fetchRequests.first)
        #expect(model.fetchRequests.count == 1)
        #expect(request.name == "Adults")
        #expect(request.entity == "Person")
        #expect(request.predicateString == "i16 >= 18")
        #expect(request.options == ["resultType": "1", "returnDistinctResults": "YES", "fetchLimit": "10"])
    }

    @Test func configurations() throws {
        let (model, _) = try parse(everythingXML)
        #expect(model.configurations.map(\.name) == ["Cloud", "Local"])
        #expect(model.configurations[0].usedWithCloudKit)
        #expect(model.configurations[0].memberEntities == ["Person", "Employee"])
        #expect(!model.configurations[1].usedWithCloudKit)
        #expect(model.configurations[1].memberEntities == ["Plain"])
    }

    @Test func constraintsAndIndexes() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        #expect(person.uniquenessConstraints.map(\.properties) == [["uid"], ["str", "i64"]])
        #expect(person.fetchIndexes.map(\.name) == ["byStr", "byExpression"])
        let byStr = person.fetchIndexes[0]
        #expect(byStr.elements.map(\.property) == ["str", "i64"])
        #expect(byStr.elements.map(\.isAscending) == [true, false])
        #expect(byStr.elements.map(\.type) == ["Binary", "Binary"])
        #expect(person.fetchIndexes[1].elements.first?.property == "lowercase:(str)")
        #expect(person.compoundIndexes.map(\.properties) == [["str", "flag"]])
    }

    @Test func composites() throws {
        let (model, _) = try parse(everythingXML)
        #expect(model.composites.count == 1)
        let address = try #require(model.composites.first)
        #expect(address.name == "Address")
        #expect(address.attributes.map(\.name) == ["street", "zip"])
        #expect(address.attributes.map(\.type) == [.string, .integer32])
        #expect(address.attributes[1].isScalar)
    }

    @Test func locationsOfEveryKindOfNode() throws {
        let (model, _) = try parse(everythingXML)
        let person = try #require(model.entity(named: "Person"))
        func expectAt(
            _ location: DataModel.SourceLocation, _ needle: String,
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) {
            let expected = position(of: needle, in: everythingXML)
            #expect(location.line == expected.line, "\(needle)", sourceLocation: sourceLocation)
            #expect(location.column == expected.column, "\(needle)", sourceLocation: sourceLocation)
            #expect(location.file == "test/contents", sourceLocation: sourceLocation)
        }
        expectAt(person.location, "<entity name=\"Person\"")
        #expect(person.location.line == 3 && person.location.column == 5)
        expectAt(person.attributes[0].location, "<attribute name=\"i16\"")
        #expect(person.attributes[0].location.line == 4 && person.attributes[0].location.column == 9)
        expectAt(person.attributes.first { $0.name == "shout" }!.location, "<attribute name=\"shout\"")
        expectAt(person.relationships[0].location, "<relationship name=\"mentor\"")
        expectAt(person.relationships[3].location, "<relationship name=\"cache\"")
        expectAt(person.fetchedProperties[0].location, "<fetchedProperty")
        expectAt(
            person.fetchedProperties[0].fetchRequest!.location, "<fetchRequest name=\"fetchedPropertyFetchRequest\"")
        expectAt(person.userInfo[1].location, "<entry key=\"owner\"")
        expectAt(person.uniquenessConstraints[0].location, "<uniquenessConstraint>")
        #expect(person.uniquenessConstraints[1].location.line == person.uniquenessConstraints[0].location.line + 3)
        #expect(person.uniquenessConstraints[1].location.column == person.uniquenessConstraints[0].location.column)
        expectAt(person.fetchIndexes[0].elements[1].location, "<fetchIndexElement property=\"i64\"")
        expectAt(person.compoundIndexes[0].location, "<compoundIndex>")
        expectAt(model.entities[1].location, "<entity name=\"Employee\"")
        expectAt(model.entities[1].relationships[1].location, "<relationship name=\"cachedBy\"")
        expectAt(model.fetchRequests[0].location, "<fetchRequest name=\"Adults\"")
        expectAt(model.configurations[1].location, "<configuration name=\"Local\"")
        expectAt(model.composites[0].location, "<composite")
        expectAt(model.composites[0].attributes[1].location, "<attribute name=\"zip\"")
    }

    @Test func twoElementsOnTheSameLine() throws {
        let xml = modelXML(
            """
                <entity name="A" codeGenerationType="class"><attribute name="x" optional="YES" attributeType="String"/><attribute name="y" optional="YES" attributeType="String"/><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/></entity><entity name="B" codeGenerationType="class"><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/><fetchIndex name="i"><fetchIndexElement property="a" type="Binary" order="ascending"/></fetchIndex><userInfo><entry key="k" value="v"/><entry key="l" value="w"/></userInfo></entity>
            """)
        let (model, diagnostics) = try parse(xml)
        #expect(diagnostics.isEmpty)
        let a = try #require(model.entity(named: "A"))
        let b = try #require(model.entity(named: "B"))
        let nodes: [(DataModel.SourceLocation, String)] = [
            (a.location, "<entity name=\"A\""), (a.attributes[0].location, "<attribute name=\"x\""),
            (a.attributes[1].location, "<attribute name=\"y\""),
            (a.relationships[0].location, "<relationship name=\"b\""),
            (b.location, "<entity name=\"B\""), (b.relationships[0].location, "<relationship name=\"a\""),
            (b.fetchIndexes[0].location, "<fetchIndex "),
            (b.fetchIndexes[0].elements[0].location, "<fetchIndexElement"),
            (b.userInfo[0].location, "<entry key=\"k\""), (b.userInfo[1].location, "<entry key=\"l\""),
        ]
        for (location, needle) in nodes {
            let expected = position(of: needle, in: xml)
            #expect(location.line == 3, "\(needle)")
            #expect(location.column == expected.column, "\(needle)")
        }
        #expect(a.attributes[0].location.column < a.attributes[1].location.column)
        #expect(Validator().validate(model).isEmpty)
    }

    @Test func columnsCountBytes() throws {
        // "É" is two bytes in UTF-8; columns count bytes (as compilers do).
        let xml = modelXML(
            """
                <entity name="Caf\u{E9}"><attribute name="\u{E9}t\u{E9}" optional="YES" attributeType="String"/></entity>
            """)
        let (model, _) = try parse(xml)
        let entity = try #require(model.entities.first)
        #expect(entity.name == "Café")
        #expect(entity.location.column == 5)
        #expect(entity.attributes[0].location.column == position(of: "<attribute", in: xml).column)
        #expect(entity.attributes[0].location.column == 5 + "<entity name=\"Café\">".utf8.count)
    }

    @Test func fileLongerThan65535Lines() throws {
        let filler = String(repeating: "\n", count: 70_000)
        let xml =
            modelHeader + filler
                + """
                    <entity name="Far" representedClassName="Far" syncable="YES" codeGenerationType="class">
                        <attribute name="a" optional="YES" attributeType="String"/>   <attribute name="b" optional="YES" attributeType="String"/>
                    </entity>
                </model>

                """
        let (model, _) = try parse(xml)
        let entity = try #require(model.entities.first)
        #expect(entity.attributes.count == 2)
        // libxml2 keeps element lines in 16 bits: lines past 65,535 must not be capped.
        #expect(entity.location.line == 70_002)
        #expect(entity.location.column == 5)
        #expect(entity.attributes.map(\.location.line) == [70_003, 70_003])
        let first = "<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>   "
        #expect(entity.attributes.map(\.location.column) == [9, 9 + first.utf8.count])
    }

    @Test func errorsPastLine65535HaveTheirRealLine() {
        let xml = modelHeader + String(repeating: "\n", count: 70_000) + "</model>\n<model/>\n"
        let error = parseError(xml)
        #expect(error?.diagnostics.first?.ruleID == "xml-malformed")
        #expect(error?.diagnostics.first?.location.line == 70_003)
    }

    @Test func unknownElementsAndAttributesAreWarnings() throws {
        let xml = modelXML(
            """
                <entity name="Note" representedClassName="Note" codeGenerationType="class" isSwiftData="YES">
                    <attribute name="title" optional="YES" attributeType="String" futureFlag="1"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag" sparkle="YES"/>
                    <derivedAttribute name="count"/>
                    <attribute name="body" optional="YES" attributeType="String">
                        <validation rule="x"/>
                    </attribute>
                </entity>
                <entity name="Tag" representedClassName="Tag" codeGenerationType="class">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note">
                        <annotation/>
                    </relationship>
                    <userInfo>
                        <item key="a" value="b"/>
                    </userInfo>
                </entity>
                <fetchRequest name="All" entity="Note"><sortDescriptor key="title"/></fetchRequest>
                <configuration name="Main" color="red"><memberEntity name="Note" extra="1"/><member name="Tag"/></configuration>
                <schema version="2"/>
            """
        ).replacingOccurrences(of: "<model ", with: "<model futureModelFlag=\"YES\" ")
        let (model, diagnostics) = try parse(xml)
        #expect(model.entities.map(\.name) == ["Note", "Tag"])
        #expect(model.entities[0].attributes.map(\.name) == ["title", "body"])
        #expect(model.configurations.first?.memberEntities == ["Note"])
        #expect(!diagnostics.isEmpty)
        #expect(diagnostics.allSatisfy { $0.severity == .warning }, "\(diagnostics)")
        let found = diagnostics.map { "\($0.ruleID)@\($0.location.line):\($0.location.column)" }
        func expect(_ rule: String, _ needle: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let at = position(of: needle, in: xml)
            #expect(
                found.contains("\(rule)@\(at.line):\(at.column)"), "\(rule) at \(needle): \(found)",
                sourceLocation: sourceLocation)
        }
        expect("unknown-attribute", "<model ")
        expect("unknown-attribute", "<entity name=\"Note\"")
        expect("unknown-attribute", "<attribute name=\"title\"")
        expect("unknown-attribute", "<relationship name=\"tags\"")
        expect("unknown-element", "<derivedAttribute")
        expect("unknown-element", "<validation")
        expect("unknown-element", "<annotation")
        expect("unknown-element", "<item")
        expect("unknown-element", "<sortDescriptor")
        expect("unknown-attribute", "<configuration")
        expect("unknown-attribute", "<memberEntity")
        expect("unknown-element", "<member ")
        expect("unknown-element", "<schema")
        #expect(diagnostics.count == 13)
        #expect(diagnostics.first { $0.ruleID == "unknown-element" }?.message.contains("<derivedAttribute>") == true)
    }

    @Test(arguments: [
        ("MyApp.Person", "Person"), (".Person", "Person"), ("Person", "Person"), ("Company.Sub.Person", "Person"),
        ("Person.", "Entity"), ("", "Entity"), ("PersonMO", "PersonMO"),
    ])
    func classNameDropsModulePrefix(represented: String, className: String) throws {
        let xml = modelXML("    <entity name=\"Entity\" representedClassName=\"\(represented)\"/>")
        let (model, _) = try parse(xml)
        #expect(model.entities.first?.className == className)
        #expect(model.entities.first?.representedClassName == represented)
    }

    @Test func classNameWithoutRepresentedClassName() throws {
        let (model, _) = try parse(modelXML("    <entity name=\"Entity\"/>"))
        #expect(model.entities.first?.className == "Entity")
    }

    @Test func booleanSpellings() throws {
        let xml = modelXML(
            """
                <entity name="E">
                    <attribute name="a" optional="yes" transient="true" attributeType="String" indexed="1"/>
                    <attribute name="b" optional="NO" transient="no" attributeType="String" indexed="0"/>
                    <attribute name="c" optional="maybe" attributeType="String"/>
                </entity>
            """)
        let (model, diagnostics) = try parse(xml)
        let attributes = model.entities[0].attributes
        #expect(attributes[0].isOptional && attributes[0].isTransient && attributes[0].isIndexed)
        #expect(!attributes[1].isOptional && !attributes[1].isTransient && !attributes[1].isIndexed)
        #expect(!attributes[2].isOptional)
        #expect(diagnostics.map(\.ruleID) == ["invalid-attribute-value"])
        #expect(diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.location.line == 6)
    }

    @Test func parserErrorsAreReportedNotThrown() throws {
        let xml = modelXML(
            """
                <entity representedClassName="Nameless">
                    <attribute name="n" attributeType="Integer 128"/>
                    <relationship name="r" deletionRule="Explode" minCount="x" destinationEntity="Other"/>
                </entity>
            """)
        let (model, diagnostics) = try parse(xml)
        #expect(model.entities.count == 1)
        #expect(model.entities[0].name == "")
        #expect(model.entities[0].attributes[0].type == .undefined)
        #expect(model.entities[0].relationships[0].deletionRule == .nullify)
        let summary = diagnostics.map { "\($0.severity.rawValue) \($0.ruleID) \($0.location.line)" }
        #expect(
            summary == [
                "error missing-name 3", "error unknown-attribute-type 4", "error invalid-attribute-value 5",
                "error invalid-attribute-value 5",
            ])
    }

    @Test func wrongRootElement() {
        let error = parseError("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n")
        #expect(error?.kind == .invalidModel)
        #expect(error?.diagnostics.map(\.ruleID) == ["wrong-root"])
        #expect(error?.diagnostics.first?.location.line == 2)
        #expect(error?.diagnostics.first?.location.column == 1)
    }

    @Test func commentsAndProcessingInstructionsAreIgnored() throws {
        let xml = modelXML(
            """
                <!-- a comment with <entity name="Fake"/> inside -->
                <?generator name="x"?>
                <entity name="Real"/>
            """)
        let (model, diagnostics) = try parse(xml)
        #expect(model.entities.map(\.name) == ["Real"])
        #expect(diagnostics.isEmpty)
        #expect(model.entities[0].location.line == 5)
    }

    @Test func entityLookupIsStableAfterMutation() throws {
        var (model, _) = try parse(everythingXML)
        model.entities.removeFirst()
        #expect(model.entity(named: "Person") == nil)
        #expect(model.entity(named: "Plain")?.name == "Plain")
        let data = try JSONEncoder().encode(model)
        let decoded = try JSONDecoder().decode(ObjectModel.self, from: data)
        #expect(decoded == model)
        #expect(decoded.entity(named: "Employee")?.parentEntity == "Person")
    }

    @Test func multiLineStartTagIsLocatedAtItsFirstLine() throws {
        let xml = modelXML(
            """
                <entity name="Note"
                        representedClassName="Note"
                        codeGenerationType="class">
                    <attribute
                        name="title" optional="YES" attributeType="String"/>
                </entity>
            """)
        let (model, _) = try parse(xml)
        let entity = try #require(model.entities.first)
        // libxml2 reports the line where a start tag ENDS; the location must be the tag's `<`.
        #expect(entity.location.line == 3)
        #expect(entity.location.column == 5)
        #expect(entity.attributes[0].location.line == 6)
        #expect(entity.attributes[0].location.column == 9)
    }
}

/// The XML spelling of every known name is spelled out next to its case; it must be the case's name.
@Suite struct XMLNameTests {
    @Test func everyCaseIsSpelledAsItsName() {
        #expect(XMLName.strings.count == XMLName.allCases.count)
        for name in XMLName.allCases {
            #expect(name.xmlString == "\(name)")
            #expect(XMLName.byString[name.xmlString] == name)
        }
    }
}
