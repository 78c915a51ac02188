import Foundation

/// A model and its store, with the contexts that work on it.
///
/// ```swift
/// let container = try PersistentContainer(model: CompanyModel.model, store: .inMemory)
/// let context = container.viewContext
/// ```
///
/// or, as Core Data spells it, with the generated model found by name and the store described, then loaded:
///
/// ```swift
/// let container = PersistentContainer(name: "Company")
/// container.persistentStoreDescriptions.first?.url = storeURL
/// container.loadPersistentStores { description, error in … }
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
    /// The container's name: the model's name for ``init(name:)``, and the store file's name
    /// (`<name>.sqlite`) in ``defaultDirectoryURL()``.
    public let name: String
    /// The model.
    public let managedObjectModel: ManagedObjectModel
    /// The model: ``managedObjectModel``.
    public var model: ManagedObjectModel { managedObjectModel }
    /// The store to open: ``loadPersistentStores(completionHandler:)`` opens it. ``init(name:)`` starts with one
    /// SQLite store, `<name>.sqlite` in ``defaultDirectoryURL()``; the other initializers with the store they
    /// opened. A container has one store: a second description is refused when loading.
    public var persistentStoreDescriptions: [PersistentStoreDescription]

    /// The store, its coordinator and the main context, once loaded.
    private var loaded: Loaded?
    /// Why ``init(name:)`` found no model: reported by ``loadPersistentStores(completionHandler:)``.
    private let modelError: StoreError?

    private struct Loaded {
        let store: StoreDescription
        let coordinator: PersistentStoreCoordinator
        let viewContext: ManagedObjectContext
    }

    /// Where the objects are stored: the loaded store, or before loading the first description's
    /// (`.inMemory` when it describes none the runtime can open).
    public var store: StoreDescription {
        if let loaded { return loaded.store }
        return (try? persistentStoreDescriptions.first?.storeDescription()) ?? .inMemory
    }
    /// The store, shareable between tasks: it makes contexts for any of them. Use it after the store is loaded.
    public var persistentStoreCoordinator: PersistentStoreCoordinator { loadedState().coordinator }
    var coordinator: StoreCoordinator { persistentStoreCoordinator.coordinator }

    /// The main context. Use it after the store is loaded (the one-line initializer loads it; with ``init(name:)``,
    /// call ``loadPersistentStores(completionHandler:)`` first): before, there is no store to work on, and using it
    /// stops the program with a message that says so.
    public var viewContext: ManagedObjectContext { loadedState().viewContext }

    /// Whether the store is open.
    public var isLoaded: Bool { loaded != nil }

    private func loadedState() -> Loaded {
        guard let loaded else {
            preconditionFailure(
                "PersistentContainer '\(name)' has no store yet: call loadPersistentStores(completionHandler:) first")
        }
        return loaded
    }

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
        externalBinaryDataThreshold: Int = PersistentContainer.defaultExternalBinaryDataThreshold,
        connectionPoolMaxSize: Int = PersistentStoreDescription.defaultConnectionPoolMaxSize
    ) throws(StoreError) {
        name = model.name
        managedObjectModel = model
        modelError = nil
        let description = PersistentStoreDescription(store)
        description.shouldMigrateStoreAutomatically = migratesStoreAutomatically
        description.connectionPoolMaxSize = connectionPoolMaxSize
        persistentStoreDescriptions = [description]
        loaded = try Self.open(
            model: model, store: store, migratesAutomatically: migratesStoreAutomatically,
            externalBinaryDataThreshold: externalBinaryDataThreshold, connectionPoolMaxSize: connectionPoolMaxSize)
    }

    /// A container for the generated model called `name` (``ManagedObjectModel/named(_:)``), as Core Data's
    /// `NSPersistentContainer(name:)`: nothing is opened until ``loadPersistentStores(completionHandler:)``.
    ///
    /// ```swift
    /// let container = PersistentContainer(name: "Company")
    /// container.loadPersistentStores { description, error in
    ///     if let error { fatalError("\(description.url?.path ?? "store"): \(error)") }
    /// }
    /// let context = container.viewContext
    /// ```
    ///
    /// The store is an SQLite file, `<name>.sqlite` in ``defaultDirectoryURL()``, unless
    /// ``persistentStoreDescriptions`` is changed before loading. When no model has the name, loading reports
    /// ``StoreError/unknownModel(_:known:)``, which names the models there are.
    public convenience init(name: String) {
        do {
            try self.init(name: name, managedObjectModel: ManagedObjectModel.named(name), modelError: nil)
        } catch {
            self.init(name: name, managedObjectModel: ManagedObjectModel(name: name, entities: []), modelError: error)
        }
    }

    /// A container named `name` (the store file is `<name>.sqlite` in ``defaultDirectoryURL()``) for `model`, as
    /// Core Data's `NSPersistentContainer(name:managedObjectModel:)`; nothing is opened until
    /// ``loadPersistentStores(completionHandler:)``.
    public convenience init(name: String, managedObjectModel model: ManagedObjectModel) {
        self.init(name: name, managedObjectModel: model, modelError: nil)
    }

    private init(name: String, managedObjectModel model: ManagedObjectModel, modelError: StoreError?) {
        self.name = name
        managedObjectModel = model
        self.modelError = modelError
        persistentStoreDescriptions = [
            PersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent(name + ".sqlite"))
        ]
    }

    /// Opens the store of ``persistentStoreDescriptions`` and calls `completionHandler` with its description and
    /// `nil`, or with the error that kept it from opening (a ``StoreError``), as Core Data does. The handler is
    /// called before the method returns. An SQLite store's directory is created when missing.
    ///
    /// A container has one store: a second description is reported with ``StoreError/unsupportedStore(_:)``, as
    /// is a description of an already loaded container.
    public func loadPersistentStores(
        completionHandler: (PersistentStoreDescription, (any Error)?) -> Void
    ) {
        for (index, description) in persistentStoreDescriptions.enumerated() {
            do {
                if let modelError { throw modelError }
                guard index == 0, loaded == nil else {
                    throw StoreError.unsupportedStore("a container opens one store; it has \(store)")
                }
                let store = try description.storeDescription()
                if case .sqlite(let url) = store {
                    let directory = url.deletingLastPathComponent()
                    do {
                        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    } catch {
                        throw StoreError.unexpected("cannot create the store's directory \(directory.path): \(error)")
                    }
                }
                loaded = try Self.open(
                    model: managedObjectModel, store: store,
                    migratesAutomatically: description.shouldMigrateStoreAutomatically
                        && description.shouldInferMappingModelAutomatically,
                    connectionPoolMaxSize: description.connectionPoolMaxSize)
                completionHandler(description, nil)
            } catch let error as StoreError {
                completionHandler(description, error)
            } catch {
                completionHandler(description, StoreError.unexpected("\(error)"))
            }
        }
    }

    /// Opens the store of ``persistentStoreDescriptions``, throwing what
    /// ``loadPersistentStores(completionHandler:)`` would report.
    public func loadPersistentStores() throws(StoreError) {
        var failure: StoreError?
        loadPersistentStores { _, error in
            if failure == nil, let error { failure = (error as? StoreError) ?? .unexpected("\(error)") }
        }
        if let failure { throw failure }
    }

    /// The directory ``init(name:)`` puts its store in: on Linux `$XDG_DATA_HOME/<program>` (by default
    /// `~/.local/share/<program>`), where `<program>` is the running program's name, as the XDG base directory
    /// specification asks of application data; on Apple platforms `Application Support/<program>`. Core Data
    /// uses the application's Application Support directory.
    public static func defaultDirectoryURL() -> URL {
        let program = ProcessInfo.processInfo.processName
        #if os(Linux)
            let environment = ProcessInfo.processInfo.environment
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent(program, isDirectory: true)
            }
            return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".local/share", isDirectory: true
            )
            .appendingPathComponent(program, isDirectory: true)
        #else
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.homeDirectoryForCurrentUser
            return base.appendingPathComponent(program, isDirectory: true)
        #endif
    }

    private static func open(
        model: ManagedObjectModel, store: StoreDescription, migratesAutomatically: Bool,
        externalBinaryDataThreshold: Int = defaultExternalBinaryDataThreshold,
        connectionPoolMaxSize: Int = PersistentStoreDescription.defaultConnectionPoolMaxSize
    ) throws(StoreError) -> Loaded {
        let coordinator = try StoreCoordinator(
            model: model, store: store, migratesAutomatically: migratesAutomatically,
            externalBinaryDataThreshold: externalBinaryDataThreshold, connectionPoolMaxSize: connectionPoolMaxSize)
        return Loaded(
            store: store, coordinator: PersistentStoreCoordinator(coordinator: coordinator),
            viewContext: ManagedObjectContext(coordinator: coordinator))
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
    ///
    /// `nonisolated(nonsending)`: the call stays in the caller's isolation domain (the container is not `Sendable`
    /// and is not sent anywhere), so a `@MainActor` function can call it on its own container; only `body` runs on
    /// a background task.
    nonisolated(nonsending) public func performBackgroundTask<Value: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> Value
    ) async throws -> Value {
        try await persistentStoreCoordinator.performBackgroundTask(body)
    }

    /// Starts `body` with a new context on a background task and returns at once, as Core
    /// Data's `performBackgroundTask(_:)` does; use the `async` form to wait for it.
    public func performBackgroundTask(_ body: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let coordinator = self.coordinator.backgroundCoordinator()
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
    ///
    /// On PostgreSQL it uses one of a small pool of connections besides the view context's (at most four, opened
    /// as needed and handed out in turn), so background work does not queue behind the view context's.
    public func newBackgroundContext() -> sending ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator.backgroundCoordinator())
    }

    /// Runs `body` with a new context on a background task and returns its result.
    public func performBackgroundTask<Value: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> Value
    ) async throws -> Value {
        let coordinator = self.coordinator.backgroundCoordinator()
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
