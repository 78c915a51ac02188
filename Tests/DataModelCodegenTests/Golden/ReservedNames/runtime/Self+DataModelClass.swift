// Self+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Self` entity.
public final class `Self`: ManagedObject {}
