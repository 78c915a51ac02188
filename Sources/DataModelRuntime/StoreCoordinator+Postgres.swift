import DataModelStore
import DataModelStoreLayout
import Foundation
import PostgresKit
import SQLiteKit

/// Opening a PostgreSQL store: the connection, the schema created when the database is empty or recognised as this
/// model's, and the primary key counters.
extension StoreCoordinator {
    /// `url` as messages show it: without its password.
    static func displayedURL(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.password = "***"
        return components.string ?? url.absoluteString
    }

    /// A connection to the server `url` names.
    ///
    /// - Throws: ``StoreError/unsupportedStore(_:)`` for a URL that is not `postgresql://` (or `postgres://`),
    ///   ``StoreError/postgres(_:)`` of kind `connection` when the server cannot be reached or refuses the session.
    static func connect(to url: URL, shownAs shown: String) throws(StoreError) -> StoreConnection {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" else {
            throw .unsupportedStore("'\(shown)' is not a postgresql:// URL")
        }
        do {
            return .postgres(PostgresStore(connection: try PostgresConnection(url: url.absoluteString)))
        } catch {
            throw .postgres(error)
        }
    }

    /// Creates the schema in an empty database or checks that the tables there are this model's, then reads the
    /// primary key counters; returns the store's UUID. Nothing is written to a database that holds other tables.
    func openPostgresSchema() throws(StoreError) -> String {
        do {
            try database.transaction {
                // One opener at a time creates the schema: a second process waits here, then finds the tables.
                try database.execute(sql: "SELECT pg_advisory_xact_lock(7405339914114122063)")
                let tables = Set(
                    try database.fetchAll(
                        sql:
                            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
                    ).compactMap { $0.first?.textValue })
                if tables.isEmpty {
                    try createPostgresSchema()
                } else {
                    try checkPostgresSchema(tables: tables)
                }
            }
            let roots = runtime.entities.filter(\.layout.isRoot)
            for row in try database.fetchAll(sql: #"SELECT "Z_ENT", "Z_MAX" FROM "Z_PRIMARYKEY""#) {
                guard row.count == 2, let number = row[0].integerValue, lastPrimaryKey.indices.contains(Int(number))
                else { continue }
                lastPrimaryKey[Int(number)] = row[1].integerValue ?? 0
                storedMaximum[Int(number)] = lastPrimaryKey[Int(number)]
            }
            // Rows written without `Z_MAX` being updated (by other tools) must not have their keys handed out again.
            for root in roots {
                let largest =
                    try database.fetchOne(sql: #"SELECT MAX("Z_PK") FROM "# + SQLQuoting.identifier(root.tableName))?
                    .first?.integerValue ?? 0
                lastPrimaryKey[root.number] = max(lastPrimaryKey[root.number], largest)
            }
            let uuid = try database.fetchOne(
                sql: #"SELECT "Z_UUID" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)?.first?.textValue
            return uuid ?? path
        } catch {
            throw StoreError(error)
        }
    }

    /// The model's tables, indexes, `Z_PRIMARYKEY` rows and `Z_METADATA` row, in the open transaction.
    private func createPostgresSchema() throws {
        let writer = DDLWriter(dialect: .postgres)
        for sql in writer.statements(for: runtime.layout) { try database.execute(sql: sql) }
        for sql in writer.primaryKeyRowStatements(for: runtime.layout) { try database.execute(sql: sql) }
        let uuid = UUID().uuidString
        let metadata: [String: PropertyListValue] = [
            "NSStoreType": .string("PostgreSQL"), "NSStoreUUID": .string(uuid),
            "NSPersistenceFrameworkVersion": .string("DataModelRuntime"),
            "DataModelRuntimeModelName": .string(runtime.model.name),
            StoreFile.versionHashesKey: .dictionary(runtime.model.layoutModel.versionHashes.mapValues { .string($0) }),
        ]
        try database.execute(
            sql: #"INSERT INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, ?, ?)"#,
            arguments: [.text(uuid), .blob(StoreFile.propertyList(metadata))])
    }

    /// Checks that the database's tables are a store of this model (its `Z_METADATA` records the model's entity
    /// version hashes, and every table of the layout exists); anything else is
    /// ``StoreError/modelMismatch(path:differences:)``.
    private func checkPostgresSchema(tables: Set<String>) throws {
        let expected = runtime.layout.tables.map(\.name)
        let missing = expected.filter { !tables.contains($0) }
        guard tables.contains("Z_METADATA") else {
            let found = tables.sorted()
            throw StoreError.modelMismatch(
                path: path,
                differences: [
                    "the database holds tables that are not a store of this model ("
                        + found.prefix(8).joined(separator: ", ") + (found.count > 8 ? ", …" : "")
                        + "); use an empty database or schema"
                ])
        }
        var recorded: [String: String]?
        if let blob = try database.fetchOne(
            sql: #"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#)?.first?.blobValue,
            case .dictionary(let entries)? = BinaryPropertyList.decode(blob),
            case .dictionary(let hashes)? = entries[StoreFile.versionHashesKey]
        {
            recorded = hashes.compactMapValues {
                if case .string(let text) = $0 { return text }
                return nil
            }
        }
        let hashes = runtime.model.layoutModel.versionHashes
        var differences: [String] = []
        if let recorded, recorded != hashes {
            let names = Set(recorded.keys).union(hashes.keys).sorted()
            for name in names where recorded[name] != hashes[name] {
                switch (recorded[name], hashes[name]) {
                case (nil, _): differences.append("entity \(name) is not in the store")
                case (_, nil): differences.append("the store has entity \(name), which the model lacks")
                default: differences.append("entity \(name) differs")
                }
            }
            differences.append("migrating a PostgreSQL store between model versions is not supported yet")
        } else if recorded == nil {
            differences.append("Z_METADATA records no entity version hashes of this runtime")
        }
        if !missing.isEmpty { differences.append("missing tables: " + missing.joined(separator: ", ")) }
        if !differences.isEmpty { throw StoreError.modelMismatch(path: path, differences: differences) }
    }
}
