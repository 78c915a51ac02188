import DataModelNaming
import Foundation
import Testing

@testable import DataModel

@Suite("Loader")
struct LoaderTests {
    /// A bundle `Model.xcdatamodeld` with versions `Model`, `Model 2`, `Model 9`, `Model 10` (written out of order)
    /// and, when given, `.xccurrentversion` with `current` as its bytes.
    private func makeBundle(in directory: TemporaryDirectory, current: String? = nil) throws -> String {
        let bundle = try directory.directory("Model.xcdatamodeld")
        for version in ["Model 10", "Model 2", "Model", "Model 9"] {
            try directory.write("Model.xcdatamodeld/\(version).xcdatamodel/contents", versionContents(version))
        }
        if let current { try directory.write("Model.xcdatamodeld/.xccurrentversion", current) }
        return bundle
    }

    private func load(_ path: String, version: String? = nil) throws -> LoadedModel {
        do {
            return try ModelLoader.load(path: path, versionName: version)
        } catch {
            Issue.record("load failed: \(error.description)")
            throw error
        }
    }

    private func loadError(_ path: String, version: String? = nil) -> ModelLoadingError? {
        do {
            _ = try ModelLoader.load(path: path, versionName: version)
            return nil
        } catch {
            return error
        }
    }

    @Test func currentVersionFileChoosesTheVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: currentVersionPlist("Model 2.xcdatamodel"))
        let loaded = try load(bundle)
        #expect(loaded.model.name == "Model")
        #expect(loaded.model.versionName == "Model 2")
        #expect(loaded.model.metadata["userDefinedModelVersionIdentifier"] == "Model 2")
        #expect(loaded.diagnostics.isEmpty)
        #expect(loaded.availableVersions == ["Model", "Model 2", "Model 9", "Model 10"])
        #expect(loaded.contentsPath == bundle + "/Model 2.xcdatamodel/contents")
        #expect(loaded.inputPath == bundle)
        #expect(loaded.inputFiles == [bundle + "/Model 2.xcdatamodel/contents", bundle + "/.xccurrentversion"])
    }

    @Test func currentVersionWithoutExtension() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: currentVersionPlist("Model 9"))
        #expect(try load(bundle).model.versionName == "Model 9")
    }

    @Test(arguments: [
        ("missing", nil as String?, "no .xccurrentversion"),
        ("empty file", "", "names no version"),
        ("whitespace", " \n", "names no version"),
        ("empty dict", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n", "names no version"),
        ("empty name", currentVersionPlist(""), "names no version"),
        ("malformed", "<plist><dict><key>_XCCurrentVersionName</key>", "not a property list"),
        (
            "not a dictionary", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><string>Model 2</string></plist>\n",
            "not a property list"
        ),
        ("missing version", currentVersionPlist("Model 11.xcdatamodel"), "names 'Model 11', which does not exist"),
        (
            "nested 60,000 deep",
            "<plist><dict><key>a</key>" + String(repeating: "<array>", count: 60_000)
                + String(repeating: "</array>", count: 60_000) + "</dict></plist>", "not a property list"
        ),
    ])
    func newestVersionWithWarning(label: String, current: String?, reason: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: current)
        let loaded = try load(bundle)
        #expect(loaded.model.versionName == "Model 10", "natural order: Model 10 is after Model 9 and Model 2")
        let warnings = loaded.diagnostics.filter { $0.ruleID == "current-version" }
        #expect(!warnings.isEmpty)
        #expect(loaded.diagnostics.allSatisfy { $0.severity == .warning && $0.ruleID == "current-version" })
        #expect(warnings.contains { $0.message.contains(reason) }, "\(warnings.map(\.message))")
        #expect(warnings.contains { $0.message.contains("'Model 10'") })
        let expectedFile = current == nil ? bundle : bundle + "/.xccurrentversion"
        #expect(warnings.allSatisfy { $0.location.file == expectedFile })
        #expect(loaded.inputFiles.contains(bundle + "/.xccurrentversion") == (current != nil))
    }

    @Test func onlyVersionWithoutCurrentVersionFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        try directory.write("Solo.xcdatamodeld/Solo.xcdatamodel/contents", versionContents("1"))
        let loaded = try load(directory.path + "/Solo.xcdatamodeld")
        #expect(loaded.model.versionName == "Solo")
        #expect(loaded.diagnostics.map(\.ruleID) == ["current-version"])
        #expect(loaded.diagnostics.first?.message.contains("its only version") == true)
        #expect(loaded.diagnostics.first?.location.line == 0)
    }

    @Test func versionNamePinsAVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: currentVersionPlist("Model 2.xcdatamodel"))
        #expect(try load(bundle, version: "Model 9").model.versionName == "Model 9")
        #expect(try load(bundle, version: "Model.xcdatamodel").model.versionName == "Model")
        #expect(try load(bundle, version: "Model 9").diagnostics.isEmpty)
        let bundleWithoutCurrent = try makeBundle(in: try TemporaryDirectory())
        defer {
            try? FileManager.default.removeItem(atPath: (bundleWithoutCurrent as NSString).deletingLastPathComponent)
        }
        let pinned = try load(bundleWithoutCurrent, version: "Model 2")
        #expect(pinned.model.versionName == "Model 2")
        #expect(pinned.diagnostics.isEmpty, "a pinned version needs no .xccurrentversion")
    }

    @Test func unknownVersionName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory)
        let error = loadError(bundle, version: "Model 3")
        #expect(error?.kind == .invalidModel)
        #expect(error?.diagnostics.map(\.ruleID) == ["unknown-model-version"])
        #expect(error?.diagnostics.first?.message.contains("Model, Model 2, Model 9, Model 10") == true)
        #expect(error?.diagnostics.first?.location == DataModel.SourceLocation(file: bundle))
    }

    /// A bundle that lost its `.xcdatamodeld` (copied or renamed) is read as a version without `contents`: the error
    /// says what it looks like and the name that would load it.
    @Test func bundleWithoutItsExtensionIsNamedAsOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory)
        let renamed = directory.path + "/Model copy"
        try FileManager.default.moveItem(atPath: bundle, toPath: renamed)
        let message = loadError(renamed)?.diagnostics.first?.message ?? ""
        #expect(loadError(renamed)?.diagnostics.first?.ruleID == "missing-contents")
        #expect(
            message.hasSuffix(
                "it holds versions 'Model.xcdatamodel' and 3 more, so it looks like a model bundle: name it "
                    + "'Model copy.xcdatamodeld'"), "\(message)")
        let empty = try directory.directory("Empty")
        #expect(loadError(empty)?.diagnostics.first?.message.contains("looks like a model bundle") == false)
    }

    @Test func bareVersionDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let path = try directory.directory("Notes.xcdatamodel")
        try directory.write("Notes.xcdatamodel/contents", versionContents("1"))
        for input in [path, path + "/"] {
            let loaded = try load(input)
            #expect(loaded.model.name == "Notes")
            #expect(loaded.model.versionName == "Notes")
            #expect(loaded.availableVersions == ["Notes"])
            #expect(loaded.diagnostics.isEmpty)
            #expect(loaded.contentsPath == path + "/contents")
            #expect(loaded.inputFiles == [path + "/contents"])
        }
        #expect(
            loadError(path, version: "Anything")?.diagnostics.first?.ruleID == "unknown-model-version",
            "a bare version has no versions to choose from")
    }

    @Test func bareContentsFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let inBundle = try directory.write("Shop.xcdatamodeld/Shop 3.xcdatamodel/contents", versionContents("3"))
        let loaded = try load(inBundle)
        #expect(loaded.model.name == "Shop")
        #expect(loaded.model.versionName == "Shop 3")
        #expect(loaded.contentsPath == inBundle)
        #expect(loaded.inputFiles == [inBundle])
        #expect(loaded.diagnostics.isEmpty)

        let inVersion = try directory.write("Loose.xcdatamodel/contents", versionContents("1"))
        #expect(try load(inVersion).model.name == "Loose")
        #expect(try load(inVersion).model.versionName == "Loose")

        let plain = try directory.write("exported/contents", versionContents("1"))
        let plainModel = try load(plain).model
        #expect(plainModel.versionName == "contents")
        #expect(plainModel.entities.map(\.name) == ["Note"])
    }

    @Test func bundlePathWithTrailingSlash() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: currentVersionPlist("Model 2.xcdatamodel"))
        let loaded = try load(bundle + "/")
        #expect(loaded.model.versionName == "Model 2")
        #expect(loaded.model.name == "Model")
        #expect(loaded.inputPath == bundle + "/")
        #expect(ModelDumper.relativeContentsPath(loaded) == "Model 2.xcdatamodel/contents")
    }

    @Test func loadAllVersions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: currentVersionPlist("Model 2.xcdatamodel"))
        let all = try ModelLoader.loadAllVersions(path: bundle)
        #expect(all.map(\.model.versionName) == ["Model", "Model 2", "Model 9", "Model 10"])
        #expect(
            all.map { $0.model.metadata["userDefinedModelVersionIdentifier"] } == [
                "Model", "Model 2", "Model 9", "Model 10",
            ])
        #expect(all.allSatisfy { $0.model.name == "Model" && $0.diagnostics.isEmpty })

        try directory.write("Single.xcdatamodel/contents", versionContents("1"))
        let single = try ModelLoader.loadAllVersions(path: directory.path + "/Single.xcdatamodel")
        #expect(single.map(\.model.versionName) == ["Single"])
    }

    @Test func loadAllVersionsFailsOnABrokenVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory, current: currentVersionPlist("Model 2.xcdatamodel"))
        try directory.write("Model.xcdatamodeld/Model 9.xcdatamodel/contents", "<model>")
        #expect(throws: ModelLoadingError.self) { try ModelLoader.loadAllVersions(path: bundle) }
    }

    @Test func versionDirectoriesIgnoreOtherEntries() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory)
        try directory.write("Model.xcdatamodeld/README.md", "notes")
        try directory.directory("Model.xcdatamodeld/Backup.xcdatamodel.orig")
        #expect(ModelLoader.versionDirectories(in: bundle) == ["Model", "Model 2", "Model 9", "Model 10"])
        #expect(ModelLoader.versionDirectories(in: directory.path + "/nothing-here").isEmpty)
    }

    @Test func naturalOrder() {
        let names = ["Model 10", "Model 2", "Model", "Model 9", "Model 1.5", "Model 100", "Model v2", "Model 02"]
        #expect(
            names.sorted(by: ModelNaming.naturalOrder)
                == ["Model", "Model 1.5", "Model 02", "Model 2", "Model 9", "Model 10", "Model 100", "Model v2"])
        #expect(ModelNaming.naturalOrder("App 9", "App 10"))
        #expect(!ModelNaming.naturalOrder("App 10", "App 9"))
        #expect(!ModelNaming.naturalOrder("Same", "Same"))
        #expect(ModelNaming.naturalOrder("v2.9", "v2.10"))
    }

    @Test func bundleWithoutVersions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try directory.directory("Empty.xcdatamodeld")
        let error = loadError(bundle)
        #expect(error?.kind == .invalidModel)
        #expect(error?.diagnostics.map(\.ruleID) == ["no-model-version"])
        #expect(error?.diagnostics.first?.location == DataModel.SourceLocation(file: bundle))
    }

    @Test func versionWithoutContents() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let version = try directory.directory("Hollow.xcdatamodel")
        #expect(loadError(version)?.diagnostics.map(\.ruleID) == ["missing-contents"])
        try directory.directory("Hollow.xcdatamodeld/Hollow.xcdatamodel")
        #expect(
            loadError(directory.path + "/Hollow.xcdatamodeld")?.diagnostics.map(\.ruleID).last == "missing-contents")
    }

    @Test func legacyBinaryFormat() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        try directory.write("Old.xcdatamodel/elements", Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]))
        try directory.write("Old.xcdatamodel/layout", Data([0x62, 0x70]))
        let error = loadError(directory.path + "/Old.xcdatamodel")
        #expect(error?.diagnostics.map(\.ruleID) == ["legacy-binary-format"])
        #expect(error?.kind == .invalidModel)
        // The oldest bundles have the legacy files directly inside the .xcdatamodeld.
        try directory.write("Older.xcdatamodeld/elements", Data([0x62]))
        #expect(
            loadError(directory.path + "/Older.xcdatamodeld")?.diagnostics.map(\.ruleID) == ["legacy-binary-format"])
    }

    @Test func missingPathIsAnIOError() {
        let error = loadError("/nonexistent/\(UUID().uuidString)/Model.xcdatamodeld")
        #expect(error?.kind == .io)
        #expect(error?.diagnostics.map(\.ruleID) == ["io-error"])
        #expect(error?.diagnostics.first?.location.line == 0)
    }

    @Test func parseErrorsKeepLoaderWarnings() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        try directory.write("Bad.xcdatamodeld/Bad.xcdatamodel/contents", "<model><entity></model>")
        let error = loadError(directory.path + "/Bad.xcdatamodeld")
        #expect(error?.diagnostics.map(\.ruleID) == ["current-version", "xml-malformed"])
        #expect(error?.diagnostics.last?.location.file == directory.path + "/Bad.xcdatamodeld/Bad.xcdatamodel/contents")
    }

    @Test func fileSizeLimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let path = try directory.write("Big.xcdatamodel/contents", versionContents("1"))
        do {
            _ = try ModelLoader.load(path: path, limits: XMLParsingLimits(maximumBytes: 100, maximumDepth: 64))
            Issue.record("expected file-too-large")
        } catch {
            #expect(error.diagnostics.map(\.ruleID) == ["file-too-large"])
            #expect(error.kind == .invalidModel)
        }
    }

    @Test func validFixtureBundle() throws {
        let path = Fixtures.valid("Library.xcdatamodeld")
        let loaded = try load(path)
        #expect(loaded.model.versionName == "Library 2")
        #expect(loaded.availableVersions == ["Library", "Library 2"])
        #expect(loaded.diagnostics.isEmpty)
        #expect(Validator().validate(loaded.model).isEmpty)
        #expect(loaded.model.entities.map(\.name) == ["Author", "Book", "Chapter", "Ebook"])
    }

    // MARK: Files that are not regular files (found by Scripts/fuzz-models.py)

    @Test func contentsThatIsAFIFOIsAnIOErrorNotAHang() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let version = try directory.directory("Pipe.xcdatamodel")
        #expect(mkfifo(version + "/contents", 0o644) == 0)
        let error = try #require(loadError(version))
        #expect(error.kind == .io)
        #expect(error.diagnostics.map(\.ruleID) == ["io-error"])
        #expect(error.diagnostics.first?.message.contains("FIFO") == true)
    }

    @Test func currentVersionFileThatIsAFIFOIsIgnoredWithAWarning() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bundle = try makeBundle(in: directory)
        #expect(mkfifo(bundle + "/.xccurrentversion", 0o644) == 0)
        let loaded = try load(bundle)
        #expect(loaded.model.versionName == "Model 10")
        #expect(loaded.diagnostics.contains { $0.ruleID == "current-version" && $0.message.contains("FIFO") })
    }

    @Test func readingStopsAtTheLimit() throws {
        #expect(FileReading.read("/dev/zero", limit: 10) == .failure(.notRegularFile(kind: "a character device")))
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let file = try directory.write("big", String(repeating: "x", count: 100))
        #expect(FileReading.read(file, limit: 10) == .failure(.tooLarge(size: 100)))
        #expect(FileReading.read(file, limit: 100) == .success(Data(repeating: 0x78, count: 100)))
    }

    /// Large files are mapped rather than read; the bytes are the same, and the limit still holds.
    @Test func largeFilesReadWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanup() }
        let bytes = Data((0..<(3 << 18)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try directory.write("large", bytes)
        #expect(FileReading.read(file, limit: 1 << 30) == .success(bytes))
        #expect(FileReading.read(file, limit: bytes.count - 1) == .failure(.tooLarge(size: bytes.count)))
        #expect(FileReading.read(file, limit: bytes.count) == .success(bytes))
    }
}

/// `.xccurrentversion` as Xcode writes it is read without the property-list parser; anything else falls back
/// to it (and the loader's tests above check the outcome of both).
@Suite struct CurrentVersionFileTests {
    private static let xcode = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>Model 2.xcdatamodel</string>
        </dict>
        </plist>

        """

    @Test func readsXcodesFileDirectly() {
        #expect(CurrentVersionFile.plainName(in: Data(Self.xcode.utf8)) == "Model 2.xcdatamodel")
        let crlf = Self.xcode.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(CurrentVersionFile.plainName(in: Data(crlf.utf8)) == "Model 2.xcdatamodel")
        let bare = "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>é 3</string></dict></plist>"
        #expect(CurrentVersionFile.plainName(in: Data(bare.utf8)) == "é 3")
    }

    @Test(arguments: [
        ("entity", "<string>A &amp; B</string>"),
        ("empty", "<string></string>"),
        ("comment", "<!-- x --><string>Model</string>"),
        ("other key", "<string>Model</string><key>Other</key><string>x</string>"),
        ("not a string", "<integer>2</integer>"),
    ])
    func leavesAnythingElseToTheParser(label: String, value: String) {
        let text = "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key>\(value)</dict></plist>"
        #expect(CurrentVersionFile.plainName(in: Data(text.utf8)) == nil, "\(label)")
    }

    @Test func hostileNestingNeverReachesTheParser() throws {
        #expect(CurrentVersionFile.isShallow(Data(Self.xcode.utf8)))
        let nested = { (depth: Int) in
            "<plist><dict><key>a</key>" + String(repeating: "<array>", count: depth)
                + String(repeating: "</array>", count: depth) + "<true/><!-- <x> --></dict></plist>"
        }
        #expect(CurrentVersionFile.isShallow(Data(nested(CurrentVersionFile.maximumDepth - 3).utf8)))
        #expect(!CurrentVersionFile.isShallow(Data(nested(CurrentVersionFile.maximumDepth).utf8)))
        #expect(!CurrentVersionFile.isShallow(Data(("(" + String(repeating: "(", count: 100_000)).utf8)))
        // Binary: judged by the object count in its trailer.
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let small = try encoder.encode(["_XCCurrentVersionName": "Model 2.xcdatamodel"])
        #expect(CurrentVersionFile.isShallow(small))
        let large = try encoder.encode(["a": (0..<100).map { "\($0)" }])
        #expect(!CurrentVersionFile.isShallow(large))
        #expect(!CurrentVersionFile.isShallow(Data("bplist00".utf8)))
    }

    @Test func leavesOtherShapesToTheParser() {
        let shapes = [
            Self.xcode.replacingOccurrences(of: "</plist>", with: ""),  // malformed
            Self.xcode + "<extra/>",
            Self.xcode.replacingOccurrences(of: "<plist version=\"1.0\">", with: "<plist/>"),
            Self.xcode.replacingOccurrences(of: ".dtd\">", with: ".dtd\" [<!ENTITY x \"y\">]>"),
            "bplist00",
        ]
        for shape in shapes { #expect(CurrentVersionFile.plainName(in: Data(shape.utf8)) == nil, "\(shape)") }
        #expect(CurrentVersionFile.plainName(in: Data([0xFF, 0xFE, 0x3C, 0x00])) == nil)
    }
}
