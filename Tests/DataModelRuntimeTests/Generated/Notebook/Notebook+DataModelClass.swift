// Notebook+DataModelClass.swift — generated from Notebook.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Notebook` entity.
public final class Notebook: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _titleField: Swift.String?
    @exclusivity(unchecked) var _ownerField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .text("title"),
            ],
            relationships: [
                .toMany("notes"),
                .toOne("owner"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _titleField = row.text(0)
        _ownerField = row.toOne(1, nullBit: 0, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _titleField)
        writer.toOne(1, _ownerField, nullBit: 0)
    }
}
