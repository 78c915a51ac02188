// CategoryData+DataModelClass.swift — generated from Restaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `CategoryData` entity.
public final class CategoryData: ManagedObject {}
