// CategoryData+CoreDataProperties.swift — generated from TutorialRestaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension CategoryData {
    /// A request for every `CategoryData` object.
    public static func fetchRequest() -> FetchRequest<CategoryData> {
        FetchRequest<CategoryData>(entityName: "CategoryData")
    }

    public var categoryName: String? {
        get { value(for: "categoryName") }
        set { setValue(newValue, for: "categoryName") }
    }

    public var categoryText: String? {
        get { value(for: "categoryText") }
        set { setValue(newValue, for: "categoryText") }
    }

    public var order: Int32 {
        get { value(for: "order") }
        set { setValue(newValue, for: "order") }
    }

    public var restaurant: RestaurantData? {
        get { toOne(for: "restaurant") }
        set { setToOne(newValue, for: "restaurant") }
    }
}
