// URL+DataModelClass.swift — created from ReservedNames.xcdatamodeld by datamodelgen. This file is yours to edit.
import Foundation
import DataModelRuntime

/// An object of the `URL` entity.
public final class URL: ManagedObject {}
