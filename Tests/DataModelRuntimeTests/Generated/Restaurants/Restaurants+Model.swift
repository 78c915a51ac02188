// Restaurants+Model.swift — generated from Restaurants.xcdatamodeld by datamodelgen. Do not edit.
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

    /// The `CategoryData` entity.
    private static func describeCategoryData() -> EntityDescription {
        EntityDescription(
            name: "CategoryData",
            parentName: nil,
            isAbstract: false,
            objectType: CategoryData.self,
            attributes: [
                AttributeDescription(
                    name: "categoryName", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "categoryText", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "order", type: .integer32, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: "0", minValue: nil, maxValue: nil,
                    regularExpression: nil),
            ],
            relationships: [
                RelationshipDescription(
                    name: "restaurant", destinationEntityName: "RestaurantData",
                    inverseName: "category", isToMany: false, isOrdered: false,
                    isOptional: true, isTransient: false, deleteRule: .nullify,
                    minCount: 0, maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
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
                AttributeDescription(
                    name: "address", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "date", type: .date, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "group", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "imagePath", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "phone", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "placeName", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "placeURL", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "roadAddress", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
            ],
            relationships: [
                RelationshipDescription(
                    name: "category", destinationEntityName: "CategoryData",
                    inverseName: "restaurant", isToMany: true, isOrdered: false,
                    isOptional: true, isTransient: false, deleteRule: .cascade,
                    minCount: 0, maxCount: 0),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
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
