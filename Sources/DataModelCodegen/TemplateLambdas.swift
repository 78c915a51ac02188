import DataModelNaming
import Mustache

/// The lambdas every template of the generator can call, answered below the model's keys (at the root of the
/// context stack): `{{#uppercase}}{{name}}{{/uppercase}}` renders its content, then transforms the text.
///
/// Documented in `Templates/README.md`; the default templates use none of them. A key table that names only
/// these five keys means every other lookup skips this context without a call.
final class TemplateLambdas: KeyedMustacheObject {
    enum Key: String, CaseIterable, Sendable {
        case uppercase, lowercase, capitalized, camelCase, snakeCase
    }

    static let keys = makeKeys()

    /// The context every render starts with, below the model's.
    static let context = MustacheValue.object(TemplateLambdas())

    private static let uppercase = lambda(.uppercase)
    private static let lowercase = lambda(.lowercase)
    private static let capitalized = lambda(.capitalized)
    private static let camelCase = lambda(.camelCase)
    private static let snakeCase = lambda(.snakeCase)

    private static func lambda(_ key: Key) -> MustacheValue {
        .lambda(MustacheLambda.transform { text in transform(text, by: key) })
    }

    func value(for known: Key) -> MustacheValue? {
        switch known {
        case .uppercase: Self.uppercase
        case .lowercase: Self.lowercase
        case .capitalized: Self.capitalized
        case .camelCase: Self.camelCase
        case .snakeCase: Self.snakeCase
        }
    }

    /// `text` transformed as the lambda `key` does it.
    static func transform(_ text: String, by key: Key) -> String {
        switch key {
        case .uppercase: text.uppercased()
        case .lowercase: text.lowercased()
        case .capitalized: ModelNaming.capitalized(text)
        case .camelCase: camelCase(words(in: text))
        case .snakeCase: words(in: text).map { $0.lowercased() }.joined(separator: "_")
        }
    }

    /// `first_name`, `FirstName`, `first name` → `firstName`; `URLSession` → `urlSession`. The first word is
    /// lower-cased, the others keep their letters with the first one upper-cased.
    private static func camelCase(_ words: [Substring]) -> String {
        guard let first = words.first else { return "" }
        return first.lowercased() + words.dropFirst().map { ModelNaming.capitalized(String($0)) }.joined()
    }

    /// The words of an identifier or phrase: split at every character that is neither a letter nor a digit,
    /// before an upper-case letter that follows a lower-case letter or a digit, and before the last capital
    /// of a run followed by a lower-case letter (`URLSession` → `URL`, `Session`).
    static func words(in text: String) -> [Substring] {
        var words: [Substring] = []
        var start: String.Index?
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            guard character.isLetter || character.isNumber else {
                if let wordStart = start { words.append(text[wordStart..<index]) }
                start = nil
                previous = nil
                index = next
                continue
            }
            if let wordStart = start, let previous, character.isUppercase {
                let follows = previous.isLowercase || previous.isNumber
                let endsAcronym =
                    previous.isUppercase && next < text.endIndex && text[next].isLowercase
                if follows || endsAcronym {
                    words.append(text[wordStart..<index])
                    start = index
                }
            }
            if start == nil { start = index }
            previous = character
            index = next
        }
        if let wordStart = start { words.append(text[wordStart..<text.endIndex]) }
        return words
    }
}
