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

    /// Creates the schema in an empty database or checks that the tables there are this model's (``PostgresSchema``:
    /// a store an earlier version wrote is migrated in place, in the open transaction — PostgreSQL's DDL is
    /// transactional, and the opener holds the advisory lock, so a second process opening meanwhile waits, then finds
    /// the store migrated), then reads the primary key counters; returns the store's UUID. Anything else is
    /// ``StoreError/modelMismatch(path:differences:)``; a change Core Data's inferred mapping refuses is
    /// ``StoreError/migrationNotInferable(path:from:reasons:)``, and with automatic migration turned off a store of an
    /// earlier version is ``StoreError/migrationRequired(path:from:to:)`` — nothing written in any of these cases.
    func openPostgresSchema() throws(StoreError) -> String {
        do {
            try database.transaction {
                // One opener at a time creates or migrates the schema: a second process waits here, then finds it done.
                try database.execute(sql: "SELECT pg_advisory_xact_lock(\(PostgresSchema.advisoryLock))")
                let versions = runtime.model.earlierVersions.map(\.layoutModel) + [runtime.model.layoutModel]
                let target = versions.count - 1
                var schema = PostgresSchema(
                    database: database, versions: versions, modelName: runtime.model.name,
                    known: [target: runtime.layout])
                let tables = try schema.tableNames()
                guard !tables.isEmpty else { return try schema.create(target: target) }
                do {
                    let recognized = try schema.recognize(tables: tables, target: target)
                    if recognized.source != target && !migratesAutomatically {
                        throw StoreError.migrationRequired(
                            path: path, from: versionName(recognized.source), to: versionName(target))
                    }
                    // Attribute indexes are not part of a version: repaired only when migrations may write.
                    _ = try schema.migrate(recognized, to: target, repairsIndexes: migratesAutomatically)
                } catch let failure as StoreFile.MigrationFailure {
                    throw StoreError(failure, path: path, versionName: versionName)
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
            throw Self.namingTheMissingSchema(StoreError(error))
        }
    }

    /// A schema the URL's `search_path` names but the database lacks fails the first `CREATE TABLE` with "no schema
    /// has been selected to create in" (`3F000`), which does not say what to do: the message says it (the error keeps
    /// its kind, code and SQL).
    static func namingTheMissingSchema(_ error: StoreError) -> StoreError {
        guard case .postgres(var failure) = error, failure.sqlState == .invalidSchemaName else { return error }
        failure.message +=
            "; the schema the URL's search_path names (options=-csearch_path=…) does not exist in this database:"
            + " create it first (CREATE SCHEMA name), or leave search_path out to use public"
        return .postgres(failure)
    }
}
