// Order+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Order` entity.
public final class Order: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _groupField: Swift.String?
    @exclusivity(unchecked) var _orderField: Swift.Int64 = 0
    @exclusivity(unchecked) var _selectField: Swift.Int64 = 0
    @exclusivity(unchecked) var _tableField: Swift.String?
    @exclusivity(unchecked) var _whereField: Swift.String?
    @exclusivity(unchecked) var _setField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .text("group"),
                .integer("order"),
                .integer("select"),
                .text("table"),
                .text("where"),
            ],
            relationships: [
                .toOne("set"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _groupField = row.text(0)
        _orderField = row.integer(1, nullBit: 0, in: &nulls)
        _selectField = row.integer(2, nullBit: 1, in: &nulls)
        _tableField = row.text(3)
        _whereField = row.text(4)
        _setField = row.toOne(0, nullBit: 2, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _groupField)
        writer.integer(1, _orderField, nullBit: 0)
        writer.integer(2, _selectField, nullBit: 1)
        writer.text(3, _tableField)
        writer.text(4, _whereField)
        writer.toOne(0, _setField, nullBit: 2)
    }
}
