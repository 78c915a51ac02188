// EmployeeEntity+DataModelProperties.swift — generated from Company.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension EmployeeEntity {
    /// A request for every `EmployeeEntity` object.
    public static func fetchRequest() -> FetchRequest<EmployeeEntity> {
        FetchRequest<EmployeeEntity>(entityName: "EmployeeEntity")
    }

    public var age: Int16? {
        get { readsFields(attribute: 0) ? fieldValue(_ageField, nullBit: 0) : value(for: "age") }
        set { setValue(newValue, for: "age") }
    }

    public var dateJoined: Date? {
        get { readsFields(attribute: 1) ? fieldValue(_dateJoinedField, nullBit: 1) : value(for: "dateJoined") }
        set { setValue(newValue, for: "dateJoined") }
    }

    public var name: String? {
        get { readsFields(attribute: 2) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var business: BusinessEntity? {
        get {
            readsFields(relationship: 0)
                ? fieldObject(relationship: 0, _businessField, nullBit: 2) : toOne(for: "business")
        }
        set { setToOne(newValue, for: "business") }
    }

    public var department: DepartmentEntity? {
        get {
            readsFields(relationship: 1)
                ? fieldObject(relationship: 1, _departmentField, nullBit: 3) : toOne(for: "department")
        }
        set { setToOne(newValue, for: "department") }
    }
}
