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
/// The container's contexts share one SQLite connection and live in one isolation domain;
/// the container is not `Sendable`.
public final class PersistentContainer {
    /// The model.
    public let model: ManagedObjectModel
    /// Where the objects are stored.
    public let store: StoreDescription
    let coordinator: StoreCoordinator

    /// The main context.
    public let viewContext: ManagedObjectContext

    /// Opens (creating when needed) the store for `model`.
    ///
    /// - Throws: ``StoreError`` when the model cannot be laid out, the store cannot be opened,
    ///   or the store was written by another model.
    public init(model: ManagedObjectModel, store: StoreDescription = .inMemory) throws(StoreError) {
        self.model = model
        self.store = store
        coordinator = try StoreCoordinator(model: model, store: store)
        viewContext = ManagedObjectContext(coordinator: coordinator)
    }

    /// A new context on the same store. Changes saved by one context are read by the other
    /// when it fetches objects it has not registered yet (merging comes later).
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator)
    }

    /// Runs `body` with a new context.
    public func performBackgroundTask<Value>(_ body: (ManagedObjectContext) throws -> Value) rethrows -> Value {
        try body(newBackgroundContext())
    }
}

@available(*, unavailable, message: "A PersistentContainer and its contexts belong to one isolation domain.")
extension PersistentContainer: Sendable {}
