// Ported+DataModel.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Ported` data model (Ported): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum PortedModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Ported",
        entities: [
            describePortedItem(),
            describePortedList(),
            describePortedTag(),
        ])

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "Ported")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { PortedModel.model }
    }

    /// The `PortedItem` entity.
    private static func describePortedItem() -> EntityDescription {
        EntityDescription(
            name: "PortedItem",
            parentName: nil,
            isAbstract: false,
            objectType: PortedItem.self,
            attributes: [
                AttributeDescription(name: "count", type: .integer16, defaultValue: .integer(0)),
                AttributeDescription(name: "isDone", type: .boolean),
                AttributeDescription(name: "price", type: .double, defaultValue: .double(0.0)),
                AttributeDescription(name: "rating", type: .integer32),
                AttributeDescription(name: "serial", type: .integer64),
                AttributeDescription(name: "timestamp", type: .date),
                AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: .string("")),
            ],
            relationships: [
                RelationshipDescription(name: "list", destinationEntityName: "PortedList", inverseName: "items", maxCount: 1),
                RelationshipDescription(name: "tags", destinationEntityName: "PortedTag", inverseName: "items", isToMany: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \PortedItem.count: "count"
                case \PortedItem.isDone: "isDone"
                case \PortedItem.price: "price"
                case \PortedItem.rating: "rating"
                case \PortedItem.serial: "serial"
                case \PortedItem.timestamp: "timestamp"
                case \PortedItem.title: "title"
                case \PortedItem.list: "list"
                case \PortedItem.tags: "tags"
                default: nil
                }
            })
    }

    /// The `PortedList` entity.
    private static func describePortedList() -> EntityDescription {
        EntityDescription(
            name: "PortedList",
            parentName: nil,
            isAbstract: false,
            objectType: PortedList.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "items", destinationEntityName: "PortedItem", inverseName: "list", isToMany: true, isOrdered: true, deleteRule: .cascade),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \PortedList.name: "name"
                case \PortedList.items: "items"
                default: nil
                }
            })
    }

    /// The `PortedTag` entity.
    private static func describePortedTag() -> EntityDescription {
        EntityDescription(
            name: "PortedTag",
            parentName: nil,
            isAbstract: false,
            objectType: PortedTag.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "items", destinationEntityName: "PortedItem", inverseName: "tags", isToMany: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \PortedTag.name: "name"
                case \PortedTag.items: "items"
                default: nil
                }
            })
    }
}
