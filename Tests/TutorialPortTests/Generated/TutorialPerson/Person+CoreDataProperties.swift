// Person+CoreDataProperties.swift — created from TutorialPerson.xcdatamodeld by datamodelgen. This file is yours to edit.
import Foundation
import DataModelRuntime

extension Person {
    /// A request for every `Person` object.
    public static func fetchRequest() -> FetchRequest<Person> {
        FetchRequest<Person>(entityName: "Person")
    }

    public var email: String? {
        get { value(for: "email") }
        set { setValue(newValue, for: "email") }
    }

    public var id: String? {
        get { value(for: "id") }
        set { setValue(newValue, for: "id") }
    }

    public var name: String? {
        get { value(for: "name") }
        set { setValue(newValue, for: "name") }
    }

    public var updateDate: Date? {
        get { value(for: "updateDate") }
        set { setValue(newValue, for: "updateDate") }
    }
}
