import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs other programs from the command-line tool (`git` for `diff --git`, `datamodelgen-postgres` for `migrate` on a
/// PostgreSQL URL) with `posix_spawn`, and finds a program installed beside the running one.
///
/// Not Foundation's `Process`: it lives in the part of Foundation the tool does not link (see `SystemSupport.swift`).
public enum ChildProcess {
    /// How a program ended.
    public enum Termination: Hashable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal (its number) ended it.
        case signaled(Int32)
    }

    /// A program that ran: how it ended and, when they were captured, what it wrote.
    public struct Outcome: Sendable {
        /// How it ended.
        public var termination: Termination
        /// What it wrote to its standard output (empty when not captured).
        public var output: [UInt8]
        /// What it wrote to its standard error (empty when not captured).
        public var errors: [UInt8]
    }

    /// A program that could not be started.
    public struct SpawnFailure: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
        /// The program as it was given.
        public var program: String
        /// The `errno` value `posix_spawn` or `pipe` returned.
        public var code: Int32

        public var description: String {
            let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
            return "cannot run \(program): \(reason)"
        }

        public var errorDescription: String? { description }
    }

    /// Runs `arguments[0]` (a path when it contains a slash, otherwise found on the `PATH`) with `arguments`, in this
    /// process's environment and working directory, and waits for it to end.
    ///
    /// With `capturing`, its standard output and standard error are read while it runs (both at once, so neither
    /// pipe fills up and stalls it) and returned; otherwise it writes to this process's. Standard input is this
    /// process's either way.
    public static func run(_ arguments: [String], capturing: Bool) throws(SpawnFailure) -> Outcome {
        guard let program = arguments.first else { throw SpawnFailure(program: "", code: EINVAL) }
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        if capturing {
            guard pipe(&outputPipe) == 0 else { throw SpawnFailure(program: program, code: errno) }
            guard pipe(&errorPipe) == 0 else {
                let code = errno
                close(outputPipe[0])
                close(outputPipe[1])
                throw SpawnFailure(program: program, code: code)
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
            for descriptor in outputPipe + errorPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, &argv, environ)
        var output: [UInt8] = []
        var errors: [UInt8] = []
        if capturing {
            close(outputPipe[1])
            close(errorPipe[1])
            if spawned == 0 { readBoth(outputPipe[0], into: &output, errorPipe[0], into: &errors) }
            close(outputPipe[0])
            close(errorPipe[0])
        }
        guard spawned == 0 else { throw SpawnFailure(program: program, code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the signal, 0 for an exit.
        let signal = status & 0x7f
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        return Outcome(termination: termination, output: output, errors: errors)
    }

    /// Replaces the running program with the one at `arguments[0]` (a path), run with `arguments` in the same process:
    /// the same process id (a signal sent to it reaches the new program), standard input, output and error, environment
    /// and working directory. C's buffered streams are flushed first. Returns only by throwing, when it cannot.
    public static func replaceProcess(with arguments: [String]) throws(SpawnFailure) -> Never {
        guard let program = arguments.first else { throw SpawnFailure(program: "", code: EINVAL) }
        fflush(nil)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        execv(program, &argv)
        let code = errno
        for pointer in argv { free(pointer) }
        throw SpawnFailure(program: program, code: code)
    }

    /// Reads `first` and `second` to their ends, whichever has data first.
    private static func readBoth(
        _ first: Int32, into firstBytes: inout [UInt8], _ second: Int32, into secondBytes: inout [UInt8]
    ) {
        var descriptors = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while descriptors.contains(where: { $0.fd >= 0 }) {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if index == 0 { firstBytes += buffer[0..<count] } else { secondBytes += buffer[0..<count] }
                } else if count == 0 || errno != EINTR {
                    // The end (or a failure to read): a negative descriptor is one poll skips.
                    descriptors[index].fd = -1
                }
            }
        }
    }

    /// The program `name` installed with the running one: beside the running executable (its real path, through
    /// `/proc/self/exe` where there is one), beside the path it was started by (`CommandLine.arguments[0]`, as given and
    /// with its links resolved), then on the `PATH`. `nil` when none of them has an executable file of that name.
    public static func companion(named name: String) -> String? {
        var directories: [String] = []
        if let executable = realPath("/proc/self/exe") { directories.append(directory(of: executable)) }
        if let started = CommandLine.arguments.first, started.contains("/") {
            directories.append(directory(of: started))
            if let resolved = realPath(started) { directories.append(directory(of: resolved)) }
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        // An empty entry of the PATH is the working directory, as for the shell.
        directories += searchPath.split(separator: ":", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "." : String($0)
        }
        for directory in directories {
            let candidate = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
}
