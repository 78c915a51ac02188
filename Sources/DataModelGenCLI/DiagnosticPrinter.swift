import DataModel
import FoundationEssentials

/// How diagnostics are printed.
enum DiagnosticsFormat: String, CaseIterable, Sendable {
    /// `path:line:column: error: message [rule-id]`, one a line.
    case text
    /// A JSON array of objects with `file`, `line`, `column`, `severity`, `message`, `rule`.
    case json
}

/// Prints diagnostics to standard error, sorted by location.
struct DiagnosticPrinter {
    var format: DiagnosticsFormat
    var warningsAsErrors: Bool
    var console: Console

    /// Applies `--warnings-as-errors`.
    func promote(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard warningsAsErrors else { return diagnostics }
        return diagnostics.map {
            var copy = $0
            if copy.severity == .warning { copy.severity = .error }
            return copy
        }
    }

    /// Prints the diagnostics; returns them after promotion.
    @discardableResult
    func print(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        let sorted = promote(diagnostics).sortedByLocation()
        switch format {
        case .text:
            for diagnostic in sorted { console.err(diagnostic.description + "\n") }
        case .json:
            let rows = sorted.map { diagnostic in
                JSONRow(
                    file: diagnostic.location.file, line: diagnostic.location.line,
                    column: diagnostic.location.column, severity: diagnostic.severity.rawValue,
                    message: diagnostic.message, rule: diagnostic.ruleID)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            if let data = try? encoder.encode(rows) {
                console.err(String(decoding: data, as: UTF8.self) + "\n")
            }
        }
        return sorted
    }
}

/// One diagnostic in `--diagnostics-format json` output.
private struct JSONRow: Encodable {
    let file: String
    let line: Int
    let column: Int
    let severity: String
    let message: String
    let rule: String
}
