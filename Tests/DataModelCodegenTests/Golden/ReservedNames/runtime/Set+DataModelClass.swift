// Set+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Set` entity.
public final class Set: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _countField: Swift.Int64 = 0
    @exclusivity(unchecked) var _nameField: Swift.String?

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .integer("count"),
                .text("name"),
            ],
            relationships: [
                .toMany("members"),
                .toMany("orders"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _countField = row.integer(0, nullBit: 0, in: &nulls)
        _nameField = row.text(1)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _countField, nullBit: 0)
        writer.text(1, _nameField)
    }
}
