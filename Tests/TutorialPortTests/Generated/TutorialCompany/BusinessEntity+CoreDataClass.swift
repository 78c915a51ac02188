// BusinessEntity+CoreDataClass.swift — generated from TutorialCompany.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `BusinessEntity` entity.
public final class BusinessEntity: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _nameField: Swift.String?

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .text("name"),
            ],
            relationships: [
                .toMany("departments"),
                .toMany("employees"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        _nameField = row.text(0)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _nameField)
    }
}
