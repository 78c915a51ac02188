// DepartmentEntity+CoreDataProperties.swift — generated from TutorialCompany.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension DepartmentEntity {
    /// A request for every `DepartmentEntity` object.
    public static func fetchRequest() -> FetchRequest<DepartmentEntity> {
        FetchRequest<DepartmentEntity>(entityName: "DepartmentEntity")
    }

    public var name: String? {
        get { readsFields(attribute: 0) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var businesses: NSSet? {
        get { toManyNSSet(for: "businesses") }
        set { setToManyNSSet(newValue, for: "businesses") }
    }

    public var employees: NSSet? {
        get { toManyNSSet(for: "employees") }
        set { setToManyNSSet(newValue, for: "employees") }
    }
}

// MARK: Generated accessors for businesses
extension DepartmentEntity {
    public func addToBusinesses(_ value: BusinessEntity) {
        addObject(value, to: "businesses")
    }

    public func removeFromBusinesses(_ value: BusinessEntity) {
        removeObject(value, from: "businesses")
    }

    public func addToBusinesses(_ values: some Sequence<BusinessEntity>) {
        addObjects(values, to: "businesses")
    }

    public func removeFromBusinesses(_ values: some Sequence<BusinessEntity>) {
        removeObjects(values, from: "businesses")
    }
}

// MARK: Generated accessors for employees
extension DepartmentEntity {
    public func addToEmployees(_ value: EmployeeEntity) {
        addObject(value, to: "employees")
    }

    public func removeFromEmployees(_ value: EmployeeEntity) {
        removeObject(value, from: "employees")
    }

    public func addToEmployees(_ values: some Sequence<EmployeeEntity>) {
        addObjects(values, to: "employees")
    }

    public func removeFromEmployees(_ values: some Sequence<EmployeeEntity>) {
        removeObjects(values, from: "employees")
    }
}
