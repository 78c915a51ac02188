import DataModelRuntime

// The Records model's entities use `category` code generation: the app owns the classes, and the generated code
// (Generated/TutorialRecords) only their properties, as in Xcode.

// port: begin Records classes
public class RecordsEntity: ManagedObject {
}

public class RecordEntity: ManagedObject {
}

public class LocationEntity: ManagedObject {
}
// port: end
