import DataModelRuntime
import Foundation

// A hand-written model with every attribute type the predicate translator handles, a to-one
// (`maker`, inverse of the to-many `gadgets`) and a many-to-many (`tags`), for predicate tests.

final class Gadget: ManagedObject {
    var i16: Int16? {
        get { value(for: "i16") }
        set { setValue(newValue, for: "i16") }
    }
    var i32: Int32? {
        get { value(for: "i32") }
        set { setValue(newValue, for: "i32") }
    }
    var i64: Int64? {
        get { value(for: "i64") }
        set { setValue(newValue, for: "i64") }
    }
    var flag: Bool? {
        get { value(for: "flag") }
        set { setValue(newValue, for: "flag") }
    }
    var dbl: Double? {
        get { value(for: "dbl") }
        set { setValue(newValue, for: "dbl") }
    }
    var flt: Float? {
        get { value(for: "flt") }
        set { setValue(newValue, for: "flt") }
    }
    var date: Date? {
        get { value(for: "date") }
        set { setValue(newValue, for: "date") }
    }
    var dec: Decimal? {
        get { value(for: "dec") }
        set { setValue(newValue, for: "dec") }
    }
    var text: String? {
        get { value(for: "text") }
        set { setValue(newValue, for: "text") }
    }
    var title: String {
        get { value(for: "title") }
        set { setValue(newValue, for: "title") }
    }
    var data: Data? {
        get { value(for: "data") }
        set { setValue(newValue, for: "data") }
    }
    var uuid: UUID? {
        get { value(for: "uuid") }
        set { setValue(newValue, for: "uuid") }
    }
    var maker: Maker? {
        get { toOne(for: "maker") }
        set { setToOne(newValue, for: "maker") }
    }
    var tags: Set<Tag> {
        get { toManySet(for: "tags") }
        set { setToManySet(newValue, for: "tags") }
    }
}

final class Maker: ManagedObject {
    var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }
    var rank: Int32 {
        get { value(for: "rank") }
        set { setValue(newValue, for: "rank") }
    }
    var gadgets: Set<Gadget> {
        get { toManySet(for: "gadgets") }
        set { setToManySet(newValue, for: "gadgets") }
    }
}

final class Tag: ManagedObject {
    var label: String? {
        get { value(for: "label") }
        set { setValue(newValue, for: "label") }
    }
    var gadgets: Set<Gadget> {
        get { toManySet(for: "gadgets") }
        set { setToManySet(newValue, for: "gadgets") }
    }
}

enum GadgetsModel {
    private static func attribute(_ name: String, _ type: AttributeType, optional: Bool = true) -> AttributeDescription
    {
        AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: false, isDerived: false, isIndexed: false,
            defaultValue: optional ? nil : (type == .string ? .string("") : .integer(0)), minValue: nil, maxValue: nil,
            regularExpression: nil)
    }

    private static func relationship(
        _ name: String, to destination: String, inverse: String, toMany: Bool
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: toMany, isOrdered: false,
            isOptional: true, isTransient: false, deleteRule: .nullify, minCount: 0, maxCount: toMany ? 0 : 1)
    }

    static let model = ManagedObjectModel(
        name: "Gadgets",
        entities: [
            EntityDescription(
                name: "Gadget", objectType: Gadget.self,
                attributes: [
                    attribute("i16", .integer16), attribute("i32", .integer32), attribute("i64", .integer64),
                    attribute("flag", .boolean), attribute("dbl", .double), attribute("flt", .float),
                    attribute("date", .date), attribute("dec", .decimal), attribute("text", .string),
                    attribute("title", .string, optional: false), attribute("data", .binary), attribute("uuid", .uuid),
                ],
                relationships: [
                    relationship("maker", to: "Maker", inverse: "gadgets", toMany: false),
                    relationship("tags", to: "Tag", inverse: "gadgets", toMany: true),
                ],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \Gadget.i16: "i16"
                    case \Gadget.i32: "i32"
                    case \Gadget.i64: "i64"
                    case \Gadget.flag: "flag"
                    case \Gadget.dbl: "dbl"
                    case \Gadget.flt: "flt"
                    case \Gadget.date: "date"
                    case \Gadget.dec: "dec"
                    case \Gadget.text: "text"
                    case \Gadget.title: "title"
                    case \Gadget.data: "data"
                    case \Gadget.uuid: "uuid"
                    case \Gadget.maker: "maker"
                    case \Gadget.tags: "tags"
                    default: nil
                    }
                }),
            EntityDescription(
                name: "Maker", objectType: Maker.self,
                attributes: [attribute("name", .string), attribute("rank", .integer32, optional: false)],
                relationships: [relationship("gadgets", to: "Gadget", inverse: "maker", toMany: true)],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \Maker.name: "name"
                    case \Maker.rank: "rank"
                    case \Maker.gadgets: "gadgets"
                    default: nil
                    }
                }),
            EntityDescription(
                name: "Tag", objectType: Tag.self,
                attributes: [attribute("label", .string)],
                relationships: [relationship("gadgets", to: "Gadget", inverse: "tags", toMany: true)],
                propertyNameForKeyPath: { keyPath in
                    switch keyPath {
                    case \Tag.label: "label"
                    case \Tag.gadgets: "gadgets"
                    default: nil
                    }
                }),
        ])
}
