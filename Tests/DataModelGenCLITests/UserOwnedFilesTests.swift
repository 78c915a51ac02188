import Foundation
import Testing

@testable import DataModelGenCLI

/// The files `generate --include-manual` writes for Manual/None entities say "This file is yours to edit": like
/// mogenerator's human files and Xcode's "Create NSManagedObject Subclass", such a file is written only when it does
/// not exist. An existing one is left byte for byte as it is by `generate`, listed as kept by `--dry-run`, never
/// reported stale by `--check` and never removed as stale.
@Suite struct UserOwnedFilesTests {
    /// `Shop.xcdatamodeld` with `Note` (Manual/None, its files the user's) and `Tag` (`class` codegen, generated);
    /// `noteAttributes` are `Note`'s attributes, `withNote: false` leaves `Note` out.
    static func writeModel(
        in directory: String, noteAttributes: [String] = ["text"], withNote: Bool = true, noteCodegen: String? = nil
    ) throws -> String {
        let bundle = directory + "/Shop.xcdatamodeld"
        let version = bundle + "/Shop.xcdatamodel"
        try FileManager.default.createDirectory(atPath: version, withIntermediateDirectories: true)
        let attributes = noteAttributes.map {
            "        <attribute name=\"\($0)\" optional=\"YES\" attributeType=\"String\"/>"
        }
        let note = """
                <entity name="Note" representedClassName="Note" syncable="YES"\(noteCodegen.map { " codeGenerationType=\"\($0)\"" } ?? "")>
            \(attributes.joined(separator: "\n"))
                </entity>

            """
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            \(withNote ? note : "")    <entity name="Tag" representedClassName="Tag" syncable="YES" codeGenerationType="class">
                    <attribute name="label" optional="YES" attributeType="String"/>
                </entity>
            </model>

            """
        try contents.write(toFile: version + "/contents", atomically: true, encoding: .utf8)
        return bundle
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("user-owned-\(UUID().uuidString)").path
    }

    static let edit = "\nextension Note {\n    var isPinned: Bool { text?.hasPrefix(\"!\") ?? false }\n}\n"

    /// The class and properties files of `Note` in `flavor`, relative to the output directory.
    static func noteFiles(flavor: String) -> [String] {
        switch flavor {
        case "coredata": ["Note+CoreDataClass.swift", "Note+CoreDataProperties.swift"]
        case "runtime": ["Note+DataModelClass.swift", "Note+DataModelProperties.swift"]
        default: ["coredata/Note+CoreDataClass.swift", "runtime/Note+DataModelClass.swift"]
        }
    }

    @Test(arguments: ["runtime", "coredata", "coredata,runtime"])
    func anEditedUserFileSurvivesGenerateCheckAndDryRun(flavor: String) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try Self.writeModel(in: directory)
        let output = directory + "/Out"
        let generate = ["generate", bundle, "--output", output, "--flavor", flavor, "--include-manual", "--no-cache"]
        let first = runTool(generate)
        #expect(first.code == .success, "\(first.err)")

        var edited: [String: String] = [:]
        for file in Self.noteFiles(flavor: flavor) {
            let path = output + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("This file is yours to edit."), "\(file)")
            try (text + Self.edit).write(toFile: path, atomically: true, encoding: .utf8)
            edited[file] = text + Self.edit
        }
        let unchangedModel = runTool(generate + ["--check"])
        #expect(unchangedModel.code == .success, "--check reports edited user files: \(unchangedModel.out)")
        #expect(unchangedModel.out.isEmpty)

        // The model changes too: a generated file would be rewritten, a user's file must not be.
        _ = try Self.writeModel(in: directory, noteAttributes: ["text", "title"])

        let dryRun = runTool(generate + ["--dry-run"])
        #expect(dryRun.code == .success, "\(dryRun.err)")
        for file in Self.noteFiles(flavor: flavor) {
            #expect(dryRun.out.contains("keep   \(file)\n"), "\(dryRun.out)")
            #expect(!dryRun.out.contains("update \(file)"), "\(dryRun.out)")
        }

        // The schema (and the runtime model file) know of `title`: stale; the user's files are not.
        let check = runTool(generate + ["--check"])
        #expect(check.code == .modelError)
        for file in Self.noteFiles(flavor: flavor) {
            #expect(!check.out.contains(file), "--check reports a user-owned file: \(check.out)")
        }

        let again = runTool(generate)
        #expect(again.code == .success, "\(again.err)")
        // Declaring the outputs (the build plugin's `--expect-output`) writes through the planned path.
        let produced = runTool(generate + ["--dry-run"]).out.split(separator: "\n").map { $0.dropFirst(7) }
        let declared = runTool(generate + produced.flatMap { ["--expect-output", String($0)] })
        #expect(declared.code == .success, "\(declared.err)")
        for (file, text) in edited {
            #expect(try String(contentsOfFile: output + "/" + file, encoding: .utf8) == text, "\(file) was overwritten")
        }
        let recheck = runTool(generate + ["--check"])
        #expect(recheck.code == .success, "\(recheck.out)\(recheck.err)")
    }

    /// A user-owned file that is missing is written (and `--check` says it would be); `--overwrite-user-files`
    /// rewrites existing ones; a Manual/None entity gone from the model leaves its files alone.
    @Test func missingUserFilesAreWrittenAndOnlyOverwrittenWhenAsked() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try Self.writeModel(in: directory)
        let output = directory + "/Out"
        let generate = ["generate", bundle, "--output", output, "--include-manual", "--no-cache"]
        #expect(runTool(generate).code == .success)
        let classFile = output + "/Note+DataModelClass.swift"
        let generated = try String(contentsOfFile: classFile, encoding: .utf8)

        try FileManager.default.removeItem(atPath: classFile)
        let check = runTool(generate + ["--check"])
        #expect(check.code == .modelError)
        #expect(check.err.contains("(1 to write, 0 to remove)"), "\(check.err)")
        #expect(runTool(generate + ["--dry-run"]).out.contains("create Note+DataModelClass.swift\n"))
        #expect(runTool(generate).code == .success)
        #expect(try String(contentsOfFile: classFile, encoding: .utf8) == generated)

        try (generated + Self.edit).write(toFile: classFile, atomically: true, encoding: .utf8)
        #expect(runTool(generate + ["--overwrite-user-files", "--dry-run"]).out.contains("update Note+DataModelClass"))
        #expect(runTool(generate + ["--overwrite-user-files"]).code == .success)
        #expect(try String(contentsOfFile: classFile, encoding: .utf8) == generated)

        try (generated + Self.edit).write(toFile: classFile, atomically: true, encoding: .utf8)
        _ = try Self.writeModel(in: directory, withNote: false)
        #expect(!runTool(generate + ["--dry-run"]).out.contains("remove Note"))
        #expect(runTool(generate).code == .success)
        #expect(try String(contentsOfFile: classFile, encoding: .utf8) == generated + Self.edit)
        #expect(FileManager.default.fileExists(atPath: output + "/Note+DataModelProperties.swift"))
    }

    /// An entity whose codegen changes from Manual/None to Class Definition (or Category/Extension) would have its
    /// user-owned files replaced by generated ones of the same names: `generate`, `--check` and `--dry-run` refuse
    /// (exit 3, `user-file-conflict`, naming the file) and write nothing, until the user moves the file away or
    /// passes `--overwrite-user-files`.
    @Test(arguments: [("class", "runtime"), ("category", "runtime"), ("class", "coredata")])
    func aUserFileIsNotReplacedWhenItsEntityGetsGenerated(codegen: String, flavor: String) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try Self.writeModel(in: directory)
        let output = directory + "/Out"
        let generate = ["generate", bundle, "--output", output, "--flavor", flavor, "--include-manual", "--no-cache"]
        #expect(runTool(generate).code == .success)
        let (classFile, propertiesFile) = (Self.noteFiles(flavor: flavor)[0], Self.noteFiles(flavor: flavor)[1])
        let edited = try String(contentsOfFile: output + "/" + classFile, encoding: .utf8) + Self.edit
        try edited.write(toFile: output + "/" + classFile, atomically: true, encoding: .utf8)
        let properties = try String(contentsOfFile: output + "/" + propertiesFile, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: output).sorted().map {
            ($0, try String(contentsOfFile: output + "/" + $0, encoding: .utf8))
        }

        _ = try Self.writeModel(in: directory, noteAttributes: ["text", "title"], noteCodegen: codegen)
        // The class file is generated only with `class` codegen; the properties file with both.
        let conflicting = codegen == "class" ? [classFile, propertiesFile] : [propertiesFile]
        let produced = runTool(generate + ["--dry-run", "--overwrite-user-files"]).out.split(separator: "\n")
        #expect(!produced.isEmpty)
        let declared = produced.flatMap { ["--expect-output", String($0.dropFirst(7))] }
        for extra in [[], ["--check"], ["--dry-run"], declared] {
            let run = runTool(generate + extra)
            #expect(run.code == .ioError, "\(extra): \(run.out)\(run.err)")
            let lines = run.err.split(separator: "\n").filter { $0.contains("[user-file-conflict]") }
            #expect(lines.count == conflicting.count, "\(run.err)")
            for (line, file) in zip(lines, conflicting) {
                #expect(line.hasPrefix("\(output)/\(file): error: this file is yours to edit"), "\(line)")
                #expect(line.hasSuffix("--overwrite-user-files to replace it [user-file-conflict]"), "\(line)")
            }
            let after = try FileManager.default.contentsOfDirectory(atPath: output).sorted().map {
                ($0, try String(contentsOfFile: output + "/" + $0, encoding: .utf8))
            }
            #expect(after.map(\.0) == before.map(\.0), "\(extra): files written or removed")
            #expect(after.map(\.1) == before.map(\.1), "\(extra): a file changed")
        }

        // Moving the files away is the way out (the class file, not generated for `category`, is the user's still).
        for file in conflicting { try FileManager.default.removeItem(atPath: output + "/" + file) }
        let moved = runTool(generate)
        #expect(moved.code == .success, "\(moved.err)")
        var regenerated: [String: String] = [:]
        for file in conflicting {
            let text = try String(contentsOfFile: output + "/" + file, encoding: .utf8)
            #expect(!text.contains("yours to edit"))
            #expect(text.contains(flavor == "coredata" ? "automatically generated" : "Do not edit."))
            regenerated[file] = text
        }
        if codegen == "category" {
            #expect(try String(contentsOfFile: output + "/" + classFile, encoding: .utf8) == edited)
        }
        #expect(runTool(generate + ["--check"]).code == .success)

        // `--overwrite-user-files` replaces user files outright.
        let userFiles = [classFile: edited, propertiesFile: properties]
        for file in conflicting {
            try userFiles[file, default: ""].write(toFile: output + "/" + file, atomically: true, encoding: .utf8)
        }
        #expect(runTool(generate + ["--overwrite-user-files"]).code == .success)
        for file in conflicting {
            #expect(try String(contentsOfFile: output + "/" + file, encoding: .utf8) == regenerated[file])
        }
    }
}
