// MemberEntity+CoreDataProperties.swift — generated from TutorialMembers.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension MemberEntity {
    /// A request for every `MemberEntity` object.
    public static func fetchRequest() -> FetchRequest<MemberEntity> {
        FetchRequest<MemberEntity>(entityName: "MemberEntity")
    }

    public var age: Int16 {
        get { value(for: "age") }
        set { setValue(newValue, for: "age") }
    }

    public var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var rating: Int32 {
        get { value(for: "rating") }
        set { setValue(newValue, for: "rating") }
    }

    public var score: Double {
        get { value(for: "score") }
        set { setValue(newValue, for: "score") }
    }
}
