// RecordEntity+CoreDataProperties.swift — generated from TutorialRecords.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension RecordEntity {
    /// A request for every `RecordEntity` object.
    public static func fetchRequest() -> FetchRequest<RecordEntity> {
        FetchRequest<RecordEntity>(entityName: "RecordEntity")
    }

    public var distance: Double {
        get { value(for: "distance") }
        set { setValue(newValue, for: "distance") }
    }

    public var endTime: Date? {
        get { value(for: "endTime") }
        set { setValue(newValue, for: "endTime") }
    }

    public var startTime: Date? {
        get { value(for: "startTime") }
        set { setValue(newValue, for: "startTime") }
    }

    public var step: Int16 {
        get { value(for: "step") }
        set { setValue(newValue, for: "step") }
    }

    public var locations: NSOrderedSet? {
        get { toManyNSOrderedSet(for: "locations") }
        set { setToManyNSOrderedSet(newValue, for: "locations") }
    }

    public var recordsEntity: RecordsEntity? {
        get { toOne(for: "recordsEntity") }
        set { setToOne(newValue, for: "recordsEntity") }
    }
}

// MARK: Generated accessors for locations
extension RecordEntity {
    public func insertIntoLocations(_ value: LocationEntity, at index: Int) {
        insertObject(value, at: index, into: "locations")
    }

    public func removeFromLocations(at index: Int) {
        removeObject(at: index, from: "locations")
    }

    public func insertIntoLocations(_ values: [LocationEntity], at indexes: IndexSet) {
        insertObjects(values, at: indexes, into: "locations")
    }

    public func removeFromLocations(at indexes: IndexSet) {
        removeObjects(at: indexes, from: "locations")
    }

    public func replaceLocations(at index: Int, with value: LocationEntity) {
        replaceObject(at: index, with: value, in: "locations")
    }

    public func replaceLocations(at indexes: IndexSet, with values: [LocationEntity]) {
        replaceObjects(at: indexes, with: values, in: "locations")
    }

    public func addToLocations(_ value: LocationEntity) {
        addObject(value, to: "locations")
    }

    public func removeFromLocations(_ value: LocationEntity) {
        removeObject(value, from: "locations")
    }

    public func addToLocations(_ values: some Sequence<LocationEntity>) {
        addObjects(values, to: "locations")
    }

    public func removeFromLocations(_ values: some Sequence<LocationEntity>) {
        removeObjects(values, from: "locations")
    }
}
