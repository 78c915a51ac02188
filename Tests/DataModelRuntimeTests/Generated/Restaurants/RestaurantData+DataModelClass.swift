// RestaurantData+DataModelClass.swift — generated from Restaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `RestaurantData` entity.
public final class RestaurantData: ManagedObject {}
