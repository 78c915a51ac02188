// CategoryData+CoreDataProperties.swift — generated from TutorialRestaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension CategoryData {
    /// A request for every `CategoryData` object.
    public static func fetchRequest() -> FetchRequest<CategoryData> {
        FetchRequest<CategoryData>(entityName: "CategoryData")
    }

    public var categoryName: String? {
        get { readsFields(attribute: 0) ? fieldValue(_categoryNameField) : value(for: "categoryName") }
        set { setValue(newValue, for: "categoryName") }
    }

    public var categoryText: String? {
        get { readsFields(attribute: 1) ? fieldValue(_categoryTextField) : value(for: "categoryText") }
        set { setValue(newValue, for: "categoryText") }
    }

    public var order: Int32 {
        get { readsFields(attribute: 2) ? fieldValue(_orderField, nullBit: 0) ?? .emptyValue : value(for: "order") }
        set { setValue(newValue, for: "order") }
    }

    public var restaurant: RestaurantData? {
        get {
            readsFields(relationship: 0)
                ? fieldObject(relationship: 0, _restaurantField, nullBit: 1) : toOne(for: "restaurant")
        }
        set { setToOne(newValue, for: "restaurant") }
    }
}
