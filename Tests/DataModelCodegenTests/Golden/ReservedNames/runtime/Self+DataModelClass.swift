// Self+DataModelClass.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Self` entity.
public final class `Self`: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _childCountField: Swift.Int64?
    @exclusivity(unchecked) var _contextField: Swift.String?
    @exclusivity(unchecked) var _deletedField: Swift.Int64?
    @exclusivity(unchecked) var _entityNameField: Swift.String?
    @exclusivity(unchecked) var _identifierField: Foundation.Data?
    @exclusivity(unchecked) var _parentField: Swift.Int64?
    @exclusivity(unchecked) var _twinField: Swift.Int64?

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
        _childCountField = row.integer(0)
        _contextField = row.text(1)
        _deletedField = row.integer(2)
        _entityNameField = row.text(3)
        _identifierField = row.blob(4)
        _parentField = row.toOne(3)
        _twinField = row.toOne(4)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _childCountField)
        writer.text(1, _contextField)
        writer.integer(2, _deletedField)
        writer.text(3, _entityNameField)
        writer.blob(4, _identifierField)
        writer.toOne(3, _parentField)
        writer.toOne(4, _twinField)
    }
}
