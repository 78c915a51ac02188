import Foundation

/// A synthetic Xcode data model of any size, for the generator cases: the same bytes for the same entity
/// count on every machine, so runs compare.
///
/// Each entity has 15 attributes of mixed types (every attribute type, defaults, min/max, scalar and
/// object values) and three relationships with inverses: a to-one owner with a cascading to-many
/// inverse, an ordered to-many, and a many-to-many. Every tenth entity is abstract with two
/// sub-entities; codegen modes rotate through `class`, `category` and Manual/None.
struct SyntheticModel {
    /// The number of top-level entities (sub-entities come on top).
    let entityCount: Int

    /// Attribute types with the XML attributes that go with them.
    private static let attributes: [(type: String, extra: String)] = [
        ("Integer 16", #"usesScalarValueType="YES""#),
        ("Integer 32", #"usesScalarValueType="YES""#),
        ("Integer 64", #"usesScalarValueType="NO""#),
        ("Decimal", ""),
        ("Double", #"defaultValueString="0.0" usesScalarValueType="YES""#),
        ("Float", #"usesScalarValueType="NO""#),
        ("String", ""),
        ("Boolean", #"defaultValueString="NO" usesScalarValueType="YES""#),
        ("Date", ""),
        ("Binary", #"allowsExternalBinaryDataStorage="YES""#),
        ("UUID", ""),
        ("URI", ""),
        ("Transformable", #"valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]""#),
        ("String", #"minValueString="1" maxValueString="64""#),
        ("Integer 32", #"defaultValueString="7" usesScalarValueType="YES""#),
    ]
    /// Types that are always optional (Core Data has no sensible default for them).
    private static let alwaysOptional: Set<String> = ["Binary", "Transformable", "UUID", "URI", "Date", "Decimal"]
    private static let codegen = [#" codeGenerationType="class""#, #" codeGenerationType="category""#, ""]

    private struct Relationship: Comparable {
        var name: String
        var destination: Int
        var inverse: String
        var toMany: Bool
        var ordered: Bool
        var rule: String

        static func < (lhs: Relationship, rhs: Relationship) -> Bool { lhs.name < rhs.name }
    }

    private static func entityName(_ index: Int) -> String {
        let digits = String(index)
        return "Entity" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    /// The model's `contents` XML.
    func contents() -> String {
        var random = SplitMix64(seed: UInt64(entityCount))
        var relationships = [[Relationship]](repeating: [], count: entityCount)
        func pair(
            _ a: Int, _ b: Int, _ nameA: String, _ nameB: String, many: (Bool, Bool), ordered: Bool, ruleB: String
        ) {
            relationships[a].append(
                Relationship(
                    name: nameA, destination: b, inverse: nameB, toMany: many.0, ordered: ordered, rule: "Nullify"))
            relationships[b].append(
                Relationship(name: nameB, destination: a, inverse: nameA, toMany: many.1, ordered: false, rule: ruleB))
        }
        for index in 0..<entityCount {
            pair(
                index, (index + 1) % entityCount, "owner\(index)", "owned\(index)", many: (false, true), ordered: false,
                ruleB: "Cascade")
            pair(
                index, random.below(entityCount), "items\(index)", "container\(index)", many: (true, false),
                ordered: true, ruleB: "Nullify")
            pair(
                index, random.below(entityCount), "peers\(index)", "peerOf\(index)", many: (true, true), ordered: false,
                ruleB: "Nullify")
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" \
            systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        xml.reserveCapacity(entityCount * 2_600)
        for index in 0..<entityCount {
            let name = Self.entityName(index)
            let codegen = Self.codegen[index % 3]
            let abstract = index % 10 == 0
            xml += #"    <entity name="\#(name)" representedClassName="\#(name)""#
            xml += abstract ? #" isAbstract="YES" syncable="YES""# : #" syncable="YES""#
            xml += codegen + ">\n"
            for (number, attribute) in Self.attributes.enumerated() {
                let optional = number % 4 != 0 || Self.alwaysOptional.contains(attribute.type)
                xml += #"        <attribute name="attr\#(number)""#
                xml += optional ? #" optional="YES""# : ""
                xml += #" attributeType="\#(attribute.type)""#
                xml += attribute.extra.isEmpty ? "/>\n" : " \(attribute.extra)/>\n"
            }
            for relationship in relationships[index].sorted() {
                let destination = Self.entityName(relationship.destination)
                xml += #"        <relationship name="\#(relationship.name)" optional="YES""#
                xml += relationship.toMany ? #" toMany="YES""# : ""
                xml += relationship.ordered ? #" ordered="YES""# : ""
                xml += #" deletionRule="\#(relationship.rule)" destinationEntity="\#(destination)""#
                xml += #" inverseName="\#(relationship.inverse)" inverseEntity="\#(destination)"/>"# + "\n"
            }
            xml += "    </entity>\n"
            guard abstract else { continue }
            for child in 1...2 {
                let childName = "\(name)Child\(child)"
                xml += #"    <entity name="\#(childName)" representedClassName="\#(childName)" parentEntity="\#(name)""#
                xml += #" syncable="YES""# + codegen + ">\n"
                xml += #"        <attribute name="childAttr\#(child)" optional="YES" attributeType="String"/>"# + "\n"
                xml += "    </entity>\n"
            }
        }
        xml += "</model>\n"
        return xml
    }

    /// Writes the model as a bundle (`<Name>.xcdatamodeld` with one version and `.xccurrentversion`) and returns
    /// the path of its `contents` file.
    @discardableResult
    func writeBundle(at bundle: URL) throws -> String {
        let base = bundle.deletingPathExtension().lastPathComponent
        let version = bundle.appendingPathComponent("\(base).xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let file = version.appendingPathComponent("contents")
        try Data(contents().utf8).write(to: file)
        let currentVersion = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(base).xcdatamodel</string>
            </dict>
            </plist>

            """
        try Data(currentVersion.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return file.path
    }
}

/// SplitMix64: a small seeded generator, the same numbers on every platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
