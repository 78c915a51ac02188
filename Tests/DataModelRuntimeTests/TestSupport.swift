import DataModelRuntime
import Foundation
import GeneratedCompanyModel
import PostgresKit
import Testing

/// The kinds of store every scenario runs on: in memory, an SQLite file, and PostgreSQL when a server is there
/// (`DATAMODELGEN_TEST_POSTGRES_URL`, set by `Scripts/with-postgres.sh`, which CI runs the tests under).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case inMemory
    case sqlite
    case postgres

    /// `.postgres` only with a server.
    static var allCases: [StoreKind] {
        PostgresTestServer.url == nil ? [.inMemory, .sqlite] : [.inMemory, .sqlite, .postgres]
    }

    /// The stores whose SQLite database a test inspects with SQLite's own SQL (`sqlite_master`, `typeof`).
    static let sqliteKinds: [StoreKind] = [.inMemory, .sqlite]

    var testDescription: String { rawValue }
}

/// The PostgreSQL server the tests run against, if any; each test store gets a schema of its own.
enum PostgresTestServer {
    /// The server's URL, or `nil` (the PostgreSQL cases are left out: run under `Scripts/with-postgres.sh`).
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["DATAMODELGEN_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    /// Why the PostgreSQL cases do not run, for `.enabled(if:)` and messages.
    static let skipReason: Comment =
        "no PostgreSQL server: DATAMODELGEN_TEST_POSTGRES_URL is not set (run the tests under Scripts/with-postgres.sh, as CI does)"

    /// A new empty schema and the store URL whose sessions use it (`options=-c search_path=…`).
    static func freshSchema() throws -> (name: String, url: URL) {
        guard let base = url else { throw StoreError.unsupportedStore("no PostgreSQL test server") }
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: base).execute("CREATE SCHEMA \(name)")
        let separator = base.contains("?") ? "&" : "?"
        guard let url = URL(string: base + separator + "options=-c%20search_path%3D" + name) else {
            throw StoreError.unsupportedStore("bad test server URL \(base)")
        }
        return (name, url)
    }

    /// Drops a schema ``freshSchema()`` made.
    static func drop(schema name: String) {
        guard let base = url else { return }
        try? PostgresConnection(url: base).execute(
            "SET client_min_messages = warning; DROP SCHEMA IF EXISTS \(name) CASCADE")
    }
}

/// A container for a test, with a fresh SQLite file for `.sqlite` (removed by `cleanUp`), a fresh PostgreSQL
/// schema for `.postgres` (dropped by `cleanUp`).
struct TestStore {
    let kind: StoreKind
    /// The SQLite file (`.sqlite`), or the PostgreSQL URL of the test's schema (`.postgres`).
    let url: URL
    let model: ManagedObjectModel
    let container: PersistentContainer
    private let schema: String?

    init(_ kind: StoreKind, model: ManagedObjectModel) throws {
        self.kind = kind
        self.model = model
        if kind == .postgres {
            let fresh = try PostgresTestServer.freshSchema()
            url = fresh.url
            schema = fresh.name
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-\(UUID().uuidString).sqlite")
            schema = nil
        }
        let description: StoreDescription =
            switch kind {
            case .inMemory: .inMemory
            case .sqlite: .sqlite(at: url)
            case .postgres: .postgres(url: url)
            }
        container = try PersistentContainer(model: model, store: description)
    }

    /// The store's description (`.inMemory` for an in-memory store: another container does not share it).
    var storeDescription: StoreDescription {
        switch kind {
        case .inMemory: .inMemory
        case .sqlite: .sqlite(at: url)
        case .postgres: .postgres(url: url)
        }
    }

    var context: ManagedObjectContext { container.viewContext }

    /// A container on the same file or database (`.sqlite`, `.postgres`), or a new context on the same container
    /// (`.inMemory`).
    func reopened() throws -> ManagedObjectContext {
        switch kind {
        case .inMemory: container.newBackgroundContext()
        case .sqlite, .postgres: try PersistentContainer(model: model, store: storeDescription).viewContext
        }
    }

    /// The SQLite file's bytes (`nil` for other stores).
    func fileBytes() -> Data? {
        kind == .sqlite ? try? Data(contentsOf: url) : nil
    }

    func cleanUp() {
        if let schema { PostgresTestServer.drop(schema: schema) }
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}

extension TestStore {
    /// `count` new departments named `D0`, `D1`, … in the store's context.
    func makeDepartments(_ count: Int) -> [DepartmentEntity] {
        (0..<count).map { index in
            let department = DepartmentEntity(context: context)
            department.name = "D\(index)"
            return department
        }
    }
}
