import DataModel
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file atomically: the bytes go to a temporary file in the same directory, which is then
/// renamed over the destination, so readers (and a build interrupted mid-way) never see a partial file.
///
/// Unlike `Data.write(options: .atomic)` it does not `fsync` each file: generated code can always be
/// regenerated, and thousands of syncs made writing a large model's output take seconds.
enum AtomicFileWriter {
    /// This process's ID, part of every temporary name it makes.
    static let processID = getpid()
    private static let temporaryCounter = Atomic<UInt64>(0)

    /// A new temporary name for a file or directory named `name`: `.<name>.datamodelgen-<pid>-<n>`, hidden, and
    /// unique within this process (see ``isLeftover(_:)``).
    static func temporaryName(for name: String) -> String {
        ".\(name).datamodelgen-\(processID)-\(temporaryCounter.add(1, ordering: .relaxed).oldValue)"
    }

    /// Whether `name` is a temporary name (``temporaryName(for:)``) made by a process that no longer runs: a
    /// run killed before it could clean up. Names of running processes (this one included) are not.
    static func isLeftover(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.ranges(of: ".datamodelgen-").last else {
            return false
        }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt64(parts[1]) != nil, pid != processID else {
            return false
        }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Writes all of `bytes` to the open file `descriptor`; nil when they are written, else why not.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let result = write(descriptor, base + offset, buffer.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += result
            }
            return nil
        }
    }

    /// Writes `contents` to `path`, replacing any existing file; new files get mode 0644 (less the umask).
    static func store(_ contents: String, at path: String) throws(IOFailure) {
        try store(Array(contents.utf8), at: path)
    }

    /// Writes `bytes` to `path`, replacing any existing file; new files get mode 0644 (less the umask).
    static func store(_ bytes: [UInt8], at path: String) throws(IOFailure) {
        let directory = PathName.deletingLastComponent(path)
        let name = lastComponent(of: path)
        var attempt = 0
        var temporary: String
        var descriptor: Int32
        repeat {
            // A leftover of a killed run with the same name is stepped over.
            temporary = (directory.isEmpty ? "." : directory) + "/" + temporaryName(for: name)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            attempt += 1
        } while descriptor < 0 && errno == EEXIST && attempt < 100
        guard descriptor >= 0 else { throw failure(path, "cannot create a temporary file") }
        let problem = writeAll(bytes, to: descriptor)
        let closed = close(descriptor) == 0
        guard problem == nil, closed else {
            unlink(temporary)
            throw IOFailure(
                path: path, message: "cannot write the file: \(problem ?? String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw failure(path, "cannot replace the file")
        }
    }

    /// `NSString.lastPathComponent`, without its cost for the usual `directory/file` path.
    static func lastComponent(of path: String) -> String {
        let slash = UInt8(ascii: "/")
        if let last = path.utf8.last, last != slash, let index = path.utf8.lastIndex(of: slash) {
            return String(path[path.utf8.index(after: index)...])
        }
        return PathName.lastComponent(path)
    }

    private static func failure(_ path: String, _ message: String) -> IOFailure {
        IOFailure(path: path, message: "\(message): \(String(cString: strerror(errno)))")
    }
}
