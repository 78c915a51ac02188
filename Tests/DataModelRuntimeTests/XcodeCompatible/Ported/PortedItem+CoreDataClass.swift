// PortedItem+CoreDataClass.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `PortedItem` entity.
public final class PortedItem: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _countField: Swift.Int64 = 0
    @exclusivity(unchecked) var _isDoneField: Swift.Int64 = 0
    @exclusivity(unchecked) var _priceField: Swift.Double = 0
    @exclusivity(unchecked) var _ratingField: Swift.Int64 = 0
    @exclusivity(unchecked) var _serialField: Swift.Int64 = 0
    @exclusivity(unchecked) var _timestampField: Swift.Double = 0
    @exclusivity(unchecked) var _titleField: Swift.String?
    @exclusivity(unchecked) var _listField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .integer("count"),
                .integer("isDone"),
                .real("price"),
                .integer("rating"),
                .integer("serial"),
                .real("timestamp"),
                .text("title"),
            ],
            relationships: [
                .toOne("list"),
                .toMany("tags"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _countField = row.integer(0, nullBit: 0, in: &nulls)
        _isDoneField = row.integer(1, nullBit: 1, in: &nulls)
        _priceField = row.real(2, nullBit: 2, in: &nulls)
        _ratingField = row.integer(3, nullBit: 3, in: &nulls)
        _serialField = row.integer(4, nullBit: 4, in: &nulls)
        _timestampField = row.real(5, nullBit: 5, in: &nulls)
        _titleField = row.text(6)
        _listField = row.toOne(0, nullBit: 6, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _countField, nullBit: 0)
        writer.integer(1, _isDoneField, nullBit: 1)
        writer.real(2, _priceField, nullBit: 2)
        writer.integer(3, _ratingField, nullBit: 3)
        writer.integer(4, _serialField, nullBit: 4)
        writer.real(5, _timestampField, nullBit: 5)
        writer.text(6, _titleField)
        writer.toOne(0, _listField, nullBit: 6)
    }
}
