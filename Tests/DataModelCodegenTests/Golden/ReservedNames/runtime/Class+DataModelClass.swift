// Class+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Class` entity.
public final class Class: ManagedObject {}
