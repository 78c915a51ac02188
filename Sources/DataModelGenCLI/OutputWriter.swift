import DataModelCodegen
import Foundation

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
        for file in files {
            let path = (directory as NSString).appendingPathComponent(file.path)
            let existing = FileManager.default.contents(atPath: path)
            if let existing, existing.count == file.utf8.count, [UInt8](existing) == file.utf8 {
                plan.unchanged.append(file.path)
            } else {
                plan.changes.append(.init(file: file, existing: existing.map { String(decoding: $0, as: UTF8.self) }))
            }
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
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
        do {
            try FileManager.default.createDirectory(atPath: plan.directory, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(
                path: plan.directory, message: "cannot create the output directory: \(error.localizedDescription)")
        }
        for change in plan.changes {
            let path = (plan.directory as NSString).appendingPathComponent(change.file.path)
            try AtomicFileWriter.store(change.file.utf8, at: path)
        }
        for removal in plan.removals {
            let path = (plan.directory as NSString).appendingPathComponent(removal)
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw IOFailure(path: path, message: "cannot remove the stale file: \(error.localizedDescription)")
            }
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
