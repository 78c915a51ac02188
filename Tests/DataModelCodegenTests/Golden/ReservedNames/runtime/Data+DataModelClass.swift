// Data+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Data` entity.
public final class Data: ManagedObject {}
