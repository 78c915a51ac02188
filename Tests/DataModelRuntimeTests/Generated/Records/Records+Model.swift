// Records+Model.swift — generated from Records.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// The `Records` data model (Records): entities, properties, inverses, delete rules,
/// defaults, validation bounds and uniqueness constraints, for `DataModelRuntime`.
public enum RecordsModel {
    /// The model, with every entity's class registered.
    public static let model = ManagedObjectModel(
        name: "Records",
        entities: [
            describeLocationEntity(),
            describeRecordEntity(),
            describeRecordsEntity(),
        ])

    /// The `LocationEntity` entity.
    private static func describeLocationEntity() -> EntityDescription {
        EntityDescription(
            name: "LocationEntity",
            parentName: nil,
            isAbstract: false,
            objectType: LocationEntity.self,
            attributes: [
                AttributeDescription(
                    name: "altitude", type: .double, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: "0.0", minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "latitude", type: .double, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: "0.0", minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "longitude", type: .double, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: "0.0", minValue: nil, maxValue: nil,
                    regularExpression: nil),
            ],
            relationships: [
                RelationshipDescription(
                    name: "record", destinationEntityName: "RecordEntity",
                    inverseName: "locations", isToMany: false, isOrdered: false,
                    isOptional: true, isTransient: false, deleteRule: .nullify,
                    minCount: 0, maxCount: 1),
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
                AttributeDescription(
                    name: "distance", type: .double, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: "0.0", minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "endTime", type: .date, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "startTime", type: .date, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
                AttributeDescription(
                    name: "step", type: .integer16, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: "0", minValue: nil, maxValue: nil,
                    regularExpression: nil),
            ],
            relationships: [
                RelationshipDescription(
                    name: "locations", destinationEntityName: "LocationEntity",
                    inverseName: "record", isToMany: true, isOrdered: true,
                    isOptional: true, isTransient: false, deleteRule: .cascade,
                    minCount: 0, maxCount: 0),
                RelationshipDescription(
                    name: "recordsEntity", destinationEntityName: "RecordsEntity",
                    inverseName: "records", isToMany: false, isOrdered: false,
                    isOptional: true, isTransient: false, deleteRule: .nullify,
                    minCount: 0, maxCount: 1),
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
                AttributeDescription(
                    name: "title", type: .string, isOptional: true,
                    isTransient: false, isDerived: false, isIndexed: false,
                    defaultValue: nil, minValue: nil, maxValue: nil,
                    regularExpression: nil),
            ],
            relationships: [
                RelationshipDescription(
                    name: "records", destinationEntityName: "RecordEntity",
                    inverseName: "recordsEntity", isToMany: true, isOrdered: true,
                    isOptional: true, isTransient: false, deleteRule: .cascade,
                    minCount: 0, maxCount: 0),
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
