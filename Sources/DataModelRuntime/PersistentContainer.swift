/// A model and its store, with the contexts that work on it.
///
/// ```swift
/// let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
/// let context = container.viewContext
/// ```
///
/// The first open of an `.sqlite(at:)` file creates Core Data's schema for the model; later
/// opens check that the file's tables and entities are the model's, and throw
/// ``StoreError/modelMismatch(path:differences:)`` when they are not.
///
/// The container and its ``viewContext`` belong to the isolation domain that created them.
/// Other tasks get contexts of their own: ``newBackgroundContext()`` hands a new context over
/// (`sending`) to whichever task uses it, ``performBackgroundTask(_:)`` runs a closure with one
/// off the caller's executor, and ``persistentStoreCoordinator`` (`Sendable`) makes contexts
/// from anywhere — a server shares it between its request handlers. All contexts share one
/// SQLite connection, used by one context at a time.
public final class PersistentContainer {
    /// The model.
    public let model: ManagedObjectModel
    /// Where the objects are stored.
    public let store: StoreDescription
    /// The store, shareable between tasks: it makes contexts for any of them.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    var coordinator: StoreCoordinator { persistentStoreCoordinator.coordinator }

    /// The main context.
    public let viewContext: ManagedObjectContext

    /// Opens (creating when needed) the store for `model`.
    ///
    /// A store that one of the model's ``ManagedObjectModel/earlierVersions`` wrote is migrated in place first, in
    /// one transaction, when Core Data's lightweight migration would infer the change (as Core Data's default
    /// `shouldMigrateStoreAutomatically` and `shouldInferMappingModelAutomatically` do); pass
    /// `migratesStoreAutomatically: false` to get ``StoreError/migrationRequired(path:from:to:)`` instead.
    ///
    /// - Throws: ``StoreError`` when the model cannot be laid out, the store cannot be opened,
    ///   the store was written by another model, or its version cannot be migrated.
    ///
    /// `externalBinaryDataThreshold`: Binary values of attributes that allow external storage
    /// (``AttributeDescription/allowsExternalBinaryDataStorage``) larger than this many bytes are saved in files of
    /// the store's external-data folder, as Core Data does; smaller ones in the store.
    public init(
        model: ManagedObjectModel, store: StoreDescription = .inMemory, migratesStoreAutomatically: Bool = true,
        externalBinaryDataThreshold: Int = PersistentContainer.defaultExternalBinaryDataThreshold
    ) throws(StoreError) {
        self.model = model
        self.store = store
        let coordinator = try StoreCoordinator(
            model: model, store: store, migratesAutomatically: migratesStoreAutomatically,
            externalBinaryDataThreshold: externalBinaryDataThreshold)
        persistentStoreCoordinator = PersistentStoreCoordinator(coordinator: coordinator)
        viewContext = ManagedObjectContext(coordinator: coordinator)
    }

    /// 128 KiB: Binary values with external storage above it go to files. Core Data's own threshold is not
    /// documented (reported between about 100 KB and 1 MB); the stored marker says where each value is, so stores
    /// written with any threshold read the same.
    public static let defaultExternalBinaryDataThreshold = 128 * 1024

    /// Every reference to a file of the store's external-data folder (Binary attributes with external storage)
    /// whose file is missing or unreadable. Such a value reads as `nil`; this lists them so a tool can report them.
    public func missingExternalDataFiles() throws(StoreError) -> [MissingExternalData] {
        try coordinator.missingExternalDataFiles()
    }

    /// A new context on the same store, for the task it is sent to.
    ///
    /// It sees other contexts' saves when it fetches, or as they happen with
    /// ``ManagedObjectContext/automaticallyMergesChangesFromParent``.
    public func newBackgroundContext() -> sending ManagedObjectContext {
        persistentStoreCoordinator.newBackgroundContext()
    }

    /// Runs `body` with a new context, off the caller's executor, and returns its result.
    ///
    /// ```swift
    /// let count = try await container.performBackgroundTask { context in
    ///     try context.count(for: EmployeeEntity.fetchRequest())
    /// }
    /// ```
    public func performBackgroundTask<Value: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> Value
    ) async throws -> Value {
        try await persistentStoreCoordinator.performBackgroundTask(body)
    }

    /// Starts `body` with a new context on a background task and returns at once, as Core
    /// Data's `performBackgroundTask(_:)` does; use the `async` form to wait for it.
    public func performBackgroundTask(_ body: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let coordinator = self.coordinator
        Task.detached { body(ManagedObjectContext(coordinator: coordinator)) }
    }
}

@available(
    *, unavailable,
    message:
        "A PersistentContainer and its viewContext belong to one isolation domain; share its persistentStoreCoordinator."
)
extension PersistentContainer: Sendable {}

/// A container's store, shared by all its contexts and safe to use from any task.
///
/// ```swift
/// let coordinator = container.persistentStoreCoordinator
/// await withTaskGroup(of: Void.self) { group in
///     for worker in 0..<4 {
///         group.addTask {
///             let context = coordinator.newBackgroundContext()
///             …
///         }
///     }
/// }
/// ```
public final class PersistentStoreCoordinator: Sendable {
    let coordinator: StoreCoordinator

    init(coordinator: StoreCoordinator) {
        self.coordinator = coordinator
    }

    /// The model.
    public var model: ManagedObjectModel { coordinator.runtime.model }

    /// A new context on the store, for the task it is sent to.
    public func newBackgroundContext() -> sending ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator)
    }

    /// Runs `body` with a new context on a background task and returns its result.
    public func performBackgroundTask<Value: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> Value
    ) async throws -> Value {
        let coordinator = self.coordinator
        return try await Task.detached {
            try body(ManagedObjectContext(coordinator: coordinator))
        }.value
    }
}

/// A Binary value with external storage whose file is missing (see ``PersistentContainer/missingExternalDataFiles()``).
public struct MissingExternalData: Sendable, Hashable {
    /// The object.
    public let objectID: ObjectID
    /// The attribute (model spelling).
    public let attribute: String
    /// The file name the store refers to, in `.<store name>_SUPPORT/_EXTERNAL_DATA/`.
    public let fileName: String
}
