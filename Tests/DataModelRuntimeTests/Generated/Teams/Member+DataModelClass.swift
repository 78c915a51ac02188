// Member+DataModelClass.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Member` entity.
public final class Member: ManagedObject {}
