//
//  Person+CoreDataClass.swift
//  
//
//  Created from Person.xcdatamodeld by datamodelgen. This file is yours to edit.
//

import Foundation
import CoreData

@objc(Person)
public class Person: NSManagedObject {

}
