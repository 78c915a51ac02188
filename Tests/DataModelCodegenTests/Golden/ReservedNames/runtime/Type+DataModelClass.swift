// Type+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Type` entity.
public final class `Type`: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _binaryField: Foundation.Data?
    @exclusivity(unchecked) var _booleanField: Swift.Int64 = 0
    @exclusivity(unchecked) var _booleanObjectField: Swift.Int64 = 0
    @exclusivity(unchecked) var _dateField: Swift.Double = 0
    @exclusivity(unchecked) var _decimalField: Swift.String?
    @exclusivity(unchecked) var _doubleField: Swift.Double = 0
    @exclusivity(unchecked) var _floatField: Swift.Double = 0
    @exclusivity(unchecked) var _int16Field: Swift.Int64 = 0
    @exclusivity(unchecked) var _int32Field: Swift.Int64 = 0
    @exclusivity(unchecked) var _int64Field: Swift.Int64 = 0
    @exclusivity(unchecked) var _stringField: Swift.String?
    @exclusivity(unchecked) var _uriField: Swift.String?
    @exclusivity(unchecked) var _uuidField: Foundation.Data?

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .blob("binary"),
                .integer("boolean"),
                .integer("booleanObject"),
                .real("date"),
                .text("decimal"),
                .real("double"),
                .real("float"),
                .integer("int16"),
                .integer("int32"),
                .integer("int64"),
                .transient("objectRef"),
                .text("string"),
                .transient("undefined"),
                .text("uri"),
                .blob("uuid"),
            ],
            relationships: [
                .toMany("classes"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _binaryField = row.blob(0)
        _booleanField = row.integer(1, nullBit: 0, in: &nulls)
        _booleanObjectField = row.integer(2, nullBit: 1, in: &nulls)
        _dateField = row.real(3, nullBit: 2, in: &nulls)
        _decimalField = row.text(4)
        _doubleField = row.real(5, nullBit: 3, in: &nulls)
        _floatField = row.real(6, nullBit: 4, in: &nulls)
        _int16Field = row.integer(7, nullBit: 5, in: &nulls)
        _int32Field = row.integer(8, nullBit: 6, in: &nulls)
        _int64Field = row.integer(9, nullBit: 7, in: &nulls)
        _stringField = row.text(11)
        _uriField = row.text(13)
        _uuidField = row.blob(14)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.blob(0, _binaryField)
        writer.integer(1, _booleanField, nullBit: 0)
        writer.integer(2, _booleanObjectField, nullBit: 1)
        writer.real(3, _dateField, nullBit: 2)
        writer.text(4, _decimalField)
        writer.real(5, _doubleField, nullBit: 3)
        writer.real(6, _floatField, nullBit: 4)
        writer.integer(7, _int16Field, nullBit: 5)
        writer.integer(8, _int32Field, nullBit: 6)
        writer.integer(9, _int64Field, nullBit: 7)
        writer.text(11, _stringField)
        writer.text(13, _uriField)
        writer.blob(14, _uuidField)
    }
}
