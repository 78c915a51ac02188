// RestaurantData+CoreDataClass.swift — generated from TutorialRestaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `RestaurantData` entity.
public final class RestaurantData: ManagedObject {}
