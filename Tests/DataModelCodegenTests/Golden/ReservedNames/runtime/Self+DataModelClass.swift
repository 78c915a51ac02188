// Self+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Self` entity.
public final class `Self`: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _childCountField: Swift.Int64 = 0
    @exclusivity(unchecked) var _contextField: Swift.String?
    @exclusivity(unchecked) var _deletedField: Swift.Int64 = 0
    @exclusivity(unchecked) var _entityNameField: Swift.String?
    @exclusivity(unchecked) var _identifierField: Foundation.Data?
    @exclusivity(unchecked) var _parentField: Swift.Int64 = 0
    @exclusivity(unchecked) var _twinField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .integer("childCount"),
                .text("context"),
                .integer("deleted"),
                .text("entityName"),
                .blob("identifier"),
                .transient("isPinned"),
            ],
            relationships: [
                .toMany("children"),
                .toMany("followers"),
                .toMany("following"),
                .toOne("parent"),
                .toOne("twin"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _childCountField = row.integer(0, nullBit: 0, in: &nulls)
        _contextField = row.text(1)
        _deletedField = row.integer(2, nullBit: 1, in: &nulls)
        _entityNameField = row.text(3)
        _identifierField = row.blob(4)
        _parentField = row.toOne(3, nullBit: 2, in: &nulls)
        _twinField = row.toOne(4, nullBit: 3, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _childCountField, nullBit: 0)
        writer.text(1, _contextField)
        writer.integer(2, _deletedField, nullBit: 1)
        writer.text(3, _entityNameField)
        writer.blob(4, _identifierField)
        writer.toOne(3, _parentField, nullBit: 2)
        writer.toOne(4, _twinField, nullBit: 3)
    }
}
