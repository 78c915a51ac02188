import Foundation

/// Transformable values as Core Data stores them: its default transformer (`NSSecureUnarchiveFromData`) writes an
/// `NSKeyedArchiver` binary property list (`bplist00`…). The runtime's own format for `Codable` values is JSON;
/// both are read.
enum KeyedArchive {
    /// The classes a stored archive may contain: Foundation's property-list and value classes.
    static let allowedClasses: [AnyClass] = [
        NSArray.self, NSMutableArray.self, NSDictionary.self, NSMutableDictionary.self, NSSet.self,
        NSMutableSet.self, NSOrderedSet.self, NSString.self, NSMutableString.self, NSNumber.self, NSDate.self,
        NSData.self, NSMutableData.self, NSURL.self, NSUUID.self, NSNull.self,
    ]

    /// Whether `data` is a binary property list (`bplist00`), the form of a keyed archive.
    static func isArchive(_ data: Data) -> Bool {
        data.count >= 8 && data.prefix(8).elementsEqual("bplist00".utf8)
    }

    /// The root object of a keyed archive, as Swift values (see ``swiftValue(_:)``); `nil` when `data` is not an
    /// archive of the allowed classes.
    static func decode(_ data: Data) -> Any? {
        guard isArchive(data),
            let object = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: allowedClasses, from: data)
        else { return nil }
        return swiftValue(object)
    }

    /// An archive of `value` (Swift values or Foundation objects of the allowed classes), with secure coding, as
    /// `NSSecureUnarchiveFromData` reads it; `nil` when `value` holds anything else.
    static func encode(_ value: Any) -> Data? {
        guard let object = foundationObject(value) else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    }

    /// Foundation objects as Swift values: `String`, `Bool`, `Int` (integers) or `Double`, `Date`, `Data`, `URL`,
    /// `UUID`, `[Any]` (arrays and ordered sets), `[String: Any]` (dictionaries with string keys, else
    /// `[AnyHashable: Any]`), `Set<AnyHashable>`, and `NSNull` as it is.
    static func swiftValue(_ object: Any) -> Any {
        switch object {
        case let string as NSString: return String(describing: string)
        case let number as NSNumber:
            if String(describing: type(of: number)).contains("Boolean") { return number.boolValue }
            switch String(cString: number.objCType) {
            case "f", "d": return number.doubleValue
            case "Q": return number.uint64Value <= UInt64(Int.max) ? number.intValue : number.doubleValue
            default: return number.intValue
            }
        case let date as NSDate: return Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let data as NSData: return Data(referencing: data)
        case let url as NSURL: return url.absoluteURL ?? URL(fileURLWithPath: "/")
        case let uuid as NSUUID: return UUID(uuidString: uuid.uuidString) ?? UUID()
        case let array as NSArray: return array.map { swiftValue($0) }
        case let ordered as NSOrderedSet: return ordered.array.map { swiftValue($0) }
        case let dictionary as NSDictionary:
            var strings: [String: Any] = [:]
            var any: [AnyHashable: Any] = [:]
            var allStrings = true
            for (key, value) in dictionary {
                let swiftKey = swiftValue(key)
                let converted = swiftValue(value)
                if let text = swiftKey as? String { strings[text] = converted } else { allStrings = false }
                any[(swiftKey as? AnyHashable) ?? AnyHashable(String(describing: swiftKey))] = converted
            }
            return allStrings ? strings : any
        case let set as NSSet:
            return Set(
                set.map { element -> AnyHashable in
                    (swiftValue(element) as? AnyHashable) ?? AnyHashable(String(describing: element))
                })
        default: return object
        }
    }

    /// Swift values as Foundation objects of the allowed classes, or `nil` for anything else.
    static func foundationObject(_ value: Any) -> NSObject? {
        switch value {
        case let object as NSNull: return object
        case let text as String: return NSString(string: text)
        case let flag as Bool: return NSNumber(value: flag)
        case let integer as any BinaryInteger:
            if let exact = Int64(exactly: integer) { return NSNumber(value: exact) }
            if let exact = UInt64(exactly: integer) { return NSNumber(value: exact) }
            return nil
        case let number as Double: return NSNumber(value: number)
        case let number as Float: return NSNumber(value: number)
        case let date as Date: return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let data as Data: return NSData(data: data)
        case let url as URL: return NSURL(string: url.absoluteString)
        case let uuid as UUID: return NSUUID(uuidString: uuid.uuidString)
        case let array as [Any]:
            var objects: [AnyObject] = []
            for element in array {
                guard let object = foundationObject(element) else { return nil }
                objects.append(object)
            }
            return NSArray(array: objects)
        case let dictionary as [AnyHashable: Any]:
            var keys: [NSObject] = []
            var objects: [AnyObject] = []
            // Sorted keys: the same dictionary archives to the same bytes.
            for (key, element) in dictionary.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                guard let keyObject = foundationObject(key.base), let object = foundationObject(element) else {
                    return nil
                }
                keys.append(keyObject)
                objects.append(object)
            }
            return NSDictionary(objects: objects, forKeys: keys)
        case let set as Set<AnyHashable>:
            var objects: [AnyObject] = []
            for element in set {
                guard let object = foundationObject(element.base) else { return nil }
                objects.append(object)
            }
            return NSSet(array: objects)
        case let object as NSObject:
            return allowedClasses.contains { object.isKind(of: $0) } ? object : nil
        default: return nil
        }
    }

    /// The archived value as `T`: directly when it is one (`[String]`, `[String: Any]`, `Date`, …), else through
    /// JSON for `Codable` types whose JSON form the value has (`[String: Int32]`, a struct from a dictionary).
    static func cast<T: Decodable>(_ value: Any, to type: T.Type) -> T? {
        if let typed = value as? T { return typed }
        guard JSONSerialization.isValidJSONObject([value]),
            let json = try? JSONSerialization.data(withJSONObject: [value]),
            let decoded = try? JSONDecoder().decode([T].self, from: json)
        else { return nil }
        return decoded.first
    }

    /// Whether two Swift values archive the same (compared as Foundation objects).
    static func same(_ lhs: Any, _ rhs: Any) -> Bool {
        guard let left = foundationObject(lhs), let right = foundationObject(rhs) else { return false }
        return left.isEqual(right)
    }
}

extension ManagedObject {
    /// The value of the transformable attribute `key` when the store holds it as Core Data's default transformer
    /// (`NSSecureUnarchiveFromData`) writes it — an `NSKeyedArchiver` archive — as Swift values: `String`, `Bool`,
    /// `Int`, `Double`, `Date`, `Data`, `URL`, `UUID`, `[Any]`, `[String: Any]` (or `[AnyHashable: Any]`),
    /// `Set<AnyHashable>`, `NSNull`. `nil` when the attribute is empty or holds no such archive (the runtime's own
    /// JSON: use ``transformableValue(for:)``).
    ///
    /// ```swift
    /// let tags = note.archivedValue(for: "tags") as? [String]
    /// ```
    public final func archivedValue(for key: String) -> Any? {
        guard case .blob(let data) = primitiveValue(for: key) else { return nil }
        return KeyedArchive.decode(data)
    }

    /// Sets the transformable attribute `key` to an `NSKeyedArchiver` archive of `value`, as Core Data's default
    /// transformer writes it (for stores that go back to Core Data); `nil` clears it. When the attribute already
    /// holds an archive of an equal value, nothing changes (its bytes stay as they are).
    ///
    /// - Returns: `false` (and changes nothing) when `value` holds something other than the types
    ///   ``archivedValue(for:)`` reads.
    @discardableResult
    public final func setArchivedValue(_ value: Any?, for key: String) -> Bool {
        guard let value else {
            setPrimitiveValue(.null, for: key)
            return true
        }
        if let current = archivedValue(for: key), KeyedArchive.same(current, value) { return true }
        guard let archive = KeyedArchive.encode(value) else { return false }
        setPrimitiveValue(.blob(archive), for: key)
        return true
    }
}
