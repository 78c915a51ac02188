import Foundation
import PostgresKit

/// The store a tutorial port runs on, as its `storeURL`: `/dev/null` (in memory), a fresh SQLite file, or a fresh
/// PostgreSQL schema when a server is there (`DATAMODELGEN_TEST_POSTGRES_URL`, set by `Scripts/with-postgres.sh`,
/// which CI runs the tests under).
struct TutorialStore {
    enum Kind: String, CaseIterable, CustomStringConvertible, Sendable {
        case inMemory
        case sqlite
        case postgres

        /// `.postgres` only with a server.
        static var allCases: [Kind] { server == nil ? [.inMemory, .sqlite] : [.inMemory, .sqlite, .postgres] }

        var description: String { rawValue }
    }

    static let server: String? = {
        guard let url = ProcessInfo.processInfo.environment["DATAMODELGEN_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    let kind: Kind
    let url: URL
    private let schema: String?

    init(_ kind: Kind) throws {
        self.kind = kind
        switch kind {
        case .inMemory:
            url = URL(fileURLWithPath: "/dev/null")
            schema = nil
        case .sqlite:
            url = FileManager.default.temporaryDirectory.appendingPathComponent("tutorial-\(UUID().uuidString).sqlite")
            schema = nil
        case .postgres:
            guard let server = Self.server else { throw PostgresError(kind: .connection, message: "no test server") }
            let name = "tut" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try PostgresConnection(url: server).execute("CREATE SCHEMA \(name)")
            let separator = server.contains("?") ? "&" : "?"
            guard let url = URL(string: server + separator + "options=-c%20search_path%3D" + name) else {
                throw PostgresError(kind: .connection, message: "bad test server URL")
            }
            self.url = url
            schema = name
        }
    }

    func cleanUp() {
        if let schema, let server = Self.server {
            try? PostgresConnection(url: server).execute(
                "SET client_min_messages = warning; DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }
        if kind == .sqlite {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
        }
    }
}
