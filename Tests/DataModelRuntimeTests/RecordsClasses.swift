import DataModelRuntime

// Regenerate Generated/<Model> with `datamodelgen generate Models/<Model>.xcdatamodeld --output Tests/DataModelRuntimeTests/Generated/<Model> --no-schema --include-manual`
// (Scripts/check-runtime-flavor.sh fails when it is stale).
//
// The Records model's entities use `category` code generation: the app owns the classes and
// datamodelgen writes only their properties (Generated/Records).

/// A recorded track.
public final class RecordEntity: ManagedObject {}
/// One point of a track.
public final class LocationEntity: ManagedObject {}
/// A list of tracks.
public final class RecordsEntity: ManagedObject {}
