import Foundation

/// Where a container keeps its objects.
public enum StoreDescription: Sendable, Hashable {
    /// A private in-memory SQLite database, gone with the container.
    case inMemory
    /// An SQLite file in Core Data's layout, created with the schema on first open.
    case sqlite(at: URL)
}
