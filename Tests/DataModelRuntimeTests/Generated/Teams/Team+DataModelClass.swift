// Team+DataModelClass.swift — generated from Teams.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `Team` entity.
public final class Team: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _averageHoursField: Swift.Double?
    @exclusivity(unchecked) var _longestHoursField: Swift.Int64?
    @exclusivity(unchecked) var _memberCountField: Swift.Int64?
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _shortestHoursField: Swift.Int64?
    @exclusivity(unchecked) var _totalHoursField: Swift.Int64?
    @exclusivity(unchecked) var _updatedAtField: Swift.Double?
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
        _averageHoursField = row.real(0)
        _longestHoursField = row.integer(1)
        _memberCountField = row.integer(2)
        _nameField = row.text(3)
        _shortestHoursField = row.integer(4)
        _totalHoursField = row.integer(5)
        _updatedAtField = row.real(6)
        _upperNameField = row.text(7)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.real(0, _averageHoursField)
        writer.integer(1, _longestHoursField)
        writer.integer(2, _memberCountField)
        writer.text(3, _nameField)
        writer.integer(4, _shortestHoursField)
        writer.integer(5, _totalHoursField)
        writer.real(6, _updatedAtField)
        writer.text(7, _upperNameField)
    }
}
