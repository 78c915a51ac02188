import DataModel
import Foundation
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
    private static let processID = getpid()
    private static let temporaryCounter = Atomic<UInt64>(0)

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
            // The process ID and a per-process counter name the temporary file; a leftover of a killed
            // run with the same name is stepped over.
            temporary =
                (directory.isEmpty ? "." : directory)
                + "/.\(name).datamodelgen-\(processID)-\(temporaryCounter.add(1, ordering: .relaxed).oldValue)"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            attempt += 1
        } while descriptor < 0 && errno == EEXIST && attempt < 100
        guard descriptor >= 0 else { throw failure(path, "cannot create a temporary file") }
        var written = 0
        let count = bytes.count
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while written < count {
                let result = write(descriptor, base + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
        let closed = close(descriptor) == 0
        guard ok, closed else {
            unlink(temporary)
            throw failure(path, "cannot write the file")
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
        return (path as NSString).lastPathComponent
    }

    private static func failure(_ path: String, _ message: String) -> IOFailure {
        IOFailure(path: path, message: "\(message): \(String(cString: strerror(errno)))")
    }
}
