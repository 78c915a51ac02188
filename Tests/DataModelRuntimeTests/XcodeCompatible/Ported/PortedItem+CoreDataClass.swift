// PortedItem+CoreDataClass.swift — generated from Ported.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `PortedItem` entity.
public final class PortedItem: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _countField: Swift.Int64?
    @exclusivity(unchecked) var _isDoneField: Swift.Int64?
    @exclusivity(unchecked) var _priceField: Swift.Double?
    @exclusivity(unchecked) var _ratingField: Swift.Int64?
    @exclusivity(unchecked) var _serialField: Swift.Int64?
    @exclusivity(unchecked) var _timestampField: Swift.Double?
    @exclusivity(unchecked) var _titleField: Swift.String?
    @exclusivity(unchecked) var _listField: Swift.Int64?

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
        _countField = row.integer(0)
        _isDoneField = row.integer(1)
        _priceField = row.real(2)
        _ratingField = row.integer(3)
        _serialField = row.integer(4)
        _timestampField = row.real(5)
        _titleField = row.text(6)
        _listField = row.toOne(0)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _countField)
        writer.integer(1, _isDoneField)
        writer.real(2, _priceField)
        writer.integer(3, _ratingField)
        writer.integer(4, _serialField)
        writer.real(5, _timestampField)
        writer.text(6, _titleField)
        writer.toOne(0, _listField)
    }
}
