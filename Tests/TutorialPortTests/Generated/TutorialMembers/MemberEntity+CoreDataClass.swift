// MemberEntity+CoreDataClass.swift — generated from TutorialMembers.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `MemberEntity` entity.
public final class MemberEntity: ManagedObject {}
