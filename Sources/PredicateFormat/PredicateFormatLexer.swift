/// A token of a predicate format string, with the format arguments already substituted.
struct PredicateFormatToken: Equatable {
    /// What the token is.
    var kind: Kind
    /// Its offset in the format string, in Unicode scalars.
    var offset: Int

    enum Kind: Equatable {
        /// A name: a C-style identifier, a `#`-escaped reserved word, or a word Foundation reserves that
        /// has no meaning in this grammar (`FIRST`, `SIZE`, …).
        case identifier(String)
        /// A reserved word with a meaning here (`AND`, `ANY`, `NIL`, …), case-insensitive.
        case keyword(PredicateFormatKeyword)
        /// A number literal as written, without sign.
        case number(text: String, radix: Int, isFloat: Bool)
        /// A quoted string, escapes resolved.
        case string(String)
        /// `$NAME`.
        case variable(String)
        /// `@name` (a collection operator).
        case collectionOperator(String)
        /// A value substituted for `%@`, `%d`, `%f`, `%s`, `%c`, ….
        case value(PredicateValue, specifier: String)
        /// A key path substituted for `%K`.
        case keyPathArgument([FormatExpression.KeyPathComponent])
        /// Punctuation or an operator symbol.
        case symbol(PredicateFormatSymbol)
        /// The end of the format string.
        case end
    }

    /// How the token reads in an error message.
    var quoted: String {
        switch kind {
        case .identifier(let name): "'\(abbreviated(name))'"
        case .keyword(let keyword): "'\(keyword.rawValue)'"
        case .number(let text, _, _): "'\(abbreviated(text))'"
        case .string(let text): "the string \"\(abbreviated(text))\""
        case .variable(let name): "'$\(abbreviated(name))'"
        case .collectionOperator(let name): "'@\(abbreviated(name))'"
        case .value(_, let specifier): "'\(specifier)'"
        case .keyPathArgument: "'%K'"
        case .symbol(let symbol): "'\(symbol.rawValue)'"
        case .end: "the end of the format string"
        }
    }
}

/// The punctuation and operator symbols of the format language.
enum PredicateFormatSymbol: String {
    case openParenthesis = "("
    case closeParenthesis = ")"
    case openBrace = "{"
    case closeBrace = "}"
    case openBracket = "["
    case closeBracket = "]"
    case comma = ","
    case dot = "."
    case plus = "+"
    case minus = "-"
    case star = "*"
    case power = "**"
    case slash = "/"
    case equalEqual = "=="
    case equal = "="
    case notEqual = "!="
    case lessGreater = "<>"
    case less = "<"
    case lessEqual = "<="
    case equalLess = "=<"
    case greater = ">"
    case greaterEqual = ">="
    case equalGreater = "=>"
    case ampersands = "&&"
    case bars = "||"
    case bang = "!"
    case colon = ":"
    case colonEqual = ":="
}

/// `text` cut to 20 characters and an ellipsis, for error messages.
func abbreviated(_ text: String) -> String {
    text.count > 20 ? text.prefix(20) + "…" : text
}

/// The reserved words that have a meaning in the grammar. All of Foundation's reserved words (these and
/// ``PredicateFormatLexer/reservedWithoutMeaning``) are escaped with `#` when printed as keys.
enum PredicateFormatKeyword: String, CaseIterable {
    case and = "AND"
    case or = "OR"
    case `in` = "IN"
    case not = "NOT"
    case all = "ALL"
    case any = "ANY"
    case some = "SOME"
    case none = "NONE"
    case like = "LIKE"
    case matches = "MATCHES"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case between = "BETWEEN"
    case null = "NULL"
    case `nil` = "NIL"
    case `self` = "SELF"
    case `true` = "TRUE"
    case yes = "YES"
    case `false` = "FALSE"
    case no = "NO"
    case subquery = "SUBQUERY"
    case cast = "CAST"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
}

/// Splits a format string into tokens, substituting format arguments as it goes (quoted text is
/// literal: `'%@'` is the two characters, as in Foundation).
struct PredicateFormatLexer {
    /// Words Foundation reserves that mean nothing in this grammar (index expressions and the like); they
    /// are accepted as names but printed `#`-escaped so Foundation can read the output.
    static let reservedWithoutMeaning: Set<String> = [
        "FIRST", "LAST", "SIZE", "ANYKEY", "FETCH", "CASEINSENSITIVE", "CI",
    ]

    private let format: String
    private let scalars: [Unicode.Scalar]
    private let arguments: [PredicateValue]
    private var position = 0
    private var argumentIndex = 0
    private var tokens: [PredicateFormatToken] = []

    /// Tokenizes `format`, substituting `arguments` for its format specifiers. Besides the tokens, returns
    /// the error for arguments left unused, which the parser reports only when the string parses (a
    /// syntax error is the more useful message).
    static func tokenize(_ format: String, arguments: [PredicateValue]) throws(PredicateFormatError)
        -> (tokens: [PredicateFormatToken], unusedArguments: PredicateFormatError?)
    {
        var lexer = PredicateFormatLexer(format: format, arguments: arguments)
        let tokens = try lexer.run()
        guard lexer.argumentIndex < arguments.count else { return (tokens, nil) }
        let unused = lexer.error(
            .argument,
            "too many arguments: the format string uses \(lexer.argumentIndex), \(arguments.count) given",
            at: lexer.scalars.count)
        return (tokens, unused)
    }

    private init(format: String, arguments: [PredicateValue]) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
        self.arguments = arguments
    }

    // MARK: Character classes

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
        }
        return scalar.properties.isAlphabetic
    }

    static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || (scalar >= "0" && scalar <= "9")
    }

    /// Whether `scalars` form one identifier token (not checking reserved words).
    static func isIdentifier<S: Collection<Unicode.Scalar>>(_ scalars: S) -> Bool {
        guard let first = scalars.first, isIdentifierStart(first) else { return false }
        return scalars.allSatisfy(isIdentifierContinue)
    }

    /// Whether `name` must be written `#name` to be read as a key: a reserved word of Foundation's.
    static func isReservedWord(_ name: String) -> Bool {
        guard let upper = asciiUppercased(name) else { return false }
        return PredicateFormatKeyword(rawValue: upper) != nil || reservedWithoutMeaning.contains(upper)
    }

    /// `name` in upper case when it is all ASCII (keywords are; `"ın"` must not read as `IN`), else nil.
    static func asciiUppercased(_ name: String) -> String? {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return name.uppercased()
    }

    private static func isDigit(_ scalar: Unicode.Scalar, radix: Int) -> Bool {
        switch radix {
        case 2: scalar == "0" || scalar == "1"
        case 8: scalar >= "0" && scalar <= "7"
        case 16:
            (scalar >= "0" && scalar <= "9") || (scalar >= "a" && scalar <= "f") || (scalar >= "A" && scalar <= "F")
        default: scalar >= "0" && scalar <= "9"
        }
    }

    // MARK: Scanning

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private func error(_ kind: PredicateFormatError.Kind, _ message: String, at offset: Int) -> PredicateFormatError {
        PredicateFormatError(kind, message, format: format, scalarOffset: offset)
    }

    private mutating func add(_ kind: PredicateFormatToken.Kind, at offset: Int) {
        tokens.append(PredicateFormatToken(kind: kind, offset: offset))
    }

    private mutating func run() throws(PredicateFormatError) -> [PredicateFormatToken] {
        while let scalar = peek() {
            let start = position
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
                || (!scalar.isASCII && scalar.properties.isWhitespace)
            {
                position += 1
            } else if PredicateFormatLexer.isIdentifierStart(scalar) {
                try scanWord(start: start)
            } else if scalar >= "0" && scalar <= "9" {
                try scanNumber(start: start)
            } else {
                switch scalar {
                case "\"", "'": add(.string(try scanString(start: start)), at: start)
                case "#":
                    position += 1
                    guard let name = scanName() else {
                        throw error(.syntax, "expected a name after '#'", at: position)
                    }
                    add(.identifier(name), at: start)
                case "$":
                    position += 1
                    guard let name = scanName() else {
                        throw error(.syntax, "expected a variable name after '$'", at: position)
                    }
                    add(.variable(name), at: start)
                case "@":
                    position += 1
                    guard let name = scanName() else {
                        throw error(.syntax, "expected a collection operator name after '@'", at: position)
                    }
                    add(.collectionOperator(name), at: start)
                case "%": try scanSpecifier(start: start)
                default: try scanSymbol(scalar, start: start)
                }
            }
        }
        add(.end, at: scalars.count)
        return tokens
    }

    private mutating func scanName() -> String? {
        guard let first = peek(), PredicateFormatLexer.isIdentifierStart(first) else { return nil }
        var name = String.UnicodeScalarView()
        while let scalar = peek(), PredicateFormatLexer.isIdentifierContinue(scalar) {
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    private mutating func scanWord(start: Int) throws(PredicateFormatError) {
        let name = scanName() ?? ""  // safe: the caller checked an identifier starts here
        let upper = PredicateFormatLexer.asciiUppercased(name) ?? name
        if upper == "UTI", peek() == "-" {
            throw error(.unsupported, "the UTI-CONFORMS-TO and UTI-EQUALS operators are not supported", at: start)
        }
        if let keyword = PredicateFormatKeyword(rawValue: upper) {
            add(.keyword(keyword), at: start)
        } else {
            add(.identifier(name), at: start)
        }
    }

    private mutating func scanNumber(start: Int) throws(PredicateFormatError) {
        var radix = 10
        if peek() == "0", let prefix = peek(1) {
            switch prefix {
            case "x", "X": radix = 16
            case "o", "O": radix = 8
            case "b", "B": radix = 2
            default: break
            }
        }
        var text = String.UnicodeScalarView()
        var isFloat = false
        if radix != 10 {
            position += 2
            while let scalar = peek(), PredicateFormatLexer.isDigit(scalar, radix: radix) {
                text.append(scalar)
                position += 1
            }
            if text.isEmpty {
                throw error(.syntax, "expected digits after '0\(scalars[start + 1])'", at: position)
            }
        } else {
            scanDigits(into: &text)
            if peek() == ".", let next = peek(1), PredicateFormatLexer.isDigit(next, radix: 10) {
                isFloat = true
                text.append(".")
                position += 1
                scanDigits(into: &text)
            }
            if peek() == "e" || peek() == "E" {
                let exponentStart = position
                var exponent = String.UnicodeScalarView(["e"])
                position += 1
                if let sign = peek(), sign == "+" || sign == "-" {
                    exponent.append(sign)
                    position += 1
                }
                guard let digit = peek(), PredicateFormatLexer.isDigit(digit, radix: 10) else {
                    throw error(.syntax, "expected digits in the exponent of a number", at: exponentStart)
                }
                scanDigits(into: &exponent)
                text.append(contentsOf: exponent)
                isFloat = true
            }
        }
        if let next = peek(), PredicateFormatLexer.isIdentifierContinue(next) {
            throw error(.syntax, "invalid character '\(next)' in a number", at: position)
        }
        add(.number(text: String(text), radix: radix, isFloat: isFloat), at: start)
    }

    private mutating func scanDigits(into text: inout String.UnicodeScalarView) {
        while let scalar = peek(), PredicateFormatLexer.isDigit(scalar, radix: 10) {
            text.append(scalar)
            position += 1
        }
    }

    private mutating func scanString(start: Int) throws(PredicateFormatError) -> String {
        let quote = scalars[start]
        position += 1
        var text = String.UnicodeScalarView()
        var pendingHighSurrogate: (value: UInt32, offset: Int)?
        while true {
            guard let scalar = peek() else {
                throw error(.syntax, "unterminated string literal", at: start)
            }
            let escapeStart = position
            position += 1
            if scalar == quote {
                break
            }
            guard scalar == "\\" else {
                if let pending = pendingHighSurrogate {
                    throw error(.syntax, "unpaired UTF-16 surrogate in a '\\u' escape", at: pending.offset)
                }
                text.append(scalar)
                continue
            }
            guard let escaped = peek() else {
                throw error(.syntax, "unterminated string literal", at: start)
            }
            position += 1
            var code: UInt32
            switch escaped {
            case "n": code = 0x0A
            case "t": code = 0x09
            case "r": code = 0x0D
            case "a": code = 0x07
            case "b": code = 0x08
            case "f": code = 0x0C
            case "v": code = 0x0B
            case "\\", "'", "\"": code = escaped.value
            case "x", "X": code = try scanEscapeDigits(count: 2, radix: 16, escapeStart: escapeStart)
            case "u", "U": code = try scanEscapeDigits(count: 4, radix: 16, escapeStart: escapeStart)
            case "0"..."7":
                position -= 1
                code = try scanEscapeDigits(count: 3, radix: 8, escapeStart: escapeStart)
            default:
                throw error(.syntax, "invalid escape '\\\(escaped)' in a string", at: escapeStart)
            }
            if let pending = pendingHighSurrogate {
                guard (0xDC00...0xDFFF).contains(code) else {
                    throw error(.syntax, "unpaired UTF-16 surrogate in a '\\u' escape", at: pending.offset)
                }
                code = 0x10000 + ((pending.value - 0xD800) << 10) + (code - 0xDC00)
                pendingHighSurrogate = nil
            } else if (0xD800...0xDBFF).contains(code) {
                pendingHighSurrogate = (code, escapeStart)
                continue
            }
            guard let decoded = Unicode.Scalar(code) else {
                throw error(.syntax, "invalid Unicode scalar in an escape", at: escapeStart)
            }
            text.append(decoded)
        }
        if let pending = pendingHighSurrogate {
            throw error(.syntax, "unpaired UTF-16 surrogate in a '\\u' escape", at: pending.offset)
        }
        return String(text)
    }

    private mutating func scanEscapeDigits(count: Int, radix: Int, escapeStart: Int) throws(PredicateFormatError)
        -> UInt32
    {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let scalar = peek(), PredicateFormatLexer.isDigit(scalar, radix: radix),
                let digit = UInt32(String(scalar), radix: radix)
            else {
                throw error(
                    .syntax, "expected \(count) \(radix == 8 ? "octal" : "hexadecimal") digits in an escape",
                    at: escapeStart)
            }
            value = value * UInt32(radix) + digit
            position += 1
        }
        return value
    }

    private mutating func scanSymbol(_ scalar: Unicode.Scalar, start: Int) throws(PredicateFormatError) {
        let next = peek(1)
        let symbol: String
        switch (scalar, next) {
        case ("*", "*"), ("=", "="), ("=", "<"), ("=", ">"), ("!", "="), ("<", "="), ("<", ">"), (">", "="),
            ("&", "&"), ("|", "|"), (":", "="):
            symbol = String(scalar) + String(next ?? " ")
        case ("(", _), (")", _), ("{", _), ("}", _), ("[", _), ("]", _), (",", _), (".", _), ("+", _), ("-", _),
            ("*", _), ("/", _), ("=", _), ("!", _), ("<", _), (">", _), (":", _):
            symbol = String(scalar)
        case ("&", _), ("|", _):
            throw error(.syntax, "unexpected '\(scalar)'; did you mean '\(scalar)\(scalar)'?", at: start)
        default:
            let shown =
                scalar.properties.isWhitespace || scalar.value < 0x20
                ? "U+\(String(scalar.value, radix: 16, uppercase: true))" : String(scalar)
            throw error(.syntax, "unexpected character '\(shown)'", at: start)
        }
        guard let known = PredicateFormatSymbol(rawValue: symbol) else {
            throw error(.syntax, "unexpected '\(symbol)'", at: start)  // safe: the cases above are all symbols
        }
        position += symbol.unicodeScalars.count
        add(.symbol(known), at: start)
    }

    // MARK: Format specifiers

    private enum Conversion {
        case object, keyPath, integer, double, string, character
    }

    private mutating func scanSpecifier(start: Int) throws(PredicateFormatError) {
        position += 1
        var specifier = "%"
        var length = ""
        while let scalar = peek(), "hlqLztj".unicodeScalars.contains(scalar), length.count < 2 {
            length.unicodeScalars.append(scalar)
            position += 1
        }
        specifier += length
        guard let conversionScalar = peek() else {
            throw error(.syntax, "incomplete format specifier '\(specifier)'", at: start)
        }
        position += 1
        specifier.unicodeScalars.append(conversionScalar)
        let conversion: Conversion
        switch conversionScalar {
        case "@" where length.isEmpty: conversion = .object
        case "K" where length.isEmpty: conversion = .keyPath
        case "d", "i", "o", "u", "x", "X", "D", "U", "O": conversion = .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": conversion = .double
        case "s", "S": conversion = .string
        case "c", "C": conversion = .character
        case "%" where length.isEmpty:
            throw error(
                .syntax, "'%%' is a literal '%', which can only appear inside a quoted string", at: start)
        default:
            throw error(.syntax, "unknown format specifier '\(specifier)'", at: start)
        }
        guard argumentIndex < arguments.count else {
            throw error(
                .argument,
                "missing argument for '\(specifier)': it is argument \(argumentIndex + 1), "
                    + "\(arguments.count) given",
                at: start)
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        func wrongKind() -> PredicateFormatError {
            error(
                .argument,
                "'\(specifier)' expects \(PredicateFormatLexer.expected(conversion)), "
                    + "got \(argument.kindNameWithArticle) (argument \(argumentIndex))",
                at: start)
        }
        switch (conversion, argument) {
        case (.object, _):
            add(.value(argument, specifier: specifier), at: start)
        case (.keyPath, .string(let path)):
            guard let components = FormatExpression.keyPathComponents(path) else {
                throw error(
                    .argument, "'%K' argument \"\(abbreviated(path))\" is not a key path (argument \(argumentIndex))",
                    at: start)
            }
            add(.keyPathArgument(components), at: start)
        case (.integer, .integer), (.double, .double), (.string, .string):
            add(.value(argument, specifier: specifier), at: start)
        case (.integer, .bool(let flag)):
            add(.value(.integer(flag ? 1 : 0), specifier: specifier), at: start)
        case (.double, .integer(let number)):
            add(.value(.double(Double(number)), specifier: specifier), at: start)
        case (.double, .decimal(let number)):
            add(.value(.double(Double("\(number)") ?? .nan), specifier: specifier), at: start)
        case (.character, .integer(let code)):
            guard let scalar = UInt32(exactly: code).flatMap(Unicode.Scalar.init) else { throw wrongKind() }
            add(.value(.string(String(Character(scalar))), specifier: specifier), at: start)
        case (.character, .string(let text)) where text.count == 1:
            add(.value(argument, specifier: specifier), at: start)
        default:
            throw wrongKind()
        }
    }

    private static func expected(_ conversion: Conversion) -> String {
        switch conversion {
        case .object: "a value"
        case .keyPath: "a key path string"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .character: "a character (a one-character string or a Unicode scalar value)"
        }
    }
}
