import DataModel
import DataModelCodegen
import FoundationEssentials
import ProcessSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What writing a set of generated files into a directory would do.
struct OutputPlan {
    /// A file whose bytes would change (or that is new), with its current text when it exists.
    struct Change {
        var file: OutputFile
        var existing: String?
    }

    var directory: String
    var changes: [Change] = []
    /// Files whose bytes would not change, and user-owned files that exist (left alone whatever they hold).
    var unchanged: [String] = []
    /// Stale files that the generator wrote earlier and no longer produces.
    var removals: [String] = []
    /// User-owned files ("This file is yours to edit") that a generated file would replace: nothing is written
    /// while there are any (``IOFailure/userFileConflict(at:)``).
    var conflicts: [IOFailure] = []

    var isUpToDate: Bool { changes.isEmpty && removals.isEmpty && conflicts.isEmpty }
}

/// Writes generated files atomically and only when their bytes change; removes stale generated files.
///
/// Nothing else in the directory is ever touched: a file is removed only when its header shows that
/// the generator wrote it from the same model. A user-owned file (``OutputFile/isUserOwned``, "This file is
/// yours to edit") is written only when nothing exists at its path; an existing one is kept as it is. Unless
/// `protectsUserFiles` is off (`--overwrite-user-files`), an existing user-owned file is not replaced by a generated
/// one either (its entity's codegen changed): that is a conflict (``OutputPlan/conflicts``).
enum OutputWriter {
    static func plan(
        _ files: [OutputFile], in directory: String, modelFileName: String, protectsUserFiles: Bool = true
    ) -> OutputPlan {
        var plan = OutputPlan(directory: directory)
        let produced = Set(files.map(\.path))
        // One listing of the directory tells which files exist: only those are read, so a first run into an
        // empty directory makes no system call per file.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let existingNames = Set(entries)
        for file in files {
            let mayExist = existingNames.contains(file.path) || file.path.utf8.contains(UInt8(ascii: "/"))
            let path = PathName.joined(directory, file.path)
            if file.isUserOwned, mayExist, ExistingFile.exists(at: path) {
                plan.unchanged.append(file.path)
                continue
            }
            let existing = mayExist ? ExistingFile.bytes(at: path) : nil
            if let existing, existing == file.utf8 {
                plan.unchanged.append(file.path)
            } else if protectsUserFiles, let existing,
                GeneratedFileRecognizer.isUserOwned(contents: existing, modelFileName: modelFileName)
            {
                plan.conflicts.append(.userFileConflict(at: path))
            } else {
                plan.changes.append(.init(file: file, existing: existing.map { String(decoding: $0, as: UTF8.self) }))
            }
        }
        plan.removals = staleFiles(
            among: existingNames, producing: produced, in: directory, modelFileName: modelFileName)
        return plan
    }

    /// The files among `names` (in `directory`) that the generator wrote from the same model and that are not
    /// among `produced`, sorted: only `.swift` and `.sql` files whose header shows the generator wrote them.
    static func staleFiles(
        among names: Set<String>, producing produced: Set<String>, in directory: String, modelFileName: String
    ) -> [String] {
        var stale: [String] = []
        for entry in names.sorted() where !produced.contains(entry) {
            guard entry.hasSuffix(".swift") || entry.hasSuffix(".sql") else { continue }
            let path = PathName.joined(directory, entry)
            guard let head = FileDescriptors.head(of: path, bytes: 1024) else { continue }
            let text = String(decoding: head, as: UTF8.self)
            if GeneratedFileRecognizer.isGenerated(fileName: entry, contents: text[...], modelFileName: modelFileName) {
                stale.append(entry)
            }
        }
        return stale
    }

    static func apply(_ plans: [OutputPlan]) throws(IOFailure) {
        for plan in plans { try apply(plan) }
    }

    /// Creates the plan's directory, writes every changed file atomically (on a few threads when there are
    /// many), then removes the stale files. A file that cannot be written does not stop the others; the
    /// failure of the first file in plan order is thrown, and then nothing is removed.
    static func apply(_ plan: OutputPlan) throws(IOFailure) {
        if let conflicts = IOFailure.combined(plan.conflicts) { throw conflicts }
        do {
            try FileManager.default.createDirectory(atPath: plan.directory, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(
                path: plan.directory, message: "cannot create the output directory: \(MessageText.describe(error))")
        }
        let failures = WriteFailures()
        let threads = plan.changes.count < 64 ? 1 : min(4, ProcessInfo.processInfo.activeProcessorCount)
        Threads.forEach(count: plan.changes.count, threads: threads) { index in
            let change = plan.changes[index]
            do throws(IOFailure) {
                try AtomicFileWriter.store(
                    change.file.utf8, at: PathName.joined(plan.directory, change.file.path))
            } catch {
                failures.record(error, at: index)
            }
        }
        if let failure = failures.first { throw failure }
        for removal in plan.removals {
            let path = PathName.joined(plan.directory, removal)
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw IOFailure(path: path, message: "cannot remove the stale file: \(MessageText.describe(error))")
            }
        }
    }

    /// A unified diff of everything the plan would change.
    static func diff(_ plan: OutputPlan) -> String {
        var output = ""
        for change in plan.changes {
            let path = PathName.joined(plan.directory, change.file.path)
            output += UnifiedDiff.diff(
                old: change.existing ?? "", new: change.file.contents,
                oldName: change.existing == nil ? "/dev/null" : "a/\(path)", newName: "b/\(path)")
        }
        for removal in plan.removals {
            let path = PathName.joined(plan.directory, removal)
            let old = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            output += UnifiedDiff.diff(old: old, new: "", oldName: "a/\(path)", newName: "/dev/null")
        }
        return output
    }
}

/// The failures of writes made on several threads, kept by index so that the one reported does not depend
/// on timing.
private final class WriteFailures: @unchecked Sendable {
    // @unchecked: `failures` is only touched with `lock` held.
    private let lock = PThreadLock()
    private var failures: [Int: IOFailure] = [:]

    func record(_ failure: IOFailure, at index: Int) {
        lock.lock()
        failures[index] = failure
        lock.unlock()
    }

    /// The failure with the lowest index.
    var first: IOFailure? {
        lock.lock()
        defer { lock.unlock() }
        return failures.min { $0.key < $1.key }?.value
    }
}

/// Reads a file that `generate` may overwrite, to compare it with the new bytes.
enum ExistingFile {
    /// Whether anything (a file, a directory, a link, even a dangling one) is at `path`.
    static func exists(at path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The bytes of the regular file at `path`, or nil when there is none or it cannot be read.
    static func bytes(at path: String) -> [UInt8]? {
        contents(at: path)?.bytes
    }

    /// The bytes and status of the regular file at `path`, or nil when there is none or it cannot be read.
    static func contents(at path: String) -> (bytes: [UInt8], info: stat)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var capacity = max(Int(info.st_size), 0) + 1
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity))
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + start }, capacity)
            }
            if count < 0 {
                bytes.removeLast(capacity)
                if errno == EINTR { continue }
                return nil
            }
            bytes.removeLast(capacity - count)
            if count == 0 { return (bytes, info) }
            capacity = max(capacity, 1 << 16)
        }
    }
}
