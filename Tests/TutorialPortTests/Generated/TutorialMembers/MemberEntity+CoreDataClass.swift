// MemberEntity+CoreDataClass.swift — generated from TutorialMembers.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `MemberEntity` entity.
public final class MemberEntity: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _ageField: Swift.Int64?
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _ratingField: Swift.Int64?
    @exclusivity(unchecked) var _scoreField: Swift.Double?

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
        _ageField = row.integer(0)
        _nameField = row.text(1)
        _ratingField = row.integer(2)
        _scoreField = row.real(3)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _ageField)
        writer.text(1, _nameField)
        writer.integer(2, _ratingField)
        writer.real(3, _scoreField)
    }
}
