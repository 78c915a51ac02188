// PortedList+CoreDataClass.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `PortedList` entity.
public final class PortedList: ManagedObject {}
