import Foundation
import Testing

@testable import DataModel

/// Paths of the fixtures next to this file (they are excluded from the target's sources and read from disk).
enum Fixtures {
    /// `Tests/DataModelTests/Fixtures`.
    static let root: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    /// `Tests/DataModelTests/Fixtures/Valid/<name>`.
    static func valid(_ name: String) -> String { root + "/Valid/" + name }

    /// `Tests/DataModelTests/Fixtures/Invalid/<name>`.
    static func invalid(_ name: String) -> String { root + "/Invalid/" + name }

    /// The repository root (three levels up from this file).
    static let repositoryRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()
}

/// The root element attributes of a model saved by Xcode 15.
let modelHeader = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    """

/// A model document: the header, `body` (indented by the caller) and `</model>`.
func modelXML(_ body: String) -> String {
    modelHeader + "\n" + body + "\n</model>\n"
}

/// Parses model XML text, failing the test with the diagnostics when it throws.
func parse(
    _ xml: String, file: String = "test/contents", sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (model: ObjectModel, diagnostics: [Diagnostic]) {
    do {
        return try ModelParser.parse(Data(xml.utf8), file: file, modelName: "Test", versionName: "Test")
    } catch {
        Issue.record("parse failed: \(error.description)", sourceLocation: sourceLocation)
        throw error
    }
}

/// Parses and validates; returns parser and validator diagnostics together.
func diagnose(_ xml: String) throws -> [Diagnostic] {
    let (model, diagnostics) = try parse(xml)
    return diagnostics + Validator().validate(model)
}

/// The error thrown by parsing `xml`, or nil when it parses.
func parseError(_ xml: String, limits: XMLParsingLimits = .default) -> ModelLoadingError? {
    parseError(Data(xml.utf8), limits: limits)
}

/// The error thrown by parsing `data`, or nil when it parses.
func parseError(_ data: Data, limits: XMLParsingLimits = .default) -> ModelLoadingError? {
    do {
        _ = try ModelParser.parse(data, file: "test/contents", modelName: "Test", versionName: "Test", limits: limits)
        return nil
    } catch {
        return error
    }
}

/// The 1-based line and byte column of the first occurrence of `needle` in `text`.
func position(of needle: String, in text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (
    line: Int, column: Int
) {
    let bytes = Array(text.utf8)
    let pattern = Array(needle.utf8)
    guard pattern.count <= bytes.count else {
        Issue.record("'\(needle)' not found", sourceLocation: sourceLocation)
        return (0, 0)
    }
    var line = 1
    var lineStart = 0
    for offset in 0...(bytes.count - pattern.count) {
        if Array(bytes[offset..<offset + pattern.count]) == pattern {
            return (line, offset - lineStart + 1)
        }
        if bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
    }
    Issue.record("'\(needle)' not found", sourceLocation: sourceLocation)
    return (0, 0)
}

/// A fresh temporary directory, removed by `cleanup()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("DataModelTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` at `relativePath`, creating directories.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        try write(relativePath, Data(text.utf8))
    }

    /// Writes `data` at `relativePath`, creating directories.
    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Creates an empty directory at `relativePath`.
    @discardableResult
    func directory(_ relativePath: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    func cleanup() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// An `.xccurrentversion` property list naming `version`.
func currentVersionPlist(_ version: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>_XCCurrentVersionName</key>
    \t<string>\(version)</string>
    </dict>
    </plist>

    """
}

/// A small, clean model whose version identifier is `identifier` (so tests can tell versions apart).
func versionContents(_ identifier: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="\(identifier)">
        <entity name="Note" representedClassName="Note" syncable="YES" codeGenerationType="class">
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
    </model>

    """
}
