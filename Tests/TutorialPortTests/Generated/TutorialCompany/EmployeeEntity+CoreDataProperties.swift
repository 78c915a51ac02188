// EmployeeEntity+CoreDataProperties.swift — generated from TutorialCompany.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension EmployeeEntity {
    /// A request for every `EmployeeEntity` object.
    public static func fetchRequest() -> FetchRequest<EmployeeEntity> {
        FetchRequest<EmployeeEntity>(entityName: "EmployeeEntity")
    }

    public var age: Int16 {
        get { value(for: "age") }
        set { setValue(newValue, for: "age") }
    }

    public var dateJoined: Date? {
        get { value(for: "dateJoined") }
        set { setValue(newValue, for: "dateJoined") }
    }

    public var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var business: BusinessEntity? {
        get { toOne(for: "business") }
        set { setToOne(newValue, for: "business") }
    }

    public var department: DepartmentEntity? {
        get { toOne(for: "department") }
        set { setToOne(newValue, for: "department") }
    }
}
