// Team+DataModelClass.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Team` entity.
public final class Team: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _averageHoursField: Swift.Double = 0
    @exclusivity(unchecked) var _longestHoursField: Swift.Int64 = 0
    @exclusivity(unchecked) var _memberCountField: Swift.Int64 = 0
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _shortestHoursField: Swift.Int64 = 0
    @exclusivity(unchecked) var _totalHoursField: Swift.Int64 = 0
    @exclusivity(unchecked) var _updatedAtField: Swift.Double = 0
    @exclusivity(unchecked) var _upperNameField: Swift.String?

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .real("averageHours"),
                .integer("longestHours"),
                .integer("memberCount"),
                .text("name"),
                .integer("shortestHours"),
                .integer("totalHours"),
                .real("updatedAt"),
                .text("upperName"),
            ],
            relationships: [
                .toMany("members"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _averageHoursField = row.real(0, nullBit: 0, in: &nulls)
        _longestHoursField = row.integer(1, nullBit: 1, in: &nulls)
        _memberCountField = row.integer(2, nullBit: 2, in: &nulls)
        _nameField = row.text(3)
        _shortestHoursField = row.integer(4, nullBit: 3, in: &nulls)
        _totalHoursField = row.integer(5, nullBit: 4, in: &nulls)
        _updatedAtField = row.real(6, nullBit: 5, in: &nulls)
        _upperNameField = row.text(7)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.real(0, _averageHoursField, nullBit: 0)
        writer.integer(1, _longestHoursField, nullBit: 1)
        writer.integer(2, _memberCountField, nullBit: 2)
        writer.text(3, _nameField)
        writer.integer(4, _shortestHoursField, nullBit: 3)
        writer.integer(5, _totalHoursField, nullBit: 4)
        writer.real(6, _updatedAtField, nullBit: 5)
        writer.text(7, _upperNameField)
    }
}
