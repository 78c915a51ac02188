// Document+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Document` entity.
public final class Document: Asset {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _mimeTypeField: Swift.String?
    @exclusivity(unchecked) var _pageCountField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .real("createdAt"),
                .text("title"),
                .text("mimeType"),
                .integer("pageCount"),
            ],
            relationships: [
                .toOne("owner"),
                .toMany("attachments"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _createdAtField = row.real(0, nullBit: 0, in: &nulls)
        _titleField = row.text(1)
        _mimeTypeField = row.text(2)
        _pageCountField = row.integer(3, nullBit: 2, in: &nulls)
        _ownerField = row.toOne(0, nullBit: 1, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.real(0, _createdAtField, nullBit: 0)
        writer.text(1, _titleField)
        writer.text(2, _mimeTypeField)
        writer.integer(3, _pageCountField, nullBit: 2)
        writer.toOne(0, _ownerField, nullBit: 1)
    }
}
