// EmployeeEntity+DataModelClass.swift — generated from Company.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `EmployeeEntity` entity.
public final class EmployeeEntity: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _ageField: Swift.Int64 = 0
    @exclusivity(unchecked) var _dateJoinedField: Swift.Double = 0
    @exclusivity(unchecked) var _nameField: Swift.String?
    @exclusivity(unchecked) var _businessField: Swift.Int64 = 0
    @exclusivity(unchecked) var _departmentField: Swift.Int64 = 0

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
        var nulls: UInt32 = 0
        _ageField = row.integer(0, nullBit: 0, in: &nulls)
        _dateJoinedField = row.real(1, nullBit: 1, in: &nulls)
        _nameField = row.text(2)
        _businessField = row.toOne(0, nullBit: 2, in: &nulls)
        _departmentField = row.toOne(1, nullBit: 3, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.integer(0, _ageField, nullBit: 0)
        writer.real(1, _dateJoinedField, nullBit: 1)
        writer.text(2, _nameField)
        writer.toOne(0, _businessField, nullBit: 2)
        writer.toOne(1, _departmentField, nullBit: 3)
    }
}
