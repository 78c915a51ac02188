@testable import DataModelRuntime

/// Reads runtime internals tests need to check (e.g. `Z_OPT`, the schema SQLite holds).
enum StoreInspection {
    /// The object's `Z_OPT` as last read or written.
    static func version(of object: ManagedObject) throws -> Int64 {
        object.version
    }

    /// The `CREATE` statements of every table and index in the container's store, sorted.
    static func schema(of container: PersistentContainer) throws -> [String] {
        try container.coordinator.database
            .fetchAll(sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
            .compactMap { $0.first?.textValue }
            .sorted()
    }

    /// The statements the shared store layout (what `datamodelgen schema` prints) creates, sorted.
    static func layoutStatements(of container: PersistentContainer) -> [String] {
        container.coordinator.runtime.layout.ddlStatements().sorted()
    }

    /// The value of `PRAGMA name` on the container's own connection, as text.
    static func pragma(_ name: String, of container: PersistentContainer) throws -> String? {
        guard let value = try container.coordinator.database.fetchOne(sql: "PRAGMA \(name)")?.first else { return nil }
        return value.textValue ?? value.integerValue.map(String.init)
    }

    /// Runs `sql` on the container's own connection (to write bytes no Swift `String` holds, say).
    static func execute(_ sql: String, on container: PersistentContainer) throws {
        try container.coordinator.database.execute(sql: sql)
    }

    /// `Z_PRIMARYKEY` rows as `Z_ENT|Z_NAME|Z_SUPER|Z_MAX`.
    static func primaryKeyRows(of container: PersistentContainer) throws -> [String] {
        try container.coordinator.database
            .fetchAll(sql: #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#)
            .map { row in row.map { $0.integerValue.map(String.init) ?? $0.textValue ?? "" }.joined(separator: "|") }
    }

    /// The values of `columns` in the rows of `table`, ordered by `Z_PK`, as SQLite stores them
    /// (`typeof(column)` and a readable value).
    static func rows(of container: PersistentContainer, table: String, columns: [String]) throws -> [[String]] {
        let selection = columns.map { "typeof(\"\($0)\") || ':' || quote(\"\($0)\")" }.joined(separator: ", ")
        return try container.coordinator.database
            .fetchAll(sql: "SELECT \(selection) FROM \"\(table)\" ORDER BY \"Z_PK\"")
            .map { row in row.map { $0.textValue ?? "" } }
    }
}
