import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Small replacements for the parts of Foundation the tool used beyond `FoundationEssentials`: linking
// the rest of Foundation (CoreFoundation and its ICU data) doubled the time a dynamically linked
// `datamodelgen` took to start, and added most of a millisecond to a statically linked one.

/// A mutual-exclusion lock on a POSIX mutex, which the thread sanitizer understands (a
/// `Synchronization.Mutex` is built on raw futexes on Linux, which it cannot see).
final class PThreadLock: @unchecked Sendable {
    // @unchecked: the mutex is only touched through the pthread calls, which synchronize it.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits, with the lock held, until another thread calls ``broadcast()``; holds the lock again after.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread in ``wait()``.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// `body`'s result, computed with the lock held.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Text for the messages the tool prints.
enum MessageText {
    /// What went wrong, for a diagnostic: the system's words for a POSIX error (`Not a directory`),
    /// also when a file-system error wraps one; otherwise the error as Swift prints it.
    static func describe(_ error: any Error) -> String {
        if let error = error as? POSIXError { return systemMessage(error.code.rawValue) }
        if let error = error as? CocoaError {
            if let underlying = error.userInfo["NSUnderlyingError"] as? POSIXError {
                return systemMessage(underlying.code.rawValue)
            }
            return "file system error \(error.code.rawValue)"
        }
        return "\(error)"
    }

    private static func systemMessage(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }

    /// `text` followed by spaces up to `width` characters (none when it is that long already).
    static func padded(_ text: String, to width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }
}

/// Plain reads and writes on file descriptors.
enum FileDescriptors {
    /// Writes `text` to file descriptor `descriptor` (1 for standard output, 2 for standard error),
    /// all of it unless the descriptor fails.
    static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return }
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Up to the first `bytes` bytes of the regular file at `path`; `nil` when it is not one or cannot be
    /// read (opened without blocking, so a FIFO in its place does not hang the tool).
    static func head(of path: String, bytes: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var data = Data(count: bytes)
        var filled = 0
        let failed = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while filled < bytes {
                let count = read(descriptor, base + filled, bytes - filled)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { return true }
                if count == 0 { break }
                filled += count
            }
            return false
        }
        if failed { return nil }
        data.count = filled
        return data
    }
}
