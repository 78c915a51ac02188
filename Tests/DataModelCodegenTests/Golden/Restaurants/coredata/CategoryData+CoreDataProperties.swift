//
//  CategoryData+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension CategoryData {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<CategoryData> {
        return NSFetchRequest<CategoryData>(entityName: "CategoryData")
    }

    @NSManaged public var categoryName: String?
    @NSManaged public var categoryText: String?
    @NSManaged public var order: Int32
    @NSManaged public var restaurant: RestaurantData?

}

extension CategoryData : Identifiable {

}
