// Restaurants+DataModel.swift — generated from Restaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Restaurants` data model (Restaurants): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum RestaurantsModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Restaurants",
        entities: [
            describeCategoryData(),
            describeRestaurantData(),
        ])

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "Restaurants")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { RestaurantsModel.model }
    }

    /// The `CategoryData` entity.
    private static func describeCategoryData() -> EntityDescription {
        EntityDescription(
            name: "CategoryData",
            parentName: nil,
            isAbstract: false,
            objectType: CategoryData.self,
            attributes: [
                AttributeDescription(name: "categoryName", type: .string),
                AttributeDescription(name: "categoryText", type: .string),
                AttributeDescription(name: "order", type: .integer32, defaultValue: .integer(0)),
            ],
            relationships: [
                RelationshipDescription(name: "restaurant", destinationEntityName: "RestaurantData", inverseName: "category", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \CategoryData.categoryName: "categoryName"
                case \CategoryData.categoryText: "categoryText"
                case \CategoryData.order: "order"
                case \CategoryData.restaurant: "restaurant"
                default: nil
                }
            })
    }

    /// The `RestaurantData` entity.
    private static func describeRestaurantData() -> EntityDescription {
        EntityDescription(
            name: "RestaurantData",
            parentName: nil,
            isAbstract: false,
            objectType: RestaurantData.self,
            attributes: [
                AttributeDescription(name: "address", type: .string),
                AttributeDescription(name: "date", type: .date),
                AttributeDescription(name: "group", type: .string),
                AttributeDescription(name: "imagePath", type: .string),
                AttributeDescription(name: "phone", type: .string),
                AttributeDescription(name: "placeName", type: .string),
                AttributeDescription(name: "placeURL", type: .string),
                AttributeDescription(name: "roadAddress", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "category", destinationEntityName: "CategoryData", inverseName: "restaurant", isToMany: true, deleteRule: .cascade),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \RestaurantData.address: "address"
                case \RestaurantData.date: "date"
                case \RestaurantData.group: "group"
                case \RestaurantData.imagePath: "imagePath"
                case \RestaurantData.phone: "phone"
                case \RestaurantData.placeName: "placeName"
                case \RestaurantData.placeURL: "placeURL"
                case \RestaurantData.roadAddress: "roadAddress"
                case \RestaurantData.category: "category"
                default: nil
                }
            })
    }
}
