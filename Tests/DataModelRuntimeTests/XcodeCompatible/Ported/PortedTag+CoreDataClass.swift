// PortedTag+CoreDataClass.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `PortedTag` entity.
public final class PortedTag: ManagedObject {}
