// MARK: - System tables (a stage of StoreLayoutBuilder.build(); the stages are listed on StoreLayoutBuilder)

extension StoreLayoutBuilder {
    /// `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`, as Core Data creates them (observed).
    static let systemTables: [TableLayout] = [
        TableLayout(
            name: "Z_PRIMARYKEY", kind: .primaryKey,
            columns: [
                ColumnLayout(name: "Z_ENT", type: .integer, role: .system),
                ColumnLayout(name: "Z_NAME", type: .varchar, role: .system),
                ColumnLayout(name: "Z_SUPER", type: .integer, role: .system),
                ColumnLayout(name: "Z_MAX", type: .integer, role: .system),
            ], primaryKey: ["Z_ENT"]),
        TableLayout(
            name: "Z_METADATA", kind: .metadata,
            columns: [
                ColumnLayout(name: "Z_VERSION", type: .integer, role: .system),
                ColumnLayout(name: "Z_UUID", type: .varchar255, role: .system),
                ColumnLayout(name: "Z_PLIST", type: .blob, role: .system),
            ], primaryKey: ["Z_VERSION"]),
        TableLayout(
            name: "Z_MODELCACHE", kind: .modelCache,
            columns: [ColumnLayout(name: "Z_CONTENT", type: .blob, role: .system)], primaryKey: []),
    ]
}
