// TutorialRecords+DataModel.swift — generated from TutorialRecords.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `TutorialRecords` data model (Records): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum TutorialRecordsModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "TutorialRecords",
        entities: [
            describeLocationEntity(),
            describeRecordEntity(),
            describeRecordsEntity(),
        ])

    /// Every version of the model, oldest first; the last is ``model``. A container opened with `model` migrates a
    /// store that an earlier version wrote.
    public static var versions: [ManagedObjectModel] { model.earlierVersions + [model] }

    /// Makes the model findable by its name: `PersistentContainer(name: "TutorialRecords")`.
    public enum DataModelGenRegistration: GeneratedModelRegistration {
        public static var model: ManagedObjectModel { TutorialRecordsModel.model }
    }

    /// The `LocationEntity` entity.
    private static func describeLocationEntity() -> EntityDescription {
        EntityDescription(
            name: "LocationEntity",
            parentName: nil,
            isAbstract: false,
            objectType: LocationEntity.self,
            attributes: [
                AttributeDescription(name: "altitude", type: .double, defaultValue: .double(0.0)),
                AttributeDescription(name: "latitude", type: .double, defaultValue: .double(0.0)),
                AttributeDescription(name: "longitude", type: .double, defaultValue: .double(0.0)),
            ],
            relationships: [
                RelationshipDescription(name: "record", destinationEntityName: "RecordEntity", inverseName: "locations", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \LocationEntity.altitude: "altitude"
                case \LocationEntity.latitude: "latitude"
                case \LocationEntity.longitude: "longitude"
                case \LocationEntity.record: "record"
                default: nil
                }
            })
    }

    /// The `RecordEntity` entity.
    private static func describeRecordEntity() -> EntityDescription {
        EntityDescription(
            name: "RecordEntity",
            parentName: nil,
            isAbstract: false,
            objectType: RecordEntity.self,
            attributes: [
                AttributeDescription(name: "distance", type: .double, defaultValue: .double(0.0)),
                AttributeDescription(name: "endTime", type: .date),
                AttributeDescription(name: "startTime", type: .date),
                AttributeDescription(name: "step", type: .integer16, defaultValue: .integer(0)),
            ],
            relationships: [
                RelationshipDescription(name: "locations", destinationEntityName: "LocationEntity", inverseName: "record", isToMany: true, isOrdered: true, deleteRule: .cascade),
                RelationshipDescription(name: "recordsEntity", destinationEntityName: "RecordsEntity", inverseName: "records", maxCount: 1),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \RecordEntity.distance: "distance"
                case \RecordEntity.endTime: "endTime"
                case \RecordEntity.startTime: "startTime"
                case \RecordEntity.step: "step"
                case \RecordEntity.locations: "locations"
                case \RecordEntity.recordsEntity: "recordsEntity"
                default: nil
                }
            })
    }

    /// The `RecordsEntity` entity.
    private static func describeRecordsEntity() -> EntityDescription {
        EntityDescription(
            name: "RecordsEntity",
            parentName: nil,
            isAbstract: false,
            objectType: RecordsEntity.self,
            attributes: [
                AttributeDescription(name: "title", type: .string),
            ],
            relationships: [
                RelationshipDescription(name: "records", destinationEntityName: "RecordEntity", inverseName: "recordsEntity", isToMany: true, isOrdered: true, deleteRule: .cascade),
            ],
            uniquenessConstraints: [],
            fetchIndexes: [
            ],
            propertyNameForKeyPath: { keyPath in
                switch keyPath {
                case \RecordsEntity.title: "title"
                case \RecordsEntity.records: "records"
                default: nil
                }
            })
    }
}
