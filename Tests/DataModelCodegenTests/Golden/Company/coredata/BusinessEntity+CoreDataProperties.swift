//
//  BusinessEntity+CoreDataProperties.swift
//  
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData


extension BusinessEntity {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<BusinessEntity> {
        return NSFetchRequest<BusinessEntity>(entityName: "BusinessEntity")
    }

    @NSManaged public var name: String?
    @NSManaged public var departments: NSSet?
    @NSManaged public var employees: NSSet?

}

// MARK: Generated accessors for departments
extension BusinessEntity {

    @objc(addDepartmentsObject:)
    @NSManaged public func addToDepartments(_ value: DepartmentEntity)

    @objc(removeDepartmentsObject:)
    @NSManaged public func removeFromDepartments(_ value: DepartmentEntity)

    @objc(addDepartments:)
    @NSManaged public func addToDepartments(_ values: NSSet)

    @objc(removeDepartments:)
    @NSManaged public func removeFromDepartments(_ values: NSSet)

}

// MARK: Generated accessors for employees
extension BusinessEntity {

    @objc(addEmployeesObject:)
    @NSManaged public func addToEmployees(_ value: EmployeeEntity)

    @objc(removeEmployeesObject:)
    @NSManaged public func removeFromEmployees(_ value: EmployeeEntity)

    @objc(addEmployees:)
    @NSManaged public func addToEmployees(_ values: NSSet)

    @objc(removeEmployees:)
    @NSManaged public func removeFromEmployees(_ values: NSSet)

}

extension BusinessEntity : Identifiable {

}
