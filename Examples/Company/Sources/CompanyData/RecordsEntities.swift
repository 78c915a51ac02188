import DataModelRuntime

// The Records model's entities use `category` code generation, as in Xcode: the app owns the
// classes, and the build plugin generates only their properties (`RecordEntity+DataModelProperties.swift`
// and so on) plus `RecordsModel`, which registers these classes with the runtime.

/// A list of recorded tracks.
public final class RecordsEntity: ManagedObject {
    /// The total distance of the list's tracks.
    public var totalDistance: Double { records.reduce(0) { $0 + ($1.distance ?? 0) } }
}

/// A recorded track.
public final class RecordEntity: ManagedObject {}

/// One point of a track.
public final class LocationEntity: ManagedObject {}
