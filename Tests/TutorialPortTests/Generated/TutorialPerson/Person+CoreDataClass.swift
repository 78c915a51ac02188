// Person+CoreDataClass.swift — created from TutorialPerson.xcdatamodeld by datamodelgen. This file is yours to edit.
import Foundation
import DataModelRuntime

/// An object of the `Person` entity.
public final class Person: ManagedObject {}
