//
//  Asset+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Asset {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Asset> {
        return NSFetchRequest<Asset>(entityName: "Asset")
    }

    @NSManaged public var createdAt: Foundation.Date?
    @NSManaged public var title: String?
    @NSManaged public var owner: Class?

}

extension Asset : Identifiable {

}
