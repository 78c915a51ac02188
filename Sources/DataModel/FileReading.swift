import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

/// Reads input files defensively: only regular files (a FIFO, a device such as `/dev/zero`, a
/// directory or a socket would block, never end or fail obscurely), and never more than a limit.
///
/// The one process concern left in the core: loading (`ModelLoader`) is the pipeline's first stage and reads
/// the bundle with it; the command-line tool reads its config, templates and cache the same way.
public enum FileReading {
    /// Why a file could not be read.
    public enum Failure: Error, Sendable, Equatable {
        /// The path cannot be opened or read; the message says why.
        case unreadable(String)
        /// The path exists but is not a regular file (after following symbolic links).
        case notRegularFile(kind: String)
        /// The file holds more than the limit.
        case tooLarge(size: Int)
    }

    /// The contents of the regular file at `path`, at most `limit` bytes.
    public static func read(_ path: String, limit: Int) -> Result<Data, Failure> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { return .failure(.notRegularFile(kind: describe(kind))) }
        if Int(info.st_size) > limit { return .failure(.tooLarge(size: Int(info.st_size))) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        // Re-check the opened file: the path may have been swapped since stat.
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failure(.notRegularFile(kind: describe(info.st_mode & S_IFMT)))
        }
        if let mapped = mapped(descriptor, size: Int(info.st_size)) { return .success(mapped) }
        // One buffer of the file's size (and a byte more, so the first read can see the end), read into in
        // place and handed to `Data` without a copy; it grows only if the file grew since `fstat`.
        var capacity = min(max(Int(info.st_size), 0), limit) + 1
        guard var buffer = malloc(capacity) else { return .failure(.unreadable("out of memory")) }
        var count = 0
        while true {
            if count == capacity {
                guard count <= limit else {
                    free(buffer)
                    return .failure(.tooLarge(size: count))
                }
                capacity = min(capacity * 2, limit + 1)
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    return .failure(.unreadable("out of memory"))
                }
                buffer = grown
            }
            let read = systemRead(descriptor, buffer + count, capacity - count)
            if read < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                free(buffer)
                return .failure(.unreadable(message))
            }
            if read == 0 { break }
            count += read
        }
        if count > limit {
            free(buffer)
            return .failure(.tooLarge(size: count))
        }
        return .success(Data(bytesNoCopy: buffer, count: count, deallocator: .free))
    }

    /// A large file's bytes mapped into memory, or nil to read it instead.
    ///
    /// Mapping (all pages at once) costs a tenth of reading several megabytes into fresh memory. As compilers do
    /// with source files, only large files are mapped: a file truncated by another process while it is being
    /// parsed could then stop the process, where a read would have seen the old or the new bytes.
    private static func mapped(_ descriptor: Int32, size: Int) -> Data? {
        #if os(Linux)
            guard size >= 1 << 18 else { return nil }
            let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
            guard let address, address != MAP_FAILED else { return nil }
            return Data(bytesNoCopy: address, count: size, deallocator: .unmap)
        #else
            return nil
        #endif
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}

/// Path string helpers that are safe on every platform.
public enum PathName {
    /// `path` and `component` joined by a slash, like `NSString.appendingPathComponent` on Linux:
    /// no slash is added after a path that ends with one, and an empty side gives the other.
    public static func joined(_ path: String, _ component: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// The last component of `path`, like `NSString.lastPathComponent`: trailing slashes do not
    /// count (`a/b/` → `b`), `/` stays `/`, and a path without a slash is its own last component.
    public static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `path` without its last component, like `NSString.deletingLastPathComponent` (`a/b` → `a`, `/a` → `/`,
    /// `a` → empty), which swift-corelibs-foundation traps on when the last component is one character
    /// with nothing before it (`x`, `a/`, `.`).
    public static func deletingLastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var head = trimmed[..<slash]
        while head.count > 1 && head.hasSuffix("/") { head.removeLast() }
        return head.isEmpty ? "/" : String(head)
    }
}
