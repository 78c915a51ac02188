extension MustacheValue: Decodable {
    /// Decodes any JSON-like value: objects become dictionaries, arrays lists, `null` the null value.
    ///
    /// Numbers decode as integers when they are integral and fit an `Int`, as doubles otherwise.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: MustacheCodingKey.self) {
            self = try Self.decodeDictionary(from: container)
        } else if var container = try? decoder.unkeyedContainer() {
            self = try Self.decodeArray(from: &container)
        } else {
            self = try Self.decodeScalar(from: decoder.singleValueContainer())
        }
    }

    private static func decodeDictionary(
        from container: KeyedDecodingContainer<MustacheCodingKey>
    ) throws -> MustacheValue {
        var entries: [String: MustacheValue] = [:]
        entries.reserveCapacity(container.allKeys.count)
        for key in container.allKeys {
            entries[key.stringValue] = try container.decode(MustacheValue.self, forKey: key)
        }
        return .dictionary(entries)
    }

    private static func decodeArray(from container: inout any UnkeyedDecodingContainer) throws -> MustacheValue {
        var elements: [MustacheValue] = []
        while !container.isAtEnd {
            elements.append(try container.decode(MustacheValue.self))
        }
        return .array(elements)
    }

    private static func decodeScalar(from container: any SingleValueDecodingContainer) throws -> MustacheValue {
        if container.decodeNil() {
            return .null
        }
        if let value = try? container.decode(Bool.self) {
            return .bool(value)
        }
        if let value = try? container.decode(Int.self) {
            return .int(value)
        }
        if let value = try? container.decode(Double.self) {
            return .double(value)
        }
        return .string(try container.decode(String.self))
    }
}

/// A coding key that accepts any dictionary key.
private struct MustacheCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
