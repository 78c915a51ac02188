//
//  Person+CoreDataProperties.swift
//  
//
//  Created from Person.xcdatamodeld by datamodelgen. This file is yours to edit.
//

import Foundation
import CoreData


extension Person {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Person> {
        return NSFetchRequest<Person>(entityName: "Person")
    }

    @NSManaged public var email: String?
    @NSManaged public var id: String?
    @NSManaged public var name: String?
    @NSManaged public var updateDate: Date?

}

extension Person : Identifiable {

}
