import DataModel
import FoundationEssentials

/// The one place that decides how model names become Swift identifiers.
///
/// Rules, applied in this order:
/// 1. A name that is a Swift keyword (`class`, `default`, `protocol`, `self`, `Type` …) is written in
///    backticks wherever it is declared or used: `` `class` ``.
/// 2. A generated property whose name clashes with a member of the runtime's `ManagedObject`
///    (``runtimeReservedMembers``: `objectID`, `context`, `entity` …) gets a trailing underscore in the
///    runtime flavor (`context_`); the model name is still used for storage, key paths and predicates.
/// 3. A type reference whose name is also the name of a generated class (an entity named `Date`,
///    `Data`, `URL`, `Set` …) is qualified with its module (`Foundation.Date`, `Swift.Set`), so the
///    generated class and the standard type can coexist in one module.
public enum SwiftNaming {
    /// Words that must be escaped with backticks to be used as identifiers in declarations and member access.
    public static let keywords: Set<String> = [
        // Declarations
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol",
        // Contextual words that break member declarations or access
        "_", "some", "any", "each",
    ]

    /// Members of the runtime's `ManagedObject` that a generated property must not redeclare.
    public static let runtimeReservedMembers: Set<String> = [
        "objectID", "context", "managedObjectContext", "entity", "isInserted", "isUpdated", "isDeleted", "isFault",
        "hasChanges", "changedValues", "description", "debugDescription", "hashValue", "id", "observationRegistrar",
        "willAccess", "didChange", "primitiveValue", "setPrimitiveValue", "value", "setValue", "init", "deinit",
    ]

    /// Types the generated code refers to, with the module that declares them.
    public static let standardTypeModules: [String: String] = [
        "String": "Swift", "Bool": "Swift", "Int": "Swift", "Int16": "Swift", "Int32": "Swift", "Int64": "Swift",
        "Float": "Swift", "Double": "Swift", "Set": "Swift", "Array": "Swift", "Optional": "Swift",
        "Sequence": "Swift", "Identifiable": "Swift",
        "Date": "Foundation", "Data": "Foundation", "UUID": "Foundation", "URL": "Foundation",
        "Decimal": "Foundation", "IndexSet": "Foundation", "NSNumber": "Foundation",
        "NSDecimalNumber": "Foundation", "NSSet": "Foundation", "NSOrderedSet": "Foundation",
        "NSIndexSet": "Foundation", "NSObject": "ObjectiveC", "TimeInterval": "Foundation",
        "NSManagedObjectID": "CoreData", "NSFetchRequest": "CoreData", "NSManagedObject": "CoreData",
    ]

    /// `name` in backticks when it is a keyword.
    public static func escaped(_ name: String) -> String {
        needsEscaping(name) ? "`\(name)`" : name
    }

    /// Whether `name` needs backticks.
    public static func needsEscaping(_ name: String) -> Bool {
        keywordShapes.mightContain(name) && keywords.contains(name)
    }

    /// The first bytes and lengths of ``keywords``: most names are ruled out without hashing them.
    private static let keywordShapes = WordShapes(keywords)
    /// The first bytes and lengths of ``runtimeReservedMembers``.
    private static let reservedMemberShapes = WordShapes(runtimeReservedMembers)

    /// The first character upper-cased: `departments` → `Departments` (used in accessor names and selectors).
    public static func capitalized(_ name: String) -> String {
        // Fast path: a first ASCII byte followed by an ASCII byte is a whole character (a carriage return,
        // the one ASCII character that can join the next, is no letter).
        var bytes = name.utf8.makeIterator()
        if let first = bytes.next(), first < 0x80, bytes.next().map({ $0 < 0x80 }) ?? true {
            guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return name }
            let count = name.utf8.count
            return String(unsafeUninitializedCapacity: count) { buffer in
                var index = 0
                for byte in name.utf8 {
                    buffer[index] = index == 0 ? byte - 32 : byte
                    index += 1
                }
                return count
            }
        }
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// The first character lower-cased: `Departments` → `departments`.
    public static func lowercasedFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// The Swift property name for a model property in the runtime flavor (rule 2), unescaped.
    public static func runtimePropertyName(_ name: String) -> String {
        reservedMemberShapes.mightContain(name) && runtimeReservedMembers.contains(name) ? name + "_" : name
    }

    /// The Swift type named by a `customClassName`: a leading `.` (Xcode's "current module") is dropped;
    /// an explicit module (`MyKit.Tag`) is kept, since that is a valid qualified type. Empty gives nil.
    public static func customClassType(_ customClassName: String?) -> String? {
        guard var name = customClassName.map(Validator.trimmingWhitespace), !name.isEmpty else { return nil }
        while name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? nil : name
    }

    /// `type` qualified with its module when a generated class has the same name (rule 3).
    public static func qualified(_ type: String, generatedClassNames: Set<String>) -> String {
        guard generatedClassNames.contains(type), let module = standardTypeModules[type] else { return type }
        return "\(module).\(type)"
    }
}

/// Which (first byte, length) pairs occur in a set of words: a name whose pair does not occur is not one of
/// them, which a table lookup tells without hashing the name.
private struct WordShapes: Sendable {
    /// For each first byte, a bit per length below 64; longer words set bit 63.
    private var lengthsByFirstByte = [UInt64](repeating: 0, count: 256)

    init(_ words: Set<String>) {
        for word in words {
            guard let first = word.utf8.first else { continue }
            lengthsByFirstByte[Int(first)] |= Self.bit(forLength: word.utf8.count)
        }
    }

    /// Whether `name` could be one of the words; false means it certainly is not.
    func mightContain(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return true }
        return lengthsByFirstByte[Int(first)] & Self.bit(forLength: name.utf8.count) != 0
    }

    private static func bit(forLength length: Int) -> UInt64 {
        1 << UInt64(min(length, 63))
    }
}
