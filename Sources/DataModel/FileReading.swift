import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

/// Reads input files defensively: only regular files (a FIFO, a device such as `/dev/zero`, a
/// directory or a socket would block, never end or fail obscurely), and never more than a limit.
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
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if count == 0 { return .success(data) }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limit { return .failure(.tooLarge(size: data.count)) }
        }
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
