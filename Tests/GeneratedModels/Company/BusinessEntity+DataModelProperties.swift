// BusinessEntity+DataModelProperties.swift — generated from Company.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension BusinessEntity {
    /// A request for every `BusinessEntity` object.
    public static func fetchRequest() -> FetchRequest<BusinessEntity> {
        FetchRequest<BusinessEntity>(entityName: "BusinessEntity")
    }

    public var name: String? {
        get { readsFields(attribute: 0) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var departments: Set<DepartmentEntity> {
        get { toManySet(for: "departments") }
        set { setToManySet(newValue, for: "departments") }
    }

    public var employees: Set<EmployeeEntity> {
        get { toManySet(for: "employees") }
        set { setToManySet(newValue, for: "employees") }
    }
}

// MARK: Generated accessors for departments
extension BusinessEntity {
    public func addToDepartments(_ value: DepartmentEntity) {
        addObject(value, to: "departments")
    }

    public func removeFromDepartments(_ value: DepartmentEntity) {
        removeObject(value, from: "departments")
    }

    public func addToDepartments(_ values: some Sequence<DepartmentEntity>) {
        addObjects(values, to: "departments")
    }

    public func removeFromDepartments(_ values: some Sequence<DepartmentEntity>) {
        removeObjects(values, from: "departments")
    }
}

// MARK: Generated accessors for employees
extension BusinessEntity {
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
