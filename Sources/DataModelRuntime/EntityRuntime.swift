import DataModelStoreLayout

/// How an attribute's column is read.
enum ColumnKind {
    case integer
    case real
    case text
    case blob
    /// Read as text whatever SQLite stored (Decimal).
    case decimalText
    /// A Binary attribute that allows external storage: Core Data's marked form, decoded when read
    /// (`ExternalBinaryData`), encoded when written.
    case externalBinary

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: self = .integer
        case .double, .float, .date: self = .real
        case .decimal: self = .decimalText
        case .string, .uri: self = .text
        case .binary, .uuid, .transformable, .composite, .objectID, .undefined: self = .blob
        }
    }

    init(_ attribute: AttributeDescription) {
        self = attribute.usesExternalBinaryDataFormat ? .externalBinary : ColumnKind(attribute.type)
    }
}

/// One column of an entity row beyond `Z_PK`, `Z_ENT`, `Z_OPT`, and where its value lives.
enum RowColumn {
    /// An attribute: index into the object's values.
    case attribute(index: Int, kind: ColumnKind)
    /// A to-one's destination `Z_PK`.
    case foreignKey(relationship: Int)
    /// A to-one's destination `Z_ENT`.
    case foreignEntity(relationship: Int)
    /// A to-one's position in its ordered inverse.
    case foreignOrder(relationship: Int)
    /// A column of another entity of the hierarchy: written as `NULL`, ignored when read.
    case unused
}

/// Where a row's attribute value comes from when it is read.
enum AttributeDecoding {
    /// Statement column (0-based, `Z_PK` is 0) and how to read it.
    case column(Int32, ColumnKind)
    /// Not stored (transient): the model default.
    case constant(PrimitiveValue)
}

/// How a row's relationship value is made when it is read.
enum RelationshipDecoding {
    /// A to-many: a fault, loaded on first access.
    case toManyFault
    /// A to-one without columns (transient).
    case noDestination
    /// A to-one: its key column, its entity column (-1 when the destination has no
    /// sub-entities), and the destination's entity number.
    case toOne(keyColumn: Int32, entityColumn: Int32, destinationNumber: Int)
}

/// A relationship of an entity, prepared: its storage and the inverse's index.
final class RelationshipRuntime {
    let description: RelationshipDescription
    /// Index in the source entity's relationship list (the same in every sub-entity).
    let index: Int
    /// How it is stored; `nil` when transient.
    let storage: RelationshipStorage?
    /// The destination entity (owned, like this relationship's entity, by the ``ModelRuntime``).
    unowned let destination: EntityRuntime
    /// The inverse's index in the destination's relationship list, when the two name each other.
    var inverseIndex: Int?
    /// Whether this side writes the rows of a join table (each pair writes once).
    var writesJoinRows = false

    var name: String { description.name }
    var isToMany: Bool { description.isToMany }

    /// Whether every row of the destination's table is of the destination entity (a root entity without
    /// sub-entities): a to-many's rows then need no `Z_ENT` read, and ``loadSQL`` selects the entity number as a
    /// constant in its place (SQLite evaluates it once per statement, not per row).
    var destinationOwnsTable: Bool {
        destination.layout.hierarchyNumbers.count == 1 && destination.layout.rootEntityNumber == destination.number
    }

    /// The destination's to-one whose foreign key ``loadSQL``'s `WHERE` tests, when every row the query reads is of
    /// the destination entity (``destinationOwnsTable``) and that to-one's destination has no sub-entities (its
    /// entity number is a constant of its decoding): its index, and the entity number its value gets. Every row
    /// then holds the loading object's `Z_PK` in that column, so a load sets the to-one once per statement instead
    /// of reading the column per row. `nil` for any other to-many.
    lazy var rowsSharedToOne: (index: Int, entityNumber: Int)? = {
        guard destinationOwnsTable, case .inverseForeignKey(_, let foreignKey)? = storage else { return nil }
        let destination = destination
        for (index, decoding) in destination.relationshipDecoding.enumerated() {
            guard case .toOne(let keyColumn, let entityColumn, let number) = decoding else { continue }
            // The result column `keyColumn` is ``EntityRuntime/rowColumnNames``' `keyColumn - 3`.
            let offset = Int(keyColumn) - 3
            guard destination.rowColumnNames.indices.contains(offset),
                destination.rowColumnNames[offset] == foreignKey.column
            else { continue }
            return entityColumn < 0 ? (index, number) : nil
        }
        return nil
    }()

    /// Loads the destinations of a to-many for one source `Z_PK` in one query, whole rows
    /// (`Z_PK, Z_ENT, Z_OPT` and the destination table's columns) so the objects need no
    /// further query: the relationship fault is fired in one batch. `Z_ENT` is the destination's number, as a
    /// constant, when the table holds no other entity (``destinationOwnsTable``), and the key back to the source a
    /// `NULL` when its value is known per statement (``rowsSharedToOne``).
    lazy var loadSQL: String? = {
        let constantEntity = destinationOwnsTable ? String(destination.number) : nil
        let columns = ([#""Z_PK""#, #""Z_ENT""#, #""Z_OPT""#] + destination.rowColumnNames.map(SQLQuoting.identifier))
        switch storage {
        case .inverseForeignKey(let table, let foreignKey)?:
            let order = foreignKey.orderColumn.map { SQLQuoting.identifier($0) + ", " } ?? ""
            var selected = columns.enumerated().map { $0.offset == 1 ? constantEntity ?? $0.element : $0.element }
            // The key the `WHERE` tests, when no row's decoding reads it (``rowsSharedToOne``), is selected as a
            // constant: SQLite then evaluates it once per statement instead of reading the column of every row (2.9 M
            // of 99.8 M at 20,000 rows).
            if let shared = rowsSharedToOne,
                case .toOne(let keyColumn, _, _) = destination.relationshipDecoding[shared.index],
                selected.indices.contains(Int(keyColumn))
            {
                selected[Int(keyColumn)] = "NULL"
            }
            return "SELECT " + selected.joined(separator: ", ") + " FROM " + SQLQuoting.identifier(table) + " WHERE "
                + SQLQuoting.identifier(foreignKey.column) + " = ? ORDER BY " + order + #""Z_PK""#
        case .joinTable(let join)?:
            let destinationColumn = "j." + SQLQuoting.identifier(join.destinationColumn)
            let order = join.orderColumn.map { "j." + SQLQuoting.identifier($0) + ", " } ?? ""
            let selected = columns.enumerated().map {
                $0.offset == 1 ? constantEntity ?? "d." + $0.element : "d." + $0.element
            }
            return "SELECT " + selected.joined(separator: ", ") + " FROM "
                + SQLQuoting.identifier(join.table) + " AS j JOIN " + SQLQuoting.identifier(destination.tableName)
                + #" AS d ON d."Z_PK" = "# + destinationColumn + " WHERE j." + SQLQuoting.identifier(join.sourceColumn)
                + " = ? ORDER BY " + order + destinationColumn
        case .foreignKey?, nil:
            return nil
        }
    }()

    /// `UPDATE <destination table> SET "Z_FOK_…" = ? WHERE "Z_PK" = ?` for an ordered to-many
    /// stored through its inverse's foreign key.
    lazy var positionUpdateSQL: String? = {
        guard case .inverseForeignKey(let table, let columns)? = storage, let order = columns.orderColumn else {
            return nil
        }
        return "UPDATE " + SQLQuoting.identifier(table) + " SET " + SQLQuoting.identifier(order)
            + #" = ? WHERE "Z_PK" = ?"#
    }()

    /// Join table statements: delete every row of a source, delete one row, insert one row.
    lazy var joinDeleteAllSQL: String? = {
        guard case .joinTable(let columns)? = storage else { return nil }
        return "DELETE FROM " + SQLQuoting.identifier(columns.table) + " WHERE "
            + SQLQuoting.identifier(columns.sourceColumn)
            + " = ?"
    }()

    lazy var joinDeleteOneSQL: String? = {
        guard case .joinTable(let columns)? = storage else { return nil }
        return "DELETE FROM " + SQLQuoting.identifier(columns.table) + " WHERE "
            + SQLQuoting.identifier(columns.sourceColumn)
            + " = ? AND " + SQLQuoting.identifier(columns.destinationColumn) + " = ?"
    }()

    /// Binds source, destination, then the order columns present.
    lazy var joinInsertSQL: String? = {
        guard case .joinTable(let columns)? = storage else { return nil }
        let names =
            [columns.sourceColumn, columns.destinationColumn]
            + [columns.orderColumn, columns.inverseOrderColumn].compactMap { $0 }
        return "INSERT OR REPLACE INTO " + SQLQuoting.identifier(columns.table) + " ("
            + names.map(SQLQuoting.identifier).joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    }()
    /// PostgreSQL's ``joinInsertSQL``: an existing row of the pair keeps its place and takes the new positions
    /// (`ON CONFLICT … DO UPDATE`), as SQLite's `INSERT OR REPLACE` replaces it.
    lazy var joinInsertPostgresSQL: String? = {
        guard case .joinTable(let columns)? = storage else { return nil }
        let keys = [columns.sourceColumn, columns.destinationColumn].map(SQLQuoting.identifier)
        let orders = [columns.orderColumn, columns.inverseOrderColumn].compactMap { $0 }.map(SQLQuoting.identifier)
        let names = keys + orders
        return "INSERT INTO " + SQLQuoting.identifier(columns.table) + " (" + names.joined(separator: ", ")
            + ") VALUES (" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ") ON CONFLICT ("
            + keys.joined(separator: ", ") + ") DO "
            + (orders.isEmpty
                ? "NOTHING" : "UPDATE SET " + orders.map { $0 + " = EXCLUDED." + $0 }.joined(separator: ", "))
    }()
    var isOrdered: Bool { description.isToMany && description.isOrdered }

    init(description: RelationshipDescription, index: Int, storage: RelationshipStorage?, destination: EntityRuntime) {
        self.description = description
        self.index = index
        self.storage = storage
        self.destination = destination
    }
}

/// An entity prepared for the runtime: all its properties (inherited first), its layout, and the
/// SQL its objects need, built once.
final class EntityRuntime {
    let description: EntityDescription
    let layout: EntityLayout
    var storeNumber: Int
    var name: String { description.name }
    var number: Int { layout.number }
    var objectType: ManagedObject.Type { description.objectType }

    /// All attributes, inherited first.
    let attributes: [AttributeDescription]
    /// The attributes' names, for ``attributeIndex(_:)`` (every generated property read looks up its key).
    private let attributeNames: PropertyNameTable
    /// The relationships' names, for ``relationship(named:)``.
    private let relationshipNames: PropertyNameTable
    /// Attributes save must check (required, bounded or patterned), with their index.
    let validatedAttributes: [(index: Int, attribute: AttributeDescription)]
    /// Ordered to-many relationships stored through the inverse's foreign key (their `Z_FOK_`
    /// positions are written at save).
    private(set) lazy var positionedRelationships: [RelationshipRuntime] = relationships.filter {
        $0.positionUpdateSQL != nil
    }
    /// Join-table relationships whose rows this side writes.
    private(set) lazy var joinWritingRelationships: [RelationshipRuntime] = relationships.filter {
        $0.writesJoinRows && $0.joinInsertSQL != nil
    }
    /// Relationships stored in join tables (rows deleted with the object).
    private(set) lazy var joinRelationships: [RelationshipRuntime] = relationships.filter { $0.joinDeleteAllSQL != nil }
    /// The relationships save must check (required, min or max count) of the entity. An optional to-one is not
    /// among them: its only rule is "required", and its count (its model's `maxCount` of 1) cannot be broken, so
    /// an entity whose to-ones are all optional costs its inserted and updated objects no validation pass.
    private(set) lazy var validatedRelationships: [RelationshipRuntime] = relationships.filter { relationship in
        let description = relationship.description
        guard !description.isTransient else { return false }
        guard relationship.isToMany else { return !description.isOptional }
        return !description.isOptional || description.minCount > 0 || description.maxCount > 0
    }
    /// All relationships, inherited first; filled in by ``ModelRuntime`` once every entity exists.
    var relationships: [RelationshipRuntime] = []
    var relationshipIndex: [String: Int] = [:]
    /// All relationship descriptions, inherited first.
    let relationshipDescriptions: [RelationshipDescription]
    /// Ancestors first, then this entity.
    let lineage: [EntityDescription]
    /// Uniqueness constraints of the entity and its ancestors.
    let uniquenessConstraints: [[String]]
    /// The derived attributes of the entity and its ancestors, their expressions parsed
    /// (`ManagedObjectContext+DerivedAttributes.swift`).
    let derivedAttributes: [DerivedAttributeRuntime]

    /// Values of a newly inserted object: the model defaults, no destinations, every to-many
    /// loaded (empty). New objects share it until their first change.
    let insertedValues: ObjectValues
    /// The table's columns after `Z_PK, Z_ENT, Z_OPT`, in table order.
    let rowColumns: [RowColumn]
    /// How each attribute is read from a row of ``selectColumnsSQL``.
    let attributeDecoding: [AttributeDecoding]
    /// How each relationship is read from a row. A `let`, made here from the destinations' entity numbers: a row's
    /// decoding reads it in place, where a `var` (set later by ``ModelRuntime``) was retained and released around
    /// every row's relationships (the calls in between might have replaced it).
    let relationshipDecoding: [RelationshipDecoding]
    /// The table's columns after `Z_PK, Z_ENT, Z_OPT`, by name, in the order queries select
    /// them: last table column first (see ``resultIndex(ofRowColumn:)``).
    let rowColumnNames: [String]
    /// The column of each attribute, `nil` for transient ones.
    let attributeColumns: [String?]
    /// What ``insertSQL`` binds after `Z_PK, Z_ENT, Z_OPT`: this entity's own columns.
    let insertColumns: [RowColumn]
    /// What ``updateSQL`` binds after `Z_OPT` (positions are written separately).
    let updateColumns: [RowColumn]
    /// The quoted names of ``updateColumns``.
    let updateColumnNames: [String]

    /// The attributes stored in Core Data's external-storage form, with their columns (`ColumnKind.externalBinary`).
    let externalAttributes: [(index: Int, column: String)]
    /// `SELECT <external columns> FROM table WHERE "Z_PK" = ?`: the stored forms a save replaces or deletes, whose
    /// files go after the commit; `nil` when the entity has none.
    let selectExternalColumnsSQL: String?

    /// The observation registrar's key path of each property: attributes, then relationships.
    let observationKeyPaths: [KeyPath<ManagedObject, Int>]

    let insertSQL: String
    /// Binds `Z_OPT + 1`, the update columns, `Z_PK`, and the version read.
    let updateSQL: String
    /// Deletes a row: binds `Z_PK` and the version read.
    let deleteSQL: String
    /// The current `Z_OPT` of a row.
    let selectVersionSQL: String
    let selectByPrimaryKeySQL: String
    /// `SELECT "Z_PK", "Z_ENT", "Z_OPT", … FROM table`: the start of fetches.
    let selectColumnsSQL: String
    /// ``selectColumnsSQL`` with the entity number in place of `"Z_ENT"`, for queries whose
    /// rows are all of this entity: one column fewer to read per row.
    let selectColumnsOfEntitySQL: String
    let tableName: String
    /// The result column of each attribute, then of each relationship's key (-1 where none), when the entity's class
    /// keeps fetched rows in fields (``ManagedObject/fieldLayout`` fits the entity); `nil` otherwise. Owned here,
    /// read in place by every fetched row of the entity.
    let fieldColumns: UnsafePointer<Int32>?
    /// The attributes without a column whose model default is not `null`, and the to-manys: what values made from
    /// fields start with besides the fields (``ManagedObject/writeFieldsToValues()``).
    let fieldConstants: [(index: Int, value: PrimitiveValue)]
    let fieldToManys: [Int]
    /// Whether the entity's objects may override the lifecycle methods (``ManagedObject/awakeFromFetch()`` …): their
    /// class is not `ManagedObject`, and it or an ancestor entity's class is not a generated one
    /// (``EntityDescription/hasGeneratedClass``). The runtime calls the methods only then.
    let callsLifecycleMethods: Bool

    init(
        description: EntityDescription, lineage: [EntityDescription], layout: EntityLayout,
        tableColumns: [ColumnLayout], entityNumbers: [String: Int], storeNumber: Int
    ) {
        self.description = description
        self.layout = layout
        self.lineage = lineage
        self.callsLifecycleMethods =
            description.objectType != ManagedObject.self
            && lineage.contains { !$0.hasGeneratedClass && $0.objectType != ManagedObject.self }
        self.storeNumber = storeNumber
        self.tableName = layout.tableName
        let attributes = lineage.flatMap(\.attributes)
        self.attributes = attributes
        self.attributeNames = PropertyNameTable(attributes.map(\.name))
        self.validatedAttributes = attributes.enumerated().filter { _, attribute in
            !attribute.isTransient
                && (!attribute.isOptional || attribute.minValue != nil || attribute.maxValue != nil
                    || attribute.regularExpression != nil)
        }.map { (index: $0.offset, attribute: $0.element) }
        self.relationshipDescriptions = lineage.flatMap(\.relationships)
        self.relationshipNames = PropertyNameTable(relationshipDescriptions.map(\.name))
        self.observationKeyPaths = (0..<(attributes.count + relationshipDescriptions.count)).map {
            \ManagedObject.[observedProperty: $0]
        }
        self.uniquenessConstraints = lineage.flatMap(\.uniquenessConstraints)
        self.derivedAttributes = DerivedAttributeRuntime.derivedAttributes(of: attributes)
        self.attributeColumns = attributes.map { layout.attribute(named: $0.name)?.column }

        var relationshipIndex: [String: Int] = [:]
        for (offset, relationship) in relationshipDescriptions.enumerated() {
            relationshipIndex[relationship.name] = offset
        }
        let ownColumns = Set(layout.columns.map(\.name))
        var rowColumns: [RowColumn] = []
        var names: [String] = []
        for column in tableColumns
        where column.role != .primaryKey && column.role != .entity && column.role != .optimisticLock {
            names.append(column.name)
            guard ownColumns.contains(column.name), let property = column.propertyName else {
                rowColumns.append(.unused)
                continue
            }
            switch column.role {
            case .attribute:
                if let index = attributeNames.index(of: property) {
                    rowColumns.append(.attribute(index: index, kind: ColumnKind(attributes[index])))
                } else {
                    rowColumns.append(.unused)
                }
            case .foreignKey:
                rowColumns.append(relationshipIndex[property].map { .foreignKey(relationship: $0) } ?? .unused)
            case .foreignEntity:
                rowColumns.append(relationshipIndex[property].map { .foreignEntity(relationship: $0) } ?? .unused)
            case .foreignOrder:
                rowColumns.append(relationshipIndex[property].map { .foreignOrder(relationship: $0) } ?? .unused)
            default:
                rowColumns.append(.unused)
            }
        }
        self.rowColumns = rowColumns
        var externalAttributes: [(index: Int, column: String)] = []
        for (offset, column) in rowColumns.enumerated() {
            if case .attribute(let index, .externalBinary) = column {
                externalAttributes.append((index, names[offset]))
            }
        }
        self.externalAttributes = externalAttributes
        self.selectExternalColumnsSQL =
            externalAttributes.isEmpty
            ? nil
            : "SELECT " + externalAttributes.map { SQLQuoting.identifier($0.column) }.joined(separator: ", ")
                + " FROM " + SQLQuoting.identifier(layout.tableName) + #" WHERE "Z_PK" = ?"#
        var attributeDecoding = attributes.map { AttributeDecoding.constant($0.type.primitiveDefault($0.defaultValue)) }
        for (offset, column) in rowColumns.enumerated() {
            if case .attribute(let index, let kind) = column {
                attributeDecoding[index] = .column(Self.resultIndex(ofRowColumn: offset, count: rowColumns.count), kind)
            }
        }
        self.attributeDecoding = attributeDecoding
        var keyColumns: [Int: Int32] = [:]
        var entityColumns: [Int: Int32] = [:]
        for (offset, column) in rowColumns.enumerated() {
            switch column {
            case .foreignKey(let relationship):
                keyColumns[relationship] = Self.resultIndex(ofRowColumn: offset, count: rowColumns.count)
            case .foreignEntity(let relationship):
                entityColumns[relationship] = Self.resultIndex(ofRowColumn: offset, count: rowColumns.count)
            default: continue
            }
        }
        // A destination missing from the model is an error ``ModelRuntime`` reports; it decodes as no destination.
        self.relationshipDecoding = relationshipDescriptions.enumerated().map { index, relationship in
            if relationship.isToMany { return .toManyFault }
            guard let key = keyColumns[index], let number = entityNumbers[relationship.destinationEntityName] else {
                return .noDestination
            }
            return .toOne(keyColumn: key, entityColumn: entityColumns[index] ?? -1, destinationNumber: number)
        }
        self.rowColumnNames = names.reversed()
        let table = SQLQuoting.identifier(layout.tableName)
        let quoted = names.map(SQLQuoting.identifier)
        let selected = [#""Z_PK""#, #""Z_ENT""#, #""Z_OPT""#] + quoted.reversed()
        var insertColumns: [RowColumn] = []
        var insertNames: [String] = []
        var updateColumns: [RowColumn] = []
        var updateNames: [String] = []
        for (column, name) in zip(rowColumns, quoted) {
            switch column {
            case .unused: continue
            case .foreignOrder:
                insertColumns.append(column)
                insertNames.append(name)
            default:
                insertColumns.append(column)
                insertNames.append(name)
                updateColumns.append(column)
                updateNames.append(name)
            }
        }
        self.insertColumns = insertColumns
        self.updateColumns = updateColumns
        self.updateColumnNames = updateNames
        self.insertedValues = ObjectValues(
            attributes: attributes.map { $0.type.primitiveDefault($0.defaultValue) },
            relationships: relationshipDescriptions.map { $0.isToMany ? .toMany(ObjectIDList()) : .toOne(nil) })
        let insertAll = [#""Z_PK""#, #""Z_ENT""#, #""Z_OPT""#] + insertNames
        insertSQL =
            "INSERT INTO \(table) (" + insertAll.joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: insertAll.count).joined(separator: ", ") + ")"
        updateSQL =
            "UPDATE \(table) SET " + ([#""Z_OPT""#] + updateNames).map { $0 + " = ?" }.joined(separator: ", ")
            + #" WHERE "Z_PK" = ? AND "Z_OPT" = ?"#
        deleteSQL = "DELETE FROM \(table) WHERE \"Z_PK\" = ? AND \"Z_OPT\" = ?"
        selectVersionSQL = "SELECT \"Z_OPT\" FROM \(table) WHERE \"Z_PK\" = ?"
        selectColumnsSQL = "SELECT " + selected.joined(separator: ", ") + " FROM \(table)"
        selectColumnsOfEntitySQL =
            "SELECT " + ([#""Z_PK""#, String(layout.number), #""Z_OPT""#] + quoted.reversed()).joined(separator: ", ")
            + " FROM \(table)"
        selectByPrimaryKeySQL = selectColumnsSQL + #" WHERE "Z_PK" = ?"#
        if let columns = FieldLayout.columns(
            description.objectType.fieldLayout, attributes: attributes, decoding: attributeDecoding,
            relationships: relationshipDescriptions, relationshipDecoding: relationshipDecoding)
        {
            let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: max(columns.count, 1))
            pointer.initialize(from: columns, count: columns.count)
            fieldColumns = UnsafePointer(pointer)
        } else {
            fieldColumns = nil
        }
        var fieldConstants: [(index: Int, value: PrimitiveValue)] = []
        for (index, decoding) in attributeDecoding.enumerated() {
            if case .constant(let value) = decoding, value != .null { fieldConstants.append((index, value)) }
        }
        self.fieldConstants = fieldConstants
        let descriptions = relationshipDescriptions
        fieldToManys = descriptions.indices.filter { descriptions[$0].isToMany }
    }

    /// The result column of row column `offset` (an index of ``rowColumns``) in a query selecting
    /// ``selectColumnsSQL`` or `Z_PK, Z_ENT, Z_OPT` and ``rowColumnNames``.
    ///
    /// Rows are selected last table column first: SQLite parses a record's header only as far
    /// as the column asked for, so asking for the last one first parses it in one go instead of
    /// resuming the parse for every column.
    func resultIndex(ofRowColumn offset: Int) -> Int32 {
        Self.resultIndex(ofRowColumn: offset, count: rowColumns.count)
    }

    private static func resultIndex(ofRowColumn offset: Int, count: Int) -> Int32 {
        Int32(3 + count - 1 - offset)
    }

    /// The destination of to-one relationship `index` whose key a field holds (a destination without sub-entities, in
    /// the entity's store), or `nil` when it is no to-one with a key column.
    @inline(__always)
    func fieldObjectID(relationship index: Int, key: Int64) -> ObjectID? {
        guard case .toOne(_, _, let number) = relationshipDecoding[index] else { return nil }
        return ObjectID(storeNumber: storeNumber, entityNumber: number, primaryKey: key)
    }

    /// Whether a to-one of the entity leads to one of the entities numbered `numbers` (to-ones into an entity with
    /// sub-entities count for any of them).
    func hasToOne(intoAnyOf numbers: Set<Int>) -> Bool {
        relationshipDecoding.contains { decoding in
            guard case .toOne(_, let entityColumn, let destination) = decoding else { return false }
            return entityColumn >= 0 || numbers.contains(destination)
        }
    }

    /// The index of the attribute called `name` (see ``PropertyNameTable``).
    @inline(__always)
    func attributeIndex(_ name: String) -> Int? {
        attributeNames.index(of: name)
    }

    deinit {
        attributeNames.deallocate()
        relationshipNames.deallocate()
        fieldColumns?.deallocate()
    }

    /// `UPDATE … SET "Z_OPT" = ?, <the columns of `mask`> = ? … WHERE "Z_PK" = ? AND "Z_OPT" = ?`:
    /// an update writes only the columns that changed, so untouched indexes are not rewritten.
    func updateSQL(columns mask: UInt64) -> String {
        var assignments = [#""Z_OPT" = ?"#]
        for (offset, name) in updateColumnNames.enumerated() where offset < 64 && mask & (1 << UInt64(offset)) != 0 {
            assignments.append(name + " = ?")
        }
        return "UPDATE " + SQLQuoting.identifier(tableName) + " SET " + assignments.joined(separator: ", ")
            + #" WHERE "Z_PK" = ? AND "Z_OPT" = ?"#
    }

    /// The index of the relationship called `name` in ``relationships`` (see ``relationship(named:)``).
    @inline(__always)
    func relationshipIndex(named name: String) -> Int? {
        guard let index = relationshipNames.index(of: name), index < relationships.count else { return nil }
        return index
    }

    /// The relationship called `name` (see ``PropertyNameTable``).
    @inline(__always)
    func relationship(named name: String) -> RelationshipRuntime? {
        guard let index = relationshipNames.index(of: name), index < relationships.count else { return nil }
        return relationships[index]
    }

    /// Whether `other` is this entity or one of its sub-entities.
    func includes(_ other: EntityRuntime) -> Bool {
        layout.hierarchyNumbers.contains(other.number)
    }

    /// `"Z_ENT" BETWEEN a AND b` or `"Z_ENT" = n`, for fetching this entity and its sub-entities.
    var entityCondition: String {
        let range = layout.hierarchyNumbers
        return range.count == 1
            ? #""Z_ENT" = "# + String(range.lowerBound)
            : #""Z_ENT" BETWEEN "# + String(range.lowerBound) + " AND " + String(range.upperBound)
    }
}

/// The model prepared for one store: its layout and every entity's runtime.
final class ModelRuntime {
    let model: ManagedObjectModel
    let layout: StoreLayout
    /// By entity number - 1.
    let entities: [EntityRuntime]
    private let entityByName: [String: EntityRuntime]
    private let entityByClass: [ObjectIdentifier: EntityRuntime]
    /// Whether any entity has an ordered to-many stored through foreign keys (`Z_FOK_` positions).
    private(set) lazy var hasPositionedRelationships = entities.contains { !$0.positionedRelationships.isEmpty }
    /// Whether the model has join tables.
    var hasJoinTables: Bool { !layout.joinTables.isEmpty }
    /// Whether any entity has a Binary attribute with external storage.
    private(set) lazy var hasExternalAttributes = entities.contains { !$0.externalAttributes.isEmpty }
    /// Whether any entity has derived attributes, which a save computes.
    private(set) lazy var hasDerivedAttributes = entities.contains { !$0.derivedAttributes.isEmpty }
    /// Whether any entity's objects may override the lifecycle methods (``EntityRuntime/callsLifecycleMethods``):
    /// when none may, saves and fetches skip them altogether. Set once (read by every context, on any thread).
    let callsLifecycleMethods: Bool

    init(model: ManagedObjectModel, storeNumber: Int) throws(StoreError) {
        let layout: StoreLayout
        do {
            layout = try StoreLayout(model: model.layoutModel)
        } catch {
            throw .invalidModel(error.description)
        }
        self.model = model
        self.layout = layout
        var descriptions: [String: EntityDescription] = [:]
        for entity in model.entities { descriptions[entity.name] = entity }
        var entities: [EntityRuntime] = []
        let reference = ModelReference(model)
        // Each entity's number by name, for the to-ones' decoding (their destinations' numbers).
        var entityNumbers: [String: Int] = [:]
        for entityLayout in layout.entities where entityNumbers[entityLayout.name] == nil {
            entityNumbers[entityLayout.name] = entityLayout.number
        }
        for entityLayout in layout.entities {
            guard var description = descriptions[entityLayout.name] else { continue }
            description.modelReference = reference
            var lineage: [EntityDescription] = [description]
            var parent = description.parentName
            while let name = parent, let ancestor = descriptions[name] {
                lineage.insert(ancestor, at: 0)
                parent = ancestor.parentName
            }
            let tableColumns = layout.table(named: entityLayout.tableName)?.columns ?? entityLayout.columns
            entities.append(
                EntityRuntime(
                    description: description, lineage: lineage, layout: entityLayout, tableColumns: tableColumns,
                    entityNumbers: entityNumbers, storeNumber: storeNumber))
        }
        self.entities = entities
        callsLifecycleMethods = entities.contains { $0.callsLifecycleMethods }
        var byName: [String: EntityRuntime] = [:]
        var byClass: [ObjectIdentifier: EntityRuntime] = [:]
        for entity in entities {
            byName[entity.name] = entity
            // The generic class is the class of every entity without one of its own: it names none of them.
            if entity.objectType != ManagedObject.self && byClass[ObjectIdentifier(entity.objectType)] == nil {
                byClass[ObjectIdentifier(entity.objectType)] = entity
            }
        }
        self.entityByName = byName
        self.entityByClass = byClass

        for entity in entities {
            var runtimes: [RelationshipRuntime] = []
            for (index, relationship) in entity.relationshipDescriptions.enumerated() {
                guard let destination = byName[relationship.destinationEntityName] else {
                    throw .invalidModel(
                        "unknown destination '\(relationship.destinationEntityName)' of \(entity.name).\(relationship.name)"
                    )
                }
                let storage = entity.layout.relationship(named: relationship.name)?.storage
                runtimes.append(
                    RelationshipRuntime(
                        description: relationship, index: index, storage: storage, destination: destination))
            }
            entity.relationships = runtimes
            for runtime in runtimes { entity.relationshipIndex[runtime.name] = runtime.index }
        }
        for entity in entities {
            for relationship in entity.relationships {
                guard let inverseName = relationship.description.inverseName,
                    let inverseIndex = relationship.destination.relationshipIndex[inverseName]
                else { continue }
                let inverse = relationship.destination.relationships[inverseIndex]
                guard inverse.description.inverseName == relationship.name else { continue }
                relationship.inverseIndex = inverseIndex
            }
        }
        for entity in entities {
            for relationship in entity.relationships {
                guard case .joinTable(let columns)? = relationship.storage else { continue }
                if let inverseIndex = relationship.inverseIndex {
                    let inverse = relationship.destination.relationships[inverseIndex]
                    // The pair writes once: from the side whose source column is the table's first key.
                    if case .joinTable(let inverseColumns)? = inverse.storage, inverseColumns.table == columns.table {
                        relationship.writesJoinRows =
                            layout.joinTable(named: columns.table).map { $0.sourceColumn == columns.sourceColumn }
                            ?? true
                        if relationship === inverse { relationship.writesJoinRows = true }
                        continue
                    }
                }
                relationship.writesJoinRows = true
            }
        }
        // Contexts in several isolation domains share this runtime: nothing may change after
        // the initializer, so every lazily built value is built now.
        for entity in entities {
            _ = entity.positionedRelationships
            _ = entity.joinWritingRelationships
            _ = entity.joinRelationships
            _ = entity.validatedRelationships
            for relationship in entity.relationships {
                _ = relationship.loadSQL
                _ = relationship.rowsSharedToOne
                _ = relationship.joinDeleteOneSQL
            }
        }
        _ = hasPositionedRelationships
        _ = hasExternalAttributes
    }

    func entity(named name: String) -> EntityRuntime? { entityByName[name] }

    /// The ID of row `primaryKey` of entity `entityNumber`, or `nil` for an unknown entity.
    func objectID(entityNumber: Int, primaryKey: Int64) -> ObjectID? {
        guard let entity = entity(number: entityNumber) else { return nil }
        return ObjectID(
            storeNumber: entity.storeNumber, entityNumber: entityNumber, primaryKey: primaryKey
        )
    }

    func entity(number: Int) -> EntityRuntime? {
        entities.indices.contains(number - 1) ? entities[number - 1] : nil
    }

    /// The entity whose objects are of `type` (or, failing that, whose name is the class name).
    func entity(for type: ManagedObject.Type) -> EntityRuntime? {
        entityByClass[ObjectIdentifier(type)] ?? entityByName[String(describing: type)]
    }
}
