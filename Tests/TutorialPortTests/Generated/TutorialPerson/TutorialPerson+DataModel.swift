// TutorialPerson+DataModel.swift — generated from TutorialPerson.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `TutorialPerson` data model (Person 2): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum TutorialPersonModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "TutorialPerson",
        entities: [
            describePerson(),
        ],
        versionName: "Person 2", earlierVersions: earlierVersions)

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "TutorialPerson")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { TutorialPersonModel.model }
    }

    /// The model's versions before Person 2, oldest first, described for migrating their stores.
    private static let earlierVersions: [ManagedObjectModel] = [
        ManagedObjectModel(
            name: "TutorialPerson",
            entities: [
                EntityDescription(
                    name: "Person", parentName: nil, isAbstract: false,
                    objectType: ManagedObject.self,
                    attributes: [
                        AttributeDescription(name: "id", type: .string),
                        AttributeDescription(name: "name", type: .string),
                        AttributeDescription(name: "updateDate", type: .date),
                    ],
                    relationships: [
                    ],
                    uniquenessConstraints: [],
                    fetchIndexes: [
                    ]),
            ],
            versionName: "Person"),
    ]

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
                case \Person.id: "id"
                case \Person.name: "name"
                case \Person.updateDate: "updateDate"
                default: nil
                }
            })
    }
}
