// Asset+DataModelProperties.swift — generated from ReservedNames.xcdatamodeld by datamodelgen. Do not edit.
import Foundation
import DataModelRuntime

extension Asset {

    public var createdAt: Foundation.Date {
        get { readsFields(attribute: 0) ? fieldValue(_createdAtField, nullBit: 0) ?? .emptyValue : value(for: "createdAt") }
        set { setValue(newValue, for: "createdAt") }
    }

    public var title: String? {
        get { readsFields(attribute: 1) ? fieldValue(_titleField) : value(for: "title") }
        set { setValue(newValue, for: "title") }
    }

    public var owner: Class? {
        get {
            readsFields(relationship: 0)
                ? fieldObject(relationship: 0, _ownerField, nullBit: 1) : toOne(for: "owner")
        }
        set { setToOne(newValue, for: "owner") }
    }
}
