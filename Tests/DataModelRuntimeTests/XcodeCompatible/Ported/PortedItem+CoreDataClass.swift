// PortedItem+CoreDataClass.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `PortedItem` entity.
public final class PortedItem: ManagedObject {}
