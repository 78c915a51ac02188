//
//  EmployeeEntity+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension EmployeeEntity {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<EmployeeEntity> {
        return NSFetchRequest<EmployeeEntity>(entityName: "EmployeeEntity")
    }

    @NSManaged public var age: Int16
    @NSManaged public var dateJoined: Date?
    @NSManaged public var name: String?
    @NSManaged public var business: BusinessEntity?
    @NSManaged public var department: DepartmentEntity?

}

extension EmployeeEntity : Identifiable {

}
