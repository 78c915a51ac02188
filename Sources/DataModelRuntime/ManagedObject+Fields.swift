import Foundation
import SQLiteKit

// MARK: - Fields: a fetched row kept in the generated class's stored properties
//
// A generated class (codegen `class`) declares one stored property, a *field*, per attribute and to-one of its entity,
// and overrides ``ManagedObject/readFields(from:)``, ``ManagedObject/writeFields(to:)`` and
// ``ManagedObject/fieldLayout``. A fetch reads each row straight into the fields of its new object (no value block,
// no name lookups, no tags), and the generated properties read them while the object still holds that row
// (``ManagedObject/readsFields(attribute:)``). Everything else, a change first of all, turns the fields into the
// object's ``ManagedObject/values`` once (``ManagedObject/writeFieldsToValues()``), from then on the one copy.

/// What a generated class keeps in fields, in its entity's property order (inherited properties first): the runtime
/// compares it with the entity's storage once, and reads rows into fields only when the two agree.
public struct FieldLayout: Sendable, Equatable {
    /// An attribute's field: how its column is read.
    public enum Attribute: Sendable, Equatable {
        /// An integer column (integer and Boolean attributes): an `Int64?` field.
        case integer(String)
        /// A real column (floating-point and date attributes): a `Double?` field.
        case real(String)
        /// A text column (string, URI and decimal attributes): a `String?` field.
        case text(String)
        /// A blob column (binary, UUID, transformable attributes): a `Data?` field.
        case blob(String)
        /// No column, no field: a transient attribute (its model default).
        case transient(String)
    }

    /// A relationship's field.
    public enum Relationship: Sendable, Equatable {
        /// A to-one: its destination's primary key, an `Int64?` field.
        case toOne(String)
        /// A to-many: no field (loaded when read).
        case toMany(String)
        /// A transient to-one: no field.
        case transient(String)
    }

    let attributes: [Attribute]
    let relationships: [Relationship]

    public init(attributes: [Attribute], relationships: [Relationship]) {
        self.attributes = attributes
        self.relationships = relationships
    }

    /// Each attribute's column, then each relationship's key column (-1 where there is no field), when the layout
    /// fits `entity`'s storage: the same properties in the same order, each read the way its field holds it, no
    /// attribute in Core Data's external-storage form, no to-one into an entity with sub-entities (its row names
    /// the destination's entity). `nil` otherwise.
    static func columns(
        _ layout: FieldLayout?, attributes: [AttributeDescription], decoding: [AttributeDecoding],
        relationships: [RelationshipDescription], relationshipDecoding: [RelationshipDecoding]
    ) -> [Int32]? {
        guard let layout, layout.attributes.count == attributes.count,
            layout.relationships.count == relationships.count
        else { return nil }
        var columns: [Int32] = []
        columns.reserveCapacity(attributes.count + relationships.count)
        for (index, field) in layout.attributes.enumerated() {
            switch (field, decoding[index]) {
            case (.integer(let name), .column(let column, .integer)),
                (.real(let name), .column(let column, .real)),
                (.text(let name), .column(let column, .text)),
                (.text(let name), .column(let column, .decimalText)),
                (.blob(let name), .column(let column, .blob)):
                guard name == attributes[index].name else { return nil }
                columns.append(column)
            case (.transient(let name), .constant):
                guard name == attributes[index].name else { return nil }
                columns.append(-1)
            default:
                return nil
            }
        }
        for (index, field) in layout.relationships.enumerated() {
            switch (field, relationshipDecoding[index]) {
            case (.toOne(let name), .toOne(let keyColumn, let entityColumn, _)) where entityColumn < 0:
                guard name == relationships[index].name else { return nil }
                columns.append(keyColumn)
            case (.toMany(let name), .toManyFault), (.transient(let name), .noDestination):
                guard name == relationships[index].name else { return nil }
                columns.append(-1)
            default:
                return nil
            }
        }
        return columns
    }
}

/// The mask of a field's null bit in ``ManagedObject/fieldNulls``: what the reader sets, and the writer and the getters
/// test.
@inlinable @inline(__always)
func fieldNullMask(_ bit: Int) -> UInt32 { 1 << UInt32(truncatingIfNeeded: bit) }

/// The current row of a fetch, as a generated ``ManagedObject/readFields(from:)`` reads it: each value as the
/// runtime's own decoding reads the column (so a field turned into values gives exactly what the row would have).
public struct FieldReader {
    enum Source {
        case sqlite(Unmanaged<Statement>)
        case postgres(Unmanaged<PostgresStatement>)
    }

    let source: Source
    /// The entity's field columns (``EntityRuntime/fieldColumns``): attributes, then relationships.
    let attributeColumns: UnsafePointer<Int32>
    let relationshipColumns: UnsafePointer<Int32>
    /// The to-one every row of the statement shares (a to-many's load: the loading object), or -1, and its key:
    /// its column is selected as `NULL` (see ``RelationshipRuntime/rowsSharedToOne``).
    let sharedRelationship: Int
    let sharedKey: Int64?

    init(
        _ source: Source, columns: UnsafePointer<Int32>, attributeCount: Int, sharedRelationship: Int = -1,
        sharedKey: Int64? = nil
    ) {
        self.source = source
        attributeColumns = columns
        relationshipColumns = columns + attributeCount
        self.sharedRelationship = sharedRelationship
        self.sharedKey = sharedKey
    }

    /// Attribute `index`'s integer column: its value, or `nil` for `NULL` (a real reads as its integral part).
    public func integer(_ index: Int) -> Int64? {
        switch source {
        case .sqlite(let statement): statement._withUnsafeGuaranteedRef { integer($0, at: attributeColumns[index]) }
        case .postgres(let statement): statement._withUnsafeGuaranteedRef { integer($0, at: attributeColumns[index]) }
        }
    }

    /// Attribute `index`'s real column, or `nil` for `NULL`.
    public func real(_ index: Int) -> Double? {
        switch source {
        case .sqlite(let statement):
            statement._withUnsafeGuaranteedRef { $0.nullableDouble(at: attributeColumns[index]) }
        case .postgres(let statement):
            statement._withUnsafeGuaranteedRef { $0.nullableDouble(at: attributeColumns[index]) }
        }
    }

    /// Attribute `index`'s text column, or `nil` for `NULL` (a zero-length blob reads as `""`).
    public func text(_ index: Int) -> String? {
        switch source {
        case .sqlite(let statement): statement._withUnsafeGuaranteedRef { text($0, at: attributeColumns[index]) }
        case .postgres(let statement): statement._withUnsafeGuaranteedRef { text($0, at: attributeColumns[index]) }
        }
    }

    /// Attribute `index`'s blob column, or `nil` for `NULL`.
    public func blob(_ index: Int) -> Data? {
        switch source {
        case .sqlite(let statement): statement._withUnsafeGuaranteedRef { $0.data(at: attributeColumns[index]) }
        case .postgres(let statement): statement._withUnsafeGuaranteedRef { $0.data(at: attributeColumns[index]) }
        }
    }

    /// To-one relationship `index`'s destination key, or `nil` for none.
    public func toOne(_ index: Int) -> Int64? {
        if index == sharedRelationship { return sharedKey }
        return switch source {
        case .sqlite(let statement):
            statement._withUnsafeGuaranteedRef { $0.nullableInt64(at: relationshipColumns[index]) }
        case .postgres(let statement):
            statement._withUnsafeGuaranteedRef { $0.nullableInt64(at: relationshipColumns[index]) }
        }
    }

    /// Attribute `index`'s integer column, or 0 with `bit` set in `nulls` for `NULL` (a field with a null bit).
    @inline(__always)
    public func integer(_ index: Int, nullBit bit: Int, in nulls: inout UInt32) -> Int64 {
        Self.unwrap(integer(index), bit, &nulls)
    }

    /// Attribute `index`'s real column, or 0 with `bit` set in `nulls` for `NULL` (a field with a null bit).
    @inline(__always)
    public func real(_ index: Int, nullBit bit: Int, in nulls: inout UInt32) -> Double {
        Self.unwrap(real(index), bit, &nulls)
    }

    /// To-one relationship `index`'s destination key, or 0 with `bit` set in `nulls` for none (a field with a null
    /// bit).
    @inline(__always)
    public func toOne(_ index: Int, nullBit bit: Int, in nulls: inout UInt32) -> Int64 {
        Self.unwrap(toOne(index), bit, &nulls)
    }

    @inline(__always)
    private static func unwrap<Value: Numeric>(_ value: Value?, _ bit: Int, _ nulls: inout UInt32) -> Value {
        if let value { return value }
        // Checked here only, where a bit is set: a bit past 31 would shift out and read the field as 0, not `nil`.
        precondition((0..<32).contains(bit), "a field's null bit is 0 through 31")
        nulls |= fieldNullMask(bit)
        return 0
    }

    @inline(__always)
    private func integer<Row: StoreRow>(_ statement: Row, at column: Int32) -> Int64? {
        // As the runtime's decoding reads it (``ManagedObjectContext/read(_:at:as:into:attribute:)``): one call on the
        // common path, the storage class asked only for the values that cannot tell alone.
        let value = statement.int64(at: column)
        guard value == 0 || value == .max || value == .min else { return value }
        return ManagedObjectContext.readInteger(statement, at: column).integer
    }

    @inline(__always)
    private func text<Row: StoreRow>(_ statement: Row, at column: Int32) -> String? {
        ManagedObjectContext.readText(statement, at: column)
    }
}

/// Where a generated ``ManagedObject/writeFields(to:)`` writes its fields: the object's values, as the runtime's
/// decoding would have made them from the row the fields were read from.
public struct FieldWriter {
    let writer: ObjectValueWriter
    let entity: Unmanaged<EntityRuntime>
    /// The object's ``ManagedObject/fieldNulls``.
    let nulls: UInt32

    @inline(__always)
    private func isNull(_ bit: Int) -> Bool { nulls & fieldNullMask(bit) != 0 }

    /// Attribute `index` from an integer field with a null bit.
    public func integer(_ index: Int, _ value: Int64, nullBit bit: Int) {
        integer(index, isNull(bit) ? nil : value)
    }

    /// Attribute `index` from a real field with a null bit.
    public func real(_ index: Int, _ value: Double, nullBit bit: Int) {
        real(index, isNull(bit) ? nil : value)
    }

    /// To-one relationship `index` from its destination key field with a null bit.
    public func toOne(_ index: Int, _ key: Int64, nullBit bit: Int) {
        toOne(index, isNull(bit) ? nil : key)
    }

    /// Attribute `index` from an integer field.
    public func integer(_ index: Int, _ value: Int64?) {
        if let value { writer.initialize(attribute: index, integer: value) }
    }

    /// Attribute `index` from a real field.
    public func real(_ index: Int, _ value: Double?) {
        if let value { writer.initialize(attribute: index, real: value) }
    }

    /// Attribute `index` from a text field.
    public func text(_ index: Int, _ value: String?) {
        if let value { writer.initialize(attribute: index, text: value) }
    }

    /// Attribute `index` from a blob field.
    public func blob(_ index: Int, _ value: Data?) {
        if let value { writer.initialize(attribute: index, blob: value) }
    }

    /// To-one relationship `index` from its destination key.
    public func toOne(_ index: Int, _ key: Int64?) {
        guard let key else { return }
        guard let id = entity._withUnsafeGuaranteedRef({ $0.fieldObjectID(relationship: index, key: key) }) else {
            return
        }
        writer.initialize(relationship: index, to: .toOne(id))
    }
}

extension Statement {
    /// The statement as a ``FieldReader`` reads it.
    var fieldSource: FieldReader.Source { .sqlite(Unmanaged.passUnretained(self)) }
}

extension PostgresStatement {
    /// The statement as a ``FieldReader`` reads it.
    var fieldSource: FieldReader.Source { .postgres(Unmanaged.passUnretained(self)) }
}

extension ManagedObject {
    /// Turns the fields into ``values``: once, at the first use of ``values`` while ``holdsFields`` is set.
    final func writeFieldsToValues() {
        holdsFields = false
        withShared { shared in
            entityReference._withUnsafeGuaranteedRef { entity in
                valueBlock = ObjectValues(
                    attributeCount: entity.attributes.count, relationshipCount: entity.relationshipDecoding.count,
                    in: &shared.fieldArena
                ) { writer in
                    for (index, value) in entity.fieldConstants { writer.initialize(attribute: index, to: value) }
                    for index in entity.fieldToManys { writer.initialize(relationship: index, to: .toManyFault) }
                    writeFields(to: FieldWriter(writer: writer, entity: entityReference, nulls: fieldNulls))
                }
            }
        }
    }

    /// Whether the generated property of attribute `index` reads its field: the object holds the row it fetched
    /// (after the access is registered and other contexts' changes are merged, which may have replaced it).
    /// Generated properties call this.
    public final func readsFields(attribute index: Int) -> Bool {
        guard holdsFields else { return false }
        willAccess(property: index)
        return holdsFields
    }

    /// Whether the generated property of relationship `index` reads its field (see ``readsFields(attribute:)``).
    public final func readsFields(relationship index: Int) -> Bool {
        guard holdsFields else { return false }
        willAccess(property: entityReference._withUnsafeGuaranteedRef { $0.attributes.count } + index)
        return holdsFields
    }

    /// An attribute's value from its integer field. Generated properties call this.
    @inlinable
    public final func fieldValue<T: StorableValue>(_ field: Int64?) -> T? {
        guard let field else { return nil }
        return T(primitiveValue: .integer(field))
    }

    /// An attribute's value from its integer field with a null bit (see ``fieldNulls``). Generated properties call
    /// this.
    @inlinable
    public final func fieldValue<T: StorableValue>(_ field: Int64, nullBit bit: Int) -> T? {
        guard fieldNulls & fieldNullMask(bit) == 0 else { return nil }
        return T(primitiveValue: .integer(field))
    }

    /// An attribute's value from its real field with a null bit (see ``fieldNulls``). Generated properties call
    /// this.
    @inlinable
    public final func fieldValue<T: StorableValue>(_ field: Double, nullBit bit: Int) -> T? {
        guard fieldNulls & fieldNullMask(bit) == 0 else { return nil }
        return T(primitiveValue: .real(field))
    }

    /// Sets which fields' columns were `NULL` (see ``fieldNulls``): a generated ``readFields(from:)`` calls this once,
    /// after reading its fields.
    public final func setFieldNulls(_ nulls: UInt32) {
        fieldNulls = nulls
    }

    /// An attribute's value from its real field.
    @inlinable
    public final func fieldValue<T: StorableValue>(_ field: Double?) -> T? {
        guard let field else { return nil }
        return T(primitiveValue: .real(field))
    }

    /// An attribute's value from its text field.
    @inlinable
    public final func fieldValue<T: StorableValue>(_ field: String?) -> T? {
        guard let field else { return nil }
        return T(primitiveValue: .text(field))
    }

    /// An attribute's value from its blob field.
    @inlinable
    public final func fieldValue<T: StorableValue>(_ field: Data?) -> T? {
        guard let field else { return nil }
        return T(primitiveValue: .blob(field))
    }

    /// The destination of to-one relationship `index` from its key field with a null bit (see ``fieldNulls``).
    /// Generated properties call this.
    public final func fieldObject<T: ManagedObject>(relationship index: Int, _ key: Int64, nullBit bit: Int) -> T? {
        guard fieldNulls & fieldNullMask(bit) == 0 else { return nil }
        return fieldObject(relationship: index, key)
    }

    /// The destination of to-one relationship `index` from its key field. Generated properties call this.
    public final func fieldObject<T: ManagedObject>(relationship index: Int, _ key: Int64?) -> T? {
        guard let key, let context else { return nil }
        guard let id = entityReference._withUnsafeGuaranteedRef({ $0.fieldObjectID(relationship: index, key: key) })
        else { return nil }
        return context.object(for: id) as? T
    }
}
