// Document+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Document` entity.
public final class Document: Asset {}
