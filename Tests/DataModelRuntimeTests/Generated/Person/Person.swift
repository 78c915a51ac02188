// Person.swift — generated from Person.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Person` entity.
public final class Person: ManagedObject {}
