// Person+Model.swift — generated from Person.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Person` data model (Person 2): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum PersonModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Person",
        entities: [
            describePerson(),
        ])

    /// The `Person` entity.
    private static func describePerson() -> EntityDescription {
        EntityDescription(
            name: "Person",
            parentName: nil,
            isAbstract: false,
            objectType: Person.self,
            attributes: [
                AttributeDescription(name: "email", type: .string),
                AttributeDescription(name: "id", type: .string),
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "updateDate", type: .date),
            ],
            relationships: [
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Person.email: "email"
                case \Person.id_: "id"
                case \Person.name: "name"
                case \Person.updateDate: "updateDate"
                default: nil
                }
            })
    }
}
