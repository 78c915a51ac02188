import DataModelGenCLI
import DataModelRuntime
import DataModelStore
import DataModelStoreLayout
import Foundation

/// The migrator of `datamodelgen-postgres migrate <bundle> postgresql://…` (which `datamodelgen migrate` runs for a
/// PostgreSQL URL): the runtime's own code for a PostgreSQL store's schema (``PostgresStoreMigration``), so a store
/// migrates offline exactly as it migrates when an app opens it — one transaction under the runtime's advisory lock,
/// the version recognised by the hashes `Z_METADATA` records (or, for tables the schema command created, by their
/// layout), the same plan, the attribute indexes repaired. A dry run rolls back.
struct PostgresMigration: PostgresStoreMigrator {
    func migrate(
        url: String, versions: [LayoutModel], to target: Int, modelName: String, dryRun: Bool,
        mergingHierarchies: Bool
    ) throws -> StoreFile.Migration {
        guard let parsed = URL(string: url) else {
            throw StoreError.unsupportedStore("'\(PostgresURL.displayed(url))' is not a URL")
        }
        return try PostgresStoreMigration.migrate(
            url: parsed, versions: versions, to: target, modelName: modelName, dryRun: dryRun,
            mergingHierarchies: mergingHierarchies)
    }
}
