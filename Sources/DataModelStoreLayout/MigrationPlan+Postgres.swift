// MARK: - PostgreSQL's statements

/// What a migration writes differently for a PostgreSQL store. The plan is the same (the same tables, columns,
/// renames, copies and `Z_PRIMARYKEY` rows, in the same order); PostgreSQL's columns have types of their own, so a
/// default value is a literal of the column's type, a value whose attribute type changed is cast, the maximum of
/// several values is `GREATEST`, and a table moved aside also moves its indexes' names aside. PostgreSQL's DDL is
/// transactional like SQLite's: the statements run in one transaction.
extension MigrationPlanner {
    /// Seconds between 1970-01-01 and 2001-01-01, Core Data's reference date for stored dates.
    private static let referenceDateOffset = 978_307_200.0

    /// `value` as a literal of the PostgreSQL column type the attribute has (``DDLWriter``'s PostgreSQL types).
    func postgresLiteral(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .double(let number):
            if number.isNaN { return "'NaN'::DOUBLE PRECISION" }
            if number.isInfinite {
                return number < 0 ? "'-Infinity'::DOUBLE PRECISION" : "'Infinity'::DOUBLE PRECISION"
            }
            return "\(number)"
        case .date(let seconds):
            guard seconds.isFinite else { return "NULL" }
            return "to_timestamp(\(seconds + Self.referenceDateOffset))"
        case .boolean(let flag): return flag ? "TRUE" : "FALSE"
        case .string(let text): return ddl.dialect.literal(text)
        case .decimal(let text): return ddl.dialect.literal(text) + "::NUMERIC"
        case .uuid(let text):
            let digits = String(text.unicodeScalars.filter { $0.properties.isASCIIHexDigit }.map(Character.init))
            return ddl.dialect.literal(digits) + "::UUID"
        }
    }

    /// `expression`, a value of an attribute of type `old`, as a value of `column` (whose attribute type may
    /// differ: ``convertsValue(from:to:)`` lists the changes a migration infers). SQLite's storage classes hold
    /// every such value as it is; PostgreSQL's column types need a cast (a `BOOLEAN` becomes an integer first).
    func converted(_ expression: String, from old: AttributeType, to column: ColumnLayout) -> String {
        guard ddl.dialect == .postgres, let new = column.attributeType, new != old else { return expression }
        let value = old == .boolean ? "CAST(" + expression + " AS INTEGER)" : expression
        return "CAST(" + value + " AS " + ddl.dialect.typeName(of: column) + ")"
    }

    /// The largest of several values: SQLite's scalar `MAX(a, b, …)`, PostgreSQL's `GREATEST(a, b, …)`.
    func greatest(_ terms: [String]) -> String {
        (ddl.dialect == .postgres ? "GREATEST(" : "MAX(") + terms.joined(separator: ", ") + ")"
    }

    /// Renames every index of the tables moved aside (`_DMG_OLD_…`) in the store's schema to a name of its own
    /// (`_DMG_OLD_INDEX_<oid>`): PostgreSQL keeps an index's name when its table is renamed, and a new table's
    /// primary key and indexes take the same names (`ZPERSON_pkey`). The old tables, and their indexes with
    /// them, are dropped at the end of the migration.
    static let postgresIndexesMovedAside = """
        DO $$DECLARE r record; BEGIN FOR r IN SELECT n.nspname AS space, i.relname AS name, i.oid AS id \
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid \
        JOIN pg_namespace n ON n.oid = t.relnamespace \
        WHERE n.nspname = current_schema() AND t.relname LIKE '\\_DMG\\_OLD\\_%' AND i.relname NOT LIKE '\\_DMG\\_OLD\\_%' \
        LOOP EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', r.space, r.name, '_DMG_OLD_INDEX_' || r.id); \
        END LOOP; END$$
        """
}
