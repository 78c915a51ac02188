// EmployeeEntity+DataModelClass.swift — generated from Company.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `EmployeeEntity` entity.
public final class EmployeeEntity: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _ageField: Swift.Int64?
    @exclusivity(unchecked) var _dateJoinedField: Swift.Double?
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _businessField: Swift.Int64?
    @exclusivity(unchecked) var _departmentField: Swift.Int64?

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .integer("age"),
                .real("dateJoined"),
                .text("name"),
            ],
            relationships: [
                .toOne("business"),
                .toOne("department"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        _ageField = row.integer(0)
        _dateJoinedField = row.real(1)
        _nameField = row.text(2)
        _businessField = row.toOne(0)
        _departmentField = row.toOne(1)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _ageField)
        writer.real(1, _dateJoinedField)
        writer.text(2, _nameField)
        writer.toOne(0, _businessField)
        writer.toOne(1, _departmentField)
    }
}
