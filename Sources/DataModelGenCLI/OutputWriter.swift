import DataModelCodegen
import Foundation

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
    var unchanged: [String] = []
    /// Stale files that the generator wrote earlier and no longer produces.
    var removals: [String] = []

    var isUpToDate: Bool { changes.isEmpty && removals.isEmpty }
}

/// Writes generated files atomically and only when their bytes change; removes stale generated files.
///
/// Nothing else in the directory is ever touched: a file is removed only when its header shows that
/// the generator wrote it from the same model.
enum OutputWriter {
    static func plan(_ files: [OutputFile], in directory: String, modelFileName: String) -> OutputPlan {
        var plan = OutputPlan(directory: directory)
        let produced = Set(files.map(\.path))
        // One listing of the directory tells which files exist: only those are read, so a first run into an
        // empty directory makes no system call per file.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let existingNames = Set(entries)
        for file in files {
            let mayExist = existingNames.contains(file.path) || file.path.utf8.contains(UInt8(ascii: "/"))
            let path = (directory as NSString).appendingPathComponent(file.path)
            let existing = mayExist ? ExistingFile.bytes(at: path) : nil
            if let existing, existing == file.utf8 {
                plan.unchanged.append(file.path)
            } else {
                plan.changes.append(.init(file: file, existing: existing.map { String(decoding: $0, as: UTF8.self) }))
            }
        }
        for entry in entries.sorted() where !produced.contains(entry) {
            guard entry.hasSuffix(".swift") || entry.hasSuffix(".sql") else { continue }
            let path = (directory as NSString).appendingPathComponent(entry)
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            let head = (try? handle.read(upToCount: 1024)) ?? nil
            try? handle.close()
            guard let head else { continue }
            let text = String(decoding: head, as: UTF8.self)
            if GeneratedFileRecognizer.isGenerated(fileName: entry, contents: text[...], modelFileName: modelFileName) {
                plan.removals.append(entry)
            }
        }
        return plan
    }

    static func apply(_ plan: OutputPlan) throws {
        try apply([plan])
    }

    /// Applies several plans: stages each (see ``stage(_:)``), then commits them all.
    static func apply(_ plans: [OutputPlan]) throws {
        var staged: [StagedPlan] = []
        for plan in plans {
            do {
                staged.append(try stage(plan))
            } catch {
                discard(staged)
                throw error
            }
        }
        try commit(staged)
    }

    /// Creates the plan's directory and writes every changed file to a temporary file beside its
    /// destination (on a few threads when there are many), without replacing anything yet. On failure the
    /// temporary files written are removed and the failure of the first file in plan order is thrown.
    static func stage(_ plan: OutputPlan) throws(IOFailure) -> StagedPlan {
        do {
            try FileManager.default.createDirectory(atPath: plan.directory, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(
                path: plan.directory, message: "cannot create the output directory: \(error.localizedDescription)")
        }
        let destinations = plan.changes.map { (plan.directory as NSString).appendingPathComponent($0.file.path) }
        let outcomes = WriteOutcomes(count: destinations.count)
        let threads = destinations.count < 64 ? 1 : min(4, ProcessInfo.processInfo.activeProcessorCount)
        ParallelWork.forEach(count: destinations.count, threads: threads) { index in
            outcomes.record(
                Result { () throws(IOFailure) -> String in
                    try AtomicFileWriter.writeTemporary(plan.changes[index].file.utf8, for: destinations[index])
                }, at: index)
        }
        var temporaries: [String] = []
        var firstFailure: IOFailure?
        for result in outcomes.results() {
            switch result {
            case .success(let temporary): temporaries.append(temporary)
            case .failure(let failure): if firstFailure == nil { firstFailure = failure }
            }
        }
        if let firstFailure {
            for temporary in temporaries { unlink(temporary) }
            throw firstFailure
        }
        return StagedPlan(plan: plan, temporaries: temporaries, destinations: destinations)
    }

    /// Puts every staged file in place (each rename is atomic) and removes the plans' stale files.
    static func commit(_ staged: [StagedPlan]) throws {
        for (index, plan) in staged.enumerated() {
            for (position, temporary) in plan.temporaries.enumerated() {
                do {
                    try AtomicFileWriter.replace(plan.destinations[position], with: temporary)
                } catch {
                    for rest in plan.temporaries[(position + 1)...] { unlink(rest) }
                    discard(Array(staged[(index + 1)...]))
                    throw error
                }
            }
        }
        for plan in staged.map(\.plan) {
            for removal in plan.removals {
                let path = (plan.directory as NSString).appendingPathComponent(removal)
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    throw IOFailure(path: path, message: "cannot remove the stale file: \(error.localizedDescription)")
                }
            }
        }
    }

    /// Removes staged temporary files, leaving every destination as it was.
    static func discard(_ staged: [StagedPlan]) {
        for plan in staged {
            for temporary in plan.temporaries { unlink(temporary) }
        }
    }

    /// A unified diff of everything the plan would change.
    static func diff(_ plan: OutputPlan) -> String {
        var output = ""
        for change in plan.changes {
            let path = (plan.directory as NSString).appendingPathComponent(change.file.path)
            output += UnifiedDiff.diff(
                old: change.existing ?? "", new: change.file.contents,
                oldName: change.existing == nil ? "/dev/null" : "a/\(path)", newName: "b/\(path)")
        }
        for removal in plan.removals {
            let path = (plan.directory as NSString).appendingPathComponent(removal)
            let old = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            output += UnifiedDiff.diff(old: old, new: "", oldName: "a/\(path)", newName: "/dev/null")
        }
        return output
    }
}

/// A plan whose changed files are written to temporary files, ready to be put in place by
/// ``OutputWriter/commit(_:)`` or removed by ``OutputWriter/discard(_:)``.
struct StagedPlan {
    var plan: OutputPlan
    /// The temporary file of each change, in the plan's order.
    var temporaries: [String]
    /// The destination of each change, in the plan's order.
    var destinations: [String]
}

/// The outcome of each write made on several threads, kept by index so that what is reported does not
/// depend on timing.
private final class WriteOutcomes: @unchecked Sendable {
    // @unchecked: `outcomes` is only touched with `lock` held.
    private let lock = NSLock()
    private var outcomes: [Result<String, IOFailure>?]

    init(count: Int) {
        outcomes = Array(repeating: nil, count: count)
    }

    func record(_ outcome: Result<String, IOFailure>, at index: Int) {
        lock.lock()
        outcomes[index] = outcome
        lock.unlock()
    }

    /// Every outcome, in index order.
    func results() -> [Result<String, IOFailure>] {
        lock.lock()
        defer { lock.unlock() }
        return outcomes.compactMap { $0 }
    }
}

/// Reads a file that `generate` may overwrite, to compare it with the new bytes.
enum ExistingFile {
    /// The bytes of the regular file at `path`, or nil when there is none or it cannot be read.
    static func bytes(at path: String) -> [UInt8]? {
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
            if count == 0 { return bytes }
            capacity = max(capacity, 1 << 16)
        }
    }
}
