// Member+DataModelClass.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Member` entity.
public final class Member: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _hoursField: Swift.Int64 = 0
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _searchNameField: Swift.String?
    @exclusivity(unchecked) var _teamNameField: Swift.String?
    @exclusivity(unchecked) var _teamField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .integer("hours"),
                .text("name"),
                .text("searchName"),
                .text("teamName"),
            ],
            relationships: [
                .toOne("team"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _hoursField = row.integer(0, nullBit: 0, in: &nulls)
        _nameField = row.text(1)
        _searchNameField = row.text(2)
        _teamNameField = row.text(3)
        _teamField = row.toOne(0, nullBit: 1, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _hoursField, nullBit: 0)
        writer.text(1, _nameField)
        writer.text(2, _searchNameField)
        writer.text(3, _teamNameField)
        writer.toOne(0, _teamField, nullBit: 1)
    }
}
