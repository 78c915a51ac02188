// Team+DataModelClass.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Team` entity.
public final class Team: ManagedObject {}
