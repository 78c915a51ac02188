import DataModelNaming
import DataModelStoreLayout

/// Which kind of Swift code to generate (`runtime` or `coredata`); the plugins read it too.
public typealias Flavor = ModelNaming.Flavor

/// The access level of generated declarations.
public enum AccessLevel: String, Sendable, CaseIterable, Codable {
    /// `public` declarations.
    case `public`
    /// `internal` declarations (no modifier written).
    case `internal`

    /// The modifier followed by a space, or nothing for internal.
    public var prefix: String { self == .public ? "public " : "" }
}

/// Options for one generation run.
public struct GenerationOptions: Sendable, Equatable {
    /// Which code to generate.
    public var flavor: Flavor
    /// Access level of declarations.
    public var access: AccessLevel
    /// Whether entities with Manual/None codegen get files too (one-off generation, like Xcode's
    /// "Create NSManagedObject Subclass").
    public var includeManual: Bool
    /// Whether to write `<ModelName>.sql` next to the Swift files.
    public var includeSchema: Bool
    /// How `<ModelName>.sql` is written: its dialect and foreign keys.
    public var schema: SchemaOptions
    /// The runtime flavor's model type instead of `<ModelName>Model` (`--model-type-name`); checked with
    /// ``ModelNaming/modelTypeNameProblem(_:)`` before it gets here.
    public var modelTypeName: String?
    /// Xcode's shapes for ports (`--xcode-compatible`): in the runtime flavor, scalar attributes (`Integer 16` …
    /// `Boolean` using a scalar type) are non-optional Swift scalars whatever the model says (unset reads as 0 or
    /// false), other attributes are optional whatever the model says, and files are named `+CoreDataClass.swift`
    /// / `+CoreDataProperties.swift`. The Core Data flavor has Xcode's shapes already.
    public var xcodeCompatible: Bool

    /// Creates options.
    public init(
        flavor: Flavor = .runtime, access: AccessLevel = .public, includeManual: Bool = false,
        includeSchema: Bool = true, schema: SchemaOptions = SchemaOptions(), modelTypeName: String? = nil,
        xcodeCompatible: Bool = false
    ) {
        self.flavor = flavor
        self.access = access
        self.includeManual = includeManual
        self.includeSchema = includeSchema
        self.schema = schema
        self.modelTypeName = modelTypeName
        self.xcodeCompatible = xcodeCompatible
    }
}
