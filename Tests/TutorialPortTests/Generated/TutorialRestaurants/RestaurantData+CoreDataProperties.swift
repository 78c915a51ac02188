// RestaurantData+CoreDataProperties.swift — generated from TutorialRestaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension RestaurantData {
    /// A request for every `RestaurantData` object.
    public static func fetchRequest() -> FetchRequest<RestaurantData> {
        FetchRequest<RestaurantData>(entityName: "RestaurantData")
    }

    public var address: String? {
        get { readsFields(attribute: 0) ? fieldValue(_addressField) : value(for: "address") }
        set { setValue(newValue, for: "address") }
    }

    public var date: Date? {
        get { readsFields(attribute: 1) ? fieldValue(_dateField, nullBit: 0) : value(for: "date") }
        set { setValue(newValue, for: "date") }
    }

    public var group: String? {
        get { readsFields(attribute: 2) ? fieldValue(_groupField) : value(for: "group") }
        set { setValue(newValue, for: "group") }
    }

    public var imagePath: String? {
        get { readsFields(attribute: 3) ? fieldValue(_imagePathField) : value(for: "imagePath") }
        set { setValue(newValue, for: "imagePath") }
    }

    public var phone: String? {
        get { readsFields(attribute: 4) ? fieldValue(_phoneField) : value(for: "phone") }
        set { setValue(newValue, for: "phone") }
    }

    public var placeName: String? {
        get { readsFields(attribute: 5) ? fieldValue(_placeNameField) : value(for: "placeName") }
        set { setValue(newValue, for: "placeName") }
    }

    public var placeURL: String? {
        get { readsFields(attribute: 6) ? fieldValue(_placeURLField) : value(for: "placeURL") }
        set { setValue(newValue, for: "placeURL") }
    }

    public var roadAddress: String? {
        get { readsFields(attribute: 7) ? fieldValue(_roadAddressField) : value(for: "roadAddress") }
        set { setValue(newValue, for: "roadAddress") }
    }

    public var category: NSSet? {
        get { toManyNSSet(for: "category") }
        set { setToManyNSSet(newValue, for: "category") }
    }
}

// MARK: Generated accessors for category
extension RestaurantData {
    public func addToCategory(_ value: CategoryData) {
        addObject(value, to: "category")
    }

    public func removeFromCategory(_ value: CategoryData) {
        removeObject(value, from: "category")
    }

    public func addToCategory(_ values: some Sequence<CategoryData>) {
        addObjects(values, to: "category")
    }

    public func removeFromCategory(_ values: some Sequence<CategoryData>) {
        removeObjects(values, from: "category")
    }
}
