import Foundation

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

extension PropertyListValue {
    /// The value of an object `PropertyListSerialization` read (`String`, `Bool`, numbers, `Date`, `Data`, arrays,
    /// dictionaries with string keys); `nil` for anything else.
    public init?(propertyListObject object: Any) {
        // The common types first, each cast only once its type is known: a failing dynamic cast costs far more than
        // a successful one, and a store's metadata is read on every open.
        let kind = type(of: object)
        if kind == String.self, let text = object as? String {
            self = .string(text)
            return
        }
        if kind == [AnyHashable: Any].self, let dictionary = object as? [AnyHashable: Any] {
            var entries: [String: PropertyListValue] = [:]
            entries.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let name = key.base as? String, let value = PropertyListValue(propertyListObject: element) else {
                    return nil
                }
                entries[name] = value
            }
            self = .dictionary(entries)
            return
        }
        if kind == Data.self, let data = object as? Data {
            self = .data(data)
            return
        }
        switch object {
        case let text as String:
            self = .string(text)
        case let flag as Bool where type(of: object) == Bool.self:
            self = .bool(flag)
        case let number as NSNumber:
            if String(describing: type(of: number)).contains("Boolean") {
                self = .bool(number.boolValue)
                return
            }
            switch String(cString: number.objCType) {
            case "f", "d": self = .real(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        case let date as Date:
            self = .date(date)
        case let data as Data:
            self = .data(data)
        case let array as [Any]:
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let value = PropertyListValue(propertyListObject: element) else { return nil }
                elements.append(value)
            }
            self = .array(elements)
        case let dictionary as [AnyHashable: Any]:
            var entries: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let name = key.base as? String, let value = PropertyListValue(propertyListObject: element) else {
                    return nil
                }
                entries[name] = value
            }
            self = .dictionary(entries)
        default:
            return nil
        }
    }
}
