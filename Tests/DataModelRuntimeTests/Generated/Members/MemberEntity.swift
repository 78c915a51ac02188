import DataModelRuntime
// MemberEntity.swift — generated from Members.xcdatamodeld by datamodelgen. Do not edit.
import Foundation

/// An object of the `MemberEntity` entity.
public final class MemberEntity: ManagedObject {}
