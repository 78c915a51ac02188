// MemberEntity+DataModelClass.swift — generated from Members.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `MemberEntity` entity.
public final class MemberEntity: ManagedObject {}
