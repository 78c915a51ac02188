// Photo+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Photo` entity.
public final class Photo: Asset {}
