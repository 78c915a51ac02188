import DataModel
import DataModelCodegen
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one output directory's generated files while they are rendered, and makes them visible all
/// at once when every file has rendered.
///
/// Files arrive from several threads (``offer(_:)``) and are not kept once written, so a large model's
/// output is never held in memory. Nothing is visible until ``commit()``:
/// - A directory that does not exist yet is built as a hidden staging directory next to it, whose files
///   are written directly, and then renamed into place in one step.
/// - In a directory that exists, a file whose bytes are unchanged is left alone (its modification time too);
///   a changed or new file is written to a temporary file beside it, renamed over it at commit. Stale
///   generated files are removed then, as ``OutputWriter`` does. A user-owned file
///   (``OutputFile/isUserOwned``) that exists is never written, whatever it holds; nor, unless
///   `protectsUserFiles` is off, is one replaced by a generated file (``IOFailure/userFileConflict(at:)``).
///
/// ``abandon()`` (a file failed to render) removes everything written, leaving the directory as it was.
final class DirectoryUpdate: @unchecked Sendable {
    // @unchecked: `offers` and `failures` are only touched with `lock` held; everything else is set in `init`.
    /// What happened to one offered file.
    private struct Offer {
        var entry: GenerationCache.Entry
        /// The temporary file to rename over `entry.path` at commit, when the file changed.
        var temporary: String?
    }

    let directory: String
    private let modelFileName: String
    /// Whether an existing user-owned file is refused to a generated file of the same name.
    private let protectsUserFiles: Bool
    /// The staging directory, when `directory` did not exist.
    private let staging: String?
    /// The names in `directory` when it existed.
    private let existingNames: Set<String>
    /// The directory files are created in (the staging directory, or `directory`), open so that files are
    /// created by name, without looking its path up again each time; -1 when it could not be opened.
    private let folder: Int32
    private let lock = PThreadLock()
    private var offers: [String: Offer] = [:]
    private var failures: [String: IOFailure] = [:]

    /// Prepares to write into `directory`, creating the parent directories it needs.
    init(directory: String, modelFileName: String, protectsUserFiles: Bool = true) throws(IOFailure) {
        self.directory = directory
        self.modelFileName = modelFileName
        self.protectsUserFiles = protectsUserFiles
        var info = stat()
        if lstat(directory, &info) != 0, errno == ENOENT {
            let parent = PathName.deletingLastComponent(directory)
            let name = AtomicFileWriter.lastComponent(of: directory)
            if !parent.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw IOFailure(
                        path: parent, message: "cannot create the output directory: \(MessageText.describe(error))")
                }
            }
            Self.removeLeftovers(in: parent.isEmpty ? "." : parent, named: ".\(name).datamodelgen-")
            var created: String?
            for _ in 0..<100 {
                let path = (parent.isEmpty ? "" : parent + "/") + AtomicFileWriter.temporaryName(for: name)
                if mkdir(path, 0o777) == 0 {
                    created = path
                    break
                }
                // A leftover of a killed run with the same name is stepped over.
                guard errno == EEXIST else { break }
            }
            guard let path = created else {
                throw IOFailure(path: directory, message: "cannot create the output directory: \(Self.reason())")
            }
            staging = path
            existingNames = []
            folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw IOFailure(
                    path: directory, message: "cannot create the output directory: \(MessageText.describe(error))")
            }
            staging = nil
            existingNames = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            for entry in existingNames where AtomicFileWriter.isLeftover(entry) {
                unlink(directory + "/" + entry)
            }
        }
    }

    // MARK: - Leftovers

    /// Removes the staging directories (`prefix` then `<pid>-<n>`) that killed runs left in `parent`.
    private static func removeLeftovers(in parent: String, named prefix: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for entry in entries where entry.hasPrefix(prefix) && AtomicFileWriter.isLeftover(entry) {
            try? FileManager.default.removeItem(atPath: parent + "/" + entry)
        }
    }

    deinit {
        if folder >= 0 { close(folder) }
    }

    /// Writes `file` where it waits for ``commit()``, unless it is unchanged. Safe to call from several
    /// threads at once; a failure is reported by ``commit()``.
    func offer(_ file: OutputFile) {
        do throws(IOFailure) {
            let offer = try store(file)
            lock.lock()
            offers[file.path] = offer
            lock.unlock()
        } catch {
            lock.lock()
            failures[file.path] = error
            lock.unlock()
        }
    }

    private func store(_ file: OutputFile) throws(IOFailure) -> Offer {
        let final = directory + "/" + file.path
        if let staging {
            let path = staging + "/" + file.path
            if file.path.utf8.contains(UInt8(ascii: "/")) {
                try? FileManager.default.createDirectory(
                    atPath: PathName.deletingLastComponent(path), withIntermediateDirectories: true)
            }
            guard let info = try create(file.path, orPath: path, file.utf8, reportedAs: final) else {
                throw IOFailure(path: final, message: "cannot create the file: \(Self.reason())")
            }
            return Offer(entry: Self.entry(file.path, info), temporary: nil)
        }
        let mayExist = existingNames.contains(file.path) || file.path.utf8.contains(UInt8(ascii: "/"))
        if file.isUserOwned, mayExist, let info = Self.status(of: final) {
            return Offer(entry: Self.entry(file.path, info), temporary: nil)
        }
        if mayExist, let existing = ExistingFile.contents(at: final) {
            if existing.bytes == file.utf8 { return Offer(entry: Self.entry(file.path, existing.info), temporary: nil) }
            if protectsUserFiles,
                GeneratedFileRecognizer.isUserOwned(contents: existing.bytes, modelFileName: modelFileName)
            {
                throw .userFileConflict(at: final)
            }
        }
        let parent = PathName.deletingLastComponent(final)
        let name = AtomicFileWriter.lastComponent(of: final)
        for _ in 0..<100 {
            let temporary = parent + "/" + AtomicFileWriter.temporaryName(for: name)
            // A leftover of a killed run with the same name is stepped over.
            let temporaryName = AtomicFileWriter.lastComponent(of: temporary)
            let relative = file.path.utf8.contains(UInt8(ascii: "/")) ? temporary : temporaryName
            if let info = try create(relative, orPath: temporary, file.utf8, reportedAs: final) {
                return Offer(entry: Self.entry(file.path, info), temporary: temporary)
            }
        }
        throw IOFailure(path: final, message: "cannot create a temporary file: \(Self.reason())")
    }

    /// Makes every offered file visible and removes stale generated files; returns the size and
    /// modification time of every file, in path order. When a file failed to be written, nothing is
    /// made visible and the failure of the first file in path order is thrown.
    func commit() throws(IOFailure) -> [GenerationCache.Entry] {
        lock.lock()
        let offers = offers.values.sorted { $0.entry.path < $1.entry.path }
        // Every user file that would be replaced is named at once; otherwise the first failure in path order.
        let inOrder = failures.sorted { $0.key < $1.key }.map(\.value)
        let conflicts = inOrder.filter { $0.rule == IOFailure.userFileConflictRule }
        let failure = IOFailure.combined(conflicts) ?? inOrder.first
        lock.unlock()
        if let failure {
            abandon()
            throw failure
        }
        if let staging {
            if rename(staging, directory) != 0 {
                // The directory appeared meanwhile: move the files into it one by one.
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                for offer in offers {
                    let final = directory + "/" + offer.entry.path
                    guard rename(staging + "/" + offer.entry.path, final) == 0 else {
                        let failure = IOFailure(path: final, message: "cannot replace the file: \(Self.reason())")
                        abandon()
                        throw failure
                    }
                }
                try? FileManager.default.removeItem(atPath: staging)
            }
            return offers.map(\.entry)
        }
        for (position, offer) in offers.enumerated() {
            guard let temporary = offer.temporary else { continue }
            if rename(temporary, directory + "/" + offer.entry.path) != 0 {
                let failure = IOFailure(
                    path: directory + "/" + offer.entry.path, message: "cannot replace the file: \(Self.reason())")
                for later in offers[position...] { if let temporary = later.temporary { unlink(temporary) } }
                throw failure
            }
        }
        let produced = Set(offers.map(\.entry.path))
        for removal in OutputWriter.staleFiles(
            among: existingNames, producing: produced, in: directory, modelFileName: modelFileName)
        {
            let path = directory + "/" + removal
            guard unlink(path) == 0 || errno == ENOENT else {
                throw IOFailure(path: path, message: "cannot remove the stale file: \(Self.reason())")
            }
        }
        return offers.map(\.entry)
    }

    /// Removes everything written so far: the staging directory, or the temporary files.
    func abandon() {
        lock.lock()
        let offers = offers
        lock.unlock()
        if let staging {
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        for offer in offers.values { if let temporary = offer.temporary { unlink(temporary) } }
    }

    // MARK: - Files

    /// Creates the new file `name` (in ``folder``; `path` when `name` holds a slash or the folder is not open)
    /// with `bytes` and returns its status, or nil when it exists already; failures name `reportedAs`.
    private func create(_ name: String, orPath path: String, _ bytes: [UInt8], reportedAs: String) throws(IOFailure)
        -> stat?
    {
        let byName = folder >= 0 && !name.utf8.contains(UInt8(ascii: "/"))
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        let descriptor = byName ? openat(folder, name, flags, 0o644) : open(path, flags, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { return nil }
            throw IOFailure(path: reportedAs, message: "cannot create the file: \(Self.reason())")
        }
        var info = stat()
        var failure = AtomicFileWriter.writeAll(bytes, to: descriptor)
        if failure == nil, fstat(descriptor, &info) != 0 { failure = Self.reason() }
        if close(descriptor) != 0, failure == nil { failure = Self.reason() }
        if let failure {
            if byName { unlinkat(folder, name, 0) } else { unlink(path) }
            throw IOFailure(path: reportedAs, message: "cannot write the file: \(failure)")
        }
        return info
    }

    /// The status of whatever is at `path` (what a link points to, else the link itself), or nil when nothing is.
    private static func status(of path: String) -> stat? {
        var info = stat()
        if stat(path, &info) == 0 || lstat(path, &info) == 0 { return info }
        return nil
    }

    private static func entry(_ path: String, _ info: stat) -> GenerationCache.Entry {
        GenerationCache.Entry(path: path, size: Int64(info.st_size), modified: GenerationCache.modificationTime(info))
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
