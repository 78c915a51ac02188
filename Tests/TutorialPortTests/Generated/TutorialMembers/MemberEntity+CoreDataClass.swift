// MemberEntity+CoreDataClass.swift — generated from TutorialMembers.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `MemberEntity` entity.
public final class MemberEntity: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _ageField: Swift.Int64 = 0
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _ratingField: Swift.Int64 = 0
    @exclusivity(unchecked) var _scoreField: Swift.Double = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .integer("age"),
                .text("name"),
                .integer("rating"),
                .real("score"),
            ],
            relationships: [])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _ageField = row.integer(0, nullBit: 0, in: &nulls)
        _nameField = row.text(1)
        _ratingField = row.integer(2, nullBit: 1, in: &nulls)
        _scoreField = row.real(3, nullBit: 2, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _ageField, nullBit: 0)
        writer.text(1, _nameField)
        writer.integer(2, _ratingField, nullBit: 1)
        writer.real(3, _scoreField, nullBit: 2)
    }
}
