import DataModelTemplates
import Foundation
import Testing

/// The templates compiled into the binary (`Sources/DataModelTemplates/EmbeddedTemplates.swift`) are exactly the files in
/// `Templates/`: every `.mustache` file, byte for byte, and no other.
@Suite struct EmbeddedTemplatesTests {
    static let directory = TestPaths.repoRoot.appendingPathComponent("Templates")
    static let regenerate = "the embedded templates are stale: run Scripts/embed-templates.sh"

    @Test func embeddedTextEqualsTheTemplateFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix("." + DefaultTemplates.fileExtension) }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let name = String(file.dropLast(DefaultTemplates.fileExtension.count + 1))
            let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
            #expect(DefaultTemplates.source(named: name) == text, "\(file): \(Self.regenerate)")
        }
        let names = files.map { String($0.dropLast(DefaultTemplates.fileExtension.count + 1)) }
        #expect(DefaultTemplates.names.sorted() == names, "DefaultTemplates.names lists every template file")
        for name in DefaultTemplates.names where !names.contains(name) {
            #expect(DefaultTemplates.source(named: name) == nil, "\(name) has no file: \(Self.regenerate)")
        }
    }
}
