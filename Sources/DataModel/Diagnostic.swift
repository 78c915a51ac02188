import FoundationEssentials

/// A position in a source file: a path with a 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Codable, Comparable {
    /// The file's path as the user gave it (never made absolute by us).
    public var file: String
    /// The 1-based line, or 0 when unknown.
    public var line: Int
    /// The 1-based column, or 0 when unknown.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// Set this encoder `userInfo` key to `true` to encode locations without their file.
    public static let omitsFileKey: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "DataModel.SourceLocation.omitsFile") else {
            preconditionFailure("a constant, valid coding key")  // safe: the raw value is a non-empty constant
        }
        return key
    }()

    enum CodingKeys: String, CodingKey { case file, line, column }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if encoder.userInfo[Self.omitsFileKey] as? Bool != true { try container.encode(file, forKey: .file) }
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decodeIfPresent(String.self, forKey: .file) ?? ""
        line = try container.decode(Int.self, forKey: .line)
        column = try container.decode(Int.self, forKey: .column)
    }

    /// `path:line:column`, leaving out the parts that are unknown.
    public var formatted: String {
        var text = file
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        return text
    }
}

/// How serious a diagnostic is.
public enum Severity: String, Sendable, Codable, Comparable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One message about the input: a problem found while loading, parsing or validating a model.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Error, warning or note.
    public var severity: Severity
    /// A human-readable message.
    public var message: String
    /// A stable identifier of the rule that produced this diagnostic, such as `missing-destination`: a
    /// ``RuleID``'s raw value.
    public var ruleID: String
    /// Where the problem is.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, rule ruleID: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.ruleID = ruleID
        self.location = location
    }

    /// Creates an error.
    public static func error(_ message: String, rule: RuleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, rule: rule.rawValue, at: location)
    }

    /// Creates a warning.
    public static func warning(_ message: String, rule: RuleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, rule: rule.rawValue, at: location)
    }

    /// Creates an error with a rule id given as text (code in this package passes a ``RuleID``).
    public static func error(_ message: String, rule: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, rule: rule, at: location)
    }

    /// Creates a warning with a rule id of a caller's own.
    public static func warning(_ message: String, rule: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, rule: rule, at: location)
    }

    /// Whether the diagnostic was reported for `rule`.
    public func isReported(for rule: RuleID) -> Bool {
        ruleID == rule.rawValue
    }

    /// The diagnostic as compilers print it: `path:line:column: error: message [rule-id]`, always on one
    /// line: control characters from the model (a name with `&#10;`) are escaped as `\n`, `\u{7}`.
    public var description: String {
        "\(Self.oneLine(location.formatted)): \(severity.rawValue): \(Self.oneLine(message)) [\(ruleID)]"
    }

    /// `text` with control characters escaped, so it cannot break the one-diagnostic-a-line format.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
    }

    enum CodingKeys: String, CodingKey {
        case severity, message, ruleID = "rule", location
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// The diagnostics sorted by location, then severity (errors first), then message.
    public func sortedByLocation() -> [Diagnostic] {
        sorted {
            if $0.location != $1.location { return $0.location < $1.location }
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            return ($0.ruleID, $0.message) < ($1.ruleID, $1.message)
        }
    }
}

/// An error that stops loading: it carries the diagnostics gathered so far.
public struct ModelLoadingError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, which decides the exit code.
    public enum Kind: Sendable {
        /// The input is not a valid model (exit code 1).
        case invalidModel
        /// The input could not be read (exit code 3).
        case io
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, with locations.
    public var diagnostics: [Diagnostic]

    /// Creates an error.
    public init(_ kind: Kind, _ diagnostics: [Diagnostic]) {
        self.kind = kind
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
