import Foundation
import Testing

@testable import DataModel

@Suite("XML parsing: malformed and hostile input")
struct XMLSecurityTests {
    private let note = """
            <entity name="Note" representedClassName="Note" syncable="YES" codeGenerationType="class">
                <attribute name="title" optional="YES" attributeType="String" defaultValueString="&e;"/>
            </entity>
        """

    @Test func emptyData() {
        let error = parseError(Data())
        #expect(error?.kind == .invalidModel)
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-empty"])
        #expect(
            error?.diagnostics.first?.location == DataModel.SourceLocation(file: "test/contents", line: 1, column: 1))
    }

    @Test func whitespaceOnly() {
        let error = parseError("  \n\t\n")
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-malformed"])
        #expect(error?.diagnostics.first?.severity == .error)
    }

    @Test(arguments: [
        "<model><entity name=\"A\"></model>", "<model>", "<model", "<model></entity></model>",
        "<model/><model/>", "<model/>garbage", "<model a=\"1\" a=\"2\"/>", "<model a=1/>", "<<model/>",
        "<?xml version=\"1.0\"?>", "<model>&undefined;</model>", "<model name=\"&#0;\"/>",
    ])
    func malformedDocuments(xml: String) {
        let error = parseError(xml)
        #expect(error?.kind == .invalidModel)
        #expect(error?.diagnostics.count == 1)
        #expect(error?.diagnostics.first.map { $0.ruleID.hasPrefix("xml-") } == true)
        #expect(error?.diagnostics.first?.location.line ?? 0 >= 1)
        #expect(error?.diagnostics.first?.message.contains("\n") == false)
    }

    @Test func doctypeIsRefusedBeforeParsing() {
        let xml = "<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE model [<!ENTITY e \"x\">]>\n<model/>\n"
        let error = parseError(xml)
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-doctype"])
        #expect(
            error?.diagnostics.first?.location == DataModel.SourceLocation(file: "test/contents", line: 3, column: 1))
    }

    @Test func doctypeAfterByteOrderMark() {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("<!DOCTYPE model SYSTEM \"file:///etc/passwd\">\n<model/>".utf8))
        #expect(parseError(data)?.diagnostics.map(\.ruleID) == ["xml-doctype"])
    }

    @Test func billionLaughsIsRefusedQuickly() {
        var doctype = "<!DOCTYPE model [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        doctype += "]>\n"
        let xml =
            "<?xml version=\"1.0\"?>\n" + doctype
            + modelXML(note.replacingOccurrences(of: "&e;", with: "&lol9;"))
            .replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n", with: "")
        let clock = ContinuousClock()
        var error: ModelLoadingError?
        let elapsed = clock.measure { error = parseError(xml) }
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-doctype"])
        #expect(elapsed < .seconds(15), "a hang guard, not a speed target")
    }

    @Test func deepNestingIsRefusedQuickly() {
        let xml =
            "<model>" + String(repeating: "<e>", count: 10_000) + String(repeating: "</e>", count: 10_000) + "</model>"
        let clock = ContinuousClock()
        var error: ModelLoadingError?
        let elapsed = clock.measure { error = parseError(xml) }
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-too-deep"])
        #expect(elapsed < .seconds(15), "a hang guard, not a speed target")
    }

    @Test func parserDepthLimit() {
        func nested(_ depth: Int) -> String {
            "<model>" + String(repeating: "<e>", count: depth - 1) + String(repeating: "</e>", count: depth - 1)
                + "</model>"
        }
        let limits = XMLParsingLimits(maximumBytes: 1 << 20, maximumDepth: 5)
        #expect(parseError(nested(5), limits: limits) == nil)
        let error = parseError(nested(6), limits: limits)
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-too-deep"])
        #expect(error?.diagnostics.first?.location.column == 1 + 7 + 4 * 3, "the sixth element")
    }

    @Test func sizeLimit() {
        let limits = XMLParsingLimits(maximumBytes: 64, maximumDepth: 64)
        let error = parseError(modelXML(note), limits: limits)
        #expect(error?.diagnostics.map(\.ruleID) == ["file-too-large"])
        #expect(error?.kind == .invalidModel)
        #expect(XMLParsingLimits.default.maximumDepth == 64)
    }

    @Test func invalidUTF8() {
        var data = Data(modelXML(note.replacingOccurrences(of: "&e;", with: "caf")).utf8)
        let range = data.range(of: Data("\"caf\"".utf8))!
        data[range.upperBound - 2] = 0xE9
        let error = parseError(data)
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-encoding"])
        #expect(error?.diagnostics.first?.location.line == 4)
        #expect(error?.diagnostics.first?.message.contains("\n") == false, "one diagnostic, one line")
    }

    @Test func externalEntitiesAreNeverRead() throws {
        // Whatever the encoding, a SYSTEM entity must never be substituted with a file's contents.
        let secret = try TemporaryDirectory()
        defer { secret.cleanup() }
        let path = try secret.write("secret.txt", "TOP-SECRET")
        let body = modelXML(note).replacingOccurrences(
            of: "<model ", with: "<!DOCTYPE model [<!ENTITY e SYSTEM \"file://\(path)\">]>\n<model ")
        for data in [Data(body.utf8), body.data(using: .utf16LittleEndian)!, body.data(using: .utf16BigEndian)!] {
            switch Result(catching: { () throws(ModelLoadingError) in
                try ModelParser.parse(data, file: "x", modelName: "M", versionName: "V")
            }) {
            case .success(let (model, _)):
                let value = model.entities.first?.attributes.first?.defaultValueString ?? ""
                #expect(!value.contains("TOP-SECRET"))
            case .failure(let error):
                #expect(error.diagnostics.containsErrors)
            }
        }
    }

    @Test func utf16DoctypeIsRefused() {
        // A byte-level prolog scanner misses "<\0!\0D\0..." in UTF-16 without a byte-order mark.
        let xml = modelXML(note).replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
            .replacingOccurrences(of: "<model ", with: "<!DOCTYPE model [<!ENTITY e \"expanded\">]>\n<model ")
        for data in [xml.data(using: .utf16LittleEndian)!, xml.data(using: .utf16BigEndian)!] {
            let error = parseError(data)
            #expect(error?.diagnostics.map(\.ruleID) == ["xml-doctype"])

        }
    }

    @Test func utf16WithoutDoctypeParses() throws {
        let xml = modelXML(note.replacingOccurrences(of: "&e;", with: "x"))
            .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        var data = Data([0xFF, 0xFE])
        data.append(xml.data(using: .utf16LittleEndian)!)
        let (model, diagnostics) = try ModelParser.parse(data, file: "x", modelName: "M", versionName: "V")
        #expect(diagnostics.isEmpty)
        #expect(model.entities.first?.attributes.first?.defaultValueString == "x")
        #expect(model.entities.first?.location.line == 3)
    }

    @Test func firstErrorIsReported() {
        // `<attribute …>` is never closed: libxml2's first error is the mismatched </entity> (line 5);
        // later ones (line 6, end of file) are consequences.
        let xml = modelXML(note.replacingOccurrences(of: "\"&e;\"/>", with: "\"x\">"))
        let error = parseError(xml)
        #expect(error?.diagnostics.map(\.ruleID) == ["xml-malformed"])
        #expect(error?.diagnostics.first?.location.line == 5)

    }

    @Test func prologScanner() {
        func scan(_ text: String) -> Int? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { PrologScanner.doctypeOffset($0) }
        }
        #expect(scan("<model/>") == nil)
        #expect(scan("") == nil)
        #expect(scan("<?xml version=\"1.0\"?>\n<!DOCTYPE x>") == 22)
        #expect(scan("<!-- <!DOCTYPE x> -->\n<model/>") == nil)
        #expect(scan("<!-- a -->  <!DOCTYPE x>") == 12)
        #expect(scan("<model/><!DOCTYPE x>") == nil, "after the root it is malformed XML, not a prolog DOCTYPE")
        #expect(scan("<!-- unterminated") == nil)
        #expect(scan("<!ENTITY x \"y\">") == 0)
    }
}
