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

    /// The model's fetch request template `OrdersBySelect`: the `Order` objects matching `select == $SELECTED`.
    /// Made by the model the entity is loaded in (`fetchRequestFromTemplate(withName:substitutionVariables:)`).
    @nonobjc public class func fetchRequestOrdersBySelect(selected: Bool) -> NSFetchRequest<Order> {
        let model = entity().managedObjectModel
        guard let request = model.fetchRequestFromTemplate(
            withName: "OrdersBySelect", substitutionVariables: ["SELECTED": selected as Any]) as? NSFetchRequest<Order>
        else {
            fatalError("the managed object model has no fetch request template " + "OrdersBySelect")
        }
        return request
    }

}

extension Order : Identifiable {

}
