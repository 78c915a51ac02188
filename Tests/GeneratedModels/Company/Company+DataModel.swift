// Company+DataModel.swift — generated from Company.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Company` data model (Company): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum CompanyModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Company",
        entities: [
            describeBusinessEntity(),
            describeDepartmentEntity(),
            describeEmployeeEntity(),
        ])

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "Company")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { CompanyModel.model }
    }

    /// The `BusinessEntity` entity.
    private static func describeBusinessEntity() -> EntityDescription {
        EntityDescription(
            name: "BusinessEntity",
            parentName: nil,
            isAbstract: false,
            objectType: BusinessEntity.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "departments", destinationEntityName: "DepartmentEntity", inverseName: "businesses", isToMany: true),
                RelationshipDescription(name: "employees", destinationEntityName: "EmployeeEntity", inverseName: "business", isToMany: true, deleteRule: .cascade),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \BusinessEntity.name: "name"
                case \BusinessEntity.departments: "departments"
                case \BusinessEntity.employees: "employees"
                default: nil
                }
            })
    }

    /// The `DepartmentEntity` entity.
    private static func describeDepartmentEntity() -> EntityDescription {
        EntityDescription(
            name: "DepartmentEntity",
            parentName: nil,
            isAbstract: false,
            objectType: DepartmentEntity.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "businesses", destinationEntityName: "BusinessEntity", inverseName: "departments", isToMany: true),
                RelationshipDescription(name: "employees", destinationEntityName: "EmployeeEntity", inverseName: "department", isToMany: true, deleteRule: .deny),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \DepartmentEntity.name: "name"
                case \DepartmentEntity.businesses: "businesses"
                case \DepartmentEntity.employees: "employees"
                default: nil
                }
            })
    }

    /// The `EmployeeEntity` entity.
    private static func describeEmployeeEntity() -> EntityDescription {
        EntityDescription(
            name: "EmployeeEntity",
            parentName: nil,
            isAbstract: false,
            objectType: EmployeeEntity.self,
            attributes: [
                AttributeDescription(name: "age", type: .integer16, defaultValue: .integer(0)),
                AttributeDescription(name: "dateJoined", type: .date),
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "business", destinationEntityName: "BusinessEntity", inverseName: "employees", maxCount: 1),
                RelationshipDescription(name: "department", destinationEntityName: "DepartmentEntity", inverseName: "employees", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \EmployeeEntity.age: "age"
                case \EmployeeEntity.dateJoined: "dateJoined"
                case \EmployeeEntity.name: "name"
                case \EmployeeEntity.business: "business"
                case \EmployeeEntity.department: "department"
                default: nil
                }
            })
    }
}
