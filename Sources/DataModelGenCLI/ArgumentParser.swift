import DataModel

/// A small, hand-written command-line argument parser.
///
/// Supports `--name value`, `--name=value`, boolean flags, repeated options, positionals and `--`.
/// Unknown options produce an error with a "did you mean" suggestion.
struct ArgumentParser {
    /// One option a command accepts, declared once (see `CommandOptions.swift`): parsing, help and reading
    /// the parsed value all go through the declaration, never through its name.
    struct Option: Sendable {
        /// The long name without dashes (`output`).
        var name: String
        /// The value's placeholder in help (`DIR`), or nil for a flag.
        var valueName: String?
        /// Whether the value names a file or directory (then it must not be empty).
        var isPath: Bool
        /// The accepted values, when the set is closed.
        var allowedValues: [String]?
        /// One line of help.
        var help: String
        /// The value as a usage line shows it, when not the accepted values or the placeholder.
        var usageValue: String?

        /// A boolean flag.
        static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, valueName: nil, isPath: false, allowedValues: nil, help: help)
        }

        /// An option taking a value; a usage line shows `usage`, else the accepted values, else `valueName`.
        static func value(
            _ name: String, _ valueName: String, _ help: String, allowed: [String]? = nil, usage: String? = nil
        ) -> Option {
            Option(
                name: name, valueName: valueName, isPath: false, allowedValues: allowed, help: help, usageValue: usage)
        }

        /// An option taking a path (`FILE` or `DIR`), which must not be empty.
        static func path(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, valueName: valueName, isPath: true, allowedValues: nil, help: help)
        }

        /// The option as help's list shows it: `--output DIR`.
        var synopsis: String { "--" + name + (valueName.map { " " + $0 } ?? "") }

        /// The option as a usage line shows it: `--output DIR`, `[--access public|internal]` when optional.
        func usage(required: Bool = false) -> String {
            var text = "--" + name
            if let valueName { text += " " + (usageValue ?? allowedValues?.joined(separator: "|") ?? valueName) }
            return required ? text : "[" + text + "]"
        }
    }

    /// What was parsed.
    struct Parsed: Sendable {
        var positionals: [String] = []
        /// Every value given, by option name, in order.
        private(set) var valuesByName: [String: [String]] = [:]
        /// The names of the flags given.
        private(set) var flags: Set<String> = []

        /// The last value given for `option`.
        func value(_ option: Option) -> String? { valuesByName[option.name]?.last }

        /// Every value given for `option` (a repeatable option), in order, or nil when it was not given.
        func values(_ option: Option) -> [String]? { valuesByName[option.name] }

        /// Whether the flag `option` was given.
        func flag(_ option: Option) -> Bool { flags.contains(option.name) }

        fileprivate mutating func add(_ value: String, for option: Option) {
            valuesByName[option.name, default: []].append(value)
        }

        fileprivate mutating func set(_ option: Option) {
            flags.insert(option.name)
        }
    }

    let options: [Option]

    /// Parses `arguments` (without the program and command names).
    func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var parsed = Parsed()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                // An empty path names nothing; catching it here beats a diagnostic without a file name.
                guard !argument.isEmpty else { throw UsageError("an empty argument is not a path") }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(unknownOption: argument, suggestion: suggestion(for: name))
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                parsed.set(option)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("option '--\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            // A path option given an empty value names nothing (and crashed path handling).
            if value.isEmpty, option.isPath {
                throw UsageError("option '--\(name)' needs a non-empty path")
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw UsageError(
                    "invalid value '\(value)' for '--\(name)'; expected one of: \(allowed.joined(separator: ", "))")
            }
            parsed.add(value, for: option)
        }
        return parsed
    }

    /// The known option closest to `name`, if it is close enough to be a likely typo.
    func suggestion(for name: String) -> String? {
        if name.count >= 2, let prefixed = options.first(where: { $0.name.hasPrefix(name) }) {
            return "--" + prefixed.name
        }
        let scored = options.map { (option: $0.name, distance: NameSuggestion.distance(name, $0.name)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let limit = max(2, name.count / 3)
        if best.distance <= limit || best.option.hasPrefix(name) || name.hasPrefix(best.option) {
            return "--" + best.option
        }
        return nil
    }
}

/// A mistake in how the command was called (exit code 2).
struct UsageError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ message: String) {
        description = message
    }

    init(unknownOption: String, suggestion: String?) {
        var message = "unknown option '\(unknownOption)'"
        if let suggestion { message += "; did you mean '\(suggestion)'?" }
        description = message
    }
}
