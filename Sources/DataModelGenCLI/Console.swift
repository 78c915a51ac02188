import FoundationEssentials

/// Where a command writes: standard output and standard error, replaceable in tests.
public struct Console: Sendable {
    /// Writes to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes to standard error.
    public var err: @Sendable (String) -> Void

    /// Creates a console from two writers.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        out: { FileDescriptors.writeAll($0, to: 1) },
        err: { FileDescriptors.writeAll($0, to: 2) })
}

/// The process exit codes of `datamodelgen`.
///
/// `diff` answers a question, as diff(1) does: 0 the same, 1 different (``differences``), 2 when it cannot answer
/// (``diffError``: a model with errors, or a usage error), 3 when a file cannot be read.
public enum ExitCode: Int32, Sendable {
    /// Success.
    case success = 0
    /// The model (or generated output under `--check`) has errors.
    case modelError = 1
    /// The command was called wrongly.
    case usageError = 2
    /// A file could not be read or written.
    case ioError = 3

    /// `diff`: the two models differ (or their stores do), as diff(1)'s 1.
    public static let differences = ExitCode.modelError
    /// `diff`: either model has errors, so there is no answer, as diff(1)'s 2 ("trouble"); a usage error is 2 too.
    public static let diffError = ExitCode.usageError
}
