//
//  Order+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension Order {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Order> {
        return NSFetchRequest<Order>(entityName: "Order")
    }

    @NSManaged public var group: String?
    @NSManaged public var order: Int32
    @NSManaged public var select: Bool
    @NSManaged public var table: String?
    @NSManaged public var `where`: String?
    @NSManaged public var set: Set?

}

extension Order : Identifiable {

}
