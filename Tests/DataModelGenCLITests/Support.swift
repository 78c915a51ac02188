import DataModel
import Foundation
import Testing

@testable import DataModelGenCLI

/// Collects what a ``Console`` writes; safe to use from any thread.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var standardOutput = ""
    private var standardError = ""

    var console: Console {
        Console(
            out: { [self] text in lock.withLock { standardOutput += text } },
            err: { [self] text in lock.withLock { standardError += text } })
    }

    var out: String { lock.withLock { standardOutput } }
    var err: String { lock.withLock { standardError } }
}

/// The outcome of one run of the tool.
struct ToolRun: Sendable {
    var code: ExitCode
    var out: String
    var err: String
}

/// Runs `CommandLineTool` in-process with `arguments`.
func runTool(_ arguments: [String]) -> ToolRun {
    let collector = OutputCollector()
    let code = CommandLineTool(console: collector.console).run(arguments)
    return ToolRun(code: code, out: collector.out, err: collector.err)
}

enum Paths {
    /// `Tests/DataModelGenCLITests`.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// `Tests/DataModelTests/Fixtures`.
    static let fixtures = testsDirectory.deletingLastPathComponent().appendingPathComponent("DataModelTests/Fixtures")
        .path
    /// `Tests/DataModelTests/Fixtures/Invalid`.
    static let invalid = fixtures + "/Invalid"
    /// The repository root.
    static let repositoryRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    /// A valid bundle with two versions.
    static let library = fixtures + "/Valid/Library.xcdatamodeld"
    /// A model whose only problem is a warning (a relationship without inverse).
    static let warningsOnly = invalid + "/MissingInverse.xcdatamodel"
    /// A model with a validation error.
    static let withError = invalid + "/MissingDestinationEntity.xcdatamodel"

    /// The built `datamodelgen` executable next to the test bundle, when it was built.
    static let executable = builtExecutable(named: "datamodelgen")

    /// The built `datamodelgen-postgres` executable next to the test bundle, when it was built.
    static let postgresExecutable = builtExecutable(named: "datamodelgen-postgres")

    /// The executable product `name` next to the test bundle (`swift build --build-tests` builds every product
    /// there), when it was built.
    static func builtExecutable(named name: String) -> URL? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in candidates {
            for candidate in [directory, directory.deletingLastPathComponent()] {
                let url = candidate.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: url.path)
                {
                    return url
                }
            }
        }
        return nil
    }
}

/// The result of running the built executable.
struct ProcessRun: Sendable {
    var status: Int32
    var exitedNormally: Bool
    var out: Data
    var err: Data
}

/// Runs the built `datamodelgen` with `arguments` in `directory`, with `environment` added to the test's own.
func runExecutable(
    _ executable: URL, _ arguments: [String], in directory: String, environment: [String: String] = [:]
) throws -> ProcessRun {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dmg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Files rather than pipes: no deadlock however much the tool prints.
    let outURL = scratch.appendingPathComponent("out")
    let errURL = scratch.appendingPathComponent("err")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    // A binary a test has just copied can be "busy" for a moment: another test's child, forked meanwhile, may still
    // hold the copy's write descriptor until it runs its own program (ETXTBSY). Try again then, with a new process.
    var attempt = 0
    var launched: Process?
    while launched == nil {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
            launched = process
        } catch let error as NSError {
            let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
            guard attempt < 50, underlying?.domain == NSPOSIXErrorDomain, underlying?.code == Int(ETXTBSY) else {
                throw error
            }
            attempt += 1
            usleep(20_000)
        }
    }
    // safe in a test: the loop ends only with a launched process.
    let process = launched!
    process.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    return ProcessRun(
        status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
        out: try Data(contentsOf: outURL), err: try Data(contentsOf: errURL))
}

/// Runs the built `datamodelgen` (or `executable`) as a process with `arguments`, in the test's working directory,
/// with `environment` added to the test's own; records an issue and returns exit code 3 with the reason in `err`
/// when it cannot run, or exits with a status that is no ``ExitCode``.
func runBuiltTool(
    _ arguments: [String], executable: URL? = Paths.executable, environment: [String: String] = [:]
) -> ToolRun {
    guard let executable else {
        Issue.record("datamodelgen was not built next to the test bundle")
        return ToolRun(code: .ioError, out: "", err: "not built")
    }
    do {
        let run = try runExecutable(
            executable, arguments, in: FileManager.default.currentDirectoryPath, environment: environment)
        let (out, err) = (String(decoding: run.out, as: UTF8.self), String(decoding: run.err, as: UTF8.self))
        guard run.exitedNormally, let code = ExitCode(rawValue: run.status) else {
            Issue.record("\(executable.lastPathComponent) ended with status \(run.status): \(err)")
            return ToolRun(code: .ioError, out: out, err: err)
        }
        return ToolRun(code: code, out: out, err: err)
    } catch {
        Issue.record("cannot run \(executable.path): \(error)")
        return ToolRun(code: .ioError, out: "", err: "\(error)")
    }
}

/// One diagnostic line of text-format standard error.
struct PrintedDiagnostic: Equatable, Sendable {
    var file: String
    var line: Int
    var column: Int
    var severity: String
    var message: String
    var rule: String

    /// Parses `path:line:column: severity: message [rule]` or `path: severity: message [rule]`.
    init?(_ text: String) {
        let withLine = /^(.+?):(\d+)(?::(\d+))?: (error|warning|note): (.+) \[([a-z0-9-]+)\]$/
        let withoutLine = /^(.+?): (error|warning|note): (.+) \[([a-z0-9-]+)\]$/
        if let match = text.wholeMatch(of: withLine) {
            file = String(match.1)
            line = Int(match.2) ?? -1
            column = match.3.flatMap { Int($0) } ?? 0
            severity = String(match.4)
            message = String(match.5)
            rule = String(match.6)
        } else if let match = text.wholeMatch(of: withoutLine) {
            file = String(match.1)
            line = 0
            column = 0
            severity = String(match.2)
            message = String(match.3)
            rule = String(match.4)
        } else {
            return nil
        }
    }
}
