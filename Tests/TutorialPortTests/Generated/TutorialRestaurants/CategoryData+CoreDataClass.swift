// CategoryData+CoreDataClass.swift — generated from TutorialRestaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `CategoryData` entity.
public final class CategoryData: ManagedObject {}
