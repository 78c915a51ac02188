// Class+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Class` entity.
public final class Class: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _defaultField: Swift.String?
    @exclusivity(unchecked) var _extensionField: Swift.String?
    @exclusivity(unchecked) var _funcField: Swift.Int64 = 0
    @exclusivity(unchecked) var _importField: Swift.Int64 = 0
    @exclusivity(unchecked) var _protocolField: Swift.String?
    @exclusivity(unchecked) var _returnField: Swift.Double = 0
    @exclusivity(unchecked) var _typeField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .text("default"),
                .text("extension"),
                .integer("func"),
                .integer("import"),
                .text("protocol"),
                .real("return"),
            ],
            relationships: [
                .toMany("assets"),
                .toOne("type"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _defaultField = row.text(0)
        _extensionField = row.text(1)
        _funcField = row.integer(2, nullBit: 0, in: &nulls)
        _importField = row.integer(3, nullBit: 1, in: &nulls)
        _protocolField = row.text(4)
        _returnField = row.real(5, nullBit: 2, in: &nulls)
        _typeField = row.toOne(1, nullBit: 3, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _defaultField)
        writer.text(1, _extensionField)
        writer.integer(2, _funcField, nullBit: 0)
        writer.integer(3, _importField, nullBit: 1)
        writer.text(4, _protocolField)
        writer.real(5, _returnField, nullBit: 2)
        writer.toOne(1, _typeField, nullBit: 3)
    }
}
