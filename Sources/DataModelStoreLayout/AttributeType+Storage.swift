extension AttributeType {
    /// The column type Core Data declares for the attribute, or `nil` when the type is never
    /// stored (`objectID`, `undefined`).
    ///
    /// Observed: integers and Boolean `INTEGER`, Float and Double `FLOAT`, Date `TIMESTAMP`,
    /// Decimal `DECIMAL`, String `VARCHAR`, Binary, UUID and Transformable `BLOB`. Chosen: URI
    /// `VARCHAR` (its absolute string), Composite `BLOB` (one archived value; Core Data itself
    /// flattens composites into one column per element, which this layout does not model).
    public var sqlColumnType: SQLColumnType? {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: .integer
        case .float, .double: .float
        case .date: .timestamp
        case .decimal: .decimal
        case .string, .uri: .varchar
        case .binary, .uuid, .transformable, .composite: .blob
        case .objectID, .undefined: nil
        }
    }

    /// The group that decides where the attribute's column sits in its table.
    var columnGroup: ColumnGroup? {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: .integer
        case .float, .double, .date: .real
        case .decimal: .decimal
        case .string, .uri: .text
        case .transformable: .transformable
        case .binary, .uuid, .composite: .binary
        case .objectID, .undefined: nil
        }
    }
}

/// The groups a table's columns come in, in table order; within a group, each entity of the
/// hierarchy in number order contributes its own columns sorted by property name.
///
/// - `integer`: integer and Boolean attributes, then the entity's to-one relationships (each
///   `Z<REL>` followed by its `Z<n>_<REL>` and `Z_FOK_<REL>`). Observed (`ZICCLOUDSYNCINGOBJECT`
///   of Notes, `ZABCDRECORD` of Contacts, Bear's `ZSFNOTEFILE`).
/// - `real`: Float, Double and Date interleaved by name. Observed for Double and Date
///   (`ZCREATIONDATE TIMESTAMP, ZCREATIONDATEYEARLESS FLOAT, ZMODIFICATIONDATE TIMESTAMP`);
///   Float assumed to sort with Double (chosen).
/// - `decimal`: chosen (no store with a Decimal next to other types was found).
/// - `text`: String (observed) and URI (chosen).
/// - `transformable`, then `binary` (Binary, UUID, Composite): observed that all `BLOB` columns
///   come last and that, in Notes, transformable-looking columns precede every binary one; the
///   split and the place of UUID are chosen.
enum ColumnGroup: Int, CaseIterable, Comparable {
    case integer
    case real
    case decimal
    case text
    case transformable
    case binary

    static func < (lhs: ColumnGroup, rhs: ColumnGroup) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
