import DataModel
import DataModelNaming
import DataModelStoreLayout
import Mustache

/// Maps model types to Swift types, per flavor.
struct SwiftTypeMapper: Sendable {
    let flavor: Flavor
    /// Xcode's optionality in the runtime flavor (`--xcode-compatible`): see ``runtimeType(of:)``.
    let xcodeCompatible: Bool
    let generatedClassNames: Set<String>
    /// Whether any generated class shares its name with a standard type; usually not, and then no type
    /// needs qualifying.
    private let hasClashes: Bool
    /// The collection type names of relationships, shared by every relationship of the model.
    let relationshipTypeNames: RelationshipTypeNames

    /// The Swift type named by a `customClassName`: a leading `.` (Xcode's "current module") is dropped;
    /// an explicit module (`MyKit.Tag`) is kept, since that is a valid qualified type. Empty gives nil.
    static func customClassType(_ customClassName: String?) -> String? {
        guard var name = customClassName.map(Validator.trimmingWhitespace), !name.isEmpty else { return nil }
        while name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? nil : name
    }

    init(flavor: Flavor, generatedClassNames: Set<String>, xcodeCompatible: Bool = false) {
        self.flavor = flavor
        self.xcodeCompatible = xcodeCompatible
        self.generatedClassNames = generatedClassNames
        let hasClashes = ModelNaming.standardTypeModules.keys.contains { generatedClassNames.contains($0) }
        self.hasClashes = hasClashes
        let q = { (type: String) in
            hasClashes ? ModelNaming.qualified(type, generatedClassNames: generatedClassNames) : type
        }
        switch flavor {
        case .coredata:
            relationshipTypeNames = RelationshipTypeNames(
                flavor: flavor, unorderedSet: q("NSSet"), orderedSet: q("NSOrderedSet"), sequence: "",
                indexSet: q("NSIndexSet"))
        case .runtime:
            relationshipTypeNames = RelationshipTypeNames(
                flavor: flavor, unorderedSet: q("Set"), orderedSet: "", sequence: q("Sequence"),
                indexSet: q("IndexSet"),
                xcodePropertyTypes: xcodeCompatible ? (q("NSSet") + "?", q("NSOrderedSet") + "?") : nil)
        }
    }

    struct AttributeType {
        var name: String
        var isScalar: Bool
        /// Whether the runtime flavor stores the value through `Codable` (an object ID, or a transformable
        /// of a `Codable` type).
        var usesCodable = false
    }

    /// `type`, qualified when a generated class has its name, with `?` when `isOptional`.
    ///
    /// `optionalType` is `type` with `?`, spelled out so that the usual case (no clash) makes no new string.
    private func named(_ type: String, _ optionalType: String, isOptional: Bool) -> String {
        guard hasClashes else { return isOptional ? optionalType : type }
        let qualified = ModelNaming.qualified(type, generatedClassNames: generatedClassNames)
        return isOptional ? qualified + "?" : qualified
    }

    /// The Swift type of an attribute's property, with `?` when optional.
    func type(of attribute: UnsafePointer<Attribute>) -> AttributeType {
        switch flavor {
        case .coredata: coreDataType(of: attribute)
        case .runtime: runtimeType(of: attribute)
        }
    }

    /// Xcode's mapping: scalars only with `usesScalarValueType`, else `NSNumber?`; object types always optional.
    private func coreDataType(of attribute: UnsafePointer<Attribute>) -> AttributeType {
        let attribute = UnsafeAttributeFields(attribute)
        let scalar = attribute.isScalar
        func number(_ type: String) -> AttributeType {
            scalar
                ? .init(name: named(type, "", isOptional: false), isScalar: true)
                : .init(name: named("NSNumber", "NSNumber?", isOptional: true), isScalar: false)
        }
        func object(_ type: String, _ optionalType: String) -> AttributeType {
            .init(name: named(type, optionalType, isOptional: true), isScalar: false)
        }
        switch attribute.type {
        case .integer16: return number("Int16")
        case .integer32: return number("Int32")
        case .integer64: return number("Int64")
        case .double: return number("Double")
        case .float: return number("Float")
        case .boolean: return number("Bool")
        case .decimal: return object("NSDecimalNumber", "NSDecimalNumber?")
        case .string: return object("String", "String?")
        case .date: return object("Date", "Date?")
        case .binary: return object("Data", "Data?")
        case .uuid: return object("UUID", "UUID?")
        case .uri: return object("URL", "URL?")
        case .transformable:
            guard let custom = Self.customClassType(attribute.pointer.pointee.customClassName) else {
                return object("NSObject", "NSObject?")
            }
            return .init(name: custom + "?", isScalar: false)
        case .objectID: return object("NSManagedObjectID", "NSManagedObjectID?")
        case .composite: return .init(name: "[String: Any]?", isScalar: false)
        case .undefined: return object("NSObject", "NSObject?")
        }
    }

    /// Swift-native types: non-optional attributes are non-optional properties.
    ///
    /// With `xcodeCompatible`, Xcode's optionality instead: a scalar attribute (`Integer 16/32/64`, `Float`,
    /// `Double`, `Boolean` using a scalar type, as ``coreDataType(of:)`` decides) is a non-optional Swift scalar
    /// whether or not the model marks it optional (unset reads as 0 or false, as with Core Data), and every other
    /// attribute is optional (Xcode's `String?`, `Date?`; a number without a scalar type, Xcode's `NSNumber?`, is
    /// `Int16?`).
    private func runtimeType(of pointer: UnsafePointer<Attribute>) -> AttributeType {
        // A `Codable` transformable or an object ID has no empty value to stand in for a missing or
        // undecodable one, so its property is optional whatever the model says (a save still requires it).
        let attribute = UnsafeAttributeFields(pointer)
        let codableType = attribute.type == .transformable ? Self.runtimeTransformableType(pointer.pointee) : nil
        let hasNoEmptyValue = attribute.type == .objectID || codableType != nil
        let optional: Bool
        if xcodeCompatible {
            switch attribute.type {
            case .integer16, .integer32, .integer64, .float, .double, .boolean: optional = !attribute.isScalar
            default: optional = true
            }
        } else {
            optional = attribute.isOptional || attribute.isTransient || attribute.type == .undefined || hasNoEmptyValue
        }
        let name: String
        switch attribute.type {
        case .integer16: name = named("Int16", "Int16?", isOptional: optional)
        case .integer32: name = named("Int32", "Int32?", isOptional: optional)
        case .integer64: name = named("Int64", "Int64?", isOptional: optional)
        case .double: name = named("Double", "Double?", isOptional: optional)
        case .float: name = named("Float", "Float?", isOptional: optional)
        case .boolean: name = named("Bool", "Bool?", isOptional: optional)
        case .decimal: name = named("Decimal", "Decimal?", isOptional: optional)
        case .string: name = named("String", "String?", isOptional: optional)
        case .date: name = named("Date", "Date?", isOptional: optional)
        case .binary, .composite, .undefined: name = named("Data", "Data?", isOptional: optional)
        case .uuid: name = named("UUID", "UUID?", isOptional: optional)
        case .uri: name = named("URL", "URL?", isOptional: optional)
        case .transformable:
            if let codableType {
                name = codableType + "?"  // always optional: see above
            } else {
                name = named("Data", "Data?", isOptional: optional)
            }
        case .objectID: name = "ObjectID?"  // always optional: see above
        }
        return .init(
            name: name, isScalar: attribute.type.isNumeric || attribute.type == .boolean, usesCodable: hasNoEmptyValue)
    }
}

/// The collection types of one flavor's relationship properties and accessors, qualified once per model.
final class RelationshipTypeNames: Sendable {
    let flavor: Flavor
    /// `NSSet` (coredata) or `Set` (runtime).
    let unorderedSet: String
    /// `NSOrderedSet` (coredata); unused in the runtime flavor, which uses arrays.
    let orderedSet: String
    /// `Sequence` (runtime).
    let sequence: String
    /// `NSIndexSet` (coredata) or `IndexSet` (runtime).
    let indexSet: String
    /// `NSSet?` and `NSOrderedSet?`: the coredata flavor's to-many property types.
    let optionalUnorderedSet: String
    let optionalOrderedSet: String
    /// The runtime flavor's to-many property types with `--xcode-compatible` (`NSSet?`, `NSOrderedSet?`, Xcode's),
    /// or nil for the Swift-native `Set<Dest>` and `[Dest]`.
    let xcodePropertyTypes: (unordered: String, ordered: String)?

    init(
        flavor: Flavor, unorderedSet: String, orderedSet: String, sequence: String, indexSet: String,
        xcodePropertyTypes: (unordered: String, ordered: String)? = nil
    ) {
        self.flavor = flavor
        self.unorderedSet = unorderedSet
        self.orderedSet = orderedSet
        self.sequence = sequence
        self.indexSet = indexSet
        optionalUnorderedSet = unorderedSet + "?"
        optionalOrderedSet = orderedSet + "?"
        self.xcodePropertyTypes = xcodePropertyTypes
    }

    /// The property's type: `Dest?` for a to-one; `NSSet?`/`NSOrderedSet?` (coredata, and runtime with
    /// `--xcode-compatible`) or `Set<Dest>`/`[Dest]` (runtime) for a to-many. The destination is a generated class: it is never qualified.
    func propertyType(isToMany: Bool, isOrdered: Bool, destination: String) -> String {
        MustacheOutputBuffer.text {
            writePropertyType(isToMany: isToMany, isOrdered: isOrdered, destination: destination, to: &$0)
        }
    }

    /// Writes ``propertyType(isToMany:isOrdered:destination:)``.
    func writePropertyType(
        isToMany: Bool, isOrdered: Bool, destination: String, to output: inout MustacheOutputBuffer
    ) {
        guard isToMany else {
            output.append(destination)
            output.append(UInt8(ascii: "?"))
            return
        }
        switch flavor {
        case .coredata: output.append(isOrdered ? optionalOrderedSet : optionalUnorderedSet)
        case .runtime:
            if let xcodePropertyTypes {
                output.append(isOrdered ? xcodePropertyTypes.ordered : xcodePropertyTypes.unordered)
            } else if isOrdered {
                output.append(UInt8(ascii: "["))
                output.append(destination)
                output.append(UInt8(ascii: "]"))
            } else {
                output.append(unorderedSet)
                output.append(UInt8(ascii: "<"))
                output.append(destination)
                output.append(UInt8(ascii: ">"))
            }
        }
    }

    /// The argument type of the bulk accessors: empty for a to-one; `NSSet`/`NSOrderedSet` (coredata) or
    /// `some Sequence<Dest>` (runtime).
    func collectionType(isToMany: Bool, isOrdered: Bool, destination: String) -> String {
        MustacheOutputBuffer.text {
            writeCollectionType(isToMany: isToMany, isOrdered: isOrdered, destination: destination, to: &$0)
        }
    }

    /// Writes ``collectionType(isToMany:isOrdered:destination:)``.
    func writeCollectionType(
        isToMany: Bool, isOrdered: Bool, destination: String, to output: inout MustacheOutputBuffer
    ) {
        guard isToMany else { return }
        switch flavor {
        case .coredata: output.append(isOrdered ? orderedSet : unorderedSet)
        case .runtime:
            output.append("some " as StaticString)
            output.append(sequence)
            output.append(UInt8(ascii: "<"))
            output.append(destination)
            output.append(UInt8(ascii: ">"))
        }
    }
}

/// The fields of an attribute the type mapping reads, read in place.
private struct UnsafeAttributeFields {
    let pointer: UnsafePointer<Attribute>
    init(_ pointer: UnsafePointer<Attribute>) { self.pointer = pointer }
    var type: DataModel.AttributeType { pointer.pointee.type }
    var isScalar: Bool { pointer.pointee.isScalar }
    var isOptional: Bool { pointer.pointee.isOptional }
    var isTransient: Bool { pointer.pointee.isTransient }
}
