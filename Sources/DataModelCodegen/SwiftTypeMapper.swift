import DataModel
import DataModelStoreLayout

/// Maps model types to Swift types, per flavor.
struct SwiftTypeMapper: Sendable {
    let flavor: Flavor
    let generatedClassNames: Set<String>
    /// Whether any generated class shares its name with a standard type; usually not, and then no type
    /// needs qualifying.
    private let hasClashes: Bool

    init(flavor: Flavor, generatedClassNames: Set<String>) {
        self.flavor = flavor
        self.generatedClassNames = generatedClassNames
        self.hasClashes = SwiftNaming.standardTypeModules.keys.contains { generatedClassNames.contains($0) }
    }

    struct AttributeType {
        var name: String
        var isScalar: Bool
        /// Whether the runtime flavor stores the value through `Codable` (an object ID, or a transformable
        /// of a `Codable` type).
        var usesCodable = false
    }

    struct RelationshipTypes {
        var property: String
        var collection: String
        var indexSet: String
    }

    private func q(_ type: String) -> String {
        hasClashes ? SwiftNaming.qualified(type, generatedClassNames: generatedClassNames) : type
    }

    /// The Swift type of an attribute's property, with `?` when optional.
    func type(of attribute: Attribute) -> AttributeType {
        switch flavor {
        case .coredata: coreDataType(of: attribute)
        case .runtime: runtimeType(of: attribute)
        }
    }

    /// Xcode's mapping: scalars only with `usesScalarValueType`, else `NSNumber?`; object types always optional.
    private func coreDataType(of attribute: Attribute) -> AttributeType {
        let scalar = attribute.isScalar
        switch attribute.type {
        case .integer16:
            return scalar ? .init(name: q("Int16"), isScalar: true) : .init(name: q("NSNumber") + "?", isScalar: false)
        case .integer32:
            return scalar ? .init(name: q("Int32"), isScalar: true) : .init(name: q("NSNumber") + "?", isScalar: false)
        case .integer64:
            return scalar ? .init(name: q("Int64"), isScalar: true) : .init(name: q("NSNumber") + "?", isScalar: false)
        case .double:
            return scalar ? .init(name: q("Double"), isScalar: true) : .init(name: q("NSNumber") + "?", isScalar: false)
        case .float:
            return scalar ? .init(name: q("Float"), isScalar: true) : .init(name: q("NSNumber") + "?", isScalar: false)
        case .boolean:
            return scalar ? .init(name: q("Bool"), isScalar: true) : .init(name: q("NSNumber") + "?", isScalar: false)
        case .decimal: return .init(name: q("NSDecimalNumber") + "?", isScalar: false)
        case .string: return .init(name: q("String") + "?", isScalar: false)
        case .date: return .init(name: q("Date") + "?", isScalar: false)
        case .binary: return .init(name: q("Data") + "?", isScalar: false)
        case .uuid: return .init(name: q("UUID") + "?", isScalar: false)
        case .uri: return .init(name: q("URL") + "?", isScalar: false)
        case .transformable:
            let custom = SwiftNaming.customClassType(attribute.customClassName)
            return .init(name: (custom ?? q("NSObject")) + "?", isScalar: false)
        case .objectID: return .init(name: q("NSManagedObjectID") + "?", isScalar: false)
        case .composite: return .init(name: "[String: Any]?", isScalar: false)
        case .undefined: return .init(name: q("NSObject") + "?", isScalar: false)
        }
    }

    /// Swift-native types: non-optional attributes are non-optional properties.
    private func runtimeType(of attribute: Attribute) -> AttributeType {
        let base: String
        var codableType: String?
        switch attribute.type {
        case .integer16: base = q("Int16")
        case .integer32: base = q("Int32")
        case .integer64: base = q("Int64")
        case .double: base = q("Double")
        case .float: base = q("Float")
        case .boolean: base = q("Bool")
        case .decimal: base = q("Decimal")
        case .string: base = q("String")
        case .date: base = q("Date")
        case .binary: base = q("Data")
        case .uuid: base = q("UUID")
        case .uri: base = q("URL")
        case .transformable:
            codableType = Self.runtimeTransformableType(attribute)
            base = codableType ?? q("Data")
        case .objectID: base = "ObjectID"
        case .composite: base = q("Data")
        case .undefined: base = q("Data")
        }
        // A `Codable` transformable or an object ID has no empty value to stand in for a missing or
        // undecodable one, so its property is optional whatever the model says (a save still requires it).
        let hasNoEmptyValue = attribute.type == .objectID || codableType != nil
        let optional = attribute.isOptional || attribute.isTransient || attribute.type == .undefined || hasNoEmptyValue
        return .init(
            name: optional ? StringConcat.concat(base, "?") : base,
            isScalar: attribute.type.isNumeric || attribute.type == .boolean, usesCodable: hasNoEmptyValue)
    }

    /// The property, bulk-collection and index-set types of a relationship.
    func types(of relationship: Relationship, destinationClass: String) -> RelationshipTypes {
        // The destination is a generated class: never qualify it as a standard type.
        let destination = destinationClass
        switch flavor {
        case .coredata:
            if !relationship.isToMany {
                return .init(property: StringConcat.concat(destination, "?"), collection: "", indexSet: "")
            }
            let set = relationship.isOrdered ? q("NSOrderedSet") : q("NSSet")
            return .init(property: StringConcat.concat(set, "?"), collection: set, indexSet: q("NSIndexSet"))
        case .runtime:
            if !relationship.isToMany {
                return .init(property: StringConcat.concat(destination, "?"), collection: "", indexSet: "")
            }
            let property =
                relationship.isOrdered
                ? StringConcat.concat("[", destination, "]") : StringConcat.concat(q("Set"), "<", destination, ">")
            return .init(
                property: property, collection: StringConcat.concat("some ", q("Sequence"), "<", destination, ">"),
                indexSet: q("IndexSet"))
        }
    }
}
