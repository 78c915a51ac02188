import DataModelCodegen
import Foundation
import Testing

@testable import DataModelGenCLI

/// `generate` writes each file as it renders (``DirectoryUpdate``): nothing shows until every file rendered.
@Suite struct DirectoryUpdateTests {
    private let model = "Company.xcdatamodeld"

    private func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("dmg-update-\(UUID().uuidString)")
    }

    private func file(_ path: String, _ text: String) -> OutputFile {
        OutputFile(path: path, contents: "// generated from \(model) by datamodelgen\n" + text)
    }

    private func listing(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test func aNewDirectoryAppearsWholeAtCommit() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("nested/out")
        let update = try DirectoryUpdate(directory: target.path, modelFileName: model)
        update.offer(file("B.swift", "b"))
        update.offer(file("A.swift", "a"))
        // Before the commit the directory does not exist; the files wait in a hidden directory beside it.
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let entries = try update.commit()
        #expect(listing(target) == ["A.swift", "B.swift"])
        #expect(listing(target.deletingLastPathComponent()) == ["out"])
        // The entries are in path order, with each file's size and modification time as written.
        #expect(entries.map(\.path) == ["A.swift", "B.swift"])
        for entry in entries {
            let attributes = try FileManager.default.attributesOfItem(atPath: target.path + "/" + entry.path)
            #expect((attributes[.size] as? NSNumber)?.int64Value == entry.size)
        }
    }

    /// Render threads offer files at once: every file is written, and the entries come in path order.
    @Test(arguments: [false, true])
    func filesOfferedFromManyThreadsAreAllWritten(intoExistingDirectory: Bool) throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("out")
        if intoExistingDirectory {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let first = try DirectoryUpdate(directory: target.path, modelFileName: model)
            for index in stride(from: 0, to: 200, by: 3) { first.offer(file("F\(index).swift", "old")) }
            _ = try first.commit()
        }
        let files = (0..<200).map { file("F\($0).swift", "\($0)") }
        let update = try DirectoryUpdate(directory: target.path, modelFileName: model)
        DispatchQueue.concurrentPerform(iterations: 8) { part in
            for index in stride(from: part, to: files.count, by: 8) { update.offer(files[index]) }
        }
        let entries = try update.commit()
        let names = files.map(\.path).sorted()
        #expect(entries.map(\.path) == names)
        #expect(listing(target) == names)
        #expect(try String(contentsOf: target.appendingPathComponent("F3.swift"), encoding: .utf8).hasSuffix("3"))
    }

    @Test func anAbandonedNewDirectoryLeavesNothing() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("out")
        let update = try DirectoryUpdate(directory: target.path, modelFileName: model)
        update.offer(file("A.swift", "a"))
        update.abandon()
        #expect(listing(root) == [])
    }

    @Test func anExistingDirectoryKeepsUnchangedFilesAndOthersFiles() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let first = try DirectoryUpdate(directory: root.path, modelFileName: model)
        for name in ["Same.swift", "Changed.swift", "Stale.swift"] { first.offer(file(name, "one")) }
        _ = try first.commit()
        try "mine".write(to: root.appendingPathComponent("Mine.swift"), atomically: true, encoding: .utf8)
        let same = try FileManager.default.attributesOfItem(atPath: root.path + "/Same.swift")[.modificationDate]
        Thread.sleep(forTimeInterval: 0.02)

        let second = try DirectoryUpdate(directory: root.path, modelFileName: model)
        second.offer(file("Same.swift", "one"))
        second.offer(file("Changed.swift", "two"))
        second.offer(file("New.swift", "two"))
        // Until the commit, the directory shows the old files and no new one.
        #expect(
            listing(root).filter { !$0.hasPrefix(".") } == ["Changed.swift", "Mine.swift", "Same.swift", "Stale.swift"])
        let entries = try second.commit()
        #expect(listing(root) == ["Changed.swift", "Mine.swift", "New.swift", "Same.swift"])
        #expect(entries.map(\.path) == ["Changed.swift", "New.swift", "Same.swift"])
        let changed = try String(contentsOf: root.appendingPathComponent("Changed.swift"), encoding: .utf8)
        #expect(changed.hasSuffix("two"))
        let sameAfter = try FileManager.default.attributesOfItem(atPath: root.path + "/Same.swift")[.modificationDate]
        #expect(same as? Date == sameAfter as? Date)
    }

    @Test func anAbandonedUpdateLeavesAnExistingDirectoryAsItWas() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let first = try DirectoryUpdate(directory: root.path, modelFileName: model)
        first.offer(file("A.swift", "one"))
        _ = try first.commit()
        let second = try DirectoryUpdate(directory: root.path, modelFileName: model)
        second.offer(file("A.swift", "two"))
        second.offer(file("B.swift", "two"))
        second.abandon()
        #expect(listing(root) == ["A.swift"])
        #expect(try String(contentsOf: root.appendingPathComponent("A.swift"), encoding: .utf8).hasSuffix("one"))
    }

    @Test func aFileThatCannotBeWrittenFailsTheCommitAndShowsNothing() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("out")
        let update = try DirectoryUpdate(directory: target.path, modelFileName: model)
        update.offer(file("A.swift", "a"))
        // Two files with one path: the second cannot be created.
        update.offer(file("A.swift", "again"))
        #expect(throws: IOFailure.self) { _ = try update.commit() }
        #expect(listing(root) == [])
    }

    /// The ID of a process that has exited.
    private func exitedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func leftoversOfKilledRunsAreRemoved() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let dead = try exitedProcessID()
        let alive = getpid()
        // A killed run's staging directory beside a new output directory, and its temporary file inside an
        // existing one; those of a running process stay.
        for name in [".out.datamodelgen-\(dead)-3", ".out.datamodelgen-\(alive)-3", "existing"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try "x".write(
            to: root.appendingPathComponent("existing/.A.swift.datamodelgen-\(dead)-7"), atomically: false,
            encoding: .utf8)
        try "y".write(to: root.appendingPathComponent("existing/.mine"), atomically: false, encoding: .utf8)
        let fresh = try DirectoryUpdate(directory: root.appendingPathComponent("out").path, modelFileName: model)
        fresh.offer(file("A.swift", "a"))
        _ = try fresh.commit()
        #expect(listing(root) == [".out.datamodelgen-\(alive)-3", "existing", "out"])
        let existing = try DirectoryUpdate(
            directory: root.appendingPathComponent("existing").path, modelFileName: model)
        existing.offer(file("A.swift", "a"))
        _ = try existing.commit()
        #expect(listing(root.appendingPathComponent("existing")) == [".mine", "A.swift"])
    }

    /// The no-change cache records the size and modification time the writer saw: they must be the files'.
    @Test(.enabled(if: Paths.executable != nil, "datamodelgen was not built next to the test bundle"))
    func theCacheRecordOfANewDirectoryMatchesItsFiles() throws {
        let executable = try #require(Paths.executable)
        let root = scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let company = Paths.repositoryRoot.appendingPathComponent("Models/Company.xcdatamodeld").path
        let output = root.appendingPathComponent("generated").path
        let cache = root.appendingPathComponent("cache").path
        let run = try runExecutable(
            executable, ["generate", company, "--output", output, "--flavor", "all"], in: root.path,
            environment: ["DATAMODELGEN_CACHE_DIR": cache])
        #expect(run.status == 0, "\(String(decoding: run.err, as: UTF8.self))")
        let records = try FileManager.default.contentsOfDirectory(atPath: cache)
        try #require(records.count == 1)
        let record = try #require(
            GenerationCache.decode(try Data(contentsOf: URL(fileURLWithPath: cache + "/" + records[0]))))
        let files = try FileManager.default.subpathsOfDirectory(atPath: output).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: output + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(record.files.map(\.path).sorted() == files.sorted())
        for entry in record.files {
            var info = stat()
            try #require(stat(output + "/" + entry.path, &info) == 0)
            #expect(Int64(info.st_size) == entry.size)
            #expect(GenerationCache.modificationTime(info) == entry.modified, "\(entry.path)")
        }
    }
}

@Suite struct MessageTextTests {
    @Test func fileSystemErrorsAreDescribedInTheSystemsWords() {
        do {
            try FileManager.default.createDirectory(atPath: "/proc/self/status/x", withIntermediateDirectories: true)
            Issue.record("creating a directory under a file succeeded")
        } catch {
            #expect(MessageText.describe(error) == "Not a directory")
        }
        #expect(MessageText.describe(POSIXError(.ENOENT)) == "No such file or directory")
    }

    @Test func padding() {
        #expect(MessageText.padded("ab", to: 4) == "ab  ")
        #expect(MessageText.padded("abcdef", to: 4) == "abcdef")
        #expect(MessageText.padded("é", to: 2) == "é ")
    }
}
