// Class+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Class` entity.
public final class Class: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _defaultField: Swift.String?
    @exclusivity(unchecked) var _extensionField: Swift.String?
    @exclusivity(unchecked) var _funcField: Swift.Int64?
    @exclusivity(unchecked) var _importField: Swift.Int64?
    @exclusivity(unchecked) var _protocolField: Swift.String?
    @exclusivity(unchecked) var _returnField: Swift.Double?
    @exclusivity(unchecked) var _typeField: Swift.Int64?

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
        _defaultField = row.text(0)
        _extensionField = row.text(1)
        _funcField = row.integer(2)
        _importField = row.integer(3)
        _protocolField = row.text(4)
        _returnField = row.real(5)
        _typeField = row.toOne(1)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _defaultField)
        writer.text(1, _extensionField)
        writer.integer(2, _funcField)
        writer.integer(3, _importField)
        writer.text(4, _protocolField)
        writer.real(5, _returnField)
        writer.toOne(1, _typeField)
    }
}
