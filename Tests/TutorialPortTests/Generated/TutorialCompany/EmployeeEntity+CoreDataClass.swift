// EmployeeEntity+CoreDataClass.swift — generated from TutorialCompany.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `EmployeeEntity` entity.
public final class EmployeeEntity: ManagedObject {}
