// URL.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `URL` entity.
public final class URL: ManagedObject {}
