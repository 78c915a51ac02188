#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Any property-list value, so a store's metadata (`Z_METADATA.Z_PLIST`, a binary property list that Core Data
/// fills with keys of its own) can be read, changed in one key and written back with every other key kept.
public enum PropertyListValue: Codable, Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            var entries: [String: PropertyListValue] = [:]
            for key in container.allKeys {
                entries[key.stringValue] = try container.decode(PropertyListValue.self, forKey: key)
            }
            self = .dictionary(entries)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [PropertyListValue] = []
            while !container.isAtEnd { elements.append(try container.decode(PropertyListValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            // Binary property lists keep every scalar's type, so exactly one of these matches.
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .real(value)
            } else if let value = try? container.decode(Data.self) {
                self = .data(value)
            } else if let value = try? container.decode(Date.self) {
                self = .date(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .dictionary(let entries):
            var container = encoder.container(keyedBy: Key.self)
            for key in entries.keys.sorted() {
                if let value = entries[key] { try container.encode(value, forKey: Key(stringValue: key)) }
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .real(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .date(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .data(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}
