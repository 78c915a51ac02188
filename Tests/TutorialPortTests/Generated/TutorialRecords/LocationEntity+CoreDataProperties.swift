// LocationEntity+CoreDataProperties.swift — generated from TutorialRecords.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension LocationEntity {
    /// A request for every `LocationEntity` object.
    public static func fetchRequest() -> FetchRequest<LocationEntity> {
        FetchRequest<LocationEntity>(entityName: "LocationEntity")
    }

    public var altitude: Double {
        get { value(for: "altitude") }
        set { setValue(newValue, for: "altitude") }
    }

    public var latitude: Double {
        get { value(for: "latitude") }
        set { setValue(newValue, for: "latitude") }
    }

    public var longitude: Double {
        get { value(for: "longitude") }
        set { setValue(newValue, for: "longitude") }
    }

    public var record: RecordEntity? {
        get { toOne(for: "record") }
        set { setToOne(newValue, for: "record") }
    }
}
