// RestaurantData+CoreDataClass.swift — generated from TutorialRestaurants.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

/// An object of the `RestaurantData` entity.
public final class RestaurantData: ManagedObject {
    // Fields: the row a fetch read, which the properties read until the object's first change.
    @exclusivity(unchecked) var _addressField: Swift.String?
    @exclusivity(unchecked) var _dateField: Swift.Double = 0
    @exclusivity(unchecked) var _groupField: Swift.String?
    @exclusivity(unchecked) var _imagePathField: Swift.String?
    @exclusivity(unchecked) var _phoneField: Swift.String?
    @exclusivity(unchecked) var _placeNameField: Swift.String?
    @exclusivity(unchecked) var _placeURLField: Swift.String?
    @exclusivity(unchecked) var _roadAddressField: Swift.String?

    override public class var fieldLayout: FieldLayout? {
        FieldLayout(
            attributes: [
                .text("address"),
                .real("date"),
                .text("group"),
                .text("imagePath"),
                .text("phone"),
                .text("placeName"),
                .text("placeURL"),
                .text("roadAddress"),
            ],
            relationships: [
                .toMany("category"),
            ])
    }

    override public func readFields(from row: FieldReader) {
        var nulls: UInt32 = 0
        _addressField = row.text(0)
        _dateField = row.real(1, nullBit: 0, in: &nulls)
        _groupField = row.text(2)
        _imagePathField = row.text(3)
        _phoneField = row.text(4)
        _placeNameField = row.text(5)
        _placeURLField = row.text(6)
        _roadAddressField = row.text(7)
        setFieldNulls(nulls)
    }

    override public func writeFields(to writer: FieldWriter) {
        writer.text(0, _addressField)
        writer.real(1, _dateField, nullBit: 0)
        writer.text(2, _groupField)
        writer.text(3, _imagePathField)
        writer.text(4, _phoneField)
        writer.text(5, _placeNameField)
        writer.text(6, _placeURLField)
        writer.text(7, _roadAddressField)
    }
}
