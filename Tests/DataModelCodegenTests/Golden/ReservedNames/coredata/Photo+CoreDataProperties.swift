//
//  Photo+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Photo {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Photo> {
        return NSFetchRequest<Photo>(entityName: "Photo")
    }

    @NSManaged public var height: Float
    @NSManaged public var location: [String: Any]?
    @NSManaged public var width: Float
    @NSManaged public var document: Document?

}
