// Notebook+DataModelClass.swift — generated from Notebook.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Notebook` entity.
public final class Notebook: ManagedObject {}
