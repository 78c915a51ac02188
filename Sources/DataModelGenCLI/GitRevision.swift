import DataModel
import FoundationEssentials
import ProcessSupport

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

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Runs `arguments` (git, found on the `PATH`) and returns its standard output; a failure is an I/O error naming
    /// what git said.
    private static func run(_ arguments: [String], path: String) throws -> [UInt8] {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(arguments, capturing: true)
        } catch {
            throw IOFailure(path: path, message: "cannot run git (is it installed?)")
        }
        guard outcome.termination == .exited(0) else {
            throw IOFailure(
                path: path,
                message: "git \(arguments[3]) failed: " + text(outcome.errors).trimmingSuffix("\n"))
        }
        return outcome.output
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
