/// The files a caller declared in advance (`--expect-output`), checked against what `generate` produces.
///
/// A SwiftPM build-tool plugin must name every output before the tool runs, so the plugin predicts them from a
/// quick scan of the model. When the prediction and the generator disagree, the build would compile the wrong
/// set of files; this check turns that into one clear error instead.
enum ExpectedOutputs {
    /// Describes how `produced` differs from `expected`, or returns nil when both name the same files.
    static func mismatch(expected: [String], produced: [String]) -> String? {
        let expectedSet = Set(expected)
        let producedSet = Set(produced)
        guard expectedSet != producedSet else { return nil }
        var parts: [String] = []
        let undeclared = producedSet.subtracting(expectedSet).sorted()
        if !undeclared.isEmpty { parts.append("generates undeclared \(list(undeclared))") }
        let missing = expectedSet.subtracting(producedSet).sorted()
        if !missing.isEmpty { parts.append("does not generate declared \(list(missing))") }
        return "the declared outputs do not match the model: it "
            + parts.joined(separator: " and ")
            + " (a bug in the build plugin's model scan; please report it)"
    }

    private static func list(_ paths: [String]) -> String {
        paths.map { "'\($0)'" }.joined(separator: ", ")
    }
}
