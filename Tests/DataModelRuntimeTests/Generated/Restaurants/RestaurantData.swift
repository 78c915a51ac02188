import DataModelRuntime
// RestaurantData.swift — generated from Restaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation

/// An object of the `RestaurantData` entity.
public final class RestaurantData: ManagedObject {}
