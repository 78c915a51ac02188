// ReservedNames+DataModel.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `ReservedNames` data model (ReservedNames): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum ReservedNamesModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "ReservedNames",
        entities: [
            describeAsset(),
            describeClass(),
            describeData(),
            describeDate(),
            describeDocument(),
            describeOrder(),
            describePhoto(),
            describeSelf(),
            describeSet(),
            describeType(),
            describeURL(),
        ],
        fetchRequestTemplates: fetchRequestTemplates)

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "ReservedNames")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { ReservedNamesModel.model }
    }

    /// The model's fetch request templates (each entity class has a typed function per template of its entity).
    private static let fetchRequestTemplates: [FetchRequestTemplateDescription] = [
        FetchRequestTemplateDescription(name: "AllDocuments", entityName: "Document"),
        FetchRequestTemplateDescription(name: "DistinctTypes", entityName: "Type", predicateFormat: "string BEGINSWITH[cd] $PREFIX"),
        FetchRequestTemplateDescription(name: "OrdersBySelect", entityName: "Order", predicateFormat: "select == $SELECTED", fetchLimit: 10),
        FetchRequestTemplateDescription(name: "TypeIDs", entityName: "Type", predicateFormat: "int16 BETWEEN {1, 10}"),
    ]

    /// The `Asset` entity.
    private static func describeAsset() -> EntityDescription {
        EntityDescription(
            name: "Asset",
            parentName: nil,
            isAbstract: true,
            objectType: Asset.self,
            attributes: [
                AttributeDescription(name: "createdAt", type: .date, isOptional: false, defaultValue: .date(725760000.0)),
                AttributeDescription(name: "title", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "owner", destinationEntityName: "Class", inverseName: "assets", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Asset.createdAt: "createdAt"
                case \Asset.title: "title"
                case \Asset.owner: "owner"
                default: nil
                }
            })
    }

    /// The `Class` entity.
    private static func describeClass() -> EntityDescription {
        EntityDescription(
            name: "Class",
            parentName: nil,
            isAbstract: false,
            objectType: Class.self,
            attributes: [
                AttributeDescription(name: "default", type: .string, isOptional: false, defaultValue: .string("none")),
                AttributeDescription(name: "extension", type: .string),
                AttributeDescription(name: "func", type: .integer32, defaultValue: .integer(0)),
                AttributeDescription(name: "import", type: .boolean, isOptional: false, defaultValue: .boolean(false)),
                AttributeDescription(name: "protocol", type: .string),
                AttributeDescription(name: "return", type: .double, defaultValue: .double(0.0)),
            ],
            relationships: [
                RelationshipDescription(name: "assets", destinationEntityName: "Asset", inverseName: "owner", isToMany: true, deleteRule: .cascade),
                RelationshipDescription(name: "type", destinationEntityName: "Type", inverseName: "classes", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            fetchedProperties: [
                FetchedPropertyDescription(name: "untitledAssets", destinationEntityName: "Asset", predicateFormat: "title == nil"),
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Class.`default`: "default"
                case \Class.`extension`: "extension"
                case \Class.`func`: "func"
                case \Class.`import`: "import"
                case \Class.`protocol`: "protocol"
                case \Class.`return`: "return"
                case \Class.assets: "assets"
                case \Class.type: "type"
                default: nil
                }
            })
    }

    /// The `Data` entity.
    private static func describeData() -> EntityDescription {
        EntityDescription(
            name: "Data",
            parentName: nil,
            isAbstract: false,
            objectType: Data.self,
            attributes: [
                AttributeDescription(name: "archive", type: .binary),
                AttributeDescription(name: "bytes", type: .binary, allowsExternalBinaryDataStorage: true),
                AttributeDescription(name: "checksum", type: .integer64, isOptional: false, isIndexed: true, defaultValue: .integer(0), minValue: 0.0),
                AttributeDescription(name: "remoteID", type: .string),
                AttributeDescription(name: "transformed", type: .transformable),
                AttributeDescription(name: "values", type: .transformable),
            ],
            relationships: [
                RelationshipDescription(name: "sets", destinationEntityName: "Set", inverseName: "members", isToMany: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Data.archive: "archive"
                case \Data.bytes: "bytes"
                case \Data.checksum: "checksum"
                case \Data.remoteID: "remoteID"
                case \Data.transformed: "transformed"
                case \Data.values: "values"
                case \Data.sets: "sets"
                default: nil
                }
            })
    }

    /// The `Date` entity.
    private static func describeDate() -> EntityDescription {
        EntityDescription(
            name: "Date",
            parentName: nil,
            isAbstract: false,
            objectType: Date.self,
            attributes: [
                AttributeDescription(name: "note", type: .string),
                AttributeDescription(name: "secret", type: .string),
                AttributeDescription(name: "timestamp", type: .date, isOptional: false, defaultValue: .date(-978307200.0)),
                AttributeDescription(name: "value", type: .date, minValue: -31622400.0, maxValue: 3124137600.0),
            ],
            relationships: [
                RelationshipDescription(name: "urls", destinationEntityName: "URL", inverseName: "date", isToMany: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Date.note: "note"
                case \Date.secret: "secret"
                case \Date.timestamp: "timestamp"
                case \Date.value_: "value"
                case \Date.urls: "urls"
                default: nil
                }
            })
    }

    /// The `Document` entity.
    private static func describeDocument() -> EntityDescription {
        EntityDescription(
            name: "Document",
            parentName: "Asset",
            isAbstract: false,
            objectType: Document.self,
            attributes: [
                AttributeDescription(name: "mimeType", type: .string, minValue: 3.0, maxValue: 255.0, regularExpression: "^[a-z]+/[a-z0-9.+-]+$"),
                AttributeDescription(name: "pageCount", type: .integer16, isOptional: false, defaultValue: .integer(1), minValue: 1.0),
            ],
            relationships: [
                RelationshipDescription(name: "attachments", destinationEntityName: "Photo", inverseName: "document", isToMany: true, isOrdered: true, deleteRule: .cascade),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Document.createdAt: "createdAt"
                case \Document.title: "title"
                case \Document.owner: "owner"
                case \Document.mimeType: "mimeType"
                case \Document.pageCount: "pageCount"
                case \Document.attachments: "attachments"
                default: nil
                }
            })
    }

    /// The `Order` entity.
    private static func describeOrder() -> EntityDescription {
        EntityDescription(
            name: "Order",
            parentName: nil,
            isAbstract: false,
            objectType: Order.self,
            attributes: [
                AttributeDescription(name: "group", type: .string),
                AttributeDescription(name: "order", type: .integer32, isOptional: false, defaultValue: .integer(0)),
                AttributeDescription(name: "select", type: .boolean),
                AttributeDescription(name: "table", type: .string),
                AttributeDescription(name: "where", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "set", destinationEntityName: "Set", inverseName: "orders", maxCount: 1),
            ],
            uniquenessConstraints: [["table", "where"]],
            fetchIndexes: [
                FetchIndexDescription(name: "byOrder", elements: [.init(property: "order", isAscending: true), .init(property: "group", isAscending: false)]),
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Order.group: "group"
                case \Order.order: "order"
                case \Order.select: "select"
                case \Order.table: "table"
                case \Order.`where`: "where"
                case \Order.set: "set"
                default: nil
                }
            })
    }

    /// The `Photo` entity.
    private static func describePhoto() -> EntityDescription {
        EntityDescription(
            name: "Photo",
            parentName: "Asset",
            isAbstract: false,
            objectType: Photo.self,
            attributes: [
                AttributeDescription(name: "height", type: .float, isOptional: false, defaultValue: .double(0.0)),
                AttributeDescription(name: "location", type: .composite),
                AttributeDescription(name: "width", type: .float, isOptional: false, defaultValue: .double(0.0)),
            ],
            relationships: [
                RelationshipDescription(name: "document", destinationEntityName: "Document", inverseName: "attachments", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Photo.createdAt: "createdAt"
                case \Photo.title: "title"
                case \Photo.owner: "owner"
                case \Photo.height: "height"
                case \Photo.location: "location"
                case \Photo.width: "width"
                case \Photo.document: "document"
                default: nil
                }
            })
    }

    /// The `Self` entity.
    private static func describeSelf() -> EntityDescription {
        EntityDescription(
            name: "Self",
            parentName: nil,
            isAbstract: false,
            objectType: `Self`.self,
            attributes: [
                AttributeDescription(name: "childCount", type: .integer64, isDerived: true, derivationExpression: "children.@count"),
                AttributeDescription(name: "context", type: .string),
                AttributeDescription(name: "deleted", type: .boolean, isOptional: false, defaultValue: .boolean(false)),
                AttributeDescription(name: "entityName", type: .string),
                AttributeDescription(name: "identifier", type: .uuid),
                AttributeDescription(name: "isPinned", type: .boolean, isOptional: false, isTransient: true, defaultValue: .boolean(false)),
            ],
            relationships: [
                RelationshipDescription(name: "children", destinationEntityName: "Self", inverseName: "parent", isToMany: true, deleteRule: .cascade),
                RelationshipDescription(name: "followers", destinationEntityName: "Self", inverseName: "following", isToMany: true),
                RelationshipDescription(name: "following", destinationEntityName: "Self", inverseName: "followers", isToMany: true, maxCount: 100, renamingIdentifier: "subscriptions"),
                RelationshipDescription(name: "parent", destinationEntityName: "Self", inverseName: "children", maxCount: 1),
                RelationshipDescription(name: "twin", destinationEntityName: "Self", inverseName: "twin", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            fetchedProperties: [
                FetchedPropertyDescription(name: "namesakes", destinationEntityName: "Self", predicateFormat: "entityName == $FETCH_SOURCE.entityName", userInfo: ["note": "same entityName as the source object"]),
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \`Self`.childCount: "childCount"
                case \`Self`.context_: "context"
                case \`Self`.deleted: "deleted"
                case \`Self`.entityName: "entityName"
                case \`Self`.identifier: "identifier"
                case \`Self`.isPinned: "isPinned"
                case \`Self`.children: "children"
                case \`Self`.followers: "followers"
                case \`Self`.following: "following"
                case \`Self`.parent: "parent"
                case \`Self`.twin: "twin"
                default: nil
                }
            })
    }

    /// The `Set` entity.
    private static func describeSet() -> EntityDescription {
        EntityDescription(
            name: "Set",
            parentName: nil,
            isAbstract: false,
            objectType: Set.self,
            attributes: [
                AttributeDescription(name: "count", type: .integer64, isOptional: false, defaultValue: .integer(0), renamingIdentifier: "size"),
                AttributeDescription(name: "name", type: .string, isOptional: false, isIndexed: true),
            ],
            relationships: [
                RelationshipDescription(name: "members", destinationEntityName: "Data", inverseName: "sets", isToMany: true, isOptional: false, deleteRule: .noAction, minCount: 1, maxCount: 5),
                RelationshipDescription(name: "orders", destinationEntityName: "Order", inverseName: "set", isToMany: true),
            ],
            uniquenessConstraints: [["name"]],
            fetchIndexes: [
            ],
            renamingIdentifier: "Bag",
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Set.count: "count"
                case \Set.name: "name"
                case \Set.members: "members"
                case \Set.orders: "orders"
                default: nil
                }
            })
    }

    /// The `Type` entity.
    private static func describeType() -> EntityDescription {
        EntityDescription(
            name: "Type",
            parentName: nil,
            isAbstract: false,
            objectType: `Type`.self,
            attributes: [
                AttributeDescription(name: "binary", type: .binary),
                AttributeDescription(name: "boolean", type: .boolean, isOptional: false, defaultValue: .boolean(true)),
                AttributeDescription(name: "booleanObject", type: .boolean),
                AttributeDescription(name: "date", type: .date),
                AttributeDescription(name: "decimal", type: .decimal, defaultValue: .decimal("3.14")),
                AttributeDescription(name: "double", type: .double, minValue: -1000.5, maxValue: 1000.5),
                AttributeDescription(name: "float", type: .float, isOptional: false, defaultValue: .double(1.5)),
                AttributeDescription(name: "int16", type: .integer16, isOptional: false, defaultValue: .integer(-7)),
                AttributeDescription(name: "int32", type: .integer32, defaultValue: .integer(0)),
                AttributeDescription(name: "int64", type: .integer64, isOptional: false, defaultValue: .integer(9223372036854775807)),
                AttributeDescription(name: "objectRef", type: .objectID, isTransient: true),
                AttributeDescription(name: "string", type: .string, isOptional: false, defaultValue: .string("")),
                AttributeDescription(name: "undefined", type: .undefined, isTransient: true),
                AttributeDescription(name: "uri", type: .uri),
                AttributeDescription(name: "uuid", type: .uuid, isOptional: false, defaultValue: .uuid("7CE9EE7F-CD67-4D3C-855A-3613A7815E23")),
            ],
            relationships: [
                RelationshipDescription(name: "classes", destinationEntityName: "Class", inverseName: "type", isToMany: true, deleteRule: .deny),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
                FetchIndexDescription(name: "byInt64", elements: [.init(property: "int64", isAscending: false)]),
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \`Type`.binary: "binary"
                case \`Type`.boolean: "boolean"
                case \`Type`.booleanObject: "booleanObject"
                case \`Type`.date: "date"
                case \`Type`.decimal: "decimal"
                case \`Type`.double: "double"
                case \`Type`.float: "float"
                case \`Type`.int16: "int16"
                case \`Type`.int32: "int32"
                case \`Type`.int64: "int64"
                case \`Type`.objectRef: "objectRef"
                case \`Type`.string: "string"
                case \`Type`.undefined: "undefined"
                case \`Type`.uri: "uri"
                case \`Type`.uuid: "uuid"
                case \`Type`.classes: "classes"
                default: nil
                }
            })
    }

    /// The `URL` entity.
    private static func describeURL() -> EntityDescription {
        EntityDescription(
            name: "URL",
            parentName: nil,
            isAbstract: false,
            objectType: URL.self,
            attributes: [
                AttributeDescription(name: "absoluteString", type: .string),
                AttributeDescription(name: "link", type: .uri),
                AttributeDescription(name: "visitedAt", type: .date),
            ],
            relationships: [
                RelationshipDescription(name: "date", destinationEntityName: "Date", inverseName: "urls", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \URL.absoluteString: "absoluteString"
                case \URL.link: "link"
                case \URL.visitedAt: "visitedAt"
                case \URL.date: "date"
                default: nil
                }
            })
    }
}
