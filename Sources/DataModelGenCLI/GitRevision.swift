import DataModel
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A model as git has it at a revision, written into a temporary directory (for `diff --git REV`).
enum GitRevision {
    /// Writes the files of the model at `path` (a bundle, a version directory or a `contents` file) as they are
    /// at `revision` into a new temporary directory; returns the directory (for the caller to remove) and the
    /// model's path in it.
    static func materialize(path: String, revision: String) throws -> (root: String, model: String) {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let directory = PathName.deletingLastComponent(trimmed)
        let workingDirectory = directory.isEmpty ? "." : directory
        let name = PathName.lastComponent(trimmed)
        guard !revision.hasPrefix("-") else { throw UsageError("'--git \(revision)' is not a revision") }
        let prefix = try text(run(["git", "-C", workingDirectory, "rev-parse", "--show-prefix"], path: path))
            .trimmingSuffix("\n")
        let listing = try text(
            run(
                [
                    "git", "-C", workingDirectory, "ls-tree", "-r", "--name-only", "--full-tree", revision, "--",
                    prefix + name,
                ],
                path: path))
        let files = listing.split(separator: "\n").map(String.init)
        guard !files.isEmpty else {
            throw ModelLoadingError(
                .io,
                [
                    .error(
                        "'\(path)' does not exist at git revision '\(revision)'", rule: .ioError,
                        at: SourceLocation(file: path))
                ])
        }
        let root =
            FileManager.default.temporaryDirectory.path
            + "/datamodelgen-git-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for file in files {
            let contents = try run(["git", "-C", workingDirectory, "show", "\(revision):\(file)"], path: path)
            let relative = String(file.dropFirst(prefix.count))
            let target = root + "/" + relative
            try FileManager.default.createDirectory(
                atPath: PathName.deletingLastComponent(target), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: target, contents: Data(contents)) else {
                throw IOFailure(path: target, message: "cannot write the model as it is at \(revision)")
            }
        }
        return (root, root + "/" + name)
    }

    /// Runs `arguments` (found on the `PATH`) and returns its standard output; a failure is an I/O error naming
    /// what git said.
    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func run(_ arguments: [String], path: String) throws -> [UInt8] {
        var pipes: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&pipes) == 0, pipe(&errors) == 0 else { throw IOFailure(path: path, message: "cannot start git") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipes[0])
        posix_spawn_file_actions_addclose(&actions, errors[0])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        close(pipes[1])
        close(errors[1])
        defer {
            close(pipes[0])
            close(errors[0])
        }
        guard spawned == 0 else { throw IOFailure(path: path, message: "cannot run git (is it installed?)") }
        // Standard error is small; read standard output to the end first, then the errors.
        let output = readAll(pipes[0])
        let message = readAll(errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw IOFailure(
                path: path,
                message: "git \(arguments[3]) failed: " + String(decoding: message, as: UTF8.self).trimmingSuffix("\n"))
        }
        return output
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return bytes
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
