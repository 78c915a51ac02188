import DataModelRuntime
import Foundation
import Testing

/// The two kinds of store every scenario runs on.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case inMemory
    case sqlite

    var testDescription: String { rawValue }
}

/// A container for a test, with a fresh SQLite file for `.sqlite` (removed by `cleanUp`).
struct TestStore {
    let kind: StoreKind
    let url: URL
    let model: ManagedObjectModel
    let container: PersistentContainer

    init(_ kind: StoreKind, model: ManagedObjectModel) throws {
        self.kind = kind
        self.model = model
        url = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-\(UUID().uuidString).sqlite")
        container = try PersistentContainer(model: model, store: kind == .inMemory ? .inMemory : .sqlite(at: url))
    }

    var context: ManagedObjectContext { container.viewContext }

    /// A container on the same file (`.sqlite`), or a new context on the same container (`.inMemory`).
    func reopened() throws -> ManagedObjectContext {
        switch kind {
        case .inMemory: container.newBackgroundContext()
        case .sqlite: try PersistentContainer(model: model, store: .sqlite(at: url)).viewContext
        }
    }

    func fileBytes() -> Data? {
        try? Data(contentsOf: url)
    }

    func cleanUp() {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
