// BusinessEntity+CoreDataClass.swift — generated from TutorialCompany.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `BusinessEntity` entity.
public final class BusinessEntity: ManagedObject {}
