//
//  DepartmentEntity+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension DepartmentEntity {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<DepartmentEntity> {
        return NSFetchRequest<DepartmentEntity>(entityName: "DepartmentEntity")
    }

    @NSManaged public var name: String?
    @NSManaged public var businesses: NSSet?
    @NSManaged public var employees: NSSet?

}

// MARK: Generated accessors for businesses
extension DepartmentEntity {

    @objc(addBusinessesObject:)
    @NSManaged public func addToBusinesses(_ value: BusinessEntity)

    @objc(removeBusinessesObject:)
    @NSManaged public func removeFromBusinesses(_ value: BusinessEntity)

    @objc(addBusinesses:)
    @NSManaged public func addToBusinesses(_ values: NSSet)

    @objc(removeBusinesses:)
    @NSManaged public func removeFromBusinesses(_ values: NSSet)

}

// MARK: Generated accessors for employees
extension DepartmentEntity {

    @objc(addEmployeesObject:)
    @NSManaged public func addToEmployees(_ value: EmployeeEntity)

    @objc(removeEmployeesObject:)
    @NSManaged public func removeFromEmployees(_ value: EmployeeEntity)

    @objc(addEmployees:)
    @NSManaged public func addToEmployees(_ values: NSSet)

    @objc(removeEmployees:)
    @NSManaged public func removeFromEmployees(_ values: NSSet)

}

extension DepartmentEntity : Identifiable {

}
