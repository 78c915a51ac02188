// Asset+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Asset` entity.
open class Asset: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _createdAtField: Swift.Double = 0
    @exclusivity(unchecked) var _titleField: Swift.String?
    @exclusivity(unchecked) var _ownerField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .real("createdAt"),
                .text("title"),
            ],
            relationships: [
                .toOne("owner"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _createdAtField = row.real(0, nullBit: 0, in: &nulls)
        _titleField = row.text(1)
        _ownerField = row.toOne(0, nullBit: 1, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.real(0, _createdAtField, nullBit: 0)
        writer.text(1, _titleField)
        writer.toOne(0, _ownerField, nullBit: 1)
    }
}
