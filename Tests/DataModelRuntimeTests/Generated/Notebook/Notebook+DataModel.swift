// Notebook+DataModel.swift — generated from Notebook.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Notebook` data model (Notebook): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum NotebookModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Notebook",
        entities: [
            describeChecklistNote(),
            describeNote(),
            describeNotebook(),
            describeOwner(),
            describeTag(),
        ])

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "Notebook")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { NotebookModel.model }
    }

    /// The `ChecklistNote` entity.
    private static func describeChecklistNote() -> EntityDescription {
        EntityDescription(
            name: "ChecklistNote",
            parentName: "Note",
            isAbstract: false,
            objectType: ChecklistNote.self,
            attributes: [
                AttributeDescription(name: "itemCount", type: .integer16, defaultValue: .integer(0)),
            ],
            relationships: [
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \ChecklistNote.itemCount: "itemCount"
                default: nil
                }
            })
    }

    /// The `Note` entity.
    private static func describeNote() -> EntityDescription {
        EntityDescription(
            name: "Note",
            parentName: nil,
            isAbstract: false,
            objectType: ManagedObject.self,
            attributes: [
                AttributeDescription(name: "pinned", type: .boolean, defaultValue: .boolean(false)),
                AttributeDescription(name: "text", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "notebook", destinationEntityName: "Notebook", inverseName: "notes", maxCount: 1),
                RelationshipDescription(name: "tags", destinationEntityName: "Tag", inverseName: "notes", isToMany: true, isOrdered: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                default: nil
                }
            })
    }

    /// The `Notebook` entity.
    private static func describeNotebook() -> EntityDescription {
        EntityDescription(
            name: "Notebook",
            parentName: nil,
            isAbstract: false,
            objectType: Notebook.self,
            attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: .string("")),
            ],
            relationships: [
                RelationshipDescription(name: "notes", destinationEntityName: "Note", inverseName: "notebook", isToMany: true, deleteRule: .cascade),
                RelationshipDescription(name: "owner", destinationEntityName: "Owner", inverseName: "notebooks", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            hasGeneratedClass: true,
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \Notebook.title: "title"
                case \Notebook.notes: "notes"
                case \Notebook.owner: "owner"
                default: nil
                }
            })
    }

    /// The `Owner` entity.
    private static func describeOwner() -> EntityDescription {
        EntityDescription(
            name: "Owner",
            parentName: nil,
            isAbstract: false,
            objectType: ManagedObject.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "notebooks", destinationEntityName: "Notebook", inverseName: "owner", isToMany: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                default: nil
                }
            })
    }

    /// The `Tag` entity.
    private static func describeTag() -> EntityDescription {
        EntityDescription(
            name: "Tag",
            parentName: nil,
            isAbstract: false,
            objectType: ManagedObject.self,
            attributes: [
                AttributeDescription(name: "name", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "notes", destinationEntityName: "Note", inverseName: "tags", isToMany: true),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                default: nil
                }
            })
    }
}
