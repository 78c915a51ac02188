// MemberEntity+CoreDataProperties.swift — generated from TutorialMembers.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension MemberEntity {
    /// A request for every `MemberEntity` object.
    public static func fetchRequest() -> FetchRequest<MemberEntity> {
        FetchRequest<MemberEntity>(entityName: "MemberEntity")
    }

    public var age: Int16 {
        get { readsFields(attribute: 0) ? fieldValue(_ageField, nullBit: 0) ?? .emptyValue : value(for: "age") }
        set { setValue(newValue, for: "age") }
    }

    public var name: String? {
        get { readsFields(attribute: 1) ? fieldValue(_nameField) : value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var rating: Int32 {
        get { readsFields(attribute: 2) ? fieldValue(_ratingField, nullBit: 1) ?? .emptyValue : value(for: "rating") }
        set { setValue(newValue, for: "rating") }
    }

    public var score: Double {
        get { readsFields(attribute: 3) ? fieldValue(_scoreField, nullBit: 2) ?? .emptyValue : value(for: "score") }
        set { setValue(newValue, for: "score") }
    }
}
