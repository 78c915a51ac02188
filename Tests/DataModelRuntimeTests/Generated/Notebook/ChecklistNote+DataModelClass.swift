// ChecklistNote+DataModelClass.swift — generated from Notebook.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `ChecklistNote` entity.
public final class ChecklistNote: ManagedObject {}
