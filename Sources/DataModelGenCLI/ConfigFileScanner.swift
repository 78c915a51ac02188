/// Checks a config file's JSON syntax and finds where its top-level keys are, so that every problem with the
/// file is reported at a line and column (`JSONDecoder` reports neither).
///
/// It only scans: values are decoded by `JSONDecoder` once the syntax is known to be good. Nesting is bounded,
/// so a hostile file cannot exhaust the stack.
struct ConfigFileScanner {
    /// A 1-based line and column, columns counted in UTF-8 bytes as compilers count them.
    struct Position: Equatable {
        var line: Int
        var column: Int
    }

    /// The first syntax error in the file.
    struct SyntaxError: Error, Equatable {
        var position: Position
        var message: String
    }

    /// The scan of a well-formed file.
    struct Scan: Equatable {
        /// The top-level keys in file order, each with where its opening quote is (a key given twice: both).
        var keys: [(name: String, position: Position)]
        /// Whether the file's value is an object.
        var isObject: Bool

        static func == (lhs: Scan, rhs: Scan) -> Bool {
            lhs.isObject == rhs.isObject && lhs.keys.map(\.name) == rhs.keys.map(\.name)
                && lhs.keys.map(\.position) == rhs.keys.map(\.position)
        }

        /// Where `key` first appears, if it does.
        func position(of key: String) -> Position? { keys.first { $0.name == key }?.position }
    }

    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var keys: [(name: String, position: Position)] = []

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Scans `bytes` (a whole file).
    static func scan(_ bytes: [UInt8]) -> Result<Scan, SyntaxError> {
        var scanner = ConfigFileScanner(bytes)
        do throws(SyntaxError) {
            if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
            scanner.skipWhitespace()
            let isObject = scanner.peek == UInt8(ascii: "{")
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if scanner.peek != nil { throw scanner.error("unexpected text after the end of the JSON value") }
            return .success(Scan(keys: scanner.keys, isObject: isObject))
        } catch {
            return .failure(error)
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private var position: Position { Position(line: line, column: index - lineStart + 1) }

    private func error(_ message: String) -> SyntaxError { SyntaxError(position: position, message: message) }

    private mutating func skipWhitespace() {
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(SyntaxError) {
        guard peek == byte else { throw error(message) }
        index += 1
    }

    private mutating func value(depth: Int) throws(SyntaxError) {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        guard let byte = peek else { throw error("unexpected end of file; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw error("expected a value (a string, number, object, array, true, false or null)")
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) {
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw error(peek == UInt8(ascii: "}") ? "trailing comma before '}'" : "expected a key in double quotes")
            }
            let keyPosition = position
            let key = try string()
            if depth == 0 { keys.append((key, keyPosition)) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after the key")
            skipWhitespace()
            try value(depth: depth + 1)
            skipWhitespace()
            if peek == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "expected ',' or '}'")
            return
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) {
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            try value(depth: depth + 1)
            skipWhitespace()
            if peek == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "expected ',' or ']'")
            return
        }
    }

    /// A string starting at the opening quote; returns its bytes as text (escapes other than `\"` and `\\` kept
    /// as written: keys are compared with plain names only).
    private mutating func string() throws(SyntaxError) -> String {
        let start = position
        index += 1
        var text: [UInt8] = []
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = peek else { break }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                    text.append(escaped)
                    index += 1
                case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    text += [UInt8(ascii: "\\"), escaped]
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0..<4 {
                        guard let digit = peek, Self.isHexDigit(digit) else {
                            throw error("expected four hexadecimal digits after \\u")
                        }
                        index += 1
                    }
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))' in a string")
                }
            case 0..<0x20:
                throw error("a control character in a string (line breaks in strings must be written \\n)")
            default:
                text.append(byte)
                index += 1
            }
        }
        throw SyntaxError(position: start, message: "a string that is never closed")
    }

    private mutating func number() throws(SyntaxError) {
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, Self.isDigit(first) else { throw error("expected a digit") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek, Self.isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek, Self.isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while let byte = peek, Self.isDigit(byte) { index += 1 }
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let start = position
        for byte in word.utf8 {
            guard peek == byte else {
                throw SyntaxError(
                    position: start, message: "expected a value (a string, number, object, array, true, false or null)")
            }
            index += 1
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
