// DepartmentEntity+CoreDataClass.swift — generated from TutorialCompany.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `DepartmentEntity` entity.
public final class DepartmentEntity: ManagedObject {}
