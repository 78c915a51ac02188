// CategoryData+DataModelClass.swift — generated from Restaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `CategoryData` entity.
public final class CategoryData: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _categoryNameField: Swift.String?
    @exclusivity(unchecked) var _categoryTextField: Swift.String?
    @exclusivity(unchecked) var _orderField: Swift.Int64 = 0
    @exclusivity(unchecked) var _restaurantField: Swift.Int64 = 0

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .text("categoryName"),
                .text("categoryText"),
                .integer("order"),
            ],
            relationships: [
                .toOne("restaurant"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _categoryNameField = row.text(0)
        _categoryTextField = row.text(1)
        _orderField = row.integer(2, nullBit: 0, in: &nulls)
        _restaurantField = row.toOne(0, nullBit: 1, in: &nulls)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _categoryNameField)
        writer.text(1, _categoryTextField)
        writer.integer(2, _orderField, nullBit: 0)
        writer.toOne(0, _restaurantField, nullBit: 1)
    }
}
