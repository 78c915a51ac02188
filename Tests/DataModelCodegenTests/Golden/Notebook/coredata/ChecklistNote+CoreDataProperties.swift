//
//  ChecklistNote+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension ChecklistNote {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<ChecklistNote> {
        return NSFetchRequest<ChecklistNote>(entityName: "ChecklistNote")
    }

    @NSManaged public var itemCount: Int16

}
